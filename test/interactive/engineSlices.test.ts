/**
 * Interactive prepare and execute run the engine in slices that yield to the event loop (issue
 * 30, "never block"): the operation runs once to find its seeded engine run, the run is made in
 * slices, and the operation runs again taking it, so the answer is the synchronous one. Proven by
 * events: another client's request is answered while a looping prepare still runs; a prepared and
 * signed transaction commits through runs made in slices (counted), exactly as signed. All of it
 * again with the runs made on the engine thread, as `serve` makes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { BuiltPackage } from '../../daml-engine/build/PackageBuilder.js';
import { createCommand, exerciseCommand } from '../../daml-engine/update/UpdateEngine.js';
import { int64, type RecordValue } from '../../daml-engine/value/Value.js';
import { createLedger } from '../../reference-server/src/ledger/index.js';
import { buildHostilePackage } from '../daml/hostilePackage.js';
import { post } from '../http/support/ledgerApi.js';
import { upload } from '../http/support/packages.js';
import { startServer, type TestServer } from '../http/support/startServer.js';
import { executeBody, onboard, prepareBody } from './support/externalParties.js';
import { newKey, signHash, type TestKey } from './support/keys.js';
import { ENGINE_THREADS, skippedUnbuilt } from '../support/builtEngineWorker.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));
interface Prepared { preparedTransaction: string; preparedTransactionHash: string }

describe.each(ENGINE_THREADS)('%s', (_label, engineWorker) => {
  if (skippedUnbuilt(engineWorker)) return;
  let server: TestServer;
  let built: BuiltPackage;
  let owner: string;
  let key: TestKey;
  const tid = (entity: string) => `${built.id}:Hostile:${entity}`;

  beforeAll(async () => {
    built = buildHostilePackage('hostile-interactive');
    // A small step budget keeps the looping prepare short; slicing is what is proven.
    server = await startServer({ ledger: createLedger({ engineLimits: { stepBudget: 500_000 }, engineWorker }) });
    const sync = server.ledger.config.synchronizers[0]!.id;
    expect((await upload(server, `/v2/dars?synchronizerId=${encodeURIComponent(sync)}`, built.dar())).status).toBe(200);
    key = newKey('ed25519');
    owner = await onboard(server, {}, 'owner-ext', key, sync);
  });
  afterAll(() => server.close());

  const prepare = (commands: unknown[]) => post(server, '/v2/interactive-submission/prepare', { ...prepareBody(owner, commands), actAs: [owner], userId: 'wallet' });

  describe('interactive submission in slices', () => {
    it('a prepared create and a signed execute commit through runs made in slices, as signed', async () => {
      const taken = server.ledger.engine.slicedRunsTaken;
      const res = await prepare([{ CreateCommand: { templateId: tid('Bomb'), createArguments: { owner, depth: '2' } } }]);
      expect(res.status, res.text).toBe(200);
      expect(server.ledger.engine.slicedRunsTaken).toBe(taken + 1);
      const p = res.body as Prepared;
      const executed = await post(server, '/v2/interactive-submission/executeAndWait', { ...executeBody(p.preparedTransaction, [{ party: owner, signatures: [signHash(key, p.preparedTransactionHash)] }]), userId: 'wallet' });
      expect(executed.status, executed.text).toBe(200);
      expect(server.ledger.engine.slicedRunsTaken).toBe(taken + 2);
      // Executing it again is refused as before (the reused UUID), never committed twice.
      const again = await post(server, '/v2/interactive-submission/executeAndWait', { ...executeBody(p.preparedTransaction, [{ party: owner, signatures: [signHash(key, p.preparedTransactionHash)] }]), userId: 'wallet' });
      expect(again.status).not.toBe(200);
      expect(server.errors).toEqual([]);
    });

    it('a looping prepare: GET /v2/version is answered first, the prepare is refused INTERPRETATION_TIME_EXCEEDED', async () => {
      const created = await prepare([{ CreateCommand: { templateId: tid('Bomb'), createArguments: { owner, depth: '1' } } }]);
      expect(created.status).toBe(200);
      const p = created.body as Prepared;
      const done = await post(server, '/v2/interactive-submission/executeAndWaitForTransaction', { ...executeBody(p.preparedTransaction, [{ party: owner, signatures: [signHash(key, p.preparedTransactionHash)] }]), userId: 'wallet' });
      expect(done.status, done.text).toBe(200);
      const bomb = (done.body as { transaction: { events: { CreatedEvent: { contractId: string } }[] } }).transaction.events[0]!.CreatedEvent.contractId;
      const order: string[] = [];
      const taken = server.ledger.engine.slicedRunsTaken;
      // Plain fetch: the spec declares no 409 for prepare, which Canton answers for this error (as for submit).
      const looping = fetch(`${server.url}/v2/interactive-submission/prepare`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...prepareBody(owner, [{ ExerciseCommand: { templateId: tid('Bomb'), contractId: bomb, choice: 'Loop', choiceArgument: {} } }]), actAs: [owner], userId: 'wallet' }),
      }).then(async (r) => {
        order.push('prepare answered');
        return { status: r.status, body: (await r.json()) as { code: string } };
      });
      while (server.ledger.engine.slicedRunsInProgress === 0) await turn();
      const version = await fetch(`${server.url}/v2/version`);
      expect(version.status).toBe(200);
      order.push('version answered');
      const refused = await looping;
      // On the ledger's thread the order is the slices' doing; on the engine thread the loop runs
      // beside the server's thread, and which finishes first is the scheduler's (not asserted).
      if (engineWorker === undefined) expect(order).toEqual(['version answered', 'prepare answered']);
      expect([refused.status, refused.body.code]).toEqual([409, 'INTERPRETATION_TIME_EXCEEDED']);
      // The refusal is the run made in slices: the loop did not run again at once.
      expect(server.ledger.engine.slicedRunsTaken).toBe(taken + 1);
    });
  });

  describe('engine submissions of a Daml Script on the ledger core, in slices', () => {
    it('a create commits through a run made in slices; a loop lets other work run and is refused', async () => {
      const ledger = server.ledger;
      const bombRef = built.ref('Hostile', 'Bomb');
      const bombArg = (depth: bigint): RecordValue => ({ kind: 'record', tycon: bombRef, fieldNames: ['owner', 'depth'], fields: [{ kind: 'party', value: owner }, int64(depth)] });
      const taken = ledger.engine.slicedRunsTaken;
      const end = ledger.ledgerEnd().offset;
      const created = await ledger.submitEngineCommandsInSlices({ actAs: [owner], commands: [createCommand(bombRef, bombArg(3n))], commandId: 'script-create' });
      expect(created.ok).toBe(true);
      expect(ledger.engine.slicedRunsTaken).toBe(taken + 1);
      expect(ledger.ledgerEnd().offset).toBe(end + 1);
      const cid = created.ok ? (created.value.results[0] as { value: string }).value : '';

      const events: string[] = [];
      const loop = ledger.submitEngineCommandsInSlices({
        actAs: [owner], commandId: 'script-loop',
        commands: [exerciseCommand(bombRef, cid, 'Loop', { kind: 'record', tycon: built.ref('Hostile', 'Loop'), fieldNames: [], fields: [] })],
      }).then((r) => {
        events.push('loop refused');
        return r;
      });
      setImmediate(() => events.push('other request served'));
      const refused = await loop;
      expect(refused.ok ? 'committed' : refused.error.code).toBe('INTERPRETATION_TIME_EXCEEDED');
      if (engineWorker === undefined) expect(events).toEqual(['other request served', 'loop refused']);
      else expect(events).toContain('loop refused');
      expect(ledger.ledgerEnd().offset).toBe(end + 1);
    });
  });

  if (engineWorker !== undefined) {
    it('made those runs on the engine thread, none handed back', () => {
      const counts = server.ledger.engine.worker!.counts;
      expect(counts.made).toBeGreaterThanOrEqual(6);
      expect(counts.handedBack).toBe(0);
    });
  }
});
