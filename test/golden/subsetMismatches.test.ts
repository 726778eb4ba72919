import { describe, expect, it } from 'vitest';
import { subsetMismatches } from './runGoldenStep.js';

describe('subsetMismatches (how golden bodies are compared)', () => {
  it('matches objects by the members expected', () => {
    expect(subsetMismatches({ a: 1 }, { a: 1, b: 2 }, 'body')).toEqual([]);
    expect(subsetMismatches({ a: 1 }, { a: 2 }, 'body')).toEqual(['body.a: 2, expected 1']);
  });
  it('matches arrays element by element, length included', () => {
    expect(subsetMismatches([{ a: 1 }], [{ a: 1, b: 0 }], 'body')).toEqual([]);
    expect(subsetMismatches([1], [1, 2], 'body')).toEqual(['body: 2 elements, expected 1']);
  });
  it('understands the markers', () => {
    expect(subsetMismatches({ a: '$string', b: '$number', c: '$any', d: '$absent' }, { a: 'x', b: 1, c: null }, 'b')).toEqual([]);
    expect(subsetMismatches({ a: '$string' }, { a: 1 }, 'b')).toEqual(['b.a: expected a string, got 1']);
    expect(subsetMismatches({ d: '$absent' }, { d: 0 }, 'b')).toEqual(['b.d: expected absent, got 0']);
    expect(subsetMismatches({ c: '$any' }, {}, 'b')).toEqual(['b.c: missing']);
  });
});
