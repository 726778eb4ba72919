/**
 * Readers of the token standard's settlement legs, shared by the registries that settle them
 * (Amulet's and the test tokens'): 400 (INVALID_ARGUMENT) naming the JSON path of the first wrong
 * field. What differs between registries (which accounts and instruments they accept) comes in
 * as `LegRules`.
 */
import type { LedgerError, Result } from '../../ledger/index.js';
import { fail, ok } from '../../ledger/index.js';
import { field } from './parseFactoryRequest.js';

/** The most legs a registry settles in one batch, and the allocations that settle them. */
export const MAX_SETTLEMENT_LEGS = 1000;
export const MAX_SETTLEMENT_ALLOCATIONS = 2 * MAX_SETTLEMENT_LEGS;

export const invalid = (what: string) => fail('INVALID_ARGUMENT', `Invalid request body: ${what}`);

/** Runs checks in order, answering the first refusal. */
export function all(checks: readonly (() => Result<unknown, LedgerError>)[]): Result<void, LedgerError> {
  for (const check of checks) {
    const r = check();
    if (!r.ok) return r;
  }
  return ok(undefined);
}

/** What a registry accepts as a leg's account and instrument id. */
export interface LegRules {
  account(v: unknown, path: string): Result<unknown, LedgerError>;
  instrumentId(v: unknown, path: string): Result<unknown, LedgerError>;
}

/** The instrument-id rule of a registry administering `known` (text ids; the admin is the factory's). */
export const knownInstrument =
  (known: readonly string[]) =>
  (v: unknown, path: string): Result<void, LedgerError> => {
    const id = field.text(v, path);
    if (!id.ok) return id;
    return known.includes(id.value) ? ok(undefined) : invalid(`unknown instrument '${id.value.slice(0, 80)}' at ${path}; this registry administers ${known.map((k) => `'${k}'`).join(', ') || 'no instrument yet'}`);
  };

/** v2 transfer legs `{transferLegId, sender, receiver, amount, instrumentId, meta}`: a non-empty list. */
export function readLegs(v: unknown, path: string, rules: LegRules): Result<void, LedgerError> {
  if (!Array.isArray(v) || v.length === 0) return invalid(`${path} must be a non-empty list of transfer legs`);
  if (v.length > MAX_SETTLEMENT_LEGS) return invalid(`${path} has ${v.length} legs; this registry settles at most ${MAX_SETTLEMENT_LEGS} in one batch`);
  for (const [i, x] of (v as unknown[]).entries()) {
    const q = `${path}[${i}]`;
    const leg = field.object(x, q);
    if (!leg.ok) return leg;
    const r = all([
      () => field.text(leg.value.transferLegId, `${q}.transferLegId`),
      () => rules.account(leg.value.sender, `${q}.sender`),
      () => rules.account(leg.value.receiver, `${q}.receiver`),
      () => field.amount(leg.value.amount, `${q}.amount`),
      () => rules.instrumentId(leg.value.instrumentId, `${q}.instrumentId`),
      () => field.meta(leg.value.meta, `${q}.meta`),
    ]);
    if (!r.ok) return r;
  }
  return ok(undefined);
}

/** v2 allocation leg sides `{transferLegId, side, otherside, amount, instrumentId, meta}`. */
export function readLegSides(v: unknown, path: string, rules: LegRules): Result<void, LedgerError> {
  if (!Array.isArray(v)) return invalid(`${path} must be a list of transfer leg sides`);
  if (v.length > MAX_SETTLEMENT_LEGS) return invalid(`${path} has ${v.length} entries; this registry answers at most ${MAX_SETTLEMENT_LEGS}`);
  for (const [i, x] of (v as unknown[]).entries()) {
    const q = `${path}[${i}]`;
    const side = field.object(x, q);
    if (!side.ok) return side;
    const r = all([
      () => field.text(side.value.transferLegId, `${q}.transferLegId`),
      () => (side.value.side === 'SenderSide' || side.value.side === 'ReceiverSide' ? ok(undefined) : invalid(`${q}.side must be SenderSide or ReceiverSide`)),
      () => rules.account(side.value.otherside, `${q}.otherside`),
      () => field.amount(side.value.amount, `${q}.amount`),
      () => rules.instrumentId(side.value.instrumentId, `${q}.instrumentId`),
      () => field.meta(side.value.meta, `${q}.meta`),
    ]);
    if (!r.ok) return r;
  }
  return ok(undefined);
}
