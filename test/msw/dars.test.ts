/**
 * createHandlers({ dars }): DARs as bytes or (in Node) paths, uploaded as POST /v2/dars uploads
 * them, on the ledger from the start and again after reset() (read and checked once; each reset's
 * state the same as the first creation's); an entry that cannot be loaded throws an error naming it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDalf, buildDar, buildLineageDalf } from '../../conformance/src/generators/dar.js';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { readDar } from '../../reference-server/src/ledger/packages/readDar.js';
import { createHandlers } from '../../reference-server/src/msw/index.js';
import { PARTICIPANT_ADMIN_USER } from '../../reference-server/src/ledger/index.js';
import { buildSamplePackage } from '../daml/samplePackage.js';

const log = silentLogger;
const idsOf = (bytes: Uint8Array): string[] => {
  const r = readDar(bytes);
  if (!r.ok) throw new Error(r.error.reason);
  return r.value.packages.map((p) => p.packageId);
};

// Two packages the test builds (test/daml/samplePackage.ts), one given as a path, one as bytes.
const FEATURED_NAME = 'conformance-featured';
const featured = buildSamplePackage(FEATURED_NAME, '1.0.0');
const utilPath = join(mkdtempSync(join(tmpdir(), 'cc-msw-dars-')), 'conformance-util-0.1.4.dar');
writeFileSync(utilPath, buildSamplePackage('conformance-util', '0.1.4').dar());

describe('createHandlers({ dars }) with built DARs', () => {
  const featuredBytes = featured.dar();
  const mock = createHandlers({ ledgerUrl: 'http://dars.test', dars: [utilPath, featuredBytes], log });
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  const packageIds = async () => ((await (await fetch('http://dars.test/v2/packages')).json()) as { packageIds: string[] }).packageIds;

  it('lists the packages of a path and of bytes, vets them on every synchronizer, and the preferred-package query picks them', async () => {
    const [featuredMain] = idsOf(featuredBytes);
    expect(await packageIds()).toEqual(expect.arrayContaining([...idsOf(readFileSync(utilPath)), ...idsOf(featuredBytes)]));
    const vetting = (await (await fetch('http://dars.test/v2/package-vetting/list', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ packageMetadataFilter: { packageNamePrefixes: [FEATURED_NAME] } }),
    })).json()) as { vettedPackages: { packages: { packageId: string }[] }[] };
    expect(vetting.vettedPackages).toHaveLength(2);
    for (const s of vetting.vettedPackages) expect(s.packages.map((p) => p.packageId)).toEqual([featuredMain]);
    const party = mock.allocateParty('mock-dar-user');
    const preferred = await (await fetch(`http://dars.test/v2/interactive-submission/preferred-package-version?package-name=${FEATURED_NAME}&parties=${encodeURIComponent(party)}`)).json();
    expect(preferred).toMatchObject({ packagePreference: { packageReference: { packageId: featuredMain, packageVersion: '1.0.0' } } });
  });

  it('keeps them after reset()', async () => {
    mock.reset();
    expect(await packageIds()).toEqual(expect.arrayContaining(idsOf(featuredBytes)));
  });

  it('in the LocalNet layout too', async () => {
    const localnet = createHandlers({ localnet: true, dars: [featuredBytes], log });
    expect(localnet.ledger.listPackages().packageIds).toEqual(expect.arrayContaining(idsOf(featuredBytes)));
  });
});

describe('createHandlers({ dars }): an entry that cannot be loaded throws, naming it', () => {
  it('a missing path', () => {
    expect(() => createHandlers({ dars: ['no/such.dar'], log })).toThrow(/^\[canton-conformance\] dars\[0\] \(no\/such\.dar\): cannot be read: no such file \(.+no\/such\.dar\)$/);
  });

  it('bytes that are not a DAR', () => {
    expect(() => createHandlers({ dars: [new TextEncoder().encode('not a zip')], log })).toThrow(/^\[canton-conformance\] dars\[0\]: INVALID_DAR: Dar file is corrupt: /);
  });

  it('a corrupt DALF', () => {
    const tampered = buildDar({ main: buildDalf({ name: 'cc-mock-tampered', version: '1.0.0', hash: 'e'.repeat(64) }) });
    expect(() => createHandlers({ dars: [tampered], log })).toThrow(/^\[canton-conformance\] dars\[0\]: DAR_PARSE_ERROR: /);
  });

  it('a package clash with an earlier entry names the later one', () => {
    const a = buildDar({ main: buildLineageDalf({ name: 'cc-mock-clash', version: '1.0.0', salt: 'a' }) });
    const b = buildDar({ main: buildLineageDalf({ name: 'cc-mock-clash', version: '1.0.0', salt: 'b' }) });
    expect(() => createHandlers({ dars: [a, b], log })).toThrow(/^\[canton-conformance\] dars\[1\]: KNOWN_PACKAGE_VERSION: /);
  });

  it('an entry that is neither bytes nor a path', () => {
    expect(() => createHandlers({ dars: [42 as unknown as string], log })).toThrow(/^\[canton-conformance\] dars\[0\]: expected the bytes of a DAR \(Uint8Array\) or a file path$/);
  });
});

describe('createHandlers({ dars }): reset() restores the initial state exactly', () => {
  const BASE = 'http://dars-reset.test';
  const featuredBytes = featured.dar();
  const options = { ledgerUrl: BASE, dars: [featuredBytes], log };
  const mock = createHandlers(options);
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  const get = async (path: string): Promise<unknown> => (await fetch(BASE + path)).json();
  const post = async (path: string, body: unknown): Promise<unknown> => {
    const res = await fetch(BASE + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };
  /** What a client can observe of the world: ledger end, packages, vetting, parties, users. */
  const observed = async () => ({
    end: await get('/v2/state/ledger-end'),
    packages: await get('/v2/packages'),
    vetting: await post('/v2/package-vetting/list', {}),
    parties: await get('/v2/parties'),
    users: await get('/v2/users'),
  });
  const ASSET = `#${FEATURED_NAME}:Sample.Asset:Asset`;
  /** Allocates two parties, creates an asset and transfers it over HTTP: the ids each step got. */
  const scenario = async () => {
    const issuer = mock.allocateParty('reset-issuer');
    const owner = mock.allocateParty('reset-owner');
    const created = mock.createContract({ templateId: ASSET, createArguments: { issuer, owner: issuer, description: 'gold', quantity: '10' }, actAs: [issuer] });
    const transfer = (await post('/v2/commands/submit-and-wait-for-transaction', {
      commands: {
        commands: [{ ExerciseCommand: { templateId: ASSET, contractId: created.contractId, choice: 'Transfer', choiceArgument: { newOwner: owner } } }],
        commandId: 'reset-transfer', userId: PARTICIPANT_ADMIN_USER, actAs: [issuer],
      },
    })) as { status: number; body: { transaction: { offset: number; events: { CreatedEvent?: { contractId: string } }[] } } };
    expect(transfer.status).toBe(200);
    const moved = transfer.body.transaction.events.flatMap((e) => (e.CreatedEvent === undefined ? [] : [e.CreatedEvent.contractId]));
    return { issuer, owner, contractId: created.contractId, offset: created.offset, moved, transferOffset: transfer.body.transaction.offset };
  };
  const activeCount = () => mock.ledger.store.activeSnapshot({ kind: 'all' }).length;

  it('the state after reset() is the initial one, and a fresh createHandlers with the same options', async () => {
    const initial = await observed();
    const initialActive = activeCount();
    await scenario();
    expect(activeCount()).toBe(initialActive + 1);
    expect(await observed()).not.toEqual(initial);
    mock.reset();
    expect(await observed()).toEqual(initial);
    // The contract created before reset() is gone.
    expect(activeCount()).toBe(initialActive);
    const fresh = createHandlers(options);
    expect(fresh.ledger.ledgerEnd()).toEqual(mock.ledger.ledgerEnd());
    expect(fresh.ledger.listPackages()).toEqual(mock.ledger.listPackages());
  });

  // Party ids and offsets repeat; contract ids do not (each submission is seeded afresh, as Canton's are).
  it('keeps the DAR listed and vetted on every synchronizer, its templates executable, with the same ids as the first time', async () => {
    mock.reset();
    const first = await scenario();
    mock.reset();
    const [main] = idsOf(featuredBytes);
    expect((await get('/v2/packages')) as { packageIds: string[] }).toMatchObject({ packageIds: expect.arrayContaining(idsOf(featuredBytes)) });
    const vetting = (await post('/v2/package-vetting/list', { packageMetadataFilter: { packageNamePrefixes: [FEATURED_NAME] } })) as { body: { vettedPackages: { packages: { packageId: string }[] }[] } };
    expect(vetting.body.vettedPackages).toHaveLength(mock.ledger.config.synchronizers.length);
    for (const s of vetting.body.vettedPackages) expect(s.packages.map((p) => p.packageId)).toEqual([main]);
    const again = await scenario();
    expect(again.issuer).toBe(first.issuer);
    expect(again.owner).toBe(first.owner);
    expect(again.offset).toBe(first.offset);
    expect(again.transferOffset).toBe(first.transferOffset);
    expect(again.moved).toHaveLength(1);
  });

  it('decodes the DAR once: every reset() shares the first ledger\'s decoded packages', () => {
    const [main] = idsOf(featuredBytes);
    const before = mock.ledger.engine.packages.get(main!);
    expect(before).toBeDefined();
    mock.reset();
    expect(mock.ledger.engine.packages.get(main!)).toBe(before);
  });
});

describe('createHandlers({ fixtures }) with the file\'s own dars: read and checked once too', () => {
  it('keeps them listed after reset(), the decoded packages shared', () => {
    const mock = createHandlers({ fixtures: { version: 1, dars: [utilPath], parties: ['fixture-dar-owner'] }, log });
    const ids = idsOf(readFileSync(utilPath));
    const decoded = mock.ledger.engine.packages.get(ids[0]!);
    const parties = mock.world.parties;
    mock.reset();
    expect(mock.ledger.listPackages().packageIds).toEqual(expect.arrayContaining(ids));
    expect(mock.ledger.engine.packages.get(ids[0]!)).toBe(decoded);
    expect(mock.world.parties).toEqual(parties);
  });
});
