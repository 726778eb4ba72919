/**
 * `serve --splice-dars DIR`: the flag, and a folder the world cannot be built on stops the start
 * with one line naming what is missing, exit 2 (with and without --localnet), before anything is
 * uploaded. The world built on a real folder: test/apps/spliceAmulet.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../conformance/src/cli/main.js';
import { parseServeArgs } from '../../conformance/src/cli/serve.js';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { readSpliceDars } from '../../reference-server/src/apps/splice/spliceDars.js';
import { readManifest } from '../../reference-server/src/ledger/packages/readDar.js';
import { buildSamplePackage } from '../daml/samplePackage.js';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';
import { childrenKilledAfterEach, spawnServe } from '../support/spawnServe.js';

const root = mkdtempSync(join(tmpdir(), 'cc-splice-dars-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

async function serveCli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const code = await main(['serve', ...argv]);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('serve --splice-dars', () => {
  it('takes one folder, with or without --localnet, and refuses an empty one', () => {
    expect(parseServeArgs(['--splice-dars', 'dars'], {})).toMatchObject({ spliceDars: 'dars' });
    expect(parseServeArgs([], {})).toMatchObject({ spliceDars: undefined });
    expect(parseServeArgs(['--localnet', '--splice-dars', 'dars'], {})).toMatchObject({ localnet: {}, spliceDars: 'dars' });
    expect(() => parseServeArgs(['--splice-dars', ''], {})).toThrow(/--splice-dars must name a folder/);
  });

  it('a folder without splice-amulet: exit 2, one line saying what is missing', async () => {
    const dir = join(root, 'no-amulet');
    mkdirSync(dir);
    writeFileSync(join(dir, 'my-app-1.0.0.dar'), buildSamplePackage('my-app', '1.0.0').dar());
    const expected = `canton-conformance serve: --splice-dars ${dir}: no splice-amulet DAR in the folder (found 1 other .dar files); copy LocalNet's or a Splice release's splice-amulet-<version>.dar there`;
    for (const mode of [['--port', '0'], ['--localnet', '--localnet-port-base', '0']]) {
      const r = await serveCli(...mode, '--splice-dars', dir);
      expect([r.code, r.out, r.err]).toEqual([2, '', expected]);
    }
  });

  it('a missing folder, and a file in it that is not a DAR: exit 2, one line', async () => {
    const missing = join(root, 'gone');
    expect(await serveCli('--port', '0', '--splice-dars', missing)).toEqual({ code: 2, out: '', err: `canton-conformance serve: --splice-dars ${missing}: no such directory` });
    const dir = join(root, 'broken');
    mkdirSync(dir);
    writeFileSync(join(dir, 'splice-amulet-0.1.22.dar'), 'not a zip');
    const r = await serveCli('--port', '0', '--splice-dars', dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^canton-conformance serve: --splice-dars ${dir}: splice-amulet-0\\.1\\.22\\.dar is not a DAR \\([^\\n]+\\)$`));
  });
});

/**
 * The built CLI reads the folder once (each distinct DALF inflated once, shared between DARs) and
 * uploads what it read: it lists and vets every package of the folder, and refuses a folder the
 * upload check refuses with the same line as an in-process start.
 */
