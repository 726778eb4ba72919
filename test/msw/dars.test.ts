/**
 * createHandlers({ dars }): DARs as bytes or (in Node) paths, uploaded as POST /v2/dars uploads
 * them, on the ledger from the start and again after reset(); an entry that cannot be loaded
 * throws an error naming it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDalf, buildDar } from '../../conformance/src/generators/dar.js';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { readDar } from '../../reference-server/src/ledger/packages/readDar.js';
import { createHandlers } from '../../reference-server/src/msw/index.js';
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
    expect(() => createHandlers({ dars: [tampered], log })).toThrow(/^\[canton-conformance\] dars\[0\]: INVALID_DAR: /);
  });

  it('a package clash with an earlier entry names the later one', () => {
    const a = buildDar({ main: buildDalf({ name: 'cc-mock-clash', version: '1.0.0', salt: 'a' }) });
    const b = buildDar({ main: buildDalf({ name: 'cc-mock-clash', version: '1.0.0', salt: 'b' }) });
    expect(() => createHandlers({ dars: [a, b], log })).toThrow(/^\[canton-conformance\] dars\[1\]: KNOWN_PACKAGE_VERSION: /);
  });

  it('an entry that is neither bytes nor a path', () => {
    expect(() => createHandlers({ dars: [42 as unknown as string], log })).toThrow(/^\[canton-conformance\] dars\[0\]: expected the bytes of a DAR \(Uint8Array\) or a file path$/);
  });
});
