/**
 * Intrinsics (daml-engine/eval/intrinsics.ts): a library function runs natively only where its
 * body is upstream's, and then answers exactly as its body does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { Package } from '../../daml-engine/ast/Package.js';
import type { QualifiedName } from '../../daml-engine/ast/Type.js';
import type { BindingSpec } from '../../daml-engine/build/E.js';
import { E } from '../../daml-engine/build/E.js';
import { PackageBuilder } from '../../daml-engine/build/PackageBuilder.js';
import { T } from '../../daml-engine/build/T.js';
import { Packages } from '../../daml-engine/decode/Packages.js';
import { Evaluator } from '../../daml-engine/eval/Evaluator.js';
import type { EvalResult } from '../../daml-engine/eval/EvalResult.js';
import { definitionFingerprint, INTRINSICS } from '../../daml-engine/eval/intrinsics.js';
import type { Value } from '../../daml-engine/value/Value.js';
import { text } from '../../daml-engine/value/Value.js';
import { allDars, DARS_DIR, HAS_DARS, loadDar } from './damlFixtures.js';

type Source = (id: string) => Package | undefined;

/** `f a b` for the top-level function `ref`, with intrinsics on or off. */
function call(source: Source, ref: QualifiedName, a: string, b: string, intrinsics: boolean): { value: Value; steps: number } {
  const evaluator = new Evaluator({ getPackage: source, intrinsics });
  const fn = ok(evaluator.value(ref));
  const result = evaluator.apply(fn.value, [text(a), text(b)]);
  const applied = ok(result);
  return { value: applied.value, steps: fn.steps + applied.steps };
}

function ok(result: EvalResult): { value: Value; steps: number } {
  if (!result.ok) throw new Error(`${result.error.kind}: ${'message' in result.error ? String(result.error.message) : ''}`);
  return { value: result.value, steps: result.steps };
}

const bool = (v: Value): boolean | string => (v.kind === 'bool' ? v.value : v.kind);

/** A package of our own with `DA.Text:isPrefixOf` answering `answer` whatever it is given. */
function impostor(answer: boolean): { source: Source; ref: QualifiedName; pkg: Package } {
  const b = new PackageBuilder({ name: 'daml-stdlib', version: '9.9.9' });
  b.module('DA.Text').value('isPrefixOf', T.arrow(T.text, T.text, T.bool), E.lam([['a', T.text], ['b', T.text]], E.bool(answer)));
  const built = b.build();
  return { source: (id) => (id === built.id ? built.package : undefined), ref: built.ref('DA.Text', 'isPrefixOf'), pkg: built.package };
}

