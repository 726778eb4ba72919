/** Sorted party sets agree with JS's default sort (UTF-16 code units) over any strings. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { insert, sortedUnique, union } from '../../daml-engine/update/partySets.js';

const reference = (xs: readonly string[]): string[] => [...new Set(xs)].sort();
// Short strings over a few characters (duplicates likely), astral ones included (surrogate pairs).
const party = fc.string({ unit: fc.constantFrom('a', 'b', 'B', ':', 'é', '\u{1F600}', '\uFFFF'), maxLength: 4 });

describe('party sets', () => {
  it('sortedUnique sorts and deduplicates as [...new Set(xs)].sort(), short and long', () => {
    fc.assert(fc.property(fc.array(party, { maxLength: 80 }), (xs) => {
      expect(sortedUnique(xs)).toEqual(reference(xs));
    }));
  });

  it('insert keeps a sorted set and says whether it added', () => {
    fc.assert(fc.property(fc.array(party, { maxLength: 12 }), party, (xs, x) => {
      const set = reference(xs);
      const added = insert(set, x);
      expect(added).toBe(!xs.includes(x));
      expect(set).toEqual(reference([...xs, x]));
    }));
  });

  it('union of two sorted sets is their sorted set union', () => {
    fc.assert(fc.property(fc.array(party, { maxLength: 10 }), fc.array(party, { maxLength: 10 }), (xs, ys) => {
      expect(union(reference(xs), reference(ys))).toEqual(reference([...xs, ...ys]));
    }));
  });
});
