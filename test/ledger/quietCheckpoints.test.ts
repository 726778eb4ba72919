import { describe, expect, it } from 'vitest';
import type { JsGetUpdatesResponse } from '../../reference-server/src/ledger/index.js';
import { ACCOUNT_TEMPLATE, ManualTimers } from '../../reference-server/src/ledger/index.js';
import type { LogEntry } from '../../reference-server/src/store/LogEntry.js';
import { MemoryStore } from '../../reference-server/src/store/MemoryStore.js';
import { createAsset, must, nextCommandId, world } from './helpers.js';

const kind = (u: JsGetUpdatesResponse) => Object.keys(u.update)[0];
/** Lets every woken stream run to its next wait: event-loop turns, no wall-clock time. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

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

/** A store that records the offsets of the log entries read from it while `recording`. */
class ReadRecordingStore extends MemoryStore {
  recording = false;
  readonly read: number[] = [];
  override entryAt(offset: number): LogEntry | undefined {
    if (this.recording) this.read.push(offset);
    return super.entryAt(offset);
  }
}

describe('commits wake only the streams they concern', () => {
  it('a thousand idle streams of another party get nothing per commit, then one checkpoint per interval', async () => {
    const timers = new ManualTimers();
    const { ledger, alice, bank, carol } = world({ checkpointIntervalMs: 400, streamTimers: timers });
    const begin = ledger.ledgerEnd().offset;
    const idle = Array.from({ length: 1000 }, () => drain((signal) => must(ledger.subscribeUpdates({ beginExclusive: begin, filter: { filtersByParty: { [carol]: {} } } }, { signal }))));
    const own = drain((signal) => must(ledger.subscribeUpdates({ beginExclusive: begin, filter: { filtersByParty: { [alice]: {} } } }, { signal })));
    for (let i = 0; i < 50; i++) {
      must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
      await settle();
    }
    timers.advance(399);
    await settle();
    // The stream the commits concern saw each at once; the others nothing yet.
    expect(own.got.map(kind)).toEqual(Array.from({ length: 50 }, () => 'Transaction'));
    expect(idle.reduce((n, s) => n + s.got.length, 0)).toBe(0);
    // Once the interval has passed, each idle stream learns how far the ledger got, once.
    timers.advance(1);
    await settle();
    const end = ledger.ledgerEnd().offset;
    for (const s of idle) {
      expect(s.got).toHaveLength(1);
      expect(s.got[0]?.update).toMatchObject({ OffsetCheckpoint: { value: { offset: end } } });
    }
    // With nothing new, the next interval brings nothing.
    timers.advance(400);
    await settle();
    expect(idle.reduce((n, s) => n + s.got.length, 0)).toBe(1000);
    await Promise.all([...idle, own].map((s) => s.stop()));
  });

  it("an idle stream's checkpoint reads none of the commits it cannot see", async () => {
    const timers = new ManualTimers();
    const store = new ReadRecordingStore();
    const { ledger, alice, bank, carol } = world({ checkpointIntervalMs: 15_000, streamTimers: timers, store });
    const begin = ledger.ledgerEnd().offset;
    const idle = drain((signal) => must(ledger.subscribeUpdates({ beginExclusive: begin, filter: { filtersByParty: { [carol]: {} } } }, { signal })));
    await settle();
    for (let i = 0; i < 100; i++) must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
    await settle();
    const end = ledger.ledgerEnd().offset;
    store.recording = true;
    timers.advance(15_000);
    await settle();
    store.recording = false;
    expect(idle.got).toEqual([{ update: { OffsetCheckpoint: { value: expect.objectContaining({ offset: end }) } } }]);
    // The checkpoint reads the entry at its own offset (its record time), none of the 100 before it.
    expect(store.read.filter((o) => o !== end)).toEqual([]);
    await idle.stop();
  });

  it('a stream woken by its own commit reads that commit, not the ones of others since it last read', async () => {
    const timers = new ManualTimers();
    const store = new ReadRecordingStore();
    const { ledger, alice, bank, carol } = world({ checkpointIntervalMs: 15_000, streamTimers: timers, store });
    const begin = ledger.ledgerEnd().offset;
    const s = drain((signal) => must(ledger.subscribeUpdates({ beginExclusive: begin, filter: { filtersByParty: { [carol]: {} } } }, { signal })));
    await settle();
    for (let i = 0; i < 100; i++) must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
    await settle();
    store.recording = true;
    must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, carol)] }));
    await settle();
    store.recording = false;
    const carolsOffset = ledger.ledgerEnd().offset;
    expect(s.got.map(kind)).toEqual(['Transaction']);
    expect(s.got[0]?.update).toMatchObject({ Transaction: { value: { offset: carolsOffset } } });
    expect(store.read.filter((o) => o < carolsOffset && o > begin)).toEqual([]);
    await s.stop();
  });

  it('completions too: an idle completion stream reads nothing of other parties until its own completion', async () => {
    const timers = new ManualTimers();
    const store = new ReadRecordingStore();
    const { ledger, alice, bank, carol } = world({ checkpointIntervalMs: 15_000, streamTimers: timers, store });
    const begin = ledger.ledgerEnd().offset;
    const controller = new AbortController();
    const got: unknown[] = [];
    const loop = (async () => {
      for await (const c of must(ledger.subscribeCompletions({ userId: 'u', parties: [carol], beginExclusive: begin }, { signal: controller.signal }))) got.push(c);
    })();
    await settle();
    for (let i = 0; i < 50; i++) must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
    await settle();
    store.recording = true;
    must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [carol], commands: [createAsset(carol, carol)] }));
    await settle();
    store.recording = false;
    const end = ledger.ledgerEnd().offset;
    expect(got).toEqual([{ completionResponse: { Completion: { value: expect.objectContaining({ offset: end }) } } }]);
    expect(store.read.filter((o) => o < end && o > begin)).toEqual([]);
    controller.abort();
    await loop;
  });

  it('a stream sees a commit for its party at once, whatever commits for others come around it', async () => {
    const { ledger, alice, bank, carol } = world({ checkpointIntervalMs: 60_000, streamTimers: new ManualTimers() });
    const begin = ledger.ledgerEnd().offset;
    const s = drain((signal) => must(ledger.subscribeUpdates({ beginExclusive: begin, filter: { filtersByParty: { [carol]: {} } } }, { signal })));
    for (const owner of [alice, carol, alice]) {
      must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, owner)] }));
      await settle();
    }
    // Carol's transaction (no checkpoint behind it: it is the end of what was read), and nothing for alice's.
    expect(s.got.map(kind)).toEqual(['Transaction']);
    await s.stop();
  });

  it('streams of every party (filtersForAnyParty) and topology events still see everything', async () => {
    const { ledger, alice, bank } = world({ checkpointIntervalMs: 60_000, streamTimers: new ManualTimers() });
    const begin = ledger.ledgerEnd().offset;
    const any = drain((signal) => must(ledger.subscribeUpdates({ beginExclusive: begin, filter: { filtersForAnyParty: {} } }, { signal })));
    const topology = drain((signal) =>
      must(ledger.subscribeUpdates({ beginExclusive: begin, updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [] } } } }, { signal })),
    );
    must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
    must(ledger.allocateParty({ partyIdHint: 'newcomer' }));
    await settle();
    expect(any.got.map(kind)).toEqual(['Transaction', 'TopologyTransaction']);
    expect(topology.got.map(kind)).toContain('TopologyTransaction');
    await Promise.all([any.stop(), topology.stop()]);
  });

  it("the deprecated trees stream too: another party's commits bring nothing until the interval, then one checkpoint", async () => {
    const timers = new ManualTimers();
    const { ledger, alice, bank, carol } = world({ checkpointIntervalMs: 300, streamTimers: timers });
    const begin = ledger.ledgerEnd().offset;
    const trees = drain((signal) => must(ledger.subscribeUpdateTrees({ beginExclusive: begin, filter: { filtersByParty: { [carol]: {} } } }, { signal })) as AsyncIterable<JsGetUpdatesResponse>);
    for (let i = 0; i < 20; i++) {
      must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
      await settle();
    }
    timers.advance(299);
    await settle();
    expect(trees.got).toEqual([]);
    timers.advance(1);
    await settle();
    expect(trees.got.map(kind)).toEqual(['OffsetCheckpoint']);
    expect(trees.got[0]?.update).toMatchObject({ OffsetCheckpoint: { value: { offset: ledger.ledgerEnd().offset } } });
    await trees.stop();
  });
  // The participant's streams take checkpoints from a cache renewed once per interval: commits of
  // the stream's own parties that show nothing in it (another user's commands, a template the
  // filter leaves out) bring no checkpoint each, or an HTTP list with an idle timeout never ends.
  it("another user's commands for the same party bring no completion and no checkpoint each; one checkpoint after the interval", async () => {
    const timers = new ManualTimers();
    const { ledger, bank } = world({ checkpointIntervalMs: 500, streamTimers: timers });
    const begin = ledger.ledgerEnd().offset;
    const controller = new AbortController();
    const got: { completionResponse: Record<string, { value: { offset: number; commandId?: string } }> }[] = [];
    const loop = (async () => {
      for await (const c of must(ledger.subscribeCompletions({ userId: 'mine', parties: [bank], beginExclusive: begin }, { signal: controller.signal }))) got.push(c as (typeof got)[number]);
    })();
    await settle();
    must(ledger.submitAndWait({ userId: 'mine', commandId: 'own-1', actAs: [bank], commands: [createAsset(bank, bank)] }));
    for (let i = 0; i < 30; i++) {
      must(ledger.submitAndWait({ userId: 'automation', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, bank)] }));
      await settle();
    }
    must(ledger.submitAndWait({ userId: 'mine', commandId: 'own-2', actAs: [bank], commands: [createAsset(bank, bank)] }));
    await settle();
    for (let i = 0; i < 5; i++) must(ledger.submitAndWait({ userId: 'automation', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, bank)] }));
    await settle();
    timers.advance(499);
    await settle();
    expect(got.map((c) => Object.keys(c.completionResponse)[0])).toEqual(['Completion', 'Completion']);
    timers.advance(1);
    await settle();
    const end = ledger.ledgerEnd().offset;
    expect(got.map((c) => Object.keys(c.completionResponse)[0])).toEqual(['Completion', 'Completion', 'OffsetCheckpoint']);
    expect(got[2]?.completionResponse.OffsetCheckpoint?.value.offset).toBe(end);
    // Nothing new: nothing more.
    timers.advance(5_000);
    await settle();
    expect(got).toHaveLength(3);
    controller.abort();
    await loop;
  });

  it('a template filter: commits of the party on other templates bring one checkpoint per interval, not one each', async () => {
    const timers = new ManualTimers();
    const { ledger, alice, bank } = world({ checkpointIntervalMs: 500, streamTimers: timers });
    const begin = ledger.ledgerEnd().offset;
    const filter = { filtersByParty: { [alice]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: ACCOUNT_TEMPLATE, includeCreatedEventBlob: false } } } }] } } };
    const s = drain((signal) => must(ledger.subscribeUpdates({ beginExclusive: begin, filter }, { signal })));
    for (let i = 0; i < 20; i++) {
      must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
      await settle();
    }
    expect(s.got).toEqual([]);
    timers.advance(500);
    await settle();
    expect(s.got.map(kind)).toEqual(['OffsetCheckpoint']);
    expect(s.got[0]?.update).toMatchObject({ OffsetCheckpoint: { value: { offset: ledger.ledgerEnd().offset } } });
    await s.stop();
  });
});
