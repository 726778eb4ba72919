import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../conformance/src/cli/serve.js';
import { mintToken } from '../../conformance/src/cli/token.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';

/**
 * Secured mode from an installed package: `serve --auth ALG --auth-test-key` trusts the bundled
 * TEST-ONLY key whatever the working directory, and `token` signs with the same key.
 */
const cwd = process.cwd();
afterEach(() => process.chdir(cwd));

describe('serve --auth-test-key', () => {
  it('resolves the bundled key relative to the package, not the working directory', () => {
    process.chdir(mkdtempSync(join(tmpdir(), 'cc-elsewhere-')));
    const es = parseServeArgs(['--auth', 'es256', '--auth-test-key'], {});
    if (es === 'help' || es.auth.mode !== 'es256' || es.auth.key.kind !== 'public-key-file') throw new Error(`unexpected ${JSON.stringify(es)}`);
    expect(isAbsolute(es.auth.key.path) && existsSync(es.auth.key.path)).toBe(true);
    const hs = parseServeArgs(['--auth', 'hs256', '--auth-test-key'], {});
    if (hs === 'help' || hs.auth.mode !== 'hs256' || hs.auth.key.kind !== 'secret') throw new Error(`unexpected ${JSON.stringify(hs)}`);
    expect(hs.auth.key.secret.length).toBeGreaterThan(20);
  });

  it('refuses a second key source and explains the flag in usage errors', () => {
    expect(() => parseServeArgs(['--auth', 'es256', '--auth-test-key', '--auth-public-key', 'k.pem'], {})).toThrow(/one key source/);
    expect(() => parseServeArgs(['--auth', 'es256'], {})).toThrow(/--auth-test-key/);
    expect(() => parseServeArgs(['--auth-test-key'], {})).toThrow(/needs --auth hs256, rs256 or es256/);
  });

  it.each(['es256', 'hs256'] as const)('%s: a server started that way accepts the token `token` mints', async (alg) => {
    process.chdir(mkdtempSync(join(tmpdir(), 'cc-elsewhere-')));
    const args = parseServeArgs(['--auth', alg, '--auth-test-key', '--port', '0'], {});
    if (args === 'help') throw new Error('help');
    const server = await startReferenceServer(args);
    try {
      const token = await mintToken({ user: 'alice', algorithm: alg });
      const ok = await fetch(`${server.url}/v2/authenticated-user`, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { user: { id: string } }).user.id).toBe('alice');
      expect((await fetch(`${server.url}/v2/authenticated-user`)).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
