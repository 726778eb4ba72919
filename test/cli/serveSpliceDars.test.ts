/**
 * `serve --splice-dars DIR`: the flag, and a folder the world cannot be built on stops the start
 * with one line naming what is missing, exit 2 (with and without --localnet), before anything is
 * uploaded. The world built on a real folder: test/apps/spliceAmulet.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../conformance/src/cli/main.js';
import { parseServeArgs } from '../../conformance/src/cli/serve.js';
import { buildSamplePackage } from '../daml/samplePackage.js';

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
