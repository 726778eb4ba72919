/**
 * daml-prim's `showsPrec` of the `Show (Numeric n)` instance (`GHC.Show.$cshowsPrec1`) run
 * natively. Its body is the class default at that instance, `Λ n. $dmshowsPrec ($fShowNumeric @n)`:
 * each use builds the instance's dictionary, then `showsPrec _ x s = show x ++ s`, `show` being
 * `NUMERIC_TO_TEXT`. Splice's Amulet builds the messages of its checks with it (Daml is strict:
 * built whether or not a check fails), a sixth of the evaluation steps of an `AmuletRules_Transfer`
 * of splice-amulet 0.1.8 (bench/RESULTS.md). Type arguments are erased, so `$cshowsPrec1 @n` is
 * this function; given its precedence and number, it is a `ShowS`, a function value as the body's
 * result is. Neither builtin can fail.
 */
import type { BuiltinOutcome } from '../builtins/Builtin.js';
import { textOf, type Value } from '../value/Value.js';
import { numericToText } from '../value/numeric.js';
import { textBytes } from './allocationCost.js';
import type { Intrinsic } from './intrinsics.js';

const NUMERIC_ZERO = { scale: 0, unscaled: 0n };

function shown(x: Value): string {
  return numericToText(x.kind === 'numeric' ? x : NUMERIC_ZERO);
}

export const showsPrecNumericIntrinsic: Intrinsic = {
  name: 'intrinsic GHC.Show:showsPrec @Numeric',
  arity: 3,
  // Charged the appended text, as the body's APPEND_TEXT is: a Numeric's text has at most 40 characters.
  cost: (args) => textBytes(40 + textOf(args[2]!).length),
  apply: (args): BuiltinOutcome => ({ ok: true, value: { kind: 'text', value: shown(args[1]!) + textOf(args[2]!) } }),
};
