import { describe, expect, it } from 'vitest';

import { MAX_REFUSALS, retryDelayMs, withRetryAfter } from '../../conformance/src/target/retryAfter.js';

describe('load shedding (429/503 with Retry-After)', () => {
  it('repeats only a 429 or 503 that asks for it, within the longest wait the suite honours', () => {
    const now = Date.parse('2026-12-02T10:00:00Z');
    expect(retryDelayMs(429, '0', now)).toBe(0);
    expect(retryDelayMs(503, ' 2 ', now)).toBe(2_000);
    expect(retryDelayMs(503, 'Wed, 02 Dec 2026 10:00:05 GMT', now)).toBe(5_000);
    // A date already past: at once.
    expect(retryDelayMs(429, 'Wed, 02 Dec 2026 09:59:00 GMT', now)).toBe(0);
    // Too long a wait, no header, another status, a header that is neither form: judged as the answer.
    expect(retryDelayMs(429, '11', now)).toBeUndefined();
    expect(retryDelayMs(503, null, now)).toBeUndefined();
    expect(retryDelayMs(500, '0', now)).toBeUndefined();
    expect(retryDelayMs(200, '0', now)).toBeUndefined();
    expect(retryDelayMs(429, 'soon', now)).toBeUndefined();
    expect(retryDelayMs(429, '-1', now)).toBeUndefined();
  });

  it('keeps the refused answers beside the last, and stops after MAX_REFUSALS', async () => {
    const answers = [429, 503, 200];
    const served = await withRetryAfter(async () => answers.shift()!, (s) => (s === 200 ? undefined : 0));
    expect(served).toEqual({ answer: 200, refused: [429, 503] });
    let sent = 0;
    const forever = await withRetryAfter(async () => { sent++; return 429; }, () => 0);
    expect(forever.refused).toHaveLength(MAX_REFUSALS);
    expect(forever.answer).toBe(429);
    expect(sent).toBe(MAX_REFUSALS + 1);
  });
});