describe.skipIf(!HAS_DARS)('serve --splice-dars, the built CLI (needs ../shared/upstream/daml/dars and dist/)', () => {
  const children = childrenKilledAfterEach();
  const bin = new URL('../../bin/canton-conformance.js', import.meta.url).pathname;

  it("LocalNet's folder: every package of its DARs listed, and vetted on each synchronizer", async () => {
    const set = readSpliceDars(DARS_DIR);
    if (!set.ok) throw new Error(set.error);
    const ids = [...new Set(set.value.dars.flatMap((d) => d.parsed.packages.map((p) => p.packageId)))];
    const { url } = await spawnServe(['--splice-dars', DARS_DIR], children);
    const listed = (await (await fetch(`${url}/v2/packages`)).json()) as { packageIds: string[] };
    expect(listed.packageIds).toEqual(expect.arrayContaining(ids));
    const syncs = (await (await fetch(`${url}/v2/state/connected-synchronizers`)).json()) as { connectedSynchronizers: { synchronizerId: string }[] };
    expect(syncs.connectedSynchronizers.length).toBeGreaterThan(0);
    for (const { synchronizerId } of syncs.connectedSynchronizers) {
      const r = await fetch(`${url}/v2/package-vetting/list`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ packageMetadataFilter: { packageIds: ids }, topologyStateFilter: { synchronizerIds: [synchronizerId] } }) });
      expect(r.status).toBe(200);
      const vetted = (await r.json()) as { vettedPackages: { packages: { packageId: string }[] }[] };
      expect(vetted.vettedPackages.flatMap((v) => v.packages.map((p) => p.packageId))).toEqual(expect.arrayContaining(ids));
    }
  }, 300_000);

  it('a splice-amulet older than the world is built on: exit 2, one line naming its version (0.1.8 lacks the token standard, 0.1.9 refuses a seeded transfer)', async () => {
    const lacking = join(root, 'amulet-0.1.8');
    mkdirSync(lacking);
    writeFileSync(join(lacking, 'splice-amulet-0.1.8.dar'), readFileSync(join(DARS_DIR, 'history', 'splice-amulet-0.1.8.dar')));
    const r8 = await serveCli('--port', '0', '--splice-dars', lacking);
    expect([r8.code, r8.out]).toEqual([2, '']);
    expect(r8.err).toMatch(/^canton-conformance serve: --splice-dars \S*\/splice-amulet-0\.1\.8\.dar: splice-amulet 0\.1\.8 lacks a template the world is built on \([^\n]*AmuletTransferInstruction[^\n]*\); the world is built on splice-amulet 0\.1\.14 \(LocalNet's\) and later releases$/);
    const unfunded = join(root, 'amulet-0.1.9');
    mkdirSync(unfunded);
    writeFileSync(join(unfunded, 'splice-amulet-0.1.9.dar'), readFileSync(join(DARS_DIR, 'history', 'splice-amulet-0.1.9.dar')));
    const r9 = await serveCli('--port', '0', '--splice-dars', unfunded);
    expect([r9.code, r9.out]).toEqual([2, '']);
    expect(r9.err).toMatch(/^canton-conformance serve: --splice-dars: the default world cannot be seeded on splice-amulet 0\.1\.9 \([A-Z_]+: [^\n]+\); the world is built on splice-amulet 0\.1\.14 \(LocalNet's\) and later releases$/);
  }, 300_000);

  it("a splice-amulet DAR without its dependencies: exit 2 with the upload check's refusal, as in-process", async () => {
    const files = unzipSync(readFileSync(join(DARS_DIR, 'splice-amulet-0.1.14.dar')));
    const mainDalf = readManifest(new TextDecoder().decode(files['META-INF/MANIFEST.MF'])).get('Main-Dalf')!;
    const dir = join(root, 'amulet-alone');
    mkdirSync(dir);
    writeFileSync(join(dir, 'splice-amulet-0.1.14.dar'), zipSync({ 'META-INF/MANIFEST.MF': strToU8(`Manifest-Version: 1.0\r\nMain-Dalf: ${mainDalf}\r\nDalfs: ${mainDalf}\r\nFormat: daml-lf\r\n`), [mainDalf]: files[mainDalf]! }));
    const inProcess = await serveCli('--port', '0', '--splice-dars', dir);
    expect(inProcess.code).toBe(2);
    expect(inProcess.err).toMatch(/DAR_NOT_SELF_CONSISTENT/);
    const child = spawnSync(process.execPath, [bin, 'serve', '--port', '0', '--splice-dars', dir], { encoding: 'utf8', timeout: 300_000 });
    expect([child.status, child.stdout, child.stderr.trim()]).toEqual([2, '', inProcess.err]);
  }, 300_000);
});
