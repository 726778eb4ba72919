/**
 * Daml Script on the reference's ledger core (`CoreScriptLedger`): Splice's Amulet tests pass on
 * the participant `serve` runs, what they do is what the JSON API shows, and the proofs that checks
 * can fail hold there too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import type { QualifiedName } from '../../daml-engine/ast/Type.js';
import type { FirstOrderBuiltin } from '../../daml-engine/builtins/Builtin.js';
import { BUILTINS } from '../../daml-engine/builtins/builtins.js';
import type { LoadedDar, ScriptLedgerFactory } from '../../daml-engine/script/runDarScripts.js';
import { loadDarScripts, runDarScripts } from '../../daml-engine/script/runDarScripts.js';
import { ScriptLedgerRefusal } from '../../daml-engine/script/ScriptLedger.js';
import { ScriptRunner } from '../../daml-engine/script/ScriptRunner.js';
import type { CoreScriptLedger } from '../../reference-server/src/ledger/engine/CoreScriptLedger.js';
import { coreScriptLedgers } from '../../reference-server/src/ledger/engine/CoreScriptLedger.js';
import { DARS_DIR, HAS_DARS } from './damlFixtures.js';

const AMULET_TEST = 'history/splice-amulet-test-0.1.8.dar';

function load(): { loaded: LoadedDar; core: ScriptLedgerFactory } {
  const r = loadDarScripts(readFileSync(join(DARS_DIR, AMULET_TEST)));
  if (!r.ok) throw new Error(r.message);
  const core = coreScriptLedgers(r.loaded);
  if (!core.ok) throw new Error(core.error);
  return { loaded: r.loaded, core: core.value };
}

describe.runIf(HAS_DARS)('Daml Script on the ledger core: splice-amulet-test-0.1.8 (needs ../shared/upstream/daml/dars)', () => {
  // Vitest runs this body to collect it even when skipped: load only when the DAR is there.
  const { loaded, core } = HAS_DARS ? load() : ({} as ReturnType<typeof load>);
  /** A script by `Module:name`, or by its name alone when that is unique. */
  const byName = (name: string): QualifiedName => {
    const refs = loaded.scripts.filter((s) => `${s.module}:${s.name}` === name || s.name === name);
    if (refs.length !== 1) throw new Error(`${refs.length} scripts ${name}`);
    return refs[0]!;
  };
  /** A factory that also hands out the ledgers it made, to look at the participant afterwards. */
  const keeping = (): { factory: ScriptLedgerFactory; made: CoreScriptLedger[] } => {
    const made: CoreScriptLedger[] = [];
    return { made, factory: (setup) => { const l = core(setup) as CoreScriptLedger; made.push(l); return l; } };
  };

  it('runs every script on a fresh participant and every one passes', async () => {
    const results = await runDarScripts(loaded, undefined, { ledger: core });
    expect(results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.failure!.message}`)).toEqual([]);
    expect(results).toHaveLength(50);
    const burn = results.find((r) => r.name === 'Splice.Scripts.TestAmuletBurn:testAmuletBurn')!;
    expect(burn.questions).toBeGreaterThan(1000);
    expect(burn.ledgerSteps).toBeGreaterThan(0);
    expect(burn.trace[0]).toMatch(/^TransferInputsSummary \{totalAmuletAmount = 21\.0,/);
  }, 120_000);

  it('what a script did is the participant\'s state: parties hint::1220…, users, transactions at offsets, contracts in the ACS', async () => {
    const { factory, made } = keeping();
    const [r] = await runDarScripts(loaded, [byName('Splice.Scripts.Util:setupDefaultAppWithUsers')], { ledger: factory });
    expect(r!.ok).toBe(true);
    const { ledger } = made[0]!;
    const listedParties = ledger.listParties({});
    const parties = listedParties.ok ? listedParties.value.partyDetails.map((p) => p.party) : [];
    expect(parties.length).toBe(14);
    for (const p of parties) expect(p).toMatch(/^[A-Za-z0-9_-]+::1220[0-9a-f]{64}$/);
    const users = ledger.listUsers({});
    expect(users.ok && users.value.users.map((u) => u.id)).toContain('participant_admin');
    expect(users.ok && users.value.users.length).toBe(11);
    expect(ledger.ledgerEnd().offset).toBeGreaterThan(14);
    // The script's contracts are the JSON API's active contracts of a party that sees them.
    const dso = parties.find((p) => p.startsWith('dso'))!;
    const acs = ledger.activeContracts({ filter: { filtersByParty: { [dso]: {} } }, activeAtOffset: ledger.ledgerEnd().offset } as never);
    expect(acs.ok).toBe(true);
    const listed = acs.ok ? [...acs.value] : [];
    expect(listed.length).toBeGreaterThan(0);
    expect(JSON.stringify(listed)).toContain('Splice.AmuletRules:AmuletRules');
  });

  it('each script gets a fresh participant: parties, contracts, offsets and time do not leak between scripts', async () => {
    const { factory, made } = keeping();
    const [a, b] = await runDarScripts(loaded, [byName('setupApp'), byName('setupApp')], { ledger: factory });
    expect(a!.ok && b!.ok).toBe(true);
    // The same questions and traces; steps no more than the first's, which computed the top-level values both use.
    expect({ questions: b!.questions, trace: b!.trace }).toEqual({ questions: a!.questions, trace: a!.trace });
    expect(b!.steps).toBeLessThanOrEqual(a!.steps);
    expect(b!.ledgerSteps).toBeLessThanOrEqual(a!.ledgerSteps);
    expect(made[1]!.ledger).not.toBe(made[0]!.ledger);
    expect(made[1]!.ledger.ledgerEnd()).toEqual(made[0]!.ledger.ledgerEnd());
    expect(await made[1]!.listKnownParties()).toEqual(await made[0]!.listKnownParties());
    expect(await made[1]!.getTime()).toBe(await made[0]!.getTime());
  });

  it('the participants of a run share the top-level values their commands computed, as upstream\'s engine does for its compiled packages', async () => {
    // A run of its own computes its values afresh.
    const ref = byName('setupApp');
    const [a, b] = await runDarScripts(loaded, [ref, ref], { ledger: core });
    expect(a!.ok && b!.ok).toBe(true);
    expect(b!.ledgerSteps).toBeLessThan(a!.ledgerSteps);
    // Another run: the same as this one's first.
    const [again] = await runDarScripts(loaded, [ref], { ledger: core });
    expect(again!.ledgerSteps).toBe(a!.ledgerSteps);
  });

  it('a wrong ADD_NUMERIC fails scripts whose assertions see sums on the core as in memory', async () => {
    const real = BUILTINS.get('ADD_NUMERIC')!;
    const wrong: FirstOrderBuiltin = {
      arity: real.arity,
      apply(args) {
        const r = real.apply(args);
        return r.ok && r.value.kind === 'numeric' && r.value.unscaled !== 0n ? { ok: true, value: { ...r.value, unscaled: r.value.unscaled + 1n } } : r;
      },
    };
    const names = [
      'testSenderNoChange', 'testExpireAmulet', 'testUnclaimedRewards_withCoupons', 'testTransferCommand',
      // Not among the 21: they pass with the wrong sum too.
      'testAmuletRules', 'testTap', 'setupApp',
    ];
    const results = await runDarScripts(loaded, names.map(byName), { ledger: core, builtinOverrides: new Map([['ADD_NUMERIC', wrong]]) });
    expect(results.filter((r) => !r.ok).map((r) => r.ref.name)).toEqual(names.slice(0, 4));
    for (const r of results.filter((x) => !x.ok)) expect(r.failure!.message).toMatch(/^unhandled exception DA\.Exception\.AssertionFailed:AssertionFailed: /);
  }, 120_000);

  it('submitMustFail passes only when the participant refuses: accepting everything fails the scripts that expect a rejection', async () => {
    const runner = new ScriptRunner((id) => loaded.packages.get(id), () => loaded.packages.all());
    const names = [
      'testAmuletRules', 'testExpireAmulet', 'testTransferPreapprovalSend', 'test_ValidatorFaucet',
      // No submitMustFail in these.
      'testTap', 'setupApp',
    ];
    const failed: string[] = [];
    for (const name of names) {
      const ledger = core({ loaded, onTrace: () => {}, stepBudget: undefined, builtinOverrides: undefined }) as CoreScriptLedger;
      const submit = ledger.submit.bind(ledger);
      ledger.submit = async (s) => { const r = await submit(s); return r.ok ? r : { ok: true, results: [], tree: [] }; };
      const outcome = await runner.run(byName(name), ledger);
      if (!outcome.ok) {
        expect(outcome.failure).toEqual({ kind: 'userError', message: expect.stringMatching(/^Expected submit to fail but it succeeded at daml\/Splice\/Scripts\/\w+\.daml:\d+:\d+ \(submit\w*\)$/) });
        failed.push(name);
      }
    }
    expect(failed).toEqual(names.slice(0, 4));
  }, 120_000);

  it('static time: from the epoch, forward on the ledger clock, never backwards (Canton\'s time service refuses)', async () => {
    const ledger = core({ loaded, onTrace: () => {}, stepBudget: undefined, builtinOverrides: undefined }) as CoreScriptLedger;
    expect(await ledger.getTime()).toBe(0n);
    await ledger.setTime(86_400_000_123n);
    expect(await ledger.getTime()).toBe(86_400_000_123n);
    expect(ledger.ledger.config.clock.now()).toBe(86_400_000);
    await expect(ledger.setTime(1_000_000n)).rejects.toThrow(new ScriptLedgerRefusal(
      'INVALID_ARGUMENT: The submitted request has invalid arguments: new_time [1970-01-01T00:00:01Z] is before current_time [1970-01-02T00:00:00.000123Z]. Setting time backwards is not allowed.',
    ));
    expect(await ledger.getTime()).toBe(86_400_000_123n);
  });

  it('parties, users and refusals go through the participant\'s services', async () => {
    const ledger = core({ loaded, onTrace: () => {}, stepBudget: undefined, builtinOverrides: undefined }) as CoreScriptLedger;
    const alice = await ledger.allocateParty('alice');
    expect(alice).toMatchObject({ ok: true, party: expect.stringMatching(/^alice::1220[0-9a-f]{64}$/) });
    expect(await ledger.allocateParty('alice')).toMatchObject({ ok: false, message: expect.stringMatching(/^PARTY_ALREADY_EXISTS: /) });
    expect(await ledger.allocateParty('no/slash')).toMatchObject({ ok: false, message: expect.stringMatching(/^INVALID_ARGUMENT: /) });
    const party = (alice as { party: string }).party;
    expect(await ledger.listKnownParties()).toEqual([{ party, isLocal: true }]);

    expect(await ledger.createUser({ userId: 'u1', primaryParty: party }, [{ right: 'CanActAs', party }])).toBe(true);
    expect(await ledger.createUser({ userId: 'u1', primaryParty: undefined }, [])).toBe(false);
    expect(await ledger.getUser('u1')).toEqual({ userId: 'u1', primaryParty: party });
    expect(await ledger.grantUserRights('u1', [{ right: 'CanActAs', party }, { right: 'CanReadAs', party }])).toEqual([{ right: 'CanReadAs', party }]);
    expect(await ledger.revokeUserRights('u1', [{ right: 'CanActAs', party }, { right: 'ParticipantAdmin' }])).toEqual([{ right: 'CanActAs', party }]);
    expect(await ledger.listUserRights('u1')).toEqual([{ right: 'CanReadAs', party }]);
    expect(await ledger.grantUserRights('nobody', [])).toBeUndefined();
    expect((await ledger.listAllUsers()).map((u) => u.userId)).toEqual(['participant_admin', 'u1']);
    expect(await ledger.deleteUser('u1')).toBe(true);
    expect(await ledger.deleteUser('u1')).toBe(false);
    expect(await ledger.getUser('u1')).toBeUndefined();
    // Invalid user ids are the participant's refusal, which ends a script.
    await expect(ledger.createUser({ userId: 'not valid!', primaryParty: undefined }, [])).rejects.toThrow(/^INVALID_ARGUMENT: /);

    // A submission the participant refuses before interpretation: its Canton code, for SubmitError's UnknownError.
    const refused = await ledger.submit({ actAs: ['nobody::1220' + '0'.repeat(64)], readAs: [], disclosures: [], commands: [] });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'refused', code: 'PARTY_NOT_KNOWN_ON_LEDGER' } });
    // An unknown contract is the engine's contractNotFound (SubmitError's ContractNotFound).
    const rules = loaded.dar.packages.flatMap((p) => [...p.modules.values()].flatMap((m) => [...m.templates.keys()].map((t) => ({ pkg: p.id, module: m.name, t }))))
      .find((x) => x.module === 'Splice.AmuletRules' && x.t === 'AmuletRules')!;
    const missing = '00' + 'ab'.repeat(32);
    const notFound = await ledger.submit({
      actAs: [party], readAs: [], disclosures: [],
      commands: [{ kind: 'exercise', templateId: { packageId: rules.pkg, module: rules.module, name: rules.t }, contractId: missing, choice: 'Archive', argument: { kind: 'record', tycon: undefined, fieldNames: [], fields: [] } as never }],
    });
    expect(notFound).toMatchObject({ ok: false, error: { kind: 'ledger', failure: { kind: 'contractNotFound', contractId: missing } } });
  });

  it('disclosures: queryContractId gives the participant\'s createdEventBlob, which lets a non-stakeholder use the contract', async () => {
    const ledger = core({ loaded, onTrace: () => {}, stepBudget: undefined, builtinOverrides: undefined }) as CoreScriptLedger;
    const dso = (await ledger.allocateParty('dso') as { party: string }).party;
    const bob = (await ledger.allocateParty('bob') as { party: string }).party;
    const amulet = loaded.dar.packages.find((p) => p.modules.get('Splice.Amulet')?.templates.has('FeaturedAppRight'))!;
    const templateId: QualifiedName = { packageId: amulet.id, module: 'Splice.Amulet', name: 'FeaturedAppRight' };
    const argument = { kind: 'record', tycon: templateId, fieldNames: ['dso', 'provider'], fields: [{ kind: 'party', value: dso }, { kind: 'party', value: dso }] } as const;
    const created = await ledger.submit({ actAs: [dso], readAs: [], disclosures: [], commands: [{ kind: 'create', templateId, argument }] });
    if (!created.ok) throw new Error('the create was refused');
    const first = created.results[0]!;
    const cid = first.kind === 'create' ? first.contractId : '';

    expect(await ledger.queryContractId([bob], cid)).toBeUndefined();
    const seen = (await ledger.queryContractId([dso], cid))!;
    expect(seen).toMatchObject({ contractId: cid, templateId });
    // The JSON API's createdEventBlob of the same contract.
    const acs = ledger.ledger.activeContracts({
      eventFormat: { filtersByParty: { [dso]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] } } },
      activeAtOffset: ledger.ledger.ledgerEnd().offset,
    } as never);
    expect(JSON.stringify(acs.ok ? [...acs.value] : [])).toContain(seen.blob);

    const archive = { kind: 'record', tycon: { packageId: '', module: 'DA.Internal.Template', name: 'Archive' }, fieldNames: [], fields: [] } as never;
    const exercise = { kind: 'exercise', templateId, contractId: cid, choice: 'Archive', argument: archive } as const;
    // Without the disclosure bob cannot see it; with it the contract is found and only authorization fails.
    expect(await ledger.submit({ actAs: [bob], readAs: [], disclosures: [], commands: [exercise] }))
      .toMatchObject({ ok: false, error: { kind: 'ledger', failure: { kind: 'contractNotFound' } } });
    expect(await ledger.submit({ actAs: [bob], readAs: [], disclosures: [{ templateId, contractId: cid, blob: seen.blob }], commands: [exercise] }))
      .toMatchObject({ ok: false, error: { kind: 'ledger', failure: { kind: 'exerciseMissingAuthorization' } } });
    // A blob the participant did not issue is its refusal.
    expect(await ledger.submit({ actAs: [bob], readAs: [], disclosures: [{ templateId, contractId: cid, blob: Buffer.from('forged').toString('base64') }], commands: [exercise] }))
      .toMatchObject({ ok: false, error: { kind: 'refused', code: 'DISCLOSED_CONTRACT_INVALID' } });
  });
});
