/**
 * Daml Script against a running participant's JSON Ledger API (`JsonApiScriptLedger`, `test
 * --ledger-url`), here the reference server started on a port: the DAR uploaded, parties, users,
 * submissions with their trees, queries and disclosures over HTTP; Splice's Amulet tests run, and
 * those that set time fail as daml-script fails on a wall-clock participant.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { QualifiedName } from '../../daml-engine/ast/Type.js';
import type { LoadedDar, ScriptLedgerFactory } from '../../daml-engine/script/runDarScripts.js';
import { loadDarScripts, runDarScripts } from '../../daml-engine/script/runDarScripts.js';
import { JsonApiScriptLedger, jsonApiScriptLedgers } from '../../conformance/src/target/JsonApiScriptLedger.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import { DARS_DIR, HAS_DARS } from './damlFixtures.js';

const AMULET_TEST = 'history/splice-amulet-test-0.1.8.dar';

/** The Amulet tests that never set time: they pass on a wall-clock participant too. */
const WITHOUT_SET_TIME = [
  'Splice.Scripts.TestExpiry:testAmountExpiresAt', 'Splice.Scripts.TestExpiry:testBoundedSet', 'Splice.Scripts.TestSchedule:testSchedule',
  'Splice.Scripts.TestSteppedRate:test', 'Splice.Scripts.TestSteppedRate:testScaledSteppedRate',
  'Splice.Scripts.UnitTests.ExternalPartyAmuletRules:test_holdingFeesForDuration', 'Splice.Scripts.UnitTests.Fees:test_chargeRatePerDay',
  'Splice.Scripts.UnitTests.Fees:test_toRatePerDay', 'Splice.Scripts.UnitTests.Issuance:testE1', 'Splice.Scripts.UnitTests.Issuance:testE4',
  'Splice.Scripts.UnitTests.Issuance:testIssuanceCurve', 'Splice.Scripts.UnitTests.Issuance:testLargeSvRewardWeight',
  'Splice.Scripts.UnitTests.Issuance:testNoActivity',
];

