import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { createAuthenticator } from '../../reference-server/src/http/api/auth/authConfig.js';
import { resolveConfig } from '../../reference-server/src/ledger/index.js';
import { runSocket } from './support/runSocket.js';
import { MOCK_URL, startTwins, withoutTraceIds, type Probe, type Twins } from './support/twins.js';

(globalThis as { WebSocket?: unknown }).WebSocket ??= NodeWebSocket;

const SECRET = 'msw-equivalence-secret';
const NS = '1220' + 'c0ffee'.repeat(10) + 'c0ff';
const alice = `alice::${NS}`;

/** An HS256 Ledger API token (scope-based, as the participant accepts by default). */
const token = (sub: string, secret = SECRET) =>
  new SignJWT({ scope: 'daml_ledger_api' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret));

interface Row extends Probe {
  readonly title: string;
  readonly status: number;
}

/** With JWT authentication on both faces: refusals (401, 403) are rendered alike too. */
describe('the msw handlers authenticate and authorize as the Koa reference server does', () => {
  let twins: Twins;
  let rows: Row[];
  const bearer = (jwt: string) => ({ authorization: `Bearer ${jwt}` });

  beforeAll(async () => {
    const authenticator = await createAuthenticator({ mode: 'hs256', key: { kind: 'secret', secret: SECRET } }, { participantId: resolveConfig().participantId });
    twins = await startTwins({ authenticator });
    const admin = await token('participant_admin');
    const aliceUser = await token('alice-user');
    rows = [
      { title: 'no token', method: 'GET', path: '/v2/version', status: 401 },
      { title: 'a token signed with another secret', method: 'GET', path: '/v2/version', headers: bearer(await token('participant_admin', 'other')), status: 401 },
      { title: 'a malformed Authorization header', method: 'GET', path: '/v2/version', headers: { authorization: 'Bearer not-a-jwt' }, status: 401 },
      { title: 'admin reads the version', method: 'GET', path: '/v2/version', headers: bearer(admin), status: 200 },
      { title: 'admin allocates alice', method: 'POST', path: '/v2/parties', body: JSON.stringify({ partyIdHint: 'alice' }), headers: bearer(admin), status: 200 },
      {
        title: 'admin creates alice-user',
        method: 'POST',
        path: '/v2/users',
        body: JSON.stringify({ user: { id: 'alice-user', primaryParty: alice }, rights: [{ kind: { CanReadAs: { value: { party: alice } } } }] }),
        headers: bearer(admin),
        status: 200,
      },
      { title: 'a token for an unknown user', method: 'GET', path: '/v2/version', headers: bearer(await token('nobody')), status: 403 },
      { title: 'alice-user reads her own rights', method: 'GET', path: '/v2/users/alice-user/rights', headers: bearer(aliceUser), status: 200 },
      { title: 'alice-user may not allocate parties', method: 'POST', path: '/v2/parties', body: JSON.stringify({ partyIdHint: 'bob' }), headers: bearer(aliceUser), status: 403 },
      { title: 'alice-user may not read another user', method: 'GET', path: '/v2/users/participant_admin', headers: bearer(aliceUser), status: 403 },
      {
        title: 'alice-user may not submit as alice (read right only)',
        method: 'POST',
        path: '/v2/commands/submit-and-wait',
        body: JSON.stringify({
          commands: [{ CreateCommand: { templateId: '#canton-conformance-samples:Sample.Asset:Asset', createArguments: { issuer: alice, owner: alice, amount: '1', observers: null } } }],
          commandId: 'c1',
          actAs: [alice],
        }),
        headers: bearer(aliceUser),
        status: 403,
      },
      { title: 'public health probe needs no token', method: 'GET', path: '/livez', status: 200 },
    ];
  });
  afterAll(async () => {
    await twins?.close();
  });

  it('answers every row alike', async () => {
    for (const row of rows) {
      const { koa, msw } = await twins.send(row);
      expect(koa.status, `${row.title}: ${koa.body}`).toBe(row.status);
      expect({ ...msw, body: withoutTraceIds(msw.body) }, row.title).toEqual({ ...koa, body: withoutTraceIds(koa.body) });
    }
  });

  it('takes the token from the jwt.token.<JWT> subprotocol on the WebSocket streams', async () => {
    twins.mock.allocateParty('ws-probe'); // something to stream, whatever the rows left
    const frame = JSON.stringify({ beginExclusive: 0, endInclusive: twins.mock.ledger.ledgerEnd().offset, updateFormat: {} });
    const url = `${MOCK_URL.replace(/^http/, 'ws')}/v2/updates`;
    const withToken = await runSocket(new WebSocket(url, [`jwt.token.${await token('participant_admin')}`, 'daml.ws.auth']), frame);
    expect(withToken).toMatchObject({ opened: true, protocol: 'daml.ws.auth', closeCode: 1000 });
    expect(withToken.messages.length).toBeGreaterThan(0);
    expect(new Set(withToken.messages.map((m) => Object.keys(JSON.parse(m) as object)[0])), withToken.messages.join()).toEqual(new Set(['update']));
    const without = await runSocket(new WebSocket(url, ['daml.ws.auth']), frame);
    expect(without.messages).toHaveLength(1);
    expect(JSON.parse(without.messages[0] ?? '{}')).toMatchObject({ grpcCodeValue: 16 });
  });

  it('logs no unexpected failure on either face', () => {
    expect(twins.errors).toEqual([]);
  });
});
