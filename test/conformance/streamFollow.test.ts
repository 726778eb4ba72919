import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamFollower, STREAM_CHECK_ID, UPDATES_PAGE } from '../../conformance/src/judge/streamFollower.js';
import { observe, type Answer } from '../../conformance/src/judge/observe.js';
import { TargetModel, type Observation } from '../../conformance/src/judge/targetModel.js';
import type { TargetClient } from '../../conformance/src/target/createTarget.js';
import type { Exchange, RequestSpec } from '../../conformance/src/target/exchange.js';
import { loadProfile } from '../../conformance/src/runner/profile.js';
import { runSuite } from '../../conformance/src/runner/runSuite.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';

/** A scripted target: each request is answered by `answer` (status and JSON), and recorded. */
function scripted(answer: (spec: RequestSpec) => { status: number; body: unknown }): { client: TargetClient; asked: RequestSpec[] } {
  const asked: RequestSpec[] = [];
  let seq = 0;
  const client: TargetClient = {
    baseUrl: () => 'http://target',
    stream: () => Promise.reject(new Error('no streams here')),
    request: (_group, spec) => {
      asked.push(spec);
      const { status, body } = answer(spec);
      const text = JSON.stringify(body);
      const e: Exchange = {
        seq: ++seq, group: 'ledger', operationId: undefined, path: spec.path, checkId: STREAM_CHECK_ID, startedAt: `2026-01-01T00:00:${String(seq).padStart(2, '0')}Z`, durationMs: 1, curl: `curl ${spec.path}`,
        request: { method: spec.method, url: `http://target${spec.path}`, headers: {}, body: JSON.stringify(spec.json) },
        response: { status, headers: {}, contentType: 'application/json', text, truncated: false, size: text.length },
      };
      return Promise.resolve(e);
    },
  };
  return { client, asked };
}

const tx = (offset: number, updateId: string, events: unknown[] = []) => ({ update: { Transaction: { value: { updateId, offset, recordTime: '2026-01-01T00:00:00Z', synchronizerId: 's::1', effectiveAt: '2026-01-01T00:00:00Z', events } } } });
const completion = (offset: number, updateId: string, commandId: string) => ({ completionResponse: { Completion: { value: { commandId, updateId, offset, status: { code: 0 }, actAs: ['alice'], userId: 'u' } } } });
const write = (offset: number, updateId: string, commandId: string) => ({ commands: { commandId, actAs: ['alice'], userId: 'u', commands: [] } , answer: { transaction: { updateId, offset, events: [] } } });
const seen = (checkId: string, seq: number): Observation => ({ checkId, where: 'POST /v2/commands/submit-and-wait-for-transaction', seq, at: '2026-01-01T00:00:00Z', write: true });

/** A ledger with the given updates and completions, its end at `end`; `anyParty`: whether a read for every party is allowed. */
function ledger(o: { end: number; updates: unknown[]; completions?: unknown[]; anyParty?: boolean }) {
  return scripted((spec) => {
    if (spec.path === '/v2/state/ledger-end') return { status: 200, body: { offset: o.end } };
    const req = spec.json as { beginExclusive: number; endInclusive?: number; updateFormat?: { includeTransactions: { eventFormat: { filtersForAnyParty?: unknown } } } };
    if (spec.path === '/v2/updates') {
      if (o.anyParty === false && req.updateFormat?.includeTransactions.eventFormat.filtersForAnyParty !== undefined) return { status: 403, body: { code: 'PERMISSION_DENIED', errorCategory: 6, grpcCodeValue: 7 } };
      const limit = Number(spec.query?.limit ?? 1e9);
      const offsetOf = (u: unknown) => (u as ReturnType<typeof tx>).update.Transaction.value.offset;
      return { status: 200, body: o.updates.filter((u) => offsetOf(u) > req.beginExclusive && offsetOf(u) <= req.endInclusive!).slice(0, limit) };
    }
    if (spec.path === '/v2/commands/completions') return { status: 200, body: o.completions ?? [] };
    return { status: 404, body: {} };
  });
}

async function followed(o: Parameters<typeof ledger>[0], writes: ReturnType<typeof write>[], start = 0) {
  const model = new TargetModel();
  const t = ledger({ ...o, end: start });
  const f = new StreamFollower(model, t.client, []);
  await f.start();
  const real = ledger(o);
  (f as unknown as { client: TargetClient }).client = real.client;
  writes.forEach((w, i) => f.noteWrite(`check-${i}`, seen(`check-${i}`, i), {} as Exchange, '/v2/commands/submit-and-wait-for-transaction', { commands: w.commands }, 200, w.answer));
  const during = await f.sync('check-0');
  const atEnd = await f.finish();
  return { during, atEnd, totals: f.totals(), asked: real.asked };
}

