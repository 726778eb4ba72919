/**
 * Upgrade lineages over HTTP, as Canton 3.4+ checks them when a vetting change puts versions of a
 * name side by side (PackageUpgradeValidator): NOT_VALID_UPGRADE_PACKAGE for a version that does
 * not upgrade its neighbour, whichever arrives first, at upload with vetting and at
 * UpdateVettedPackages (dry run too); nothing checked without vetting; unvetted versions outside.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Type } from '../../daml-engine/ast/Type.js';
import { E, PackageBuilder, T, type BuiltPackage } from '../../daml-engine/index.js';
import { buildDalf, buildDar, freshPackageName } from '../../conformance/src/generators/dar.js';
import { buildShownInterface, buildUpgradePackage, SHOWN_MODULE, UPGRADE_MODULE } from '../../conformance/src/reinterpret/ownPackage.js';
import { expectCantonError } from './support/cantonError.js';
import { get, post } from './support/ledgerApi.js';
import { upload } from './support/packages.js';
import { startServer, type TestServer } from './support/startServer.js';
import { headerUserAuthenticator } from './support/userPrincipal.js';

let server: TestServer;
let sync: string;
beforeAll(async () => {
  server = await startServer({ authenticator: headerUserAuthenticator });
  sync = server.ledger.config.synchronizers[0]?.id as string;
});
afterAll(() => server.close());

/** A version of a package whose template `Main:Asset` has these fields. */
function asset(name: string, version: string, fields: Readonly<Record<string, Type>>): BuiltPackage {
  const b = new PackageBuilder({ name, version });
  b.module('Main').template('Asset', { fields, signatories: (t) => E.list(T.party, [t.field('owner')]) });
  return b.build();
}

const vetting = () => `/v2/dars?synchronizerId=${encodeURIComponent(sync)}`;
const described = (p: BuiltPackage) => `${p.id} (${p.name} v${p.version})`;
const vetted = async (p: BuiltPackage): Promise<boolean> => {
  const res = await post(server, '/v2/package-vetting/list', { packageMetadataFilter: { packageIds: [p.id] }, topologyStateFilter: { synchronizerIds: [sync] } });
  return (res.body.vettedPackages as { packages: { packageId: string }[] }[]).some((v) => v.packages.some((x) => x.packageId === p.id));
};
const vet = (p: BuiltPackage, dryRun = false) => post(server, '/v2/package-vetting/update', { changes: [{ operation: { Vet: { value: { packages: [{ packageId: p.id }] } } } }], synchronizerId: sync, ...(dryRun ? { dryRun } : {}) });
const unvet = (p: BuiltPackage) => post(server, '/v2/package-vetting/update', { changes: [{ operation: { Unvet: { value: { packages: [{ packageId: p.id }] } } } }], synchronizerId: sync });
const packageIds = async (): Promise<string[]> => (await get(server, '/v2/packages')).body.packageIds as string[];

