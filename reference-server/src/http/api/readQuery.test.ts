import { describe, expect, it } from 'vitest';
import { readCountQuery } from './readQuery.js';

const read = (qs: string) => readCountQuery(new URLSearchParams(qs), 'limit');

describe('readCountQuery', () => {
  it('reads absent as undefined and decimals as numbers', () => {
    expect(read('')).toEqual({ ok: true, value: undefined });
    expect(read('limit=0')).toEqual({ ok: true, value: 0 });
    expect(read('limit=100')).toEqual({ ok: true, value: 100 });
  });
  it('accepts the whole int64 range, clamped to a safe number', () => {
    expect(read('limit=9223372036854775807')).toEqual({ ok: true, value: Number.MAX_SAFE_INTEGER });
  });
  it('refuses anything else with the participant wording', () => {
    for (const bad of ['-1', '1.5', 'ten', '1e3', '', ' 1', '9223372036854775808', '99999999999999999999', '0x10']) {
      const r = read(`limit=${encodeURIComponent(bad)}`);
      expect(r).toEqual({ ok: false, error: { kind: 'decode', message: 'Invalid value for: query parameter limit' } });
    }
  });
});
