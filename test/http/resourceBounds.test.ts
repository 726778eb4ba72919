/**
 * The bounds on uploaded code (README "Resource limits"), each proven by a hostile package the
 * test builds (test/daml/hostilePackage.ts): a command past its allocation budget, its step budget,
 * the size limit or Daml's value nesting limit is refused with its documented code, nothing is
 * committed and the server answers the next request; interface views that loop or nest too deep
 * are reported in `interfaceViews[].viewStatus` as Canton reports a failed view, and the read goes on.
 * All of it on the ledger's own thread, and again with the engine thread `serve` runs commands on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { BuiltPackage } from '../../daml-engine/build/PackageBuilder.js';
import { errorMetadataProblem } from '../../conformance/src/checks/ledgerMeaning.js';
import { createLedger } from '../../reference-server/src/ledger/index.js';
import { buildHostilePackage } from '../daml/hostilePackage.js';
import { createdIn, JsonApiClient } from '../engineApps/JsonApiClient.js';
import { startServer, type TestServer } from './support/startServer.js';
import { ENGINE_THREADS, skippedUnbuilt } from '../support/builtEngineWorker.js';


describe.each(ENGINE_THREADS)('%s', (_label, engineWorker) => {
  if (skippedUnbuilt(engineWorker)) return;
  let server: TestServer;
  let api: JsonApiClient;
  let built: BuiltPackage;
  let owner: string;
  let bomb: string;
  const id = (entity: string) => `${built.id}:Hostile:${entity}`;

  beforeAll(async () => {
    built = buildHostilePackage('hostile-bounds');
    server = await startServer({ ledger: createLedger({ engineWorker }) });
    api = await new JsonApiClient(server.url).connect();
    await api.uploadDar(built.dar());
    owner = await api.party('owner');
    [bomb] = createdIn(await api.must([owner], [{ CreateCommand: { templateId: id('Bomb'), createArguments: { owner, depth: '3' } } }])).map((c) => c.contractId) as [string];
  });
  afterAll(async () => {
    await server.close();
    await server.ledger.close();
  });

  const exercise = (choice: string, choiceArgument: Record<string, unknown> = {}) =>
    api.submit([owner], [{ ExerciseCommand: { templateId: id('Bomb'), contractId: bomb, choice, choiceArgument } }]);

  describe('a command past a bound is refused with its code, nothing committed, the server alive', () => {
    it.each([
      // 2^27 characters: the doublings alone build more than 256 MiB.
      ['a choice returning a 128 Mi-character text', 'Huge', { n: '27' }, 409, 'INTERPRETATION_ALLOCATION_EXCEEDED', /Allocation exceeds the limit of 268435456 bytes per command/],
      // 8 Mi characters exploded: a list cell and a text per character, refused before it is built.
      ['EXPLODE_TEXT of an 8 Mi-character text', 'Explode', { n: '23' }, 409, 'INTERPRETATION_ALLOCATION_EXCEEDED', /Allocation exceeds the limit/],
      ['a loop', 'Loop', {}, 409, 'INTERPRETATION_TIME_EXCEEDED', /Interpretation aborted/],
      // 16 Mi characters fit the allocation budget, not the 16 MiB size limit.
      ['a 16 Mi-character result', 'Huge', { n: '24' }, 409, 'TRANSACTION_SIZE_EXCEEDED', /more than the limit of 16777216 bytes/],
      ['a result nested 10,000 deep', 'Nest', { n: '10000' }, 400, 'VALUE_NESTING', /Value exceeds maximum nesting value of 100/],
      // A Box is a record holding an Optional: two levels each; 50 of them inside the first pass 100.
      ['a result nested 102 deep', 'Nest', { n: '50' }, 400, 'VALUE_NESTING', /maximum nesting value of 100/],
    ])('%s: %s answers %s %s', async (_what, choice, arg, status, code, cause) => {
      const end = await api.ledgerEnd();
      const res = await exercise(choice, arg);
      expect([res.status, res.body.code], JSON.stringify(res.body).slice(0, 300)).toEqual([status, code]);
      expect(res.body.cause).toMatch(cause);
      expect(errorMetadataProblem(res.status, res.body)).toBeUndefined();
      expect(await api.ledgerEnd()).toBe(end);
      expect((await api.send('GET', '/v2/version')).status).toBe(200);
      expect(server.errors).toEqual([]);
    });

    it('commits what stays within every bound: a 1 Mi-character result and a value nested 100 deep', async () => {
      const big = await exercise('Huge', { n: '20' });
      expect(big.status, JSON.stringify(big.body).slice(0, 300)).toBe(200);
      const deep = await exercise('Nest', { n: '49' });
      expect(deep.status, JSON.stringify(deep.body).slice(0, 300)).toBe(200);
    });
  });

  describe('a long command does not block other clients', () => {
    it('GET /v2/version and a built-in create are answered while a looping command is still running', async () => {
      const events: string[] = [];
      const loop = exercise('Loop').then((res) => {
        events.push('loop answered');
        return res;
      });
      // Wait (by events, not time) until the engine is running the command in slices.
      while (server.ledger.engine.slicedRunsInProgress === 0) await new Promise((resolve) => setImmediate(resolve));
      const version = await api.send('GET', '/v2/version');
      expect(version.status).toBe(200);
      events.push('version answered');
      const create = await api.submit([owner], [{ CreateCommand: { templateId: id('Bomb'), createArguments: { owner, depth: '1' } } }]);
      expect(create.status).toBe(200);
      events.push('create committed');
      // Both were answered while the loop was still interpreting.
      expect(server.ledger.engine.slicedRunsInProgress).toBeGreaterThan(0);
      const res = await loop;
      expect(res.body.code).toBe('INTERPRETATION_TIME_EXCEEDED');
      expect(events).toEqual(['version answered', 'create committed', 'loop answered']);
    });
  });

  describe('interface views evaluate under their own budget; a failed one is reported in viewStatus', () => {
    it('a looping view is ABORTED (INTERPRETATION_TIME_EXCEEDED), a too-deep one INVALID_ARGUMENT (VALUE_NESTING), a plain one OK', async () => {
      const [deep] = createdIn(await api.must([owner], [{ CreateCommand: { templateId: id('Bomb'), createArguments: { owner, depth: '500' } } }]));
      const looping = await api.byInterface(owner, id('Looping'));
      expect(looping.length).toBeGreaterThanOrEqual(2);
      for (const c of looping) {
        const [view] = c.interfaceViews!;
        expect(view).toMatchObject({ interfaceId: id('Looping'), viewStatus: { code: 10 } });
        expect(view!.viewStatus.message).toMatch(/^INTERPRETATION_TIME_EXCEEDED\(2,0\): the view of .*Looping failed/);
        expect(view).not.toHaveProperty('viewValue');
      }
      const deepViews = await api.byInterface(owner, id('DeepView'));
      const byId = new Map(deepViews.map((c) => [c.contractId, c.interfaceViews![0]!]));
      expect(byId.get(deep!.contractId)).toMatchObject({ viewStatus: { code: 3, message: expect.stringMatching(/^VALUE_NESTING\(8,0\): .*maximum nesting value of 100/) } });
      // Its innermost record's `inner` is a trailing None: left out, as Canton writes values.
      expect(byId.get(bomb)).toMatchObject({ viewStatus: { code: 0 } });
      expect(byId.get(bomb)!.viewValue).toEqual({ inner: { inner: { inner: {} } } });
      const plain = await api.byInterface(owner, id('Plain'));
      expect(new Set(plain.map((c) => c.interfaceViews![0]!.viewStatus.code))).toEqual(new Set([0]));
      expect(server.errors).toEqual([]);
    });
  });

  describe('the bounds are the caller\'s to change', () => {
    it('createLedger({ engineLimits }) lowers the allocation budget and the size limit', async () => {
      const small = await startServer({ ledger: createLedger({ engineWorker, engineLimits: { allocationBudget: 1024 * 1024, maxTransactionBytes: 4096 } }) });
      try {
        const client = await new JsonApiClient(small.url).connect();
        await client.uploadDar(built.dar());
        const party = await client.party('owner');
        const [c] = createdIn(await client.must([party], [{ CreateCommand: { templateId: id('Bomb'), createArguments: { owner: party, depth: '1' } } }]));
        const run = (n: string) => client.submit([party], [{ ExerciseCommand: { templateId: id('Bomb'), contractId: c!.contractId, choice: 'Huge', choiceArgument: { n } } }]);
        expect((await run('12')).body.code).toBe('TRANSACTION_SIZE_EXCEEDED');
        expect((await run('19')).body.code).toBe('INTERPRETATION_ALLOCATION_EXCEEDED');
        expect((await run('10')).status).toBe(200);
      } finally {
        await small.close();
        await small.ledger.close();
      }
    });

    it('refuses limits that are not positive whole numbers', () => {
      expect(() => createLedger({ engineLimits: { stepBudget: 0 } })).toThrow(/stepBudget must be a positive whole number/);
      expect(() => createLedger({ engineLimits: { allocationBudget: 1.5 } })).toThrow(/allocationBudget/);
    });
  });

  if (engineWorker !== undefined) {
    it('made those commands on the engine thread, none handed back', () => {
      const counts = server.ledger.engine.worker!.counts;
      expect(counts.made).toBeGreaterThan(8);
      expect(counts.handedBack).toBe(0);
    });
  }
});
