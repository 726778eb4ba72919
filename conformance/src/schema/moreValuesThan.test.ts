import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { moreValuesThan } from './moreValuesThan.js';

/** Every value, counted by recursion: what `moreValuesThan` compares with its limit. */
function count(v: unknown): number {
  if (v === null || typeof v !== 'object') return 1;
  return 1 + (Array.isArray(v) ? v : Object.values(v)).reduce((n: number, c) => n + count(c), 0);
}

describe('moreValuesThan', () => {
  it('counts scalars, arrays and objects, the containers included', () => {
    const doc = { a: [1, 2, { b: null }], c: 'x', d: {} };
    expect(count(doc)).toBe(8);
    expect(moreValuesThan(doc, 7)).toBe(true);
    expect(moreValuesThan(doc, 8)).toBe(false);
    expect(moreValuesThan(5, 0)).toBe(true);
    expect(moreValuesThan(5, 1)).toBe(false);
  });
  it('answers as the full count does on any JSON document, at every limit around it', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 5 }), (doc) => {
      const n = count(doc);
      for (const limit of [0, n - 2, n - 1, n, n + 1]) expect(moreValuesThan(doc, limit), JSON.stringify(doc)).toBe(n > limit);
    }), { numRuns: 300, seed: 11 });
  });
  it('stops early on a huge list', () => {
    expect(moreValuesThan(new Array(1_000_000).fill(0), 2_000)).toBe(true);
  });
});
