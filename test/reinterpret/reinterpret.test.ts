import { describe, expect, it } from 'vitest';
import { buildOwnPackage, OWN_MODULE } from '../../conformance/src/reinterpret/ownPackage.js';
import type { LedgerSource, ReportedContract } from '../../conformance/src/reinterpret/ledgerSource.js';
import { packageFromPayload } from '../../conformance/src/reinterpret/ledgerSource.js';
import { PackageBuilder } from '../../daml-engine/index.js';
import { reinterpret, type JudgedSubmission } from '../../conformance/src/reinterpret/reinterpret.js';
import { describeDifference } from '../../conformance/src/reinterpret/compareTransaction.js';
import { committedTransactions, mergeReinterpretation, ReinterpretTally } from '../../conformance/src/reinterpret/reinterpretTally.js';

/** Re-interpretation against an in-memory source: agreement, each kind of difference, and the skips. */
const built = buildOwnPackage('reinterpret-unit');
const templateId = `${built.id}:${OWN_MODULE}:Ticket`;
const [issuer, holder, watcher] = ['issuer::1220aa', 'holder::1220bb', 'watcher::1220cc'];
const args = { issuer, holder, watchers: [watcher], count: '3', note: 'n-' };
const cid = '00' + 'ab'.repeat(33);

function source(contracts: ReportedContract[] = [], packages: 'served' | 'missing' = 'served'): LedgerSource {
  return {
    packageOf: (id) => Promise.resolve(packages === 'served' && id === built.id ? { ok: true, pkg: built.package } : { ok: false, reason: `GET /v2/packages/${id} answered HTTP 404` }),
    contract: (id) => Promise.resolve(contracts.find((c) => c.contractId === id)),
  };
}
const input: ReportedContract = { contractId: cid, templateId, createArgument: args, signatories: [issuer], observers: [holder, watcher] };

const createEvent = (over: Record<string, unknown> = {}) => ({ CreatedEvent: { nodeId: 0, contractId: '00cd', templateId, packageName: 'reinterpret-unit', createArgument: args, signatories: [issuer], observers: [holder, watcher], witnessParties: [issuer], ...over } });
const create = (events: unknown[]): JudgedSubmission => ({ commands: [{ CreateCommand: { templateId, createArguments: args } }], actAs: [issuer], parties: [issuer], transaction: { events } });
const describeTx = (over: Record<string, unknown> = {}): JudgedSubmission => ({
  commands: [{ ExerciseCommand: { templateId, contractId: cid, choice: 'Describe', choiceArgument: { times: '2' } } }], actAs: [issuer], parties: [issuer],
  transaction: { events: [{ ExercisedEvent: { nodeId: 0, lastDescendantNodeId: 0, contractId: cid, templateId, packageName: 'reinterpret-unit', choice: 'Describe', choiceArgument: { times: '2' }, consuming: false, actingParties: [issuer], exerciseResult: 'n-6', witnessParties: [issuer], ...over } }] },
});