describe('the stream follower judges the update stream and completions by their own rules', () => {
  it('a conformant stream and completions: nothing found, every write judged', async () => {
    const r = await followed({ end: 3, updates: [tx(1, 'u1'), tx(2, 'u2'), tx(3, 'u3')], completions: [completion(1, 'u1', 'c1'), completion(3, 'u3', 'c3')] }, [write(1, 'u1', 'c1'), write(3, 'u3', 'c3')]);
    expect([...r.during, ...r.atEnd]).toEqual([]);
    expect(r.totals).toMatchObject({ from: 0, to: 3, updates: 3, completions: 2, writes: 2, filter: 'any-party' });
  });

  it('offsets that go back, and an update shown twice, break judge.stream.offsets-increase', async () => {
    const back = await followed({ end: 3, updates: [tx(2, 'u2'), tx(1, 'u1')] }, []);
    expect(back.during.map((v) => v.violation.invariant)).toEqual(['judge.stream.offsets-increase']);
    expect(back.during[0]!.violation.message).toContain('follows offset 2');
    const twice = await followed({ end: 3, updates: [tx(1, 'u1'), tx(1, 'u1')] }, []);
    expect(twice.during.map((v) => v.violation.invariant)).toContain('judge.stream.offsets-increase');
  });

  it("a write whose update the stream lacks, or shows at another offset, breaks judge.writes.answer-is-committed naming the write", async () => {
    const r = await followed({ end: 3, updates: [tx(1, 'u1'), tx(3, 'u3')] }, [write(2, 'u2', 'c2'), write(1, 'u1', 'c1')]);
    const missing = r.during.find((v) => v.violation.message.includes('has no such update'))!;
    expect(missing.violation).toMatchObject({ invariant: 'judge.writes.answer-is-committed', first: { checkId: 'check-0', write: true } });
  });

  it('a completion delivered twice, missing, or naming another update breaks judge.completions.once-per-command', async () => {
    const r = await followed({ end: 3, updates: [tx(1, 'u1'), tx(2, 'u2'), tx(3, 'u3')], completions: [completion(1, 'u1', 'c1'), completion(1, 'u1', 'c1'), completion(2, 'uX', 'c2')] }, [write(1, 'u1', 'c1'), write(2, 'u2', 'c2'), write(3, 'u3', 'c3')]);
    const found = r.atEnd.filter((v) => v.violation.invariant === 'judge.completions.once-per-command').map((v) => v.violation.message);
    expect(found).toHaveLength(3);
    expect(found[0]).toContain('2 completions name this update');
    expect(found[1]).toContain('its completion names update uX');
    expect(found[2]).toContain('no completion');
  });

  it('reads the completions of a busy ledger, whose every page is full of checkpoints, up to the ledger end at the end of the run, and stops', async () => {
    // Other applications keep writing: a participant with a short checkpoint interval fills every
    // completions page with checkpoints of offsets past the run's, for as long as one reads on.
    const checkpoint = (offset: number) => ({ completionResponse: { OffsetCheckpoint: { value: { offset, synchronizerTimes: [] } } } });
    const updates = [tx(1, 'u1'), tx(2, 'u2'), tx(3, 'u3')];
    let completionReads = 0;
    const busy = scripted((spec) => {
      if (spec.path === '/v2/state/ledger-end') return { status: 200, body: { offset: 3 } };
      const begin = (spec.json as { beginExclusive: number }).beginExclusive;
      if (spec.path === '/v2/updates') return { status: 200, body: updates.filter((u) => u.update.Transaction.value.offset > begin) };
      const limit = Number(spec.query?.limit);
      // A follower that reads on would never stop: after 20 pages the ledger goes quiet, so the test fails instead of hanging.
      if (++completionReads > 20) return { status: 200, body: [] };
      return { status: 200, body: [...(begin < 3 ? [completion(3, 'u3', 'c3')] : []), ...Array.from({ length: limit }, (_, i) => checkpoint(Math.max(begin, 3) + i + 1))].slice(0, limit) };
    });
    const model = new TargetModel();
    const f = new StreamFollower(model, ledger({ end: 0, updates: [] }).client, []);
    await f.start();
    (f as unknown as { client: TargetClient }).client = busy.client;
    f.noteWrite('check-0', seen('check-0', 0), {} as Exchange, '/v2/commands/submit-and-wait-for-transaction', { commands: write(3, 'u3', 'c3').commands }, 200, write(3, 'u3', 'c3').answer);
    const found = await f.finish();
    expect(found).toEqual([]);
    expect(busy.asked.filter((q) => q.path === '/v2/commands/completions')).toHaveLength(1);
  });

  it('pages through a long range (the page growing while pages stay small), and falls back to the parties the run acts as when every party cannot be read', async () => {
    const many = Array.from({ length: UPDATES_PAGE + 5 }, (_, i) => tx(i + 1, `u${i + 1}`));
    const r = await followed({ end: UPDATES_PAGE + 5, updates: many, anyParty: false }, [write(1, 'u1', 'c1')]);
    expect(r.totals).toMatchObject({ updates: UPDATES_PAGE + 5, filter: 'parties' });
    const reads = r.asked.filter((s) => s.path === '/v2/updates');
    // 403 for every party, then pages for alice, growing while they stay small.
    expect(reads.map((q) => q.query?.limit)).toEqual([4, 4, 8, 16, 32, 64]);
    expect(JSON.stringify(reads[1]!.json)).toContain('"filtersByParty":{"alice"');
    expect(r.during).toEqual([]);
  });
});

