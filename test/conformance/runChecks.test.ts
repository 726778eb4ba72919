import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forAll } from '../../conformance/src/checks/support/property.js';
import { expectStatus } from '../../conformance/src/checks/support/expect.js';
import type { CheckDefinition } from '../../conformance/src/checks/types.js';
import { runChecks } from '../../conformance/src/runner/runChecks.js';
import type { Profile } from '../../conformance/src/runner/profile.js';
import { checkSeed } from '../../conformance/src/runner/seeds.js';
import { createTarget } from '../../conformance/src/target/createTarget.js';
import { definition } from './helpers/fakeReport.js';
import { fakeServer, json, type FakeServer } from './helpers/fakeServer.js';

let s: FakeServer;
beforeAll(async () => {
  // Answers 404 for ids with an even length, 200 otherwise: a property over ids finds and shrinks that.
  s = await fakeServer((req, res) => {
    const id = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
    if (req.url?.startsWith('/hang')) return;
    json(res, id.length % 2 === 0 ? 404 : 200, { id });
  });
});
afterAll(() => s.close());

const profile: Profile = { name: 'test', groups: ['registry', 'ledger', 'scan'], writes: false };

async function run(checks: CheckDefinition[], o: { seed?: number; checkTimeoutMs?: number; timeoutMs?: number; profile?: Profile; absent?: { line: string; operations: ReadonlySet<string> } } = {}) {
  const target = createTarget({ baseUrls: { registry: s.url, ledger: s.url, scan: s.url }, timeoutMs: o.timeoutMs ?? 2000 });
  return runChecks({ checks, target, profile: o.profile ?? profile, seed: o.seed ?? 7, runs: 30, concurrency: 2, checkTimeoutMs: o.checkTimeoutMs ?? 10_000, replay: (id) => `replay ${id}`, ...(o.absent ? { absent: o.absent } : {}) });
}

