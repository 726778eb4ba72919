/**
 * `serve --dar FILE` and a fixture file's `dars`: DARs go through the upload of POST /v2/dars
 * (listed by /v2/packages, vetted on every synchronizer, picked by the preferred-package query),
 * and a DAR that cannot be loaded stops the start with one line naming it, exit 2.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../conformance/src/cli/main.js';
import { parseServeArgs } from '../../conformance/src/cli/serve.js';
import { buildDalf, buildDar, buildLineageDalf } from '../../conformance/src/generators/dar.js';
import type { Type } from '../../daml-engine/ast/Type.js';
import { PackageBuilder } from '../../daml-engine/build/PackageBuilder.js';
import { T } from '../../daml-engine/build/T.js';
import { readDar } from '../../reference-server/src/ledger/packages/readDar.js';
import type { ReferenceServer } from '../../reference-server/src/server.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import { startLocalNet } from '../../reference-server/src/localnet/startLocalNet.js';
import { buildSamplePackage } from '../daml/samplePackage.js';
import { localNetToken, loopbackUrls } from '../localnet/support.js';

const root = mkdtempSync(join(tmpdir(), 'cc-serve-dar-'));
// DAR files of packages the test builds (test/daml/samplePackage.ts): no upstream file needed.
const UTIL_NAME = 'conformance-util';
const FEATURED_NAME = 'conformance-featured';
const UTIL = join(root, `${UTIL_NAME}-0.1.4.dar`);
const FEATURED = join(root, `${FEATURED_NAME}-1.0.0.dar`);
writeFileSync(UTIL, buildSamplePackage(UTIL_NAME, '0.1.4').dar());
writeFileSync(FEATURED, buildSamplePackage(FEATURED_NAME, '1.0.0').dar());
const servers: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  vi.restoreAllMocks();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The package ids of a DAR, main first, as the reference's own reader reads them. */
const idsOf = (file: string): string[] => {
  const r = readDar(readFileSync(file));
  if (!r.ok) throw new Error(r.error.reason);
  return r.value.packages.map((p) => p.packageId);
};

