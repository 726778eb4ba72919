/**
 * Evaluator throughput: steps per second on a hand-built deep recursion and on real daml-prim /
 * daml-stdlib code, beside a plain JS baseline measured in the same run (the ratio survives a
 * busy machine better than absolute numbers).
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/daml-eval.js
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Expr } from '../daml-engine/ast/Expr.js';
import type { Package } from '../daml-engine/ast/Package.js';
import type { Type } from '../daml-engine/ast/Type.js';
import { decodeDar } from '../daml-engine/decode/decodeDar.js';
import { Evaluator } from '../daml-engine/eval/Evaluator.js';
import type { Value } from '../daml-engine/value/Value.js';
import { int64, listOf } from '../daml-engine/value/Value.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const candidates = [join(here, '../../../../../shared/upstream/daml/dars'), join(here, '../../shared/upstream/daml/dars')];
const root = candidates.find((c) => { try { return statSync(c).isDirectory(); } catch { return false; } });
if (!root) throw new Error('no shared/upstream/daml/dars beside the checkout');

const INT: Type = { kind: 'builtin', builtin: 'INT64', args: [] };
const PKG = 'b'.repeat(64);
const ref = (name: string): Expr => ({ kind: 'val', ref: { packageId: PKG, module: 'M', name } });
const v = (name: string): Expr => ({ kind: 'var', name });
const int = (n: number): Expr => ({ kind: 'lit', value: int64(BigInt(n)) });
const app = (fun: Expr, ...args: Expr[]): Expr => ({ kind: 'app', fun, args });
const b = (builtin: 'ADD_INT64' | 'SUB_INT64' | 'EQUAL'): Expr => ({ kind: 'builtin', builtin });
const sumTo: Expr = {
  kind: 'abs', params: [{ name: 'n', type: INT }],
  body: {
    kind: 'case', scrut: app(b('EQUAL'), v('n'), int(0)),
    alts: [
      { kind: 'builtinCon', con: 'true', body: int(0) },
      { kind: 'builtinCon', con: 'false', body: app(b('ADD_INT64'), v('n'), app(ref('sumTo'), app(b('SUB_INT64'), v('n'), int(1)))) },
    ],
  },
};
const synthetic: Package = {
  id: PKG, lfVersion: '2.1', metadata: undefined, imports: undefined,
  modules: new Map([['M', {
    name: 'M', synonyms: new Map(), dataTypes: new Map(), templates: new Map(), exceptions: new Map(), interfaces: new Map(),
    values: new Map([['sumTo', { name: 'sumTo', type: INT, expr: sumTo }]]),
  }]]),
};

function time<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const r = f();
  return [r, performance.now() - t0];
}

/** The same arithmetic as sumTo in plain JS (an explicit stack, bigints): the machine's floor. */
function baseline(n: number): bigint {
  const stack: bigint[] = [];
  for (let i = n; i > 0; i--) stack.push(BigInt(i));
  let acc = 0n;
  while (stack.length > 0) acc += stack.pop()!;
  return acc;
}

const dar = decodeDar(readFileSync(join(root, 'splice-amulet-0.1.14.dar')));
if (!dar.ok) throw new Error(dar.failure.message);
const byId = new Map(dar.value.packages.map((p) => [p.id, p]));
const prim = dar.value.packages.find((p) => p.metadata?.name === 'daml-prim' && p.modules.get('GHC.Show')?.values.has('$$fShowInt'))!;
const stdlib = dar.value.packages.find((p) => p.metadata?.name === 'daml-stdlib' && p.modules.get('DA.Internal.Prelude')?.values.has('reverse'))!;
const getPackage = (id: string): Package | undefined => (id === PKG ? synthetic : byId.get(id));
const LIST_INT: Type = { kind: 'builtin', builtin: 'LIST', args: [INT] };
const ints = (n: number): Value => listOf(Array.from({ length: n }, (_, i) => int64(BigInt(i))));
const val = (pkg: Package, module: string, name: string): Expr => ({ kind: 'val', ref: { packageId: pkg.id, module, name } });

const cases: [string, Expr, { intrinsics?: boolean }?][] = [
  ['sumTo 1,000,000 (hand-built, 1,000,000 frames deep)', app(ref('sumTo'), int(1_000_000))],
  ['DA.Internal.Prelude reverse of 200,000 Ints', app({ kind: 'tyApp', expr: val(stdlib, 'DA.Internal.Prelude', 'reverse'), types: [INT] }, { kind: 'lit', value: ints(200_000) })],
  // 5,000, not 20,000: show appends texts, and the allocation budget (256 MiB, as shipped) charges each append its length.
  ['GHC.Show show of a list of 5,000 Ints', app({ kind: 'tyApp', expr: val(prim, 'GHC.Show', 'show'), types: [LIST_INT] },
    app({ kind: 'tyApp', expr: val(prim, 'GHC.Show', '$$fShow$u005b$u005d'), types: [INT] }, val(prim, 'GHC.Show', '$$fShowInt')),
    { kind: 'lit', value: ints(5_000) })],
  // Daml Script's call-stack filter (isInternalSrcLoc) runs this on every action: interpreted, about
  // half of splice-amulet-test's steps were DA.List's isPrefixOf over exploded texts. The machine's
  // loop (intrinsics off) and the native intrinsic (eval/intrinsics.ts) the engine runs instead.
  ['DA.Text isPrefixOf of two 100,000-letter texts, interpreted (intrinsics off)', isPrefixOf100k(), { intrinsics: false }],
  ['DA.Text isPrefixOf of two 100,000-letter texts, the intrinsic', isPrefixOf100k()],
];

function isPrefixOf100k(): Expr {
  return app(val(stdlib, 'DA.Text', 'isPrefixOf'),
    { kind: 'lit', value: { kind: 'text', value: 'a'.repeat(100_000) } }, { kind: 'lit', value: { kind: 'text', value: 'a'.repeat(100_001) } });
}

const [, base] = time(() => baseline(1_000_000));
console.log(`JS baseline (explicit stack, 1,000,000 bigint additions): ${base.toFixed(0)} ms`);
console.log('| workload | steps | time | steps/s |');
console.log('|---|---|---|---|');
for (const [name, expr, options] of cases) {
  const evaluator = new Evaluator({ getPackage, ...options });
  evaluator.evaluate(expr); // warm-up: JIT and cached top-level values
  const [result, ms] = time(() => evaluator.evaluate(expr));
  if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.error.kind)}`);
  console.log(`| ${name} | ${result.steps.toLocaleString('en')} | ${ms.toFixed(0)} ms | ${Math.round(result.steps / (ms / 1000)).toLocaleString('en')} |`);
}
