import { describe, expect, it } from 'vitest';
import type { JsGetUpdatesResponse } from '../../reference-server/src/ledger/index.js';
import { createAsset, must, nextCommandId, world } from './helpers.js';

const kind = (u: JsGetUpdatesResponse) => Object.keys(u.update)[0];
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens a subscription and reads it in the background, recording what arrives; `stop` aborts it. */
function drain(open: (signal: AbortSignal) => AsyncIterable<JsGetUpdatesResponse>): { got: JsGetUpdatesResponse[]; stop: () => Promise<void> } {
  const got: JsGetUpdatesResponse[] = [];
  const controller = new AbortController();
  const loop = (async () => {
    for await (const u of open(controller.signal)) got.push(u);
  })();
  return {
    got,
    stop: async () => {
      controller.abort();
      await loop;
    },
  };
}

describe('commits wake only the streams they concern', () => {
  it('a thousand idle streams of another party get nothing per commit, then one checkpoint per interval', async () => {
    const { ledger, alice, bank, carol } = world({ checkpointIntervalMs: 400 });
    const begin = ledger.ledgerEnd().offset;
    const idle = Array.from({ length: 1000 }, () => drain((signal) => must(ledger.subscribeUpdates({ beginExclusive: begin, filter: { filtersByParty: { [carol]: {} } } }, { signal }))));
    const own = drain((signal) => must(ledger.subscribeUpdates({ beginExclusive: begin, filter: { filtersByParty: { [alice]: {} } } }, { signal })));
    for (let i = 0; i < 50; i++) {
      must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
      await tick(0);
    }
    await tick(50);
    // The stream the commits concern saw each at once; the others nothing yet.
    expect(own.got.map(kind)).toEqual(Array.from({ length: 50 }, () => 'Transaction'));
    expect(idle.reduce((n, s) => n + s.got.length, 0)).toBe(0);
    // Once the interval has passed, each idle stream learns how far the ledger got, once.
    await tick(600);
    const end = ledger.ledgerEnd().offset;
    for (const s of idle) {
      expect(s.got).toHaveLength(1);
      expect(s.got[0]?.update).toMatchObject({ OffsetCheckpoint: { value: { offset: end } } });
    }
    await Promise.all([...idle, own].map((s) => s.stop()));
  });

  it('a stream sees a commit for its party at once, whatever commits for others come around it', async () => {
    const { ledger, alice, bank, carol } = world({ checkpointIntervalMs: 60_000 });
    const begin = ledger.ledgerEnd().offset;
    const s = drain((signal) => must(ledger.subscribeUpdates({ beginExclusive: begin, filter: { filtersByParty: { [carol]: {} } } }, { signal })));
    for (const owner of [alice, carol, alice]) {
      must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, owner)] }));
      await tick(20);
    }
    // Carol's transaction (no checkpoint behind it: it is the end of what was read), and nothing for alice's.
    expect(s.got.map(kind)).toEqual(['Transaction']);
    await s.stop();
  });

  it('streams of every party (filtersForAnyParty) and topology events still see everything', async () => {
    const { ledger, alice, bank } = world({ checkpointIntervalMs: 60_000 });
    const begin = ledger.ledgerEnd().offset;
    const any = drain((signal) => must(ledger.subscribeUpdates({ beginExclusive: begin, filter: { filtersForAnyParty: {} } }, { signal })));
    const topology = drain((signal) =>
      must(ledger.subscribeUpdates({ beginExclusive: begin, updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [] } } } }, { signal })),
    );
    must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
    must(ledger.allocateParty({ partyIdHint: 'newcomer' }));
    await tick(50);
    expect(any.got.map(kind)).toEqual(['Transaction', 'TopologyTransaction']);
    expect(topology.got.map(kind)).toContain('TopologyTransaction');
    await Promise.all([any.stop(), topology.stop()]);
  });

  it("the deprecated trees stream too: another party's commits bring nothing until the interval, then one checkpoint", async () => {
    const { ledger, alice, bank, carol } = world({ checkpointIntervalMs: 300 });
    const begin = ledger.ledgerEnd().offset;
    const trees = drain((signal) => must(ledger.subscribeUpdateTrees({ beginExclusive: begin, filter: { filtersByParty: { [carol]: {} } } }, { signal })) as AsyncIterable<JsGetUpdatesResponse>);
    for (let i = 0; i < 20; i++) {
      must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
      await tick(0);
    }
    await tick(50);
    expect(trees.got).toEqual([]);
    await tick(450);
    expect(trees.got.map(kind)).toEqual(['OffsetCheckpoint']);
    expect(trees.got[0]?.update).toMatchObject({ OffsetCheckpoint: { value: { offset: ledger.ledgerEnd().offset } } });
    await trees.stop();
  });
});
