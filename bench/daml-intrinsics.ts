/**
 * The show and list-append intrinsics per call (daml-engine/eval/showsPrecText.ts,
 * showsPrecNumeric.ts, appendList.ts): one evaluator over splice-amulet-0.1.22.dar's packages
 * evaluates each expression 20,000 times to warm up, then 100,000 times, with intrinsics off and
 * on, alternating twice; CPU microseconds per evaluation and the steps it took.
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/daml-intrinsics.js
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Expr } from '../daml-engine/ast/Expr.js';
import { E } from '../daml-engine/build/E.js';
import { T } from '../daml-engine/build/T.js';
import { decodeDar } from '../daml-engine/decode/decodeDar.js';
import { Evaluator } from '../daml-engine/eval/Evaluator.js';

// bench/out/build/bench/ -> the checkout
const root = fileURLToPath(new URL('../../../..', import.meta.url));
const dar = decodeDar(readFileSync(join(root, '..', 'shared', 'upstream', 'daml', 'dars', 'splice', 'splice-amulet-0.1.22.dar')));
if (!dar.ok) throw new Error(dar.failure.message);
const packages = new Map(dar.value.packages.map((p) => [p.id, p]));
const named = (name: string) => dar.value.packages.find((p) => p.metadata?.name === name)!.id;
const prim = named('daml-prim');
const stdlib = named('daml-stdlib');

const cases: readonly (readonly [string, Expr])[] = [
  ['showsPrecText 0 "Amulet holding fee" ""', E.app(E.val({ packageId: prim, module: 'GHC.Show.Text', name: 'showsPrecText' }), E.int64(0), E.text('Amulet holding fee'), E.text(''))],
  ['$cshowsPrec1 @10 0 12345.6789012345 "tail"', E.app(E.tyApp(E.val({ packageId: prim, module: 'GHC.Show', name: '$$cshowsPrec1' }), T.nat(10)), E.int64(0), E.numeric('12345.6789012345'), E.text('tail'))],
  ['[1, 2] ++ [3]', E.app(E.tyApp(E.val({ packageId: stdlib, module: 'DA.Internal.Prelude', name: '$u002b$u002b' }), T.int64), E.list(T.int64, [E.int64(1), E.int64(2)]), E.list(T.int64, [E.int64(3)]))],
];

const out: Record<string, { interpretedUs: number[]; nativeUs: number[]; steps: { interpreted: number; native: number } }> = {};
for (const [label, expr] of cases) {
  const row = { interpretedUs: [] as number[], nativeUs: [] as number[], steps: { interpreted: 0, native: 0 } };
  for (const intrinsics of [false, true, false, true]) {
    const evaluator = new Evaluator({ getPackage: (id) => packages.get(id), intrinsics });
    for (let i = 0; i < 20_000; i++) evaluator.evaluate(expr);
    const before = process.cpuUsage();
    let steps = 0;
    for (let i = 0; i < 100_000; i++) {
      const r = evaluator.evaluate(expr);
      if (!r.ok) throw new Error(`${label}: ${r.error.kind}`);
      steps = r.steps;
    }
    const cpu = process.cpuUsage(before);
    const us = +((cpu.user + cpu.system) / 100_000).toFixed(3);
    (intrinsics ? row.nativeUs : row.interpretedUs).push(us);
    row.steps[intrinsics ? 'native' : 'interpreted'] = steps;
  }
  out[label] = row;
}
console.log(JSON.stringify(out, null, 1));
