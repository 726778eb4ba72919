/**
 * daml-stdlib's list append, `DA.Internal.Prelude.(++) xs ys = foldr (::) ys xs`, run natively:
 * the cells of `xs` copied in front of `ys` (shared, as the body shares it). Interpreted, each
 * cell of `xs` costs a call of the cons lambda from `foldr`; `++` is about 4% of the evaluation
 * steps of a real Amulet transfer (bench/RESULTS.md). The body cannot fail.
 */
import type { BuiltinOutcome } from '../builtins/Builtin.js';
import { listItems, type ListValue, type Value } from '../value/Value.js';
import { CELL_BYTES } from './allocationCost.js';
import type { Intrinsic } from './intrinsics.js';

function lengthOf(v: Value): number {
  let n = 0;
  for (let cell = v; cell.kind === 'cons'; cell = cell.tail) n++;
  return n;
}

export const appendListIntrinsic: Intrinsic = {
  name: 'intrinsic DA.Internal.Prelude:++',
  arity: 2,
  // A cell per item of the first list, as `foldr (::)` builds.
  cost: (args) => CELL_BYTES * lengthOf(args[0]!),
  apply: (args): BuiltinOutcome => {
    const xs = args[0]!;
    const ys = args[1]!;
    if (xs.kind !== 'cons') return { ok: true, value: ys };
    const items = listItems(xs);
    let out = ys as ListValue;
    for (let i = items.length - 1; i >= 0; i--) out = { kind: 'cons', head: items[i]!, tail: out };
    return { ok: true, value: out };
  },
};
