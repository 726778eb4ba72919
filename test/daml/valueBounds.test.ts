import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ListValue, Value } from '../../daml-engine/value/Value.js';
import { NIL, some, text } from '../../daml-engine/value/Value.js';
import { MAXIMUM_NESTING, valueBoundsProblem, type BoundsProblem } from '../../daml-engine/value/valueBounds.js';

/**
 * The bounds a value leaving the engine keeps, measured iteratively on stacks shared between calls:
 * held to a plainly recursive reading of the same rules (every container one level, `any` none; a
 * text its length and 2, a number its digits and 4) on random values, and at the nesting limit.
 */

const tycon = { packageId: 'p', module: 'M', name: 'T' };
const record = (fields: readonly Value[]): Value => ({ kind: 'record', tycon, fieldNames: fields.map((_, i) => `f${i}`), fields });
const list = (items: readonly Value[]): ListValue => items.reduceRight<ListValue>((tail, head) => ({ kind: 'cons', head, tail }), NIL);

/** The recursive reading: nesting depth and bytes. */
function reference(v: Value): { depth: number; bytes: number } {
  const kids = (xs: readonly Value[], own: number): { depth: number; bytes: number } => {
    let depth = 0;
    let bytes = own;
    for (const x of xs) {
      const r = reference(x);
      depth = Math.max(depth, r.depth + 1);
      bytes += r.bytes;
    }
    return { depth, bytes };
  };
  switch (v.kind) {
    case 'text': case 'party': case 'contractId': return { depth: 0, bytes: 2 + v.value.length };
    case 'numeric': case 'bigNumeric': return { depth: 0, bytes: 4 + v.unscaled.toString().length };
    case 'int64': case 'timestamp': return { depth: 0, bytes: 10 };
    case 'record': case 'struct': return kids(v.fields, 2);
    case 'variant': return kids([v.value], 2 + v.constructor.length);
    case 'enum': return { depth: 0, bytes: 2 + v.constructor.length };
    case 'optional': return kids(v.value === undefined ? [] : [v.value], 2);
    case 'nil': return { depth: 0, bytes: 2 };
    case 'cons': {
      const items: Value[] = [];
      for (let c: ListValue = v; c.kind === 'cons'; c = c.tail) items.push(c.head);
      return kids(items, 2);
    }
    case 'textMap': return kids(v.entries.map(([, e]) => e), 2 + v.entries.reduce((n, [k]) => n + 2 + k.length, 0));
    case 'genMap': return kids(v.entries.flatMap(([k, e]) => [k, e]), 2);
    case 'any': case 'anyException': return reference(v.value);
    default: return { depth: 0, bytes: 2 };
  }
}

const valueArb: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string().map(text),
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map((unscaled): Value => ({ kind: 'numeric', scale: 10, unscaled })),
    fc.constant<Value>({ kind: 'unit' }),
    fc.array(tie('value'), { maxLength: 4 }).map(record),
    fc.array(tie('value'), { maxLength: 4 }).map(list),
    tie('value').map(some),
    tie('value').map((value): Value => ({ kind: 'variant', tycon, constructor: 'C', rank: 0, value })),
    fc.array(fc.tuple(fc.string(), tie('value')), { maxLength: 3 }).map((entries): Value => ({ kind: 'textMap', entries })),
    tie('value').map((value): Value => ({ kind: 'any', type: { kind: 'builtin', builtin: 'unit' } as never, value })),
  ),
})).value;

/** `v` nested `n` records deep around a text. */
const nested = (n: number, inner: Value = text('x')): Value => (n === 0 ? inner : record([nested(n - 1, inner)]));

describe('valueBoundsProblem', () => {
  it('measures as the recursive reading does: within bounds its bytes, past them the bound it breaks', () => {
    fc.assert(
      fc.property(valueArb, fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 400 }), (v, maxNesting, maxBytes) => {
        const want = reference(v);
        let reported: number | undefined;
        const got = valueBoundsProblem(v, maxNesting, maxBytes, 0, (b) => (reported = b));
        if (want.depth <= maxNesting && want.bytes <= maxBytes) {
          expect(got).toBeUndefined();
          expect(reported).toBe(want.bytes);
        } else {
          expect(got).toBeDefined();
          // Which bound is met first depends on the walk; each reported one is really broken.
          if (got!.kind === 'nesting') expect(want.depth).toBeGreaterThan(maxNesting);
          else expect(want.bytes).toBeGreaterThan(maxBytes);
        }
      }),
      { numRuns: 2000, seed: 31 },
    );
  });

  it("keeps Daml's limit: 100 levels pass, 101 do not; an `any` adds no level; a size counts what came before", () => {
    expect(valueBoundsProblem(nested(MAXIMUM_NESTING), MAXIMUM_NESTING, 1e9)).toBeUndefined();
    expect(valueBoundsProblem(nested(MAXIMUM_NESTING + 1), MAXIMUM_NESTING, 1e9)).toEqual<BoundsProblem>({ kind: 'nesting', limit: MAXIMUM_NESTING });
    const wrapped = nested(MAXIMUM_NESTING, { kind: 'any', type: { kind: 'builtin', builtin: 'unit' } as never, value: text('x') });
    expect(valueBoundsProblem(wrapped, MAXIMUM_NESTING, 1e9)).toBeUndefined();
    expect(valueBoundsProblem(text('abcd'), 10, 10, 4)).toBeUndefined();
    expect(valueBoundsProblem(text('abcd'), 10, 10, 5)).toEqual<BoundsProblem>({ kind: 'size', bytes: 11, limit: 10 });
    // A million levels are measured without the JS stack, and the next call starts clean.
    expect(valueBoundsProblem(list(Array.from({ length: 1_000_000 }, () => NIL)), 2, 1e9)).toBeUndefined();
    let deep: Value = text('x');
    for (let i = 0; i < 1_000_000; i++) deep = some(deep);
    expect(valueBoundsProblem(deep, MAXIMUM_NESTING, 1e9)).toEqual<BoundsProblem>({ kind: 'nesting', limit: MAXIMUM_NESTING });
    expect(valueBoundsProblem(record([text('ab')]), 1, 1e9, 0, (b) => expect(b).toBe(6))).toBeUndefined();
  });
});