describe('reinterpret', () => {
  it('agrees with a faithful create and a faithful non-consuming exercise', async () => {
    expect(await reinterpret(source(), create([createEvent()]))).toEqual({ kind: 'agrees', nodes: 1 });
    expect(await reinterpret(source([input]), describeTx())).toEqual({ kind: 'agrees', nodes: 1 });
  });

  it('names each difference by its judge.daml id, path and both values', async () => {
    const cases: [JudgedSubmission, string, string][] = [
      [create([createEvent({ signatories: [holder] })]), 'judge.daml.signatories', 'events[0].signatories'],
      [create([createEvent({ observers: [holder] })]), 'judge.daml.observers', 'events[0].observers'],
      [create([createEvent({ createArgument: { ...args, count: '4' } })]), 'judge.daml.payload', 'events[0].createArgument'],
      [create([createEvent({ templateId: `${'f'.repeat(64)}:${OWN_MODULE}:Ticket` })]), 'judge.daml.template', 'events[0].templateId'],
      [create([createEvent({ packageName: 'reinterpret-unit-renamed' })]), 'judge.daml.package-name', 'events[0].packageName'],
      [describeTx({ packageName: 'other' }), 'judge.daml.package-name', 'events[0].packageName'],
      [create([createEvent(), createEvent({ nodeId: 1 })]), 'judge.daml.nodes', 'events'],
      [describeTx({ consuming: true }), 'judge.daml.consuming', 'events[0].consuming'],
      [describeTx({ exerciseResult: 'n-3' }), 'judge.daml.exercise-result', 'events[0].exerciseResult'],
      [describeTx({ actingParties: [holder] }), 'judge.daml.acting-parties', 'events[0].actingParties'],
      [describeTx({ choiceArgument: { times: '3' } }), 'judge.daml.choice-argument', 'events[0].choiceArgument'],
      [describeTx({ interfaceId: `${built.id}:${OWN_MODULE}:Counted` }), 'judge.daml.interface', 'events[0].interfaceId'],
      [create([createEvent({ witnessParties: [issuer, 'intruder::1220dd'] })]), 'judge.daml.witnesses', 'events[0].witnessParties'],
      [describeTx({ witnessParties: [] }), 'judge.daml.witnesses', 'events[0].witnessParties'],
    ];
    for (const [s, id, path] of cases) {
      const r = await reinterpret(source([input]), s);
      expect(r.kind, id).toBe('differs');
      if (r.kind !== 'differs') continue;
      expect(r.differences.map((d) => d.id)).toContain(id);
      const d = r.differences.find((x) => x.id === id)!;
      expect(d.path).toBe(path);
      expect(describeDifference(d)).toMatch(new RegExp(`^${id} at `));
    }
  });

  it('a command the engine refuses (a controller that did not submit) is judge.daml.refused', async () => {
    const r = await reinterpret(source([input]), { ...describeTx(), actAs: [holder], parties: [holder] });
    expect(r.kind).toBe('differs');
    expect(r.kind === 'differs' && r.differences[0]!.id).toBe('judge.daml.refused');
  });

  it('resolves a package name to the package the events name, as the target did', async () => {
    const byName = `#reinterpret-unit:${OWN_MODULE}:Ticket`;
    expect(await reinterpret(source(), { ...create([createEvent()]), commands: [{ CreateCommand: { templateId: byName, createArguments: args } }] })).toEqual({ kind: 'agrees', nodes: 1 });
    expect(await reinterpret(source([input]), { ...describeTx(), commands: [{ ExerciseCommand: { templateId: byName, contractId: cid, choice: 'Describe', choiceArgument: { times: '2' } } }] })).toEqual({ kind: 'agrees', nodes: 1 });
  });

  it('compares the interface views a created event carries with the views the engine computes (judge.daml.view)', async () => {
    const view = (viewValue: unknown) => ({ interfaceViews: [{ interfaceId: `${built.id}:${OWN_MODULE}:Counted`, viewStatus: { code: 0 }, viewValue }] });
    expect(await reinterpret(source(), create([createEvent(view({ holder, total: '3', label: 'n-' }))]))).toEqual({ kind: 'agrees', nodes: 1 });
    const r = await reinterpret(source(), create([createEvent(view({ holder, total: '4', label: 'n-' }))]));
    expect(r).toEqual({ kind: 'differs', differences: [{ id: 'judge.daml.view', path: 'events[0].interfaceViews[0].viewValue', target: { holder, total: '4', label: 'n-' }, engine: { holder, total: '3', label: 'n-' } }] });
  });

  it('a package served without modules is a hand-written port: skipped with that reason', () => {
    const port = new PackageBuilder({ name: 'some-port', version: '0.1.0' }).build();
    const served = packageFromPayload(port.id, port.payload);
    expect(served).toEqual({ ok: false, reason: expect.stringMatching(/^hand-written port: package [0-9a-f]{64} \(some-port 0\.1\.0\) is served without Daml-LF modules, so/) });
    // The reference's ports: a payload naming the package under an id that is not its hash.
    const other = packageFromPayload('e'.repeat(64), port.payload);
    expect(other.ok === false && other.reason).toMatch(/^hand-written port: .* \(and its payload does not hash to its id\)/);
    expect(packageFromPayload(built.id, built.payload).ok).toBe(true);
  });

  it('skips, with the reason, what it cannot re-run', async () => {
    const skips: [LedgerSource, JudgedSubmission, RegExp][] = [
      [source([], 'missing'), create([createEvent()]), /answered HTTP 404/],
      [source(), describeTx(), /input contract .* has no created event/],
      [source(), { ...create([createEvent()]), commands: [{ CreateCommand: { templateId: `#another-name:${OWN_MODULE}:Ticket`, createArguments: args } }] }, /by package name .* no package of that name/],
      [source(), { ...create([createEvent()]), commands: [{ SomeFutureCommand: { templateId, createArguments: args } }] }, /SomeFutureCommand is not re-run/],
      [source(), create([{ ArchivedEvent: { contractId: cid } }]), /LEDGER_EFFECTS/],
    ];
    for (const [src, s, why] of skips) {
      const r = await reinterpret(src, s);
      expect(r.kind).toBe('skipped');
      expect(r.kind === 'skipped' && r.reason).toMatch(why);
    }
  });

  it('the tally counts what was re-run, what differed and what was skipped', () => {
    const t = new ReinterpretTally('engine');
    t.record('a', { kind: 'agrees' });
    t.record('a', { kind: 'differs' });
    t.record('b', { kind: 'skipped', reason: 'why' });
    t.record('b', { kind: 'agrees' });
    expect(t.summary()).toEqual({ mode: 'engine', transactions: 4, handed: 4, reinterpreted: 3, differing: 1, share: 0.75, skipped: [{ check: 'b', reason: 'why' }] });
    // The share is of every transaction the run committed, not only of those handed to it.
    expect(t.summary(10)).toMatchObject({ transactions: 10, handed: 4, reinterpreted: 3, share: 0.3 });
  });

  it('shards add up: counts summed, the share over the sum, skips kept', () => {
    const a = new ReinterpretTally('engine');
    a.record('x', { kind: 'agrees' });
    const b = new ReinterpretTally('engine');
    b.record('y', { kind: 'skipped', reason: 'why' });
    expect(mergeReinterpretation([a.summary(2), undefined, b.summary(2)])).toEqual({ mode: 'engine', transactions: 4, handed: 2, reinterpreted: 1, differing: 0, share: 0.25, skipped: [{ check: 'y', reason: 'why' }] });
    expect(mergeReinterpretation([undefined])).toBeUndefined();
  });

  it("shards' history tallies add up too: the target's history with its views, the transactions others committed during the run", () => {
    const a = new ReinterpretTally('engine');
    a.recordHistory({ kind: 'agrees' });
    a.recordHistory({ kind: 'skipped' });
    a.recordHistoryViews(5);
    a.recordFollowed({ kind: 'differs' });
    const b = new ReinterpretTally('engine');
    b.recordHistory({ kind: 'differs' });
    const merged = mergeReinterpretation([a.summary(), b.summary()]);
    expect(merged?.targetHistory).toEqual({ read: 3, reinterpreted: 2, differing: 1, skipped: 1, views: 5 });
    expect(merged?.duringRun).toEqual({ read: 1, reinterpreted: 1, differing: 1, skipped: 0 });
    expect(mergeReinterpretation([b.summary()])?.duringRun).toBeUndefined();
  });

  it('counts the committed transactions of a run: answered synchronous submissions', () => {
    const e = (path: string, status: number, method = 'POST') => ({ group: 'ledger' as const, path, request: { method: method as 'POST', url: `http://x${path}`, headers: {} }, response: { status, headers: {}, contentType: 'application/json', text: '', truncated: false, size: 0 } });
    expect(committedTransactions([
      e('/v2/commands/submit-and-wait', 200), e('/v2/commands/submit-and-wait-for-transaction', 200), e('/v2/interactive-submission/executeAndWait', 200),
      e('/v2/commands/submit-and-wait', 400), e('/v2/commands/async/submit', 200), e('/v2/parties', 200),
    ])).toBe(3);
  });
});
