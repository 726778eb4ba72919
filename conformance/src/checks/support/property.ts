import fc from 'fast-check';
import { CheckFailed, CheckSkipped, TransportFailure } from '../outcomes.js';
import type { CheckContext } from '../types.js';

/** Shrinking against a live target costs a request per step; past this many steps the smallest failure so far is reported. */
const MAX_SHRINK_STEPS = 150;

/**
 * A seeded property over the target: `predicate` signals a violation with `ctx.fail`. On failure
 * the check fails with fast-check's shrunk counterexample, the seed and replay path, and the
 * evidence of the shrunk run. A transport problem stops the property at once (no shrinking
 * through timeouts) and ends the check as `error`.
 */
export async function forAll<T>(ctx: CheckContext, arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, runs = ctx.runs): Promise<void> {
  let transport: TransportFailure | undefined;
  let executions = 0;
  let lastFailure: CheckFailed | undefined;
  const property = fc.asyncProperty(arb, async (value) => {
    if (transport) throw transport;
    if (++executions > runs + MAX_SHRINK_STEPS) return; // shrink budget spent: stop exploring
    try {
      await predicate(value);
    } catch (e) {
      if (e instanceof TransportFailure) transport = e;
      if (e instanceof CheckFailed) lastFailure = e;
      throw e;
    }
  });
  const details = await fc.check(property, { seed: ctx.seed, numRuns: runs });
  if (!details.failed) return;
  if (transport) throw transport;
  if (details.errorInstance instanceof CheckSkipped) throw details.errorInstance;
  if (details.counterexample === null) ctx.fail(`the property could not complete (${details.interrupted ? 'interrupted' : 'too many skipped inputs'})`);
  const value = fc.stringify(details.counterexample.length === 1 ? details.counterexample[0] : details.counterexample);
  ctx.setCounterexample({ value, path: details.counterexamplePath, numRuns: details.numRuns, numShrinks: details.numShrinks });
  const failure = details.errorInstance instanceof CheckFailed ? details.errorInstance : lastFailure;
  if (failure) throw new CheckFailed(`${failure.message} [counterexample ${value.length > 200 ? `${value.slice(0, 200)}…` : value}]`, failure.exchange);
  throw details.errorInstance instanceof Error ? details.errorInstance : new Error(String(details.errorInstance));
}
