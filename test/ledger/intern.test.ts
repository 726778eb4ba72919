/** The interner's party sets: sorted, deduplicated, frozen, shared, whatever order they come in. */
import { describe, expect, it } from 'vitest';

import { Interner } from '../../reference-server/src/ledger/intern.js';

describe('Interner.set', () => {
  it('gives one frozen sorted set for any order, duplicates or iterable, never the caller\'s array', () => {
    const i = new Interner();
    const sortedInput = ['alice', 'bob'];
    const a = i.set(sortedInput);
    expect(a).toEqual(['alice', 'bob']);
    expect(Object.isFrozen(a)).toBe(true);
    expect(a).not.toBe(sortedInput);
    expect(i.set(['bob', 'alice', 'bob'])).toBe(a);
    expect(i.set(new Set(['bob', 'alice']))).toBe(a);
    expect(i.set(['alice', 'alice', 'bob'])).toBe(a); // sorted but not strictly: still deduplicated
    expect(i.set([])).toBe(Interner.EMPTY);
    expect(i.union(a, ['carol', 'alice'])).toEqual(['alice', 'bob', 'carol']);
  });
});
