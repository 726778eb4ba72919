/**
 * Daml Script (daml-script 3.x) on the in-memory ledger: Splice's own Amulet tests run and pass,
 * and a deliberately wrong builtin makes the scripts that depend on it fail.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { BUILTINS } from '../../daml-engine/builtins/builtins.js';
import type { FirstOrderBuiltin } from '../../daml-engine/builtins/Builtin.js';
import { InMemoryScriptLedger } from '../../daml-engine/script/InMemoryScriptLedger.js';
import type { LoadedDar } from '../../daml-engine/script/runDarScripts.js';
import { loadDarScripts, runDarScripts } from '../../daml-engine/script/runDarScripts.js';
import { ScriptRunner } from '../../daml-engine/script/ScriptRunner.js';
import { DARS_DIR, HAS_DARS } from './damlFixtures.js';

const AMULET_TEST = 'history/splice-amulet-test-0.1.8.dar';

function load(): LoadedDar {
  const r = loadDarScripts(readFileSync(join(DARS_DIR, AMULET_TEST)));
  if (!r.ok) throw new Error(r.message);
  return r.loaded;
}

describe.runIf(HAS_DARS)('Daml Script: splice-amulet-test-0.1.8 (needs ../shared/upstream/daml/dars)', () => {
  const loaded = HAS_DARS ? load() : undefined!;
  const byName = (name: string) => loaded.scripts.find((s) => `${s.module}:${s.name}` === name)!;

  it('finds the 50 scripts daml test would run (Script values, not functions or compiler workers)', async () => {
    expect(loaded.scripts).toHaveLength(50);
    expect(loaded.scripts.some((s) => s.name.startsWith('$'))).toBe(false);
    expect(loaded.scripts.map((s) => `${s.module}:${s.name}`)).toContain('Splice.Scripts.TestAmuletBurn:testAmuletBurn');
  });

  it('runs every script and every one passes', async () => {
    const results = await runDarScripts(loaded);
    expect(results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failure!.message}`)).toEqual([]);
    expect(results).toHaveLength(50);
    // They did real work: submissions, queries and time questions.
    expect(results.find((r) => r.name === 'Splice.Scripts.TestAmuletBurn:testAmuletBurn')!.questions).toBeGreaterThan(1000);
  }, 300_000); // 50 whole scripts: seconds idle, minutes on a loaded machine

  it('puts debug output in the result, in order', async () => {
    const [r] = await runDarScripts(loaded, [byName('Splice.Scripts.TestAmuletBurn:testAmuletBurn')]);
    expect(r!.ok).toBe(true);
    expect(r!.trace[0]).toMatch(/^TransferInputsSummary \{totalAmuletAmount = 21\.0,/);
  });

  it('a wrong ADD_NUMERIC (one unit too much) fails exactly the scripts whose assertions see sums', async () => {
    const real = BUILTINS.get('ADD_NUMERIC')!;
    const wrong: FirstOrderBuiltin = {
      arity: real.arity,
      apply(args) {
        const r = real.apply(args);
        return r.ok && r.value.kind === 'numeric' && r.value.unscaled !== 0n ? { ok: true, value: { ...r.value, unscaled: r.value.unscaled + 1n } } : r;
      },
    };
    const results = await runDarScripts(loaded, undefined, { builtinOverrides: new Map([['ADD_NUMERIC', wrong]]) });
    const failed = results.filter((r) => !r.ok);
    expect(failed.map((r) => r.name)).toEqual([
      'Splice.Scripts.TestAmuletRulesTransfer:testAmuletUsedAfterHoldingFeeChanged',
      'Splice.Scripts.TestAmuletRulesTransfer:testAmuletUsedInRoundBeforeItsCreation',
      'Splice.Scripts.TestAmuletRulesTransfer:testSenderChangeAndOutput',
      'Splice.Scripts.TestAmuletRulesTransfer:testSenderNoChange',
      'Splice.Scripts.TestAmuletRulesTransfer:testSenderNoChangeNoSenderOutput',
      'Splice.Scripts.TestAmuletRulesTransfer:testUsageFees',
      'Splice.Scripts.TestComputeFees:test',
      'Splice.Scripts.TestComputeFees:testScaledHoldingFees',
      'Splice.Scripts.TestDesignExample:test_designExample',
      'Splice.Scripts.TestLockAndAmuletExpiry:testExpireAmulet',
      'Splice.Scripts.TestLockAndAmuletExpiry:testExpireLockedAmulet',
      'Splice.Scripts.TestRewardComputation:testRewardComputation',
      'Splice.Scripts.TestSteppedRate:test',
      'Splice.Scripts.TestSteppedRate:testScaledSteppedRate',
      'Splice.Scripts.TestTransferPreapproval:testTransferCommand',
      'Splice.Scripts.TestUnclaimedRewards:testUnclaimedRewards_noActivity',
      'Splice.Scripts.TestUnclaimedRewards:testUnclaimedRewards_withCoupons',
      'Splice.Scripts.UnitTests.Issuance:testE1',
      'Splice.Scripts.UnitTests.Issuance:testE4',
      'Splice.Scripts.UnitTests.Issuance:testLargeSvRewardWeight',
      'Splice.Scripts.UnitTests.Issuance:testNoActivity',
    ]);
    for (const r of failed) {
      expect(r.failure!.kind).toBe('unhandledException');
      expect(r.failure!.message).toMatch(/^unhandled exception DA\.Exception\.AssertionFailed:AssertionFailed: /);
    }
  });

  it('submitMustFail passes only when the submission fails: a ledger accepting everything fails the 12 scripts that expect a rejection', async () => {
    const runner = new ScriptRunner((id) => loaded.packages.get(id), () => loaded.packages.all());
    const failed: string[] = [];
    for (const ref of loaded.scripts) {
      const ledger = new InMemoryScriptLedger({ getPackage: (id) => loaded.packages.get(id) });
      const submit = ledger.submit.bind(ledger);
      // Every rejected submission is reported as committed, with no results.
      ledger.submit = async (s) => { const r = await submit(s); return r.ok ? r : { ok: true, results: [], tree: [] }; };
      const outcome = await runner.run(ref, ledger);
      if (!outcome.ok) {
        expect(outcome.failure).toEqual({ kind: 'userError', message: expect.stringMatching(/^Expected submit to fail but it succeeded at daml\/Splice\/Scripts\/\w+\.daml:\d+:\d+ \(submit\w*\)$/) });
        failed.push(ref.name);
      }
    }
    expect(failed).toEqual([
      'testAddFutureAmuletConfigSchedule', 'testRemoveFutureAmuletConfigSchedule', 'testUpdateFutureAmuletConfigSchedule',
      'testAmuletRules', 'testExpireAmulet', 'testExpireLockedAmulet', 'testRewardComputation', 'testTransferCommand',
      'testTransferPreapprovalCancelExpire', 'testTransferPreapprovalRenewal', 'testTransferPreapprovalSend', 'test_ValidatorFaucet',
    ]);
  });

  it('a script that runs out of steps fails as such, naming the script, instead of hanging', async () => {
    const ref = byName('Splice.Scripts.TestAmuletBurn:testAmuletBurn');
    const [r] = await runDarScripts(loaded, [ref], { stepBudget: 100_000 });
    expect(r!.ok).toBe(false);
    expect(r!.failure!.kind).toMatch(/budgetExceeded|submitFailed/);
    expect(r!.failure!.message).toMatch(/budget of 100000 steps/);
  });

  it('a definition that is not a Script, or that does not exist, is reported with its module and package', async () => {
    const runner = new ScriptRunner((id) => loaded.packages.get(id), () => loaded.packages.all());
    const ledger = new InMemoryScriptLedger({ getPackage: (id) => loaded.packages.get(id) });
    const pkg = loaded.dar.main.id;
    const notScript = await runner.run({ packageId: pkg, module: 'Splice.Scripts.TestAmuletRulesTransfer', name: 'testSenderNoChange_' }, ledger);
    expect(notScript).toMatchObject({ ok: false, failure: { kind: 'notAScript', message: `no definition Splice.Scripts.TestAmuletRulesTransfer:testSenderNoChange_ (package ${pkg})` } });
    const fn = [...loaded.dar.main.modules.get('Splice.Scripts.Util')!.values.entries()].find(([n, d]) => !n.startsWith('$') && d.type.kind === 'builtin')!;
    const wrongType = await runner.run({ packageId: pkg, module: 'Splice.Scripts.Util', name: fn[0] }, ledger);
    expect(wrongType).toMatchObject({ ok: false, failure: { kind: 'notAScript' } });
    expect(wrongType.ok ? '' : wrongType.failure.message).toContain(`Splice.Scripts.Util:${fn[0]} (package ${pkg}) is not a Script`);
  });

  it('each script gets a fresh ledger: parties, contracts and time do not leak between scripts', async () => {
    const ref = byName('Splice.Scripts.Util:setupApp');
    const [a, b] = await runDarScripts(loaded, [ref, ref]);
    expect(a!.ok && b!.ok).toBe(true);
    // The same questions and traces: the second run starts from nothing the first left.
    expect({ questions: b!.questions, trace: b!.trace }).toEqual({ questions: a!.questions, trace: a!.trace });
    // Only the top-level values the first computed are reused (as upstream's engine computes a definition once).
    expect(b!.steps).toBeLessThan(a!.steps);
    expect(b!.ledgerSteps).toBeLessThan(a!.ledgerSteps);
  });
});

describe('InMemoryScriptLedger', () => {
  it('allocates parties by the IDE ledger rules: a hint as given (once), no hint the first free of party, party1, ...', async () => {
    const ledger = new InMemoryScriptLedger({ getPackage: () => undefined });
    expect(await ledger.allocateParty('alice')).toEqual({ ok: true, party: 'alice' });
    expect(await ledger.allocateParty('alice')).toEqual({ ok: false, message: "party 'alice' already exists" });
    const fresh = await ledger.allocateParty('');
    expect(fresh).toEqual({ ok: true, party: 'party' });
    expect(await ledger.allocateParty('')).toEqual({ ok: true, party: 'party1' });
    expect((await ledger.allocateParty('no/slash')).ok).toBe(false);
    expect((await ledger.listKnownParties()).map((p) => p.party)).toEqual(['alice', 'party', 'party1']);
  });

  it('static time starts at the epoch and moves only by setTime', async () => {
    const ledger = new InMemoryScriptLedger({ getPackage: () => undefined });
    expect(await ledger.getTime()).toBe(0n);
    await ledger.setTime(86_400_000_000n);
    expect(await ledger.getTime()).toBe(86_400_000_000n);
  });

  it('users: create once, grant only new rights, revoke only held rights, unknown users are undefined', async () => {
    const ledger = new InMemoryScriptLedger({ getPackage: () => undefined });
    expect(await ledger.createUser({ userId: 'u1', primaryParty: 'alice' }, [{ right: 'CanActAs', party: 'alice' }])).toBe(true);
    expect(await ledger.createUser({ userId: 'u1', primaryParty: undefined }, [])).toBe(false);
    expect(await ledger.grantUserRights('u1', [{ right: 'CanActAs', party: 'alice' }, { right: 'CanReadAs', party: 'bob' }])).toEqual([{ right: 'CanReadAs', party: 'bob' }]);
    expect(await ledger.revokeUserRights('u1', [{ right: 'CanActAs', party: 'alice' }, { right: 'ParticipantAdmin' }])).toEqual([{ right: 'CanActAs', party: 'alice' }]);
    expect(await ledger.listUserRights('u1')).toEqual([{ right: 'CanReadAs', party: 'bob' }]);
    expect(await ledger.grantUserRights('nobody', [])).toBeUndefined();
    expect(await ledger.deleteUser('u1')).toBe(true);
    expect(await ledger.getUser('u1')).toBeUndefined();
  });
});
