import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecuredWorld, type SecuredWorld } from './support/securedServer.js';
import { sign, userToken } from './support/tokens.js';

let w: SecuredWorld;
beforeAll(async () => {
  w = await startSecuredWorld();
});
afterAll(() => w.server.close());

/** The registry's and Scan's answers to a refused credential, as a client sees them. */
async function both(headers: Record<string, string>): Promise<{ status: number; text: string }[]> {
  const registry = await fetch(`${w.server.url}/registry/allocation-instruction/v2/00ab/choice-contexts/accept`, { method: 'POST', body: '{}', headers });
  const scan = await fetch(`${w.server.url}/v0/transfer-preapprovals/by-party/${encodeURIComponent(w.alice)}`, { headers });
  return [
    { status: registry.status, text: await registry.text() },
    { status: scan.status, text: await scan.text() },
  ];
}

describe('registry and Scan refusals are redacted, as the README promises', () => {
  it('a token for an unknown or deactivated user: 403 without naming the user', async () => {
    for (const user of ['ghost', 'gone']) {
      for (const answer of await both({ authorization: `Bearer ${await userToken(user)}` })) {
        expect(answer.status).toBe(403);
        expect(JSON.parse(answer.text)).toEqual({ error: 'The request is not authorized' });
      }
    }
  });

  it('a token that does not verify, or none: 401 without saying what is wrong with it', async () => {
    const forged = await sign({ sub: 'alice', scope: 'daml_ledger_api', exp: Math.floor(Date.now() / 1000) + 60 }, 'HS256', 'another secret');
    for (const headers of [{ authorization: `Bearer ${forged}` }, {}, { authorization: 'Bearer not-a-jwt' }] as Record<string, string>[]) {
      for (const answer of await both(headers)) {
        expect(answer.status).toBe(401);
        expect(JSON.parse(answer.text)).toEqual({ error: 'The request could not be authenticated' });
      }
    }
  });

  it('other refusals keep their reason (control)', async () => {
    const [registry] = await both({ authorization: `Bearer ${await userToken('root')}` });
    expect(registry?.status).toBe(400);
    expect((JSON.parse(registry?.text ?? '{}') as { error: string }).error).toMatch(/00ab/);
  });
});
