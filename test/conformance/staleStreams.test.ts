import { describe, expect, it } from 'vitest';
import { endedStale, streamRetryingStale } from '../../conformance/src/checks/support/ledger.js';
import type { CheckContext } from '../../conformance/src/checks/types.js';
import type { StreamResult } from '../../conformance/src/target/websocket.js';

/**
 * A participant cuts a stream short with STALE_STREAM_AUTHORIZATION when its user's rights change
 * while it runs (another check allocating a party for the run's user does that): what it sent is a
 * prefix, which the suite reads again instead of judging it as the answer.
 */
const STALE = { code: 'STALE_STREAM_AUTHORIZATION', cause: 'Stale stream authorization. Retry quickly.', retryInfo: '1 second' };
const entry = (id: string) => ({ contractEntry: { JsActiveContract: { createdEvent: { contractId: id } } } });

function ctxStreaming(answers: (readonly unknown[])[]): { ctx: CheckContext; calls: () => number } {
  let n = 0;
  const ctx = {
    http: { stream: () => Promise.resolve({ exchange: {}, messages: answers[Math.min(n++, answers.length - 1)]! } as unknown as StreamResult) },
    skip: (m: string) => { throw new Error(`skip: ${m}`); },
  } as unknown as CheckContext;
  return { ctx, calls: () => n };
}

describe('streams cut short by STALE_STREAM_AUTHORIZATION', () => {
  it('are read again, and the whole answer is judged', async () => {
    expect(endedStale([entry('a'), STALE])).toBe(true);
    expect(endedStale([entry('a')])).toBe(false);
    const { ctx, calls } = ctxStreaming([[entry('a'), STALE], [STALE], [entry('a'), entry('b')]]);
    const ws = await streamRetryingStale(ctx, '/v2/state/active-contracts', { request: {} });
    expect(ws.messages).toEqual([entry('a'), entry('b')]);
    expect(calls()).toBe(3);
  });

  it('stale three times in a row: the check skips, saying why, never judging a prefix', async () => {
    const { ctx, calls } = ctxStreaming([[entry('a'), STALE]]);
    await expect(streamRetryingStale(ctx, '/v2/state/active-contracts', { request: {} })).rejects.toThrow(/^skip: .*STALE_STREAM_AUTHORIZATION three times in a row/);
    expect(calls()).toBe(3);
  });
});
