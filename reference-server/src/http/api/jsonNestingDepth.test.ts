import { describe, expect, it } from 'vitest';
import { jsonNestingDepth } from './jsonNestingDepth.js';

describe('jsonNestingDepth', () => {
  it('counts arrays and objects', () => {
    expect(jsonNestingDepth('1')).toBe(0);
    expect(jsonNestingDepth('{"a":[1,{"b":[]}]}')).toBe(4);
  });
  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonNestingDepth('{"a":"[[[{{{\\"[[["}')).toBe(1);
  });
  it('measures deep input without recursion', () => {
    expect(jsonNestingDepth('['.repeat(100_000) + ']'.repeat(100_000))).toBe(100_000);
  });
});
