import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../reference-server/src/http/api/auth/authConfig.js';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { createLedger } from '../../reference-server/src/ledger/index.js';
import { createReferenceServer, type ReferenceServer } from '../../reference-server/src/server.js';
import { HS256_SECRET, nowSeconds, sign, userToken } from './support/tokens.js';

/**
 * A refused credential is redacted for the caller, as a participant does, and the real reason
 * goes to the server's log under the trace id the caller was given.
 */
let server: ReferenceServer;
const logged: string[] = [];
beforeAll(async () => {
  const ledger = createLedger();
  const created = ledger.createUser({ user: { id: 'alice', isDeactivated: false, identityProviderId: '' }, rights: [] });
  expect(created.ok).toBe(true);
  const authenticator = await createAuthenticator({ mode: 'hs256', key: { kind: 'secret', secret: HS256_SECRET } }, { participantId: ledger.config.participantId });
  server = await createReferenceServer({ port: 0, host: '127.0.0.1', ledger, authenticator, log: { ...silentLogger, info: (m) => logged.push(m) } });
});
afterAll(() => server.close());

async function call(token: string): Promise<{ status: number; body: { code: string; cause: string; traceId: string } }> {
  const res = await fetch(`${server.url}/v2/parties`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as { code: string; cause: string; traceId: string } };
}

describe('the reason of a redacted refusal', () => {
  it('a token signed with another key: the caller sees the redacted error, the log says the signature does not verify', async () => {
    logged.length = 0;
    const wrong = await sign({ sub: 'alice', scope: 'daml_ledger_api', exp: nowSeconds() + 3600 }, 'HS256', 'not-the-configured-secret-0123456789');
    const r = await call(wrong);
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('NA');
    expect(r.body.cause).not.toMatch(/signature/);
    const line = logged.find((l) => l.includes(r.body.traceId));
    expect(line, logged.join('\n')).toBeDefined();
    expect(line).toMatch(/^GET \/v2\/parties refused \(tid [0-9a-f]{32}\): UNAUTHENTICATED: .*the token signature does not verify/);
  });

  it('a valid token without the right: the log names the missing right', async () => {
    logged.length = 0;
    const r = await call(await userToken('alice'));
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('NA');
    expect(logged.find((l) => l.includes(r.body.traceId))).toMatch(/PERMISSION_DENIED/);
  });

  it('an accepted request logs nothing', async () => {
    logged.length = 0;
    const admin = await userToken('participant_admin');
    expect((await call(admin)).status).toBe(200);
    expect(logged).toEqual([]);
  });
});
