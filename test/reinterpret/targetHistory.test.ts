/**
 * `ledger.reinterpret.target-history`: the target's own transactions, which the suite did not
 * cause, re-run by the engine from the top-level nodes a reader sees.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../../conformance/src/runner/profile.js';
import { runSuite } from '../../conformance/src/runner/runSuite.js';
import type { Report } from '../../conformance/src/report/model.js';
import { rootCommandsOf } from '../../conformance/src/reinterpret/reinterpretShown.js';
import { targetNodesOf } from '../../conformance/src/reinterpret/compareTransaction.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import type { ReferenceServer } from '../../reference-server/src/server.js';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';
import { startMutant, type Fault } from '../mutants/mutantProxy.js';
import { everywhere } from '../mutants/mutantKit.js';

const CHECK = 'ledger.reinterpret.target-history';
const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };

async function certify(url: string, only: readonly string[] | undefined, skip: readonly string[] = []): Promise<{ report: Report; exitCode: number }> {
  return runSuite({
    baseUrls: { registry: url, ledger: url, scan: url },
    target: url,
    profile: loadProfile('reference'),
    ...(only === undefined ? {} : { only }),
    ...(skip.length === 0 ? {} : { skip }),
    seed: 20261201,
    runs: 4,
    timeoutMs: 10_000,
    concurrency: 2,
    progress: 'quiet',
    toolVersion: 'target-history',
    oracle: 'none',
  });
}

const statusOf = (r: Report, id: string) => r.checks.find((c) => c.id === id);

describe('the command each top-level node a reader sees is the root action of', () => {
  it('re-runs a create as its signatories and an exercise as its acting parties, through its interface when it had one; nodes below are not commands', () => {
    const events = [
      { CreatedEvent: { nodeId: 0, contractId: '00aa', templateId: 'p:M:T', createArgument: { a: 1 }, signatories: ['s::1'], observers: [], witnessParties: ['s::1'] } },
      { ExercisedEvent: { nodeId: 1, lastDescendantNodeId: 2, contractId: '00bb', templateId: 'p:M:T', interfaceId: 'q:I:J', choice: 'Go', choiceArgument: { b: 2 }, consuming: true, actingParties: ['c::1'], witnessParties: ['c::1'], exerciseResult: null } },
      { CreatedEvent: { nodeId: 2, contractId: '00cc', templateId: 'p:M:T', createArgument: { a: 3 }, signatories: ['c::1'], observers: [], witnessParties: ['c::1'] } },
    ];
    const nodes = targetNodesOf(events);
    if (!nodes.ok) throw new Error(nodes.reason);
    expect(rootCommandsOf(nodes.nodes)).toEqual({
      commands: [
        { CreateCommand: { templateId: 'p:M:T', createArguments: { a: 1 } } },
        { ExerciseCommand: { templateId: 'q:I:J', contractId: '00bb', choice: 'Go', choiceArgument: { b: 2 } } },
      ],
      actAsOf: [['s::1'], ['c::1']],
    });
  });

  it('says why a node cannot be a command', () => {
    const nodes = targetNodesOf([{ CreatedEvent: { nodeId: 0, contractId: '00aa', templateId: 'p:M:T', createArgument: {}, signatories: [], observers: [] } }]);
    if (!nodes.ok) throw new Error(nodes.reason);
    expect(rootCommandsOf(nodes.nodes)).toMatch(/has no templateId or signatories/);
  });
});

describe('a target whose history, written before the run, was not what its Daml computes', () => {
  let reference: ReferenceServer;
  beforeAll(async () => {
    reference = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, log: quiet });
  }, 60_000);
  afterAll(() => reference?.close());

  // The default world's history holds the archive of a sample asset by its issuer (offset 33):
  // shown, in every read, as a non-consuming exercise. The suite's own transactions are untouched,
  // and no read of the ACS shows an exercise, so only the re-run of the target's history can tell.
  const fault: Fault = everywhere((x) => (
    x.choice === 'Archive' && typeof x.templateId === 'string' && x.templateId.endsWith(':Sample.Asset:Asset') && Array.isArray(x.actingParties) && x.actingParties.some((p) => String(p).startsWith('issuer::'))
      ? { ...x, consuming: false } : x));

  it('fails the check, naming the difference; the rest of the suite does not see it; the same target without the fault passes', async () => {
    const proxy = await startMutant(reference.url, fault);
    try {
      const { report, exitCode } = await certify(proxy.url, [CHECK]);
      const c = statusOf(report, CHECK);
      expect(c?.status, c?.message).toBe('fail');
      expect(c?.message).toMatch(/at offset \d+, re-run from the top-level nodes .* see, differs from what the target shows: judge\.daml\.consuming at events\[0\]\.consuming: the target has false, the engine true/);
      expect(exitCode).toBe(1);
      expect(report.reinterpretation?.targetHistory?.differing).toBe(1);
      // Every other check, the judge and the sweep on: the fault passes unseen.
      const rest = await certify(proxy.url, undefined, [CHECK]);
      expect(rest.report.checks.filter((x) => x.status === 'fail' || x.status === 'error').map((x) => `${x.id}: ${x.message}`)).toEqual([]);
      expect(rest.exitCode).toBe(0);
    } finally {
      await proxy.close();
    }
    const control = await certify(reference.url, [CHECK]);
    expect(statusOf(control.report, CHECK)?.status, statusOf(control.report, CHECK)?.message).toBe('pass');
    expect(control.report.reinterpretation?.targetHistory).toMatchObject({ differing: 0 });
    expect(control.report.reinterpretation?.targetHistory?.reinterpreted).toBeGreaterThanOrEqual(5);
    // The sample assets' Holding views, computed by the engine from the template's interface instance.
    expect(control.report.reinterpretation?.targetHistory?.views).toBeGreaterThanOrEqual(1);
  }, 180_000);
});

describe('a conformant history with a contract created and archived in one transaction', () => {
  let reference: ReferenceServer;
  beforeAll(async () => {
    reference = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, log: quiet });
  }, 60_000);
  afterAll(() => reference?.close());

  // A CreateAndExercise of Archive: two top-level nodes, the create and the consuming exercise of
  // the same contract, both acsDelta false (transient). Each root is re-run as a transaction of its
  // own, so the engine's id of the create is not the target's id the exercise names.
  it('passes: the re-run takes the two ids for one contract, transient', async () => {
    const post = async (path: string, json: unknown) => (await fetch(`${reference.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) })).json() as Promise<Record<string, unknown>>;
    const party = String(((await post('/v2/parties', { partyIdHint: 'transient-history', identityProviderId: '' })).partyDetails as Record<string, unknown>).party);
    const asset = { templateId: '#canton-conformance-samples:Sample.Asset:Asset', createArguments: { issuer: party, owner: party, amount: '10.0', observers: null } };
    const done = await post('/v2/commands/submit-and-wait', { commands: [{ CreateAndExerciseCommand: { ...asset, choice: 'Archive', choiceArgument: {} } }], commandId: 'transient-history-1', actAs: [party], userId: 'participant_admin' });
    expect(typeof done.updateId).toBe('string');
    const { report } = await certify(reference.url, [CHECK]);
    const c = statusOf(report, CHECK);
    expect(c?.status, c?.message).toBe('pass');
    expect(report.reinterpretation?.targetHistory).toMatchObject({ differing: 0 });
  }, 120_000);
});

describe('a target where another application commits during the run', () => {
  let reference: ReferenceServer;
  let writer: string;
  const assets: string[] = [];
  const ASSET = '#canton-conformance-samples:Sample.Asset:Asset';
  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> =>
    (await (await fetch(`${reference.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as Record<string, unknown>;

  beforeAll(async () => {
    reference = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, log: quiet });
    writer = ((await post('/v2/parties', { partyIdHint: 'other-application', identityProviderId: '' })).partyDetails as { party: string }).party;
  }, 60_000);
  afterAll(() => reference?.close());

  /**
   * The other application's writes, made while the run goes on: when the history check opens its
   * WebSocket (after the run began, so after the history it judges), it creates two assets of the
   * writer's and archives one. Deterministic: the upgrade waits for them.
   */
  function otherApplication(): Fault {
    let done = false;
    return {
      async upgrade() {
        if (done) return undefined;
        done = true;
        for (let i = 0; i < 2; i++) {
          const tx = await post('/v2/commands/submit-and-wait-for-transaction', { commands: { commands: [{ CreateCommand: { templateId: ASSET, createArguments: { issuer: writer, owner: writer, amount: `${i + 1}.0`, observers: null } } }], commandId: `other-${assets.length}`, userId: 'other-application', actAs: [writer] } });
          assets.push(((tx.transaction as { events: { CreatedEvent: { contractId: string } }[] }).events[0]!.CreatedEvent.contractId));
        }
        await post('/v2/commands/submit-and-wait', { commands: [{ ExerciseCommand: { templateId: ASSET, contractId: assets[assets.length - 1], choice: 'Archive', choiceArgument: {} } }], commandId: `other-archive-${assets.length}`, userId: 'other-application', actAs: [writer] });
        return undefined;
      },
    };
  }

  it("re-runs them at the end of the run: an archive shown as non-consuming fails the history check, which found the history before the run as it was", async () => {
    const flipped = everywhere((x) => (
      x.choice === 'Archive' && Array.isArray(x.actingParties) && x.actingParties.includes(writer) && typeof x.consuming === 'boolean' ? { ...x, consuming: false } : x));
    const proxy = await startMutant(reference.url, { ...flipped, ...otherApplication() });
    try {
      const { report, exitCode } = await certify(proxy.url, [CHECK]);
      const c = statusOf(report, CHECK);
      expect(c?.status, c?.message).toBe('fail');
      expect(c?.message).toMatch(/committed by another application during the run and re-run from the top-level nodes .* see, differs from what the target shows: judge\.daml\.consuming/);
      expect(exitCode).toBe(1);
      expect(report.reinterpretation?.targetHistory?.differing).toBe(0);
      expect(report.reinterpretation?.duringRun?.differing).toBe(1);
    } finally {
      await proxy.close();
    }
    // The same writes without the fault: re-run and agreeing.
    const proxy2 = await startMutant(reference.url, otherApplication());
    try {
      const { report } = await certify(proxy2.url, [CHECK]);
      expect(statusOf(report, CHECK)?.status, statusOf(report, CHECK)?.message).toBe('pass');
      expect(report.reinterpretation?.duringRun).toMatchObject({ differing: 0 });
      expect(report.reinterpretation?.duringRun?.reinterpreted).toBeGreaterThanOrEqual(3);
    } finally {
      await proxy2.close();
    }
  }, 180_000);
});