const start = async (options: { dars?: string[]; fixtures?: string }): Promise<string> => {
  const server = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: options.fixtures, ...(options.dars ? { dars: options.dars } : {}), log: { info: () => undefined, error: () => undefined } as never });
  servers.push(server);
  return server.url;
};
const getJson = async (url: string) => (await fetch(url)).json() as Promise<Record<string, unknown>>;
const postJson = async (url: string, body: unknown) =>
  (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<Record<string, unknown>>;

/** `canton-conformance serve ...` in-process to its end: exit code, stdout and stderr. */
async function serveCli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const code = await main(['serve', '--port', '0', ...argv]);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('serve --dar: the flag', () => {
  it('repeats, keeps its order, and is refused empty; --localnet takes it too', () => {
    expect(parseServeArgs(['--dar', 'a.dar', '--dar', 'b.dar'], {})).toMatchObject({ dars: ['a.dar', 'b.dar'] });
    expect(parseServeArgs([], {})).toMatchObject({ dars: [] });
    expect(() => parseServeArgs(['--dar', ''], {})).toThrow(/--dar must name a file/);
    expect(parseServeArgs(['--localnet', '--dar', 'a.dar'], {})).toMatchObject({ localnet: {}, dars: ['a.dar'] });
  });
});

describe('serve --dar with built DARs', () => {
  it('lists the packages, vets them on both synchronizers, and the preferred-package query picks them', async () => {
    const url = await start({ dars: [UTIL, FEATURED] });
    const listed = (await getJson(`${url}/v2/packages`)).packageIds as string[];
    const [utilMain] = idsOf(UTIL);
    const [featuredMain] = idsOf(FEATURED);
    expect(listed).toEqual(expect.arrayContaining([...idsOf(UTIL), ...idsOf(FEATURED)]));

    const vetting = await postJson(`${url}/v2/package-vetting/list`, { packageMetadataFilter: { packageNamePrefixes: [UTIL_NAME, FEATURED_NAME] } });
    const bySync = (vetting.vettedPackages as { synchronizerId: string; packages: { packageId: string; packageName: string; packageVersion: string }[] }[]);
    expect(bySync).toHaveLength(2);
    for (const s of bySync) {
      expect(s.packages).toEqual(expect.arrayContaining([
        expect.objectContaining({ packageId: utilMain, packageName: UTIL_NAME, packageVersion: '0.1.4' }),
        expect.objectContaining({ packageId: featuredMain, packageName: FEATURED_NAME, packageVersion: '1.0.0' }),
      ]));
    }

    const party = ((await postJson(`${url}/v2/parties`, { partyIdHint: 'dar-user' })).partyDetails as { party: string }).party;
    const preferred = await getJson(`${url}/v2/interactive-submission/preferred-package-version?package-name=${FEATURED_NAME}&parties=${encodeURIComponent(party)}`);
    expect(preferred).toMatchObject({ packagePreference: { packageReference: { packageId: featuredMain, packageName: FEATURED_NAME, packageVersion: '1.0.0' } } });
  });

  it('a fixture file names DARs relative to itself, before its parties and contracts', async () => {
    const dir = mkdtempSync(join(root, 'fixtures-'));
    const file = join(dir, 'world.json');
    writeFileSync(file, JSON.stringify({ version: 1, appWorld: false, dars: [relative(dir, UTIL)], parties: ['fixture-party'] }));
    const url = await start({ fixtures: file });
    expect((await getJson(`${url}/v2/packages`)).packageIds).toEqual(expect.arrayContaining([idsOf(UTIL)[0]]));
  });

  it('daml-prim and daml-stdlib are utility packages: another one of the same name and version is no clash', async () => {
    const prim = join(root, 'other-prim.dar');
    writeFileSync(prim, buildDar({ main: buildDalf({ name: 'daml-prim', version: '0.0.0', salt: 'another SDK' }) }));
    const url = await start({ dars: [UTIL, prim] });
    expect((await getJson(`${url}/v2/packages`)).packageIds).toEqual(expect.arrayContaining([...idsOf(UTIL), ...idsOf(prim)]));
  });

  it('the same DAR given twice loads once (an upload again changes nothing)', async () => {
    const url = await start({ dars: [UTIL, UTIL] });
    expect((await getJson(`${url}/v2/packages`)).packageIds).toEqual(expect.arrayContaining(idsOf(UTIL)));
  });
});

describe('serve --localnet --dar', () => {
  it('the DARs are on the ledger both LocalNet participants serve (app user and app provider)', async () => {
    const net = await startLocalNet({ host: '127.0.0.1', fixtures: undefined, dars: [FEATURED], ports: { ledger: 0, validator: 0, scan: 0, tokenStandard: 0, appProviderLedger: 0 }, log: { info: () => undefined, error: () => undefined } as never });
    try {
      const headers = { authorization: `Bearer ${await localNetToken()}` };
      const urls = loopbackUrls(net);
      for (const base of [urls.ledger, urls.appProviderLedger]) {
        const listed = (await (await fetch(`${base}/v2/packages`, { headers })).json()) as { packageIds: string[] };
        expect(listed.packageIds).toEqual(expect.arrayContaining(idsOf(FEATURED)));
      }
    } finally {
      await net.close();
    }
  });
});

describe('serve --dar: a DAR that cannot be loaded stops the start, exit 2, one line naming it, nothing served', () => {
  const file = (name: string, bytes: Uint8Array | string) => {
    const p = join(root, name);
    writeFileSync(p, bytes);
    return p;
  };

  it('a missing file', async () => {
    const missing = join(root, 'nope.dar');
    const r = await serveCli('--dar', missing);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(`canton-conformance serve: --dar ${missing}: cannot be read: no such file`);
  });

  it('not a DAR', async () => {
    const notDar = file('notes.dar', 'just text');
    const r = await serveCli('--dar', notDar);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(new RegExp(`^canton-conformance serve: --dar ${notDar}: INVALID_DAR: Dar file is corrupt: [^\\n]+$`));
  });

  it('a corrupt DALF (its hash is not its payload\'s)', async () => {
    const tampered = file('tampered.dar', buildDar({ main: buildDalf({ name: 'cc-tampered', version: '1.0.0', hash: 'f'.repeat(64) }) }));
    const r = await serveCli('--dar', tampered);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^canton-conformance serve: --dar ${tampered}: DAR_PARSE_ERROR: [^\\n]+$`));
  });

  it('a package whose name and version another DAR already has', async () => {
    const first = file('first.dar', buildDar({ main: buildLineageDalf({ name: 'cc-clash', version: '1.0.0', salt: 'a' }) }));
    const second = file('second.dar', buildDar({ main: buildLineageDalf({ name: 'cc-clash', version: '1.0.0', salt: 'b' }) }));
    const r = await serveCli('--dar', first, '--dar', second);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(new RegExp(`^canton-conformance serve: --dar ${second}: KNOWN_PACKAGE_VERSION: [^\\n]+$`));
  });

  it('a package that fails validation (a type nested 100,000 deep, a bad name): Canton\'s validation error, the package and the reason', async () => {
    const deep = new PackageBuilder({ name: 'cc-deep', version: '1.0.0' });
    const fields: { name: string; type: Type }[] = [];
    let t: Type = T.int64;
    for (let i = 0; i < 100_000; i++) { t = T.list(t); fields.push({ name: `f${i}`, type: t }); }
    deep.module('Main').record('Deep', fields);
    const built = deep.build();
    const bad = file('deep.dar', built.dar());
    const r = await serveCli('--dar', bad);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(new RegExp(`^canton-conformance serve: --dar ${bad}: DAR_VALIDATION_ERROR: Package validation failed\\. validation error in Main:Deep in package ${built.id}: types nest deeper than \\d+ levels$`));
    const named = new PackageBuilder({ name: '../x/y', version: 'latest' });
    const badName = file('bad-name.dar', named.build().dar());
    const n = await serveCli('--dar', badName);
    expect(n.code).toBe(2);
    expect(n.err).toMatch(/^canton-conformance serve: --dar \S+: DAR_VALIDATION_ERROR: [^\n]*invalid package name '\.\.\/x\/y'[^\n]*$/);
  }, 120_000);

  it('a fixture file naming a missing DAR: the file and the entry', async () => {
    const fixtures = file('bad-world.json', JSON.stringify({ version: 1, dars: ['missing.dar'] }));
    const r = await serveCli('--fixtures', fixtures);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${fixtures}: dars[0]: missing.dar: cannot be read: no such file (${join(root, 'missing.dar')})`);
  });
});