describe.skipIf(!HAS_DARS)(`Daml Script over the JSON Ledger API (needs ../shared/upstream/daml/dars/${AMULET_TEST})`, () => {
  let server: Awaited<ReturnType<typeof startReferenceServer>>;
  let loaded: LoadedDar;
  let factory: ScriptLedgerFactory;
  beforeAll(async () => {
    const r = loadDarScripts(readFileSync(join(DARS_DIR, AMULET_TEST)));
    if (!r.ok) throw new Error(r.message);
    loaded = r.loaded;
    server = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined });
    const remote = await jsonApiScriptLedgers(loaded, { url: server.url, token: undefined });
    if (!remote.ok) throw new Error(remote.error);
    factory = remote.value;
  }, 60_000);
  afterAll(async () => { await server?.close(); });

  const ledger = async () => (await factory({ loaded, onTrace: () => {}, stepBudget: undefined, builtinOverrides: undefined })) as JsonApiScriptLedger;
  const party = async (l: JsonApiScriptLedger, hint: string) => {
    const r = await l.allocateParty(`${hint}-${Math.random().toString(16).slice(2, 8)}`);
    if (!r.ok) throw new Error(r.message);
    return r.party;
  };

  it('the Amulet tests: those that never set time pass; the others fail at setTime, as on a wall-clock participant', async () => {
    const results = await runDarScripts(loaded, undefined, { ledger: factory, randomSeed: 'json-api-run' });
    expect(results.filter((r) => r.ok).map((r) => r.name)).toEqual(WITHOUT_SET_TIME);
    for (const r of results.filter((x) => !x.ok)) {
      expect(r.failure).toEqual({ kind: 'ledgerRefused', message: expect.stringMatching(/^setTime is not supported against a participant on wall-clock time/) });
    }
    expect(results).toHaveLength(50);
  }, 120_000);

  it('submit: a create and an exercise over HTTP give the results and tree daml-script sees; the ACS, queryContractId and disclosures follow', async () => {
    const l = await ledger();
    const dso = await party(l, 'dso');
    const bob = await party(l, 'bob');
    expect((await l.listKnownParties()).map((p) => p.party)).toEqual(expect.arrayContaining([dso, bob]));
    const amulet = loaded.dar.packages.find((p) => p.modules.get('Splice.Amulet')?.templates.has('FeaturedAppRight'))!;
    const templateId: QualifiedName = { packageId: amulet.id, module: 'Splice.Amulet', name: 'FeaturedAppRight' };
    const argument = { kind: 'record', tycon: templateId, fieldNames: ['dso', 'provider'], fields: [{ kind: 'party', value: dso }, { kind: 'party', value: dso }] } as const;
    const created = await l.submit({ actAs: [dso], readAs: [], disclosures: [], commands: [{ kind: 'create', templateId, argument }] });
    if (!created.ok) throw new Error(JSON.stringify(created.error));
    const cid = created.results[0]!.kind === 'create' ? created.results[0]!.contractId : '';
    expect(cid).toMatch(/^00[0-9a-f]+$/);
    expect(created.tree).toMatchObject([{ kind: 'created', contractId: cid, templateId, argument: { fields: [{ value: dso }, { value: dso }] } }]);

    expect((await l.query([dso], templateId)).map((c) => c.contractId)).toEqual([cid]);
    expect(await l.query([bob], templateId)).toEqual([]);
    expect(await l.queryContractId([bob], cid)).toBeUndefined();
    const seen = (await l.queryContractId([dso], cid))!;
    expect(seen).toMatchObject({ contractId: cid, templateId, argument: { fields: [{ value: dso }, { value: dso }] } });
    expect(seen.blob).not.toBe('');

    const archiveTycon = [...loaded.packages.all()].find((p) => p.modules.get('DA.Internal.Template')?.dataTypes.has('Archive'))!;
    const archive = { kind: 'record', tycon: { packageId: archiveTycon.id, module: 'DA.Internal.Template', name: 'Archive' }, fieldNames: [], fields: [] } as never;
    const exercise = { kind: 'exercise', templateId, contractId: cid, choice: 'Archive', argument: archive } as const;
    // Bob cannot see it; with the disclosure he finds it, and only authorization fails.
    expect(await l.submit({ actAs: [bob], readAs: [], disclosures: [], commands: [exercise] })).toMatchObject({ ok: false, error: { kind: 'ledger', failure: { kind: 'contractNotFound', contractId: cid } } });
    expect(await l.submit({ actAs: [bob], readAs: [], disclosures: [{ templateId, contractId: cid, blob: seen.blob }], commands: [exercise] }))
      .toMatchObject({ ok: false, error: { kind: 'refused', code: expect.stringMatching(/AUTHORIZATION/) } });
    const archived = await l.submit({ actAs: [dso], readAs: [], disclosures: [], commands: [exercise] });
    expect(archived).toMatchObject({ ok: true, results: [{ kind: 'exercise', result: { kind: 'unit' } }], tree: [{ kind: 'exercised', contractId: cid, choice: 'Archive', children: [] }] });
    expect(await l.query([dso], templateId)).toEqual([]);
  });

  it('users and rights go through user management', async () => {
    const l = await ledger();
    const alice = await party(l, 'alice');
    const id = `u-${Math.random().toString(16).slice(2, 10)}`;
    expect(await l.createUser({ userId: id, primaryParty: alice }, [{ right: 'CanActAs', party: alice }])).toBe(true);
    expect(await l.createUser({ userId: id, primaryParty: undefined }, [])).toBe(false);
    expect(await l.getUser(id)).toEqual({ userId: id, primaryParty: alice });
    expect(await l.grantUserRights(id, [{ right: 'CanActAs', party: alice }, { right: 'CanReadAs', party: alice }])).toEqual([{ right: 'CanReadAs', party: alice }]);
    expect(await l.revokeUserRights(id, [{ right: 'CanActAs', party: alice }])).toEqual([{ right: 'CanActAs', party: alice }]);
    expect(await l.listUserRights(id)).toEqual([{ right: 'CanReadAs', party: alice }]);
    expect((await l.listAllUsers()).map((u) => u.userId)).toContain(id);
    expect(await l.deleteUser(id)).toBe(true);
    expect(await l.getUser(id)).toBeUndefined();
    expect(await l.grantUserRights(id, [])).toBeUndefined();
  });

  it('time is the wall clock: getTime reads it, setTime fails the script', async () => {
    const l = new JsonApiScriptLedger((id) => loaded.packages.get(id), { url: server.url, token: undefined, now: () => 1_700_000_000_123 });
    expect(await l.getTime()).toBe(1_700_000_000_123_000n);
    await expect(l.setTime(0n)).rejects.toThrow(/^setTime is not supported against a participant on wall-clock time/);
  });

  it('a participant that cannot be reached, or refuses the DAR, is an error naming it', async () => {
    const down = await jsonApiScriptLedgers(loaded, { url: 'http://127.0.0.1:1', token: undefined });
    // Unreachable, not refused: `test` answers it with exit 3; the error is what the transport said.
    expect(down).toMatchObject({ ok: false, unreachable: true, error: expect.stringMatching(/^request failed: bad port/) });
    const corrupt = { ...loaded, bytes: new TextEncoder().encode('not a dar') };
    expect(await jsonApiScriptLedgers(corrupt, { url: server.url, token: undefined })).toMatchObject({ ok: false });
  });
});
