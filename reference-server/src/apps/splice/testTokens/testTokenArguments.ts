/**
 * Readers of the test-token registry's choice arguments: 400 (INVALID_ARGUMENT) naming the JSON
 * path of the first wrong field, as Amulet's registry answers.
 */
import type { DamlRecord, DamlValue, LedgerError, Result } from '../../../ledger/index.js';
import { ok } from '../../../ledger/index.js';
import { all, invalid, knownInstrument, readLegs, readLegSides, type LegRules } from '../../registry/settlementLegs.js';
import { isContractIdSyntax } from '../../registry/isContractIdSyntax.js';
import { field } from '../../registry/parseFactoryRequest.js';

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

/** SettlementFactory_SettleBatch's v2 `transferLegs`, each instrument one of `known`. */
export function transferLegs(v: DamlValue | undefined, known: readonly string[]): Result<void, LedgerError> {
  return readLegs(v, 'choiceArguments.transferLegs', testTokenLegs(known));
}

/** Test-token legs: accounts whose owner and provider are optional, instruments among `known`. */
const testTokenLegs = (known: readonly string[]): LegRules => ({ account: accountOf, instrumentId: knownInstrument(known) });

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
    () => readLegSides(spec.transferLegSides, `${p}.transferLegSides`, testTokenLegs(known)),
    () => (spec.settlementDeadline === undefined || spec.settlementDeadline === null ? ok(undefined) : field.time(spec.settlementDeadline, `${p}.settlementDeadline`)),
    () => (spec.committed === undefined || typeof spec.committed === 'boolean' ? ok(undefined) : invalid(`${p}.committed must be a boolean`)),
    () => field.meta(spec.meta, `${p}.meta`),
    () => field.time(args.requestedAt, 'choiceArguments.requestedAt'),
    () => field.contractIds(args.inputHoldingCids, 'choiceArguments.inputHoldingCids'),
    () => partyList(args.actors, 'choiceArguments.actors'),
  ]);
}