describe('a definition is replaced only when its code is upstream\'s', () => {
  it('a package reusing the module and name keeps its own code', () => {
    const always = impostor(true);
    // Not a prefix: a native isPrefixOf would say False.
    expect(bool(call(always.source, always.ref, 'abc', 'xyz', true).value)).toBe(true);
    const never = impostor(false);
    expect(bool(call(never.source, never.ref, 'a', 'abc', true).value)).toBe(false);
    const listed = new Set(INTRINSICS.flatMap((i) => [...i.fingerprints]));
    expect(listed.has(definitionFingerprint(always.ref, always.source)!)).toBe(false);
  });

  it('the fingerprint leaves out package ids, follows references, and stops at cycles and missing code', () => {
    const build = (name: string, answer: boolean) => {
      const b = new PackageBuilder({ name, version: '1.0.0' });
      const m = b.module('M');
      // f calls g, g calls f: a cycle through two definitions; h answers a literal.
      m.value('h', T.bool, E.bool(answer));
      m.value('f', T.arrow(T.int64, T.bool), E.lam([['x', T.int64]], E.app(E.val(m.ref('g')), E.var('x'))));
      m.value('g', T.arrow(T.int64, T.bool), E.lam([['x', T.int64]], E.if(E.val(m.ref('h')), E.app(E.val(m.ref('f')), E.var('x')), E.false)));
      const built = b.build();
      const source: Source = (id) => (id === built.id ? built.package : undefined);
      return { fingerprint: definitionFingerprint(built.ref('M', 'f'), source), id: built.id };
    };
    const one = build('one', true);
    const two = build('two', true);
    expect(one.id).not.toBe(two.id);
    expect(one.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(two.fingerprint).toBe(one.fingerprint);
    // A change two references away changes it.
    expect(build('three', false).fingerprint).not.toBe(one.fingerprint);
    // A reference to a package the caller does not have: no fingerprint, never replaced.
    const b = new PackageBuilder({ name: 'dangling', version: '1.0.0' });
    b.module('M').value('f', T.bool, E.val({ packageId: 'f'.repeat(64), module: 'M', name: 'g' }));
    const built = b.build();
    expect(definitionFingerprint(built.ref('M', 'f'), (id) => (id === built.id ? built.package : undefined))).toBeUndefined();
  });

  it('a look-alike with a large body is not written out: no fingerprint, its own code runs', () => {
    const b = new PackageBuilder({ name: 'daml-stdlib', version: '9.9.8' });
    const m = b.module('DA.Text');
    // 20,000 list items: past the bound on one definition's objects.
    m.value('big', T.list(T.int64), E.list(T.int64, Array.from({ length: 20_000 }, (_, i) => E.int64(i))));
    // Referenced many times: each reference would write `big` out again without the bound.
    const uses = Array.from({ length: 30 }, () => E.val(m.ref('big')));
    m.value('isPrefixOf', T.arrow(T.text, T.text, T.bool), E.lam([['a', T.text], ['b', T.text]],
      E.let(uses.map((u, i): BindingSpec => [`x${i}`, T.list(T.int64), u]), E.true)));
    const built = b.build();
    const source: Source = (id) => (id === built.id ? built.package : undefined);
    const ref = built.ref('DA.Text', 'isPrefixOf');
    expect(definitionFingerprint(ref, source)).toBeUndefined();
    expect(bool(call(source, ref, 'abc', 'xyz', true).value)).toBe(true);
  });
});

/** Every daml-stdlib in the reference DARs, by package id, with a source of every package seen. */
function referenceStdlibs(): { stdlibs: Map<string, string>; source: Source } {
  const packages = new Packages();
  const stdlibs = new Map<string, string>();
  for (const path of allDars()) {
    const { dar } = loadDar(path.slice(DARS_DIR.length + 1), packages);
    for (const p of dar.packages) if (p.metadata?.name === 'daml-stdlib') stdlibs.set(p.id, p.metadata.version);
  }
  return { stdlibs, source: (id) => packages.get(id) };
}

// Texts where a letter-by-letter comparison and a native one could part: surrogate pairs, a
// shared first code unit, empty texts, a text against itself and its own prefixes.
const letters = fc.constantFrom('a', 'b', 'é', '😀', '😁', '\u{10FFFF}', '\u0000', 'ab');
const texts = fc.array(letters, { maxLength: 8 }).map((xs) => xs.join(''));
const pairs = fc.oneof(
  fc.tuple(texts, texts),
  texts.chain((t) => fc.nat({ max: t.length }).map((n): [string, string] => [[...t].slice(0, n).join(''), t])),
  texts.map((t): [string, string] => [t, t]),
);

describe.skipIf(!HAS_DARS)('upstream daml-stdlib (../shared/upstream/daml/dars)', () => {
  const { stdlibs, source } = HAS_DARS ? referenceStdlibs() : { stdlibs: new Map<string, string>(), source: () => undefined };

  it('every daml-stdlib there has its DA.Text.isPrefixOf listed', () => {
    expect(stdlibs.size).toBeGreaterThanOrEqual(5);
    const entry = INTRINSICS.find((i) => i.module === 'DA.Text' && i.value === 'isPrefixOf')!;
    for (const [id, version] of stdlibs) {
      const fingerprint = definitionFingerprint({ packageId: id, module: 'DA.Text', name: 'isPrefixOf' }, source);
      expect(entry.fingerprints.has(fingerprint!), `daml-stdlib ${version} (${id})`).toBe(true);
    }
  });

  it('native and interpreted DA.Text.isPrefixOf answer alike, in fewer steps', () => {
    for (const [id, version] of stdlibs) {
      const ref = { packageId: id, module: 'DA.Text', name: 'isPrefixOf' };
      fc.assert(fc.property(pairs, ([a, b]) => {
        const native = call(source, ref, a, b, true);
        const interpreted = call(source, ref, a, b, false);
        expect(bool(native.value), `${version}: isPrefixOf ${JSON.stringify(a)} ${JSON.stringify(b)}`).toBe(bool(interpreted.value));
        expect(bool(native.value)).toBe([...b].slice(0, [...a].length).join('') === a && [...a].length <= [...b].length);
        if (a.length > 0) expect(native.steps).toBeLessThan(interpreted.steps);
      }), { numRuns: 150, seed: 31 });
    }
  });
});
