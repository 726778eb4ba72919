/**
 * Readers of the test-token registry's choice arguments: 400 (INVALID_ARGUMENT) naming the JSON
 * path of the first wrong field, as Amulet's registry answers.
 */
import type { DamlRecord, DamlValue, LedgerError, Result } from '../../../ledger/index.js';
import { fail, ok } from '../../../ledger/index.js';
import { MAX_SETTLEMENT_LEGS } from '../../amulet/AmuletRegistryV2.js';
import { isContractIdSyntax } from '../../registry/isContractIdSyntax.js';
import { field } from '../../registry/parseFactoryRequest.js';

export const invalid = (what: string) => fail('INVALID_ARGUMENT', `Invalid request body: ${what}`);

/** A v2 Account `{owner, provider, id}` (owner and provider optional parties), as JSON to compare. */
export function accountOf(v: DamlValue | undefined, path: string): Result<string, LedgerError> {
  const a = field.object(v, path);
  if (!a.ok) return a;
  for (const member of ['owner', 'provider'] as const) {
    const p = a.value[member];
    if (p === undefined || p === null) continue;
    const party = field.party(p, `${path}.${member}`);
    if (!party.ok) return party;
  }
  return ok(JSON.stringify([a.value.owner ?? null, a.value.provider ?? null, a.value.id ?? null]));
}

/** A non-empty list of party ids. */
export function partyList(v: DamlValue | undefined, path: string): Result<void, LedgerError> {
  if (!Array.isArray(v) || v.length === 0) return invalid(`${path} must be a non-empty list of party ids`);
  for (const [i, p] of v.entries()) {
    const r = field.party(p, `${path}[${i}]`);
    if (!r.ok) return r;
  }
  return ok(undefined);
}

/** Runs checks in order, answering the first refusal. */
export function all(checks: readonly (() => Result<unknown, LedgerError>)[]): Result<void, LedgerError> {
  for (const check of checks) {
    const r = check();
    if (!r.ok) return r;
  }
  return ok(undefined);
}


/** SettlementFactory_SettleBatch's `settlement`: executors, id, cid, meta. */
export function settlementInfo(v: DamlValue | undefined): Result<void, LedgerError> {
  const path = 'choiceArguments.settlement';
  const s = field.object(v, path);
  if (!s.ok) return s;
  return all([
    () => partyList(s.value.executors, `${path}.executors`),
    () => field.text(s.value.id, `${path}.id`),
    () => (s.value.cid === undefined || s.value.cid === null || (typeof s.value.cid === 'string' && isContractIdSyntax(s.value.cid)) ? ok(undefined) : invalid(`${path}.cid is not a contract id`)),
    () => field.meta(s.value.meta, `${path}.meta`),
  ]);
}

/** v2 legs: accounts, and the instrument by its text id (the admin is the factory's), one of `known`. */
export function transferLegs(v: DamlValue | undefined, known: readonly string[]): Result<void, LedgerError> {
  const path = 'choiceArguments.transferLegs';
  if (!Array.isArray(v) || v.length === 0) return invalid(`${path} must be a non-empty list of transfer legs`);
  if (v.length > MAX_SETTLEMENT_LEGS) return invalid(`${path} has ${v.length} legs; this registry settles at most ${MAX_SETTLEMENT_LEGS} in one batch`);
  for (const [i, x] of v.entries()) {
    const q = `${path}[${i}]`;
    const leg = field.object(x, q);
    if (!leg.ok) return leg;
    const r = all([
      () => field.text(leg.value.transferLegId, `${q}.transferLegId`),
      () => accountOf(leg.value.sender, `${q}.sender`),
      () => accountOf(leg.value.receiver, `${q}.receiver`),
      () => field.amount(leg.value.amount, `${q}.amount`),
      () => {
        const id = field.text(leg.value.instrumentId, `${q}.instrumentId`);
        if (!id.ok) return id;
        return known.includes(id.value) ? ok(undefined) : invalid(`unknown instrument '${id.value.slice(0, 80)}' at ${q}.instrumentId; this registry administers ${known.join(', ') || 'no instrument yet'}`);
      },
      () => field.meta(leg.value.meta, `${q}.meta`),
    ]);
    if (!r.ok) return r;
  }
  return ok(undefined);
}

/** v2 allocation leg sides: `{transferLegId, side, otherside, amount, instrumentId, meta}`, the instrument one of `known`. */
export function transferLegSides(v: DamlValue | undefined, path: string, known: readonly string[]): Result<void, LedgerError> {
  if (!Array.isArray(v)) return invalid(`${path} must be a list of transfer leg sides`);
  if (v.length > MAX_SETTLEMENT_LEGS) return invalid(`${path} has ${v.length} entries; this registry answers at most ${MAX_SETTLEMENT_LEGS}`);
  for (const [i, x] of v.entries()) {
    const q = `${path}[${i}]`;
    const side = field.object(x, q);
    if (!side.ok) return side;
    const r = all([
      () => field.text(side.value.transferLegId, `${q}.transferLegId`),
      () => (side.value.side === 'SenderSide' || side.value.side === 'ReceiverSide' ? ok(undefined) : invalid(`${q}.side must be SenderSide or ReceiverSide`)),
      () => accountOf(side.value.otherside, `${q}.otherside`),
      () => field.amount(side.value.amount, `${q}.amount`),
      () => {
        const id = field.text(side.value.instrumentId, `${q}.instrumentId`);
        if (!id.ok) return id;
        return known.includes(id.value) ? ok(undefined) : invalid(`unknown instrument '${id.value.slice(0, 80)}' at ${q}.instrumentId; this registry administers ${known.join(', ') || 'no instrument yet'}`);
      },
      () => field.meta(side.value.meta, `${q}.meta`),
    ]);
    if (!r.ok) return r;
  }
  return ok(undefined);
}

/**
 * AllocationFactory_Allocate's v2 arguments (splice-api-token-allocation-instruction-v2): the
 * settlement beside the specification, the specification's authorizer an account, its leg
 * sides, times, holdings and actors, checked as Amulet's registry checks them.
 */
export function allocationArgumentsV2(args: DamlRecord, spec: DamlRecord, known: readonly string[]): Result<void, LedgerError> {
  const p = 'choiceArguments.allocation';
  return all([
    () => (args.settlement === undefined && spec.settlement !== undefined
      ? invalid('choiceArguments.settlement is missing: AllocationFactory_Allocate takes the settlement beside the allocation, not in choiceArguments.allocation')
      : settlementInfo(args.settlement)),
    () => accountOf(spec.authorizer, `${p}.authorizer`),
    () => transferLegSides(spec.transferLegSides, `${p}.transferLegSides`, known),
    () => (spec.settlementDeadline === undefined || spec.settlementDeadline === null ? ok(undefined) : field.time(spec.settlementDeadline, `${p}.settlementDeadline`)),
    () => (spec.committed === undefined || typeof spec.committed === 'boolean' ? ok(undefined) : invalid(`${p}.committed must be a boolean`)),
    () => field.meta(spec.meta, `${p}.meta`),
    () => field.time(args.requestedAt, 'choiceArguments.requestedAt'),
    () => field.contractIds(args.inputHoldingCids, 'choiceArguments.inputHoldingCids'),
    () => partyList(args.actors, 'choiceArguments.actors'),
  ]);
}

