import fc from 'fast-check';
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

describe('jsonNestingDepth on strings', () => {
  it('tells escaped quotes from closing ones by the backslashes before them', () => {
    // `"a\\"` ends after the escaped backslash; `"a\\\"[` does not end at its quote.
    expect(jsonNestingDepth('["a\\\\",[1]]')).toBe(2);
    expect(jsonNestingDepth('["a\\\\\\"[[",[1]]')).toBe(2);
    expect(jsonNestingDepth('[""," [ ",[[]]]')).toBe(3);
  });
  it('treats an unterminated string as running to the end', () => {
    expect(jsonNestingDepth('[[ "[[[[')).toBe(2);
  });
  it('agrees with a character-by-character scan on random texts', () => {
    const text = fc.array(fc.constantFrom('"', '\\', '[', ']', '{', '}', 'a', ','), { maxLength: 40 }).map((cs) => cs.join(''));
    fc.assert(fc.property(text, (t) => { expect(jsonNestingDepth(t), t).toBe(referenceDepth(t)); }), { numRuns: 2_000, seed: 7 });
  });
});

/** The plain scan: every character looked at, a backslash skipping the next one inside strings. */
function referenceDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') max = Math.max(max, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return max;
}