describe('running checks', () => {
  it('maps outcomes to statuses: pass, fail (MUST), warn (SHOULD failing, or a caveat), skip, error', async () => {
    const { results } = await run([
      definition('ledger.t.pass', { run: async (ctx) => void expectStatus(ctx, await ctx.http.request('ledger', { method: 'GET', path: '/x/abc' }), 200, 'odd id') }),
      definition('ledger.t.must-fail', { run: async (ctx) => void expectStatus(ctx, await ctx.http.request('ledger', { method: 'GET', path: '/x/ab' }), 200, 'even id') }),
      definition('ledger.t.should-fail', { level: 'SHOULD', run: (ctx) => Promise.resolve(ctx.fail('not quite')) }),
      definition('ledger.t.caveat', { run: (ctx) => Promise.resolve(ctx.warn('passed, but only partly')) }),
      definition('ledger.t.skip', { run: (ctx) => Promise.resolve(ctx.skip('not applicable')) }),
      definition('ledger.t.harness-bug', { run: () => Promise.reject(new TypeError('oops')) }),
      definition('ledger.t.writes', { requires: { writes: true } }),
      definition('ledger.t.other-group', { group: 'scan', id: 'scan.t.other-group' }),
    ], { profile: { ...profile, groups: ['ledger', 'registry'] } });
    const by = Object.fromEntries(results.map((r) => [r.id, r]));
    expect(by['ledger.t.pass']).toMatchObject({ status: 'pass', requests: 1 });
    expect(by['ledger.t.pass']!.evidence).toBeDefined();
    expect(by['ledger.t.must-fail']).toMatchObject({ status: 'fail', replay: 'replay ledger.t.must-fail' });
    expect(by['ledger.t.must-fail']!.message).toMatch(/even id: expected HTTP 200, got 404/);
    expect(by['ledger.t.must-fail']!.evidence?.response?.status).toBe(404);
    expect(by['ledger.t.should-fail']).toMatchObject({ status: 'warn', message: 'not quite' });
    expect(by['ledger.t.caveat']).toMatchObject({ status: 'warn', message: 'passed, but only partly' });
    expect(by['ledger.t.skip']).toMatchObject({ status: 'skip', message: 'not applicable' });
    expect(by['ledger.t.harness-bug']).toMatchObject({ status: 'error', message: 'suite error (please report): oops' });
    expect(by['ledger.t.writes']!.status).toBe('skip');
    expect(by['ledger.t.writes']!.message).toMatch(/read-only/);
    expect(by['scan.t.other-group']!.message).toMatch(/does not serve the scan group/);
  });

  it("on a judged line: a check meeting a 404 from an operation the line lacks skips naming it; ctx.lacks says which the line lacks", async () => {
    const lacked: boolean[] = [];
    const absent = { line: '3.4', operations: new Set(['getV2Gone']) };
    const needs = (operationId: string) => async (ctx: Parameters<CheckDefinition['run']>[0]) => {
      lacked.push(ctx.lacks('getV2Gone'), ctx.lacks('getV2Here'));
      expectStatus(ctx, await ctx.http.request('ledger', { method: 'GET', path: '/x/ab', operationId }), 200, 'a helper');
    };
    const { results } = await run([definition('ledger.t.helper-gone', { run: needs('getV2Gone') }), definition('ledger.t.helper-here', { run: needs('getV2Here') })], { absent });
    const by = Object.fromEntries(results.map((r) => [r.id, r]));
    expect(by['ledger.t.helper-gone']).toMatchObject({ status: 'skip', message: expect.stringMatching(/^Canton 3\.4 has no getV2Gone, which this check needs \(a helper: expected HTTP 200, got 404/) });
    // Not marked notOnLine: the rule exists on the line, the suite could not set the check up.
    expect(by['ledger.t.helper-gone']!.notOnLine).toBeUndefined();
    expect(by['ledger.t.helper-here']).toMatchObject({ status: 'fail' });
    expect(lacked).toEqual([true, false, true, false]);
    // Without a judged line nothing is lacked, and the 404 is a failure.
    const plain = await run([definition('ledger.t.helper-gone', { run: needs('getV2Gone') })]);
    expect(plain.results[0]).toMatchObject({ status: 'fail' });
  });

  it('a check that outlives its budget ends as error; transport failures end as error with evidence', async () => {
    const { results } = await run(
      [
        definition('ledger.t.slow', { run: () => new Promise((r) => setTimeout(r, 5000)) }),
        definition('ledger.t.hang', { run: async (ctx) => void expectStatus(ctx, await ctx.http.request('ledger', { method: 'GET', path: '/hang' }), 200, 'hang') }),
      ],
      { checkTimeoutMs: 400, timeoutMs: 200 },
    );
    expect(results[0]).toMatchObject({ status: 'error', message: 'the check did not finish within 400 ms' });
    expect(results[1]!.status).toBe('error');
    expect(results[1]!.evidence?.error?.kind).toBe('timeout');
  });

  it('observers run after every other check and see all their exchanges', async () => {
    let seenByObserver = -1;
    const { results } = await run([
      definition('ledger.schema.obs', { observer: true, kind: 'schema', run: (ctx) => Promise.resolve(void (seenByObserver = ctx.seen.length)) }),
      definition('ledger.t.a', { run: async (ctx) => void (await ctx.http.request('ledger', { method: 'GET', path: '/x/a' })) }),
      definition('ledger.t.b', { run: async (ctx) => void (await ctx.http.request('ledger', { method: 'GET', path: '/x/b' })) }),
    ]);
    expect(seenByObserver).toBe(2);
    expect(results.map((r) => r.id)).toEqual(['ledger.schema.obs', 'ledger.t.a', 'ledger.t.b']);
  });
});

describe('property checks', () => {
  const property = definition('ledger.t.odd-ids', {
    kind: 'property',
    run: (ctx) =>
      forAll(ctx, fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 12 }), async (id) => {
        expectStatus(ctx, await ctx.http.request('ledger', { method: 'GET', path: `/x/${id}` }), 200, `id ${id}`);
      }),
  });

  it('report the shrunk counterexample, the seed and the evidence of the shrunk run', async () => {
    const { results } = await run([property]);
    const r = results[0]!;
    expect(r.status).toBe('fail');
    expect(r.seed).toBe(7);
    expect(r.counterexample?.value).toMatch(/^"[abc]{2}"$/); // shrunk to the smallest even length
    expect(r.counterexample?.numShrinks).toBeGreaterThan(0);
    expect(r.evidence?.request.url).toContain(`/x/${JSON.parse(r.counterexample!.value) as string}`);
    expect(r.message).toContain('[counterexample');
  });

  it('are reproducible: the same run seed gives the same counterexample; the check seed depends on the id', async () => {
    const a = (await run([property], { seed: 99 })).results[0]!;
    const b = (await run([property], { seed: 99 })).results[0]!;
    expect(a.counterexample).toEqual(b.counterexample);
    expect(checkSeed(99, 'x.a')).not.toBe(checkSeed(99, 'x.b'));
    expect(checkSeed(99, 'x.a')).toBe(checkSeed(99, 'x.a'));
  });
});
