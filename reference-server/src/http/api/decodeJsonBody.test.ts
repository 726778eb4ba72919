import { describe, expect, it } from 'vitest';
import { decodeJsonBody, MAX_JSON_NESTING } from './decodeJsonBody.js';

describe('decodeJsonBody', () => {
  it('decodes JSON', () => {
    expect(decodeJsonBody('{"a":1}', 100)).toEqual({ ok: true, value: { a: 1 } });
  });
  it('answers a missing or blank body as a decode failure', () => {
    for (const text of [undefined, '', '  \n']) {
      const r = decodeJsonBody(text, 100);
      expect(r.ok === false && r.error).toEqual({ kind: 'decode', message: 'Invalid value for: body (missing request body)' });
    }
  });
  it('answers malformed JSON with the parser reason', () => {
    const r = decodeJsonBody('{"a":', 100);
    expect(r.ok === false && r.error.kind === 'decode' && r.error.message).toMatch(/^Invalid value for: body \(.+\)$/);
  });
  it('counts the limit in UTF-8 bytes', () => {
    expect(decodeJsonBody('"' + 'é'.repeat(10) + '"', 21).ok).toBe(false);
    expect(decodeJsonBody('"' + 'é'.repeat(10) + '"', 22).ok).toBe(true);
    const r = decodeJsonBody('"' + 'x'.repeat(200) + '"', 100);
    expect(r.ok === false && r.error).toEqual({ kind: 'body-too-large', limit: 100 });
  });
  it('refuses nesting deeper than any ledger value', () => {
    const deep = '['.repeat(MAX_JSON_NESTING + 1) + ']'.repeat(MAX_JSON_NESTING + 1);
    const r = decodeJsonBody(deep, 10_000);
    expect(r.ok === false && r.error.kind).toBe('decode');
    const ok = '['.repeat(MAX_JSON_NESTING) + ']'.repeat(MAX_JSON_NESTING);
    expect(decodeJsonBody(ok, 10_000).ok).toBe(true);
  });
});
