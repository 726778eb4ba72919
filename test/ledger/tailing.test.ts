import { describe, expect, it } from 'vitest';
import type { CompletionStreamResponse, JsGetUpdatesResponse } from '../../reference-server/src/ledger/index.js';
import { createAsset, must, nextCommandId, refused, world } from './helpers.js';

async function take<T>(it: AsyncIterator<T>, n: number): Promise<T[]> {
  const out: T[] = [];
  while (out.length < n) {
    const r = await it.next();
    if (r.done) break;
    out.push(r.value);
  }
  return out;
}

const kind = (u: JsGetUpdatesResponse) => Object.keys(u.update)[0];

describe('update subscriptions', () => {
  it('streams the past, then new updates as they commit', async () => {
    const { ledger, alice, bank } = world();
    const begin = ledger.ledgerEnd().offset;
    must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice, '1')] }));
    const stream = must(ledger.subscribeUpdates({ beginExclusive: begin, filter: { filtersByParty: { [alice]: {} } } }))[Symbol.asyncIterator]();
    const past = await take(stream, 1);
    expect(past.map(kind)).toEqual(['Transaction']);
    const pending = take(stream, 1);
    setTimeout(() => must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice, '2')] })), 5);
    const [next] = await pending;
    expect(next && 'Transaction' in next.update && next.update.Transaction.value.offset).toBe(begin + 2);
    await stream.return?.(undefined);
  });

  it('sends a checkpoint when what committed is not for the subscriber, once the checkpoint interval has passed', async () => {
    const { ledger, alice, bank, carol } = world({ checkpointIntervalMs: 200 });
    const begin = ledger.ledgerEnd().offset;
    const stream = must(ledger.subscribeUpdates({ beginExclusive: begin, filter: { filtersByParty: { [carol]: {} } } }))[Symbol.asyncIterator]();
    const pending = take(stream, 1);
    must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
    const [cp] = await pending;
    expect(cp?.update).toMatchObject({ OffsetCheckpoint: { value: { offset: begin + 1, synchronizerTimes: [{ synchronizerId: ledger.config.synchronizers[0].id }] } } });
    await stream.return?.(undefined);
  });

  it('ends at endInclusive, and when the signal aborts', async () => {
    const { ledger, alice, bank } = world();
    for (let i = 0; i < 3; i++) must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
    const end = ledger.ledgerEnd().offset;
    const bounded = must(ledger.subscribeUpdates({ beginExclusive: end - 3, endInclusive: end - 1, filter: { filtersByParty: { [alice]: {} } } }));
    const got: JsGetUpdatesResponse[] = [];
    for await (const u of bounded) got.push(u);
    expect(got.map(kind)).toEqual(['Transaction', 'Transaction']);

    const ac = new AbortController();
    const open = must(ledger.subscribeUpdates({ beginExclusive: end, filter: { filtersByParty: { [alice]: {} } } }, { signal: ac.signal }))[Symbol.asyncIterator]();
    const waiting = open.next();
    ac.abort();
    expect((await waiting).done).toBe(true);
  });

  it('refuses ranges past the ledger end or reversed', () => {
    const { ledger, alice } = world();
    const end = ledger.ledgerEnd().offset;
    const filter = { filtersByParty: { [alice]: {} } };
    refused(ledger.subscribeUpdates({ beginExclusive: end + 1, filter }), 'OFFSET_AFTER_LEDGER_END');
    refused(ledger.updates({ beginExclusive: 0, endInclusive: end + 1, filter }), 'OFFSET_AFTER_LEDGER_END');
    refused(ledger.updates({ beginExclusive: 3, endInclusive: 2, filter }), 'OFFSET_OUT_OF_RANGE');
    refused(ledger.updates({ beginExclusive: -1, filter }), 'INVALID_ARGUMENT');
    refused(ledger.updates({ beginExclusive: 0 }), 'INVALID_ARGUMENT');
  });

  it('serves descending order over a bounded range', () => {
    const { ledger, alice, bank } = world();
    const begin = ledger.ledgerEnd().offset;
    for (let i = 0; i < 3; i++) must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
    const end = ledger.ledgerEnd().offset;
    const offsets = [...must(ledger.updates({ beginExclusive: begin, endInclusive: end, descendingOrder: true, filter: { filtersByParty: { [alice]: {} } } }))].map((u) =>
      'Transaction' in u.update ? u.update.Transaction.value.offset : 0,
    );
    expect(offsets).toEqual([end, end - 1, end - 2]);
    refused(ledger.updates({ beginExclusive: begin, descendingOrder: true, filter: { filtersByParty: { [alice]: {} } } }), 'INVALID_ARGUMENT');
  });
});

describe('completions', () => {
  it('reports successes and failures for (userId, parties), then tails', async () => {
    const { ledger, alice, bank } = world();
    const begin = ledger.ledgerEnd().offset;
    const ok1 = must(ledger.submitAndWait({ userId: 'app', commandId: 'c1', submissionId: 's1', actAs: [bank], commands: [createAsset(bank, alice)] }));
    must(ledger.submitAndWait({ userId: 'other-app', commandId: 'c2', actAs: [bank], commands: [createAsset(bank, alice)] }));
    refused(ledger.submitAndWait({ userId: 'app', commandId: 'c1', actAs: [bank], commands: [createAsset(bank, alice)] }), 'DUPLICATE_COMMAND');
    const list = [...must(ledger.completions({ userId: 'app', parties: [bank], beginExclusive: begin }))];
    const values = list.map((c) => ('Completion' in c.completionResponse ? c.completionResponse.Completion.value : undefined));
    expect(values[0]).toMatchObject({ commandId: 'c1', submissionId: 's1', updateId: ok1.updateId, offset: ok1.completionOffset, status: { code: 0 }, actAs: [bank], userId: 'app' });
    expect(values[0]?.deduplicationPeriod).toMatchObject({ DeduplicationDuration: { value: { seconds: 604800 } } });
    expect(values[1]).toMatchObject({ commandId: 'c1', status: { code: 6 } });
    expect(values[1]?.updateId).toBeUndefined();
    expect(list).toHaveLength(2);

    // async: the outcome arrives on the tail
    const stream = must(ledger.subscribeCompletions({ userId: 'app', parties: [bank], beginExclusive: ledger.ledgerEnd().offset }))[Symbol.asyncIterator]();
    must(ledger.submitAsync({ userId: 'app', commandId: 'c3', actAs: [bank], commands: [createAsset(bank, alice)] }));
    const [c3] = await take<CompletionStreamResponse>(stream, 1);
    expect(c3?.completionResponse).toMatchObject({ Completion: { value: { commandId: 'c3', status: { code: 0 } } } });
    await stream.return?.(undefined);
  });

  it('validates the request', () => {
    const { ledger, bank } = world();
    refused(ledger.completions({ parties: [bank] }), 'MISSING_FIELD');
    refused(ledger.completions({ userId: 'app', parties: [] }), 'MISSING_FIELD');
    refused(ledger.completions({ userId: 'app', parties: ['nope'] }), 'INVALID_FIELD');
    refused(ledger.completions({ userId: 'app', parties: [bank], beginExclusive: 1e6 }), 'OFFSET_AFTER_LEDGER_END');
  });
});
