/**
 * The bounds the ledger puts on uploaded Daml code (README "Resource limits"): per command, per
 * interface view, and on what leaves the engine. Every one can be changed (`serve` flags,
 * `createHandlers({ engineLimits })`, `createLedger({ engineLimits })`).
 */
export interface EngineLimits {
  /** Evaluation steps one command may take; past it: INTERPRETATION_TIME_EXCEEDED. */
  readonly stepBudget: number;
  /** Bytes one command may allocate (builtins charged by what they build); past it: INTERPRETATION_ALLOCATION_EXCEEDED. */
  readonly allocationBudget: number;
  /** Bytes a command's result, and its transaction's values together, may take; past it: TRANSACTION_SIZE_EXCEEDED. */
  readonly maxTransactionBytes: number;
  /** Steps one interface view on a read or stream may take; past it the view reports a failed status. */
  readonly viewStepBudget: number;
  /** Bytes one interface view may allocate. */
  readonly viewAllocationBudget: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_ENGINE_LIMITS: EngineLimits = {
  stepBudget: 10_000_000,
  allocationBudget: 256 * MiB,
  maxTransactionBytes: 16 * MiB,
  viewStepBudget: 1_000_000,
  viewAllocationBudget: 32 * MiB,
};

/** The limits with the defaults filled in. */
export function resolveEngineLimits(given: Partial<EngineLimits> = {}): EngineLimits {
  const out = { ...DEFAULT_ENGINE_LIMITS };
  for (const key of Object.keys(DEFAULT_ENGINE_LIMITS) as (keyof EngineLimits)[]) {
    const v = given[key];
    if (v === undefined) continue;
    if (!Number.isSafeInteger(v) || v <= 0) throw new RangeError(`engine limit ${key} must be a positive whole number, got ${String(v)}`);
    out[key] = v;
  }
  return out;
}