describe('upgrade lineages', () => {
  it('vets a version that upgrades the one before (an Optional field at the end)', async () => {
    const name = freshPackageName('cc-upg');
    const [v1, v2] = [asset(name, '1.0.0', { owner: T.party }), asset(name, '2.0.0', { owner: T.party, memo: T.optional(T.text) })];
    for (const v of [v1, v2]) expect((await upload(server, vetting(), v.dar())).status).toBe(200);
    expect(await vetted(v1)).toBe(true);
    expect(await vetted(v2)).toBe(true);
  });

  it('refuses at upload a version that is no upgrade (NOT_VALID_UPGRADE_PACKAGE, Canton\'s reason) and records none of it', async () => {
    const name = freshPackageName('cc-upg');
    const [v1, v2] = [asset(name, '1.0.0', { owner: T.party, amount: T.int64 }), asset(name, '2.0.0', { owner: T.party })];
    expect((await upload(server, vetting(), v1.dar())).status).toBe(200);
    const res = await upload(server, vetting(), v2.dar());
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'NOT_VALID_UPGRADE_PACKAGE');
    expect((res.body as { cause: string }).cause).toBe(
      `Upgrade checks indicate that ${described(v2)} cannot be an upgrade of ${described(v1)}. Reason: The upgraded template Asset is missing some of its original fields.`,
    );
    expect(await packageIds()).not.toContain(v2.id);
    expect(await vetted(v1)).toBe(true);
  });

  it('checks the neighbours on both sides: a version vetted between two must upgrade the lower and be upgraded by the higher', async () => {
    const name = freshPackageName('cc-upg');
    const v1 = asset(name, '1.0.0', { owner: T.party });
    const v3 = asset(name, '3.0.0', { owner: T.party, memo: T.optional(T.text) });
    const v2 = asset(name, '2.0.0', { owner: T.party, memo: T.optional(T.int64) });
    for (const v of [v1, v3]) expect((await upload(server, vetting(), v.dar())).status).toBe(200);
    const res = await upload(server, vetting(), v2.dar());
    expect(res.status).toBe(400);
    expect((res.body as { cause: string }).cause).toBe(
      `Upgrade checks indicate that ${described(v3)} cannot be an upgrade of ${described(v2)}. Reason: The upgraded template Asset has changed the types of some of its original fields.`,
    );
  });

  it('checks nothing without vetting, and checks the vetting change that follows (a dry run too), leaving the vetting as it was', async () => {
    const name = freshPackageName('cc-upg');
    const [v1, v2] = [asset(name, '1.0.0', { owner: T.party, amount: T.int64 }), asset(name, '2.0.0', { owner: T.party, amount: T.text })];
    expect((await upload(server, vetting(), v1.dar())).status).toBe(200);
    expect((await upload(server, '/v2/dars?vetAllPackages=false', v2.dar())).status).toBe(200);
    expect(await packageIds()).toContain(v2.id);
    for (const dryRun of [true, false]) {
      const res = await vet(v2, dryRun);
      expect(res.status).toBe(400);
      expectCantonError(res.body, 'NOT_VALID_UPGRADE_PACKAGE');
      expect((res.body as { cause: string }).cause).toContain('Reason: The upgraded template Asset has changed the types of some of its original fields.');
    }
    expect(await vetted(v2)).toBe(false);
    // Once 1.0.0 is unvetted, 2.0.0 stands alone in its lineage.
    expect((await unvet(v1)).status).toBe(200);
    expect((await vet(v2)).status).toBe(200);
    expect(await vetted(v2)).toBe(true);
  });

  it('leaves utility packages (no template, interface or serializable type) out: two of one name and version are vetted', async () => {
    const name = freshPackageName('cc-util');
    for (const salt of ['a', 'b']) {
      expect((await upload(server, vetting(), buildDar({ main: buildDalf({ name, version: '1.0.0', salt }) }))).status).toBe(200);
    }
  });

  it('refuses a daml-stdlib that is no utility package (DAML_PRIM_NOT_UTILITY_PACKAGE)', async () => {
    const fake = asset('daml-stdlib', '0.0.0', { owner: T.party });
    const res = await upload(server, vetting(), fake.dar());
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'DAML_PRIM_NOT_UTILITY_PACKAGE');
    expect((res.body as { cause: string }).cause).toBe(`Tried to vet a package ${described(fake)}, but this package is not a utility package. All packages named \`daml-prim\` or \`daml-std-lib\` must be a utility package.`);
  });
});