describe('archives against active-contracts snapshots (judge.contracts.archived-stays-archived)', () => {
  const at = (where: string, seq: number): Observation => ({ checkId: 'c', where, seq, at: '2026-01-01T00:00:00Z' });
  const acs = (offset: number) => ({ method: 'POST', path: '/v2/state/active-contracts', request: { activeAtOffset: offset }, status: 200, body: [{ contractEntry: { JsActiveContract: { createdEvent: { contractId: '00c1' } } } }] });
  const archive = (offset: number) => ({ method: 'POST', path: '/v2/updates', request: {}, status: 200, body: [tx(offset, `u${offset}`, [{ ArchivedEvent: { contractId: '00c1', offset } }])] });

  it('a snapshot at or after the archive holding the contract, either order, and a second archive, break it', () => {
    const m = new TargetModel();
    expect(observe(m, acs(4), at('POST /acs', 1), m.tick())).toEqual([]);
    expect(observe(m, archive(4), at('POST /v2/updates', 2), m.tick()).map((v) => v.invariant)).toEqual(['judge.contracts.archived-stays-archived']);
    const n = new TargetModel();
    expect(observe(n, acs(3), at('POST /acs', 1), n.tick())).toEqual([]);
    expect(observe(n, archive(4), at('POST /v2/updates', 2), n.tick())).toEqual([]);
    expect(observe(n, acs(5), at('POST /acs', 3), n.tick()).map((v) => v.invariant)).toEqual(['judge.contracts.archived-stays-archived']);
    expect(observe(n, { ...archive(6), body: [tx(6, 'u6', [{ ExercisedEvent: { contractId: '00c1', offset: 6, consuming: true } }])] }, at('POST /v2/updates', 4), n.tick()).map((v) => v.invariant)).toEqual(['judge.contracts.archived-stays-archived']);
  });
});

let reference: { url: string; close(): Promise<void> };
beforeAll(async () => {
  reference = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined });
}, 60_000);
afterAll(() => reference?.close());

