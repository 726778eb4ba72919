import { describe, expect, it } from 'vitest';
import { ManualTimer, type JsGetUpdatesResponse } from '../../reference-server/src/ledger/index.js';
import { createAsset, must, nextCommandId, world } from './helpers.js';

const kind = (u: JsGetUpdatesResponse) => Object.keys(u.update)[0];

/**
 * Lets every stream woken so far run to its next wait. A woken stream resumes through promise
 * reactions only (no timers), so one turn of the event loop drains them all, however busy the machine.
 */
const settle = () => new Promise<void>((r) => setImmediate(r));

/** Opens a subscription and reads it in the background, recording what arrives; `stop` aborts it. */
function drain(open: (signal: AbortSignal) => AsyncIterable<JsGetUpdatesResponse>) {
  const got: JsGetUpdatesResponse[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const controller = new AbortController();
  const loop = (async () => {
    for await (const u of open(controller.signal)) {
      got.push(u);
      for (const w of waiters.filter((x) => got.length >= x.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  })();
  return {
    got,
    /** Resolves once `n` elements have arrived: awaits the stream, not the clock. */
    until: (n: number) => (got.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
    stop: async () => {
      controller.abort();
      await loop;
    },
  };
}

describe('commits wake only the streams they concern', () => {
  it('a thousand idle streams of another party get nothing per commit, then one checkpoint per interval', async () => {
    const timer = new ManualTimer();
    const { ledger, alice, bank, carol } = world({ checkpointIntervalMs: 400, streamTimer: timer });
    const begin = ledger.ledgerEnd().offset;
    const idle = Array.from({ length: 1000 }, () => drain((signal) => must(ledger.subscribeUpdates({ beginExclusive: begin, filter: { filtersByParty: { [carol]: {} } } }, { signal }))));
    const own = drain((signal) => must(ledger.subscribeUpdates({ beginExclusive: begin, filter: { filtersByParty: { [alice]: {} } } }, { signal })));
    for (let i = 0; i < 50; i++) {
      must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
      await settle();
    }
    // The stream the commits concern saw each of them; the others nothing, since the interval has not passed.
    await own.until(50);
    await settle();
    expect(own.got.map(kind)).toEqual(Array.from({ length: 50 }, () => 'Transaction'));
    expect(idle.reduce((n, s) => n + s.got.length, 0)).toBe(0);
    // One millisecond short of the interval: still nothing.
    timer.advance(399);
    await settle();
    expect(idle.reduce((n, s) => n + s.got.length, 0)).toBe(0);
    // Once the interval has passed, each idle stream learns how far the ledger got, once.
    timer.advance(1);
    await Promise.all(idle.map((s) => s.until(1)));
    await settle();
    const end = ledger.ledgerEnd().offset;
    for (const s of idle) {
      expect(s.got).toHaveLength(1);
      expect(s.got[0]?.update).toMatchObject({ OffsetCheckpoint: { value: { offset: end } } });
    }
    // Another interval without commits brings nothing more.
    timer.advance(400);
    await settle();
    expect(idle.every((s) => s.got.length === 1)).toBe(true);
    await Promise.all([...idle, own].map((s) => s.stop()));
  });

  it('a stream sees a commit for its party at once, whatever commits for others come around it', async () => {
    const { ledger, alice, bank, carol } = world({ checkpointIntervalMs: 60_000, streamTimer: new ManualTimer() });
    const begin = ledger.ledgerEnd().offset;
    const s = drain((signal) => must(ledger.subscribeUpdates({ beginExclusive: begin, filter: { filtersByParty: { [carol]: {} } } }, { signal })));
    for (const owner of [alice, carol, alice]) {
      must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, owner)] }));
      await settle();
    }
    await s.until(1);
    await settle();
    // Carol's transaction (no checkpoint behind it: it is the end of what was read), and nothing for alice's.
    expect(s.got.map(kind)).toEqual(['Transaction']);
    await s.stop();
  });

  it('streams of every party (filtersForAnyParty) and topology events still see everything', async () => {
    const { ledger, alice, bank } = world({ checkpointIntervalMs: 60_000, streamTimer: new ManualTimer() });
    const begin = ledger.ledgerEnd().offset;
    const any = drain((signal) => must(ledger.subscribeUpdates({ beginExclusive: begin, filter: { filtersForAnyParty: {} } }, { signal })));
    const topology = drain((signal) =>
      must(ledger.subscribeUpdates({ beginExclusive: begin, updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [] } } } }, { signal })),
    );
    must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
    must(ledger.allocateParty({ partyIdHint: 'newcomer' }));
    await Promise.all([any.until(2), topology.until(1)]);
    await settle();
    expect(any.got.map(kind)).toEqual(['Transaction', 'TopologyTransaction']);
    expect(topology.got.map(kind)).toContain('TopologyTransaction');
    await Promise.all([any.stop(), topology.stop()]);
  });

  it("the deprecated trees stream too: another party's commits bring nothing until the interval, then one checkpoint", async () => {
    const timer = new ManualTimer();
    const { ledger, alice, bank, carol } = world({ checkpointIntervalMs: 300, streamTimer: timer });
    const begin = ledger.ledgerEnd().offset;
    const trees = drain((signal) => must(ledger.subscribeUpdateTrees({ beginExclusive: begin, filter: { filtersByParty: { [carol]: {} } } }, { signal })) as AsyncIterable<JsGetUpdatesResponse>);
    for (let i = 0; i < 20; i++) {
      must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
      await settle();
    }
    timer.advance(299);
    await settle();
    expect(trees.got).toEqual([]);
    timer.advance(1);
    await trees.until(1);
    await settle();
    expect(trees.got.map(kind)).toEqual(['OffsetCheckpoint']);
    expect(trees.got[0]?.update).toMatchObject({ OffsetCheckpoint: { value: { offset: ledger.ledgerEnd().offset } } });
    await trees.stop();
  });
});