describe('contracts across versions (smart contract upgrades)', () => {
  // The suite's own pair of versions (conformance/src/reinterpret/ownPackage.ts): `Holding` with
  // `owner` and `amount`, 2.0.0 adding `memo : Optional Text` and `Memo`; both implement `Shown`,
  // whose view is the amount in 1.0.0 and ten times it in 2.0.0.
  const shown = buildShownInterface(freshPackageName('cc-shown'));
  const HOLDING = `${UPGRADE_MODULE}:Holding`;
  const versions = (name: string) => [buildUpgradePackage(name, '1.0.0', shown), buildUpgradePackage(name, '2.0.0', shown)] as const;
  const withShown = (p: BuiltPackage) => p.dar({ dependencies: [shown.dalf] });
  const newParty = async () => (await post(server, '/v2/parties', { partyIdHint: freshPackageName('scu') })).body.partyDetails.party as string;
  const submit = (party: string, command: unknown, preference: readonly string[] = []) => post(server, '/v2/commands/submit-and-wait-for-transaction', {
    commands: { commands: [command], commandId: freshPackageName('cmd'), userId: 'participant_admin', actAs: [party], ...(preference.length > 0 ? { packageIdSelectionPreference: preference } : {}) },
    transactionFormat: { eventFormat: { filtersByParty: { [party]: { cumulative: [] } }, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
  });
  type Event = { CreatedEvent?: { contractId: string; templateId: string }; ExercisedEvent?: { templateId: string; exerciseResult: unknown } };
  const events = (res: { body: { transaction: { events: Event[] } } }) => res.body.transaction.events;

  it('a 1.0.0 contract exercised by package name once 2.0.0 is vetted runs 2.0.0\'s choice, its new field None; a 2.0.0 contract whose new field holds Some cannot be read as 1.0.0', async () => {
    const name = freshPackageName('cc-scu');
    const party = await newParty();
    const [v1, v2] = versions(name);
    expect((await upload(server, vetting(), withShown(v1))).status).toBe(200);
    const created = await submit(party, { CreateCommand: { templateId: `#${name}:${HOLDING}`, createArguments: { owner: party, amount: '5' } } });
    expect(created.status, created.text).toBe(200);
    const old = events(created)[0]?.CreatedEvent;
    expect(old?.templateId.startsWith(`${v1.id}:`)).toBe(true);
    expect((await upload(server, vetting(), withShown(v2))).status).toBe(200);

    const upgraded = await submit(party, { ExerciseCommand: { templateId: `#${name}:${HOLDING}`, contractId: old?.contractId, choice: 'Memo', choiceArgument: {} } });
    expect(upgraded.status, upgraded.text).toBe(200);
    const exercised = events(upgraded)[0]?.ExercisedEvent;
    expect(exercised?.templateId.startsWith(`${v2.id}:`)).toBe(true);
    expect(exercised?.exerciseResult).toBeNull();

    const kept = await submit(party, { CreateCommand: { templateId: `#${name}:${HOLDING}`, createArguments: { owner: party, amount: '7', memo: 'kept' } } });
    expect(kept.status, kept.text).toBe(200);
    const newer = events(kept)[0]?.CreatedEvent;
    const downgraded = await submit(party, { ExerciseCommand: { templateId: `#${name}:${HOLDING}`, contractId: newer?.contractId, choice: 'Amount', choiceArgument: {} } }, [v1.id]);
    expect(downgraded.status).toBe(400);
    expectCantonError(downgraded.body, 'INTERPRETATION_UPGRADE_ERROR_DOWNGRADE_DROP_DEFINED_FIELD');
  });

  it('an interface choice on a 1.0.0 contract runs the instance of the version selected now (2.0.0), or of the one the submission prefers', async () => {
    const party = await newParty();
    const [v1, v2] = versions(freshPackageName('cc-scu-iface'));
    expect((await upload(server, vetting(), withShown(v1))).status).toBe(200);
    const created = await submit(party, { CreateCommand: { templateId: `${v1.id}:${HOLDING}`, createArguments: { owner: party, amount: '5' } } });
    expect(created.status, created.text).toBe(200);
    const cid = events(created)[0]?.CreatedEvent?.contractId;
    expect((await upload(server, vetting(), withShown(v2))).status).toBe(200);
    const show = async (preference: readonly string[] = []) => {
      const res = await submit(party, { ExerciseCommand: { templateId: `${shown.id}:${SHOWN_MODULE}:Shown`, contractId: cid, choice: 'Show', choiceArgument: { reader: party } } }, preference);
      expect(res.status, res.text).toBe(200);
      return events(res)[0]?.ExercisedEvent;
    };
    expect(await show()).toMatchObject({ templateId: `${v2.id}:${HOLDING}`, exerciseResult: '50' });
    expect(await show([v1.id])).toMatchObject({ templateId: `${v1.id}:${HOLDING}`, exerciseResult: '5' });
  });
});