describe('the judge follows the update stream of the reference ledger', () => {
  it('reads the updates and completions of the run, judges every write, and finds nothing', async () => {
    const { report, exitCode } = await runSuite({
      baseUrls: { registry: reference.url, ledger: reference.url, scan: reference.url },
      target: reference.url,
      profile: loadProfile('reference'),
      only: ['ledger.submit.in-updates', 'ledger.archive.removed-at-new-end', 'ledger.async.submit-then-completion', 'ledger.dedup.duplicate-409', 'ledger.dedup.reuse-after-period'],
      seed: 1,
      runs: 4,
      progress: 'quiet',
      toolVersion: 'test',
    });
    expect(report.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(exitCode).toBe(0);
    const s = report.judge!.stream!;
    expect(s.filter).toBe('any-party');
    expect(s.writes).toBeGreaterThanOrEqual(6);
    expect(s.completions).toBeGreaterThanOrEqual(s.writes);
    expect(s.to! - s.from!).toBeGreaterThanOrEqual(s.writes);
    expect(s.updates).toBeGreaterThanOrEqual(s.writes);
  }, 120_000);
});

describe('exercises within a contract\'s life (judge.contracts.used-while-active)', () => {
  const at = (seq: number): Observation => ({ checkId: 'c', where: 'POST /v2/updates', seq, at: '2026-01-01T00:00:00Z' });
  const read = (...txs: unknown[]) => ({ method: 'POST', path: '/v2/updates', request: {}, status: 200, body: txs });
  const onSync = (t: ReturnType<typeof tx>, synchronizerId: string) => ({ update: { Transaction: { value: { ...t.update.Transaction.value, synchronizerId } } } });
  const created = (offset: number) => tx(offset, `u${offset}`, [{ CreatedEvent: { contractId: '00c1', offset, nodeId: 0 } }]);
  const archived = (offset: number) => tx(offset, `u${offset}`, [{ ExercisedEvent: { contractId: '00c1', offset, nodeId: 0, choice: 'Archive', consuming: true, actingParties: ['a'] } }]);
  const described = (offset: number) => tx(offset, `u${offset}`, [{ ExercisedEvent: { contractId: '00c1', offset, nodeId: 0, choice: 'Describe', consuming: false, actingParties: ['a'] } }]);
  const judged = (...reads: unknown[][]) => {
    const m = new TargetModel();
    return reads.flatMap((txs, i) => observe(m, read(...txs), at(i + 1), m.tick()).map((v) => v.invariant));
  };

  it('a non-consuming exercise after the archive, or any before the create, breaks it, in either order of reading', () => {
    expect(judged([created(2), described(3), archived(4), described(5)])).toEqual(['judge.contracts.used-while-active']);
    expect(judged([described(5)], [archived(4)])).toEqual(['judge.contracts.used-while-active']);
    expect(judged([described(1), created(2)])).toEqual(['judge.contracts.used-while-active']);
    expect(judged([created(2)], [archived(1)])).toEqual(['judge.contracts.used-while-active']);
  });

  it('holds within one transaction, for an exercise whose create was never shown, and across synchronizers (their offsets do not order them)', () => {
    const both = tx(4, 'u4', [described(4).update.Transaction.value.events[0], archived(4).update.Transaction.value.events[0]]);
    expect(judged([created(2), both])).toEqual([]);
    expect(judged([described(3), archived(4)])).toEqual([]);
    expect(judged([archived(4), onSync(described(5), 's::2')])).toEqual([]);
    expect(judged([onSync(created(6), 's::2'), described(5)])).toEqual([]);
  });
});

describe('snapshots hold no contract created after them (judge.contracts.active-after-created)', () => {
  const at = (seq: number): Observation => ({ checkId: 'c', where: 'WS /v2/state/active-contracts', seq, at: '2026-01-01T00:00:00Z' });
  const created = (offset: number, synchronizerId = 's::1') => ({ method: 'POST', path: '/v2/updates', request: {}, status: 200, body: [{ update: { Transaction: { value: { ...tx(offset, `u${offset}`).update.Transaction.value, synchronizerId, events: [{ CreatedEvent: { contractId: '00c1', offset, nodeId: 0 } }] } } } }] });
  const snapshot = (activeAtOffset: number, own: number, synchronizerId = 's::1') => ({
    method: 'GET', path: '/v2/state/active-contracts', request: { activeAtOffset }, status: 101, stream: { ended: 'closed', cut: false, closeCode: 1000 },
    body: [{ contractEntry: { JsActiveContract: { createdEvent: { contractId: '00c1', offset: own }, synchronizerId, reassignmentCounter: 0 } } }],
  });
  const judged = (...answers: Answer[]) => {
    const m = new TargetModel();
    return answers.flatMap((a, i) => observe(m, a, at(i + 1), m.tick()).map((v) => v.invariant));
  };

  it('a created event after the offset asked at, or a create the stream shows later on the same synchronizer, in either order of reading', () => {
    expect(judged(snapshot(4, 6))).toEqual(['judge.contracts.active-after-created']);
    expect(judged(created(6), snapshot(4, 3))).toEqual(['judge.contracts.active-after-created']);
    expect(judged(snapshot(4, 3), created(6))).toEqual(['judge.contracts.active-after-created']);
  });

  it('holds for a create at or before the snapshot, and across synchronizers (an assignment may be published before the create)', () => {
    expect(judged(created(4), snapshot(4, 4), snapshot(9, 4))).toEqual([]);
    expect(judged(snapshot(4, 3, 's::2'), created(6))).toEqual([]);
    expect(judged(created(6, 's::2'), snapshot(4, 3))).toEqual([]);
  });
});