describe.skipIf(!HAS_DARS)("a target whose history is Splice's own Amulet (needs ../shared/upstream/daml/dars)", () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-target-history-'));
    try {
      for (const dar of ['splice-amulet-0.1.22.dar', 'splice-api-token-allocation-v2-1.0.0.dar', 'splice-api-token-holding-v2-1.0.0.dar', 'splice-api-token-transfer-instruction-v2-1.0.0.dar']) {
        copyFileSync(join(DARS_DIR, 'splice', dar), join(dir, dar));
      }
      server = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, spliceDars: dir, log: quiet });
    } finally {
      rmSync(dir, { recursive: true });
    }
  }, 120_000);
  afterAll(() => server?.close());

  it("re-runs its rounds' automation, transfers, allocations and preapprovals with Splice's code, fetched from the target, and finds them, and the views of its holdings, as shown", async () => {
    const { report } = await certify(server.url, [CHECK]);
    const c = statusOf(report, CHECK);
    expect(c?.status, c?.message).toBe('pass');
    const h = report.reinterpretation?.targetHistory;
    expect(h?.differing).toBe(0);
    expect(h?.reinterpreted).toBeGreaterThanOrEqual(30);
    // The token standard's Holding views (and Amulet's other interfaces) of the parties' active contracts.
    expect(h?.views).toBeGreaterThanOrEqual(10);
  }, 120_000);
});
