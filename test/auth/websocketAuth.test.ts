import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAsset } from './support/operations.js';
import { startSecuredWorld, type SecuredWorld } from './support/securedServer.js';
import { badCredentials, userToken, type BadCredential } from './support/tokens.js';
import { wsExchange } from './support/wsExchange.js';
import { post } from '../http/support/ledgerApi.js';

let w: SecuredWorld;
let bad: BadCredential[];
let end: number;
beforeAll(async () => {
  w = await startSecuredWorld();
  bad = await badCredentials('root', 'HS256');
  const created = await post(w.server, '/v2/commands/submit-and-wait', createAsset(w.alice, w.alice), { headers: { authorization: `Bearer ${await userToken('alice')}` } });
  end = created.body.completionOffset as number;
});
afterAll(() => w.server.close());

const filter = (party: string) => ({ filtersByParty: { [party]: {} } });
/** One representative request per WebSocket stream, all closed ranges so a good stream ends by itself. */
const channels = () => [
  { path: '/v2/updates', request: { beginExclusive: 0, endInclusive: end, updateFormat: { includeTransactions: { eventFormat: filter(w.alice), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } } },
  { path: '/v2/state/active-contracts', request: { activeAtOffset: end, eventFormat: filter(w.alice) } },
  { path: '/v2/commands/completions', request: { userId: 'alice', parties: [w.alice], beginExclusive: 0 } },
];

/** The participant sends its refusal as the stream's one message: a redacted JsCantonError. */
function expectRefusal(outcome: { messages: unknown[] }, grpc: 16 | 7): void {
  expect(outcome.messages).toHaveLength(1);
  expect(outcome.messages[0]).toMatchObject({ code: 'NA', errorCategory: -1, grpcCodeValue: grpc, context: {}, cause: expect.stringMatching(/^An error occurred\. Please contact the operator/) });
}

/** A credential as the two ways a WebSocket client can present it. */
function presentations(credential: BadCredential): { how: string; protocols: string[]; headers: Record<string, string> }[] {
  const header = credential.headers['authorization'];
  if (header === undefined) return [{ how: 'nothing', protocols: ['daml.ws.auth'], headers: {} }];
  const token = /^Bearer (.*)$/.exec(header)?.[1];
  const out: { how: string; protocols: string[]; headers: Record<string, string> }[] = [{ how: 'header', protocols: ['daml.ws.auth'], headers: { authorization: header } }];
  if (token !== undefined && token !== '') out.push({ how: 'subprotocol', protocols: [`jwt.token.${token}`, 'daml.ws.auth'], headers: {} });
  return out;
}

describe('WebSocket streams, secured', () => {
  it('stream with a valid token in the subprotocol or the header (control)', async () => {
    const token = await userToken('alice');
    for (const channel of channels()) {
      const ways: { protocols: string[]; headers: Record<string, string> }[] = [
        { protocols: [`jwt.token.${token}`, 'daml.ws.auth'], headers: {} },
        { protocols: ['daml.ws.auth'], headers: { authorization: `Bearer ${token}` } },
      ];
      for (const creds of ways) {
        const outcome = await wsExchange(w.server.url, channel.path, channel.request, creds);
        expect(outcome.protocol).toBe('daml.ws.auth');
        expect(outcome.messages.length, channel.path).toBeGreaterThan(0);
        for (const m of outcome.messages) expect(m, channel.path).not.toHaveProperty('code');
      }
    }
  });

  it('refuses every bad credential, presented either way, before sending any data', async () => {
    let count = 0;
    for (const channel of channels()) {
      for (const credential of bad) {
        for (const p of presentations(credential)) {
          const outcome = await wsExchange(w.server.url, channel.path, channel.request, { protocols: p.protocols, headers: p.headers });
          expect(outcome.refusedStatus, `${channel.path} ${credential.name} via ${p.how}`).toBeUndefined();
          expectRefusal(outcome, 16);
          expect(outcome.closeCode).toBe(1000);
          count++;
        }
      }
    }
    expect(count).toBeGreaterThan(channels().length * bad.length);
  });

  it('lets the Authorization header win over the subprotocol token', async () => {
    const good = await userToken('alice');
    const [channel] = channels();
    const headerBad = await wsExchange(w.server.url, channel!.path, channel!.request, { protocols: [`jwt.token.${good}`, 'daml.ws.auth'], headers: { authorization: 'Bearer nonsense' } });
    expectRefusal(headerBad, 16);
    const headerGood = await wsExchange(w.server.url, channel!.path, channel!.request, { protocols: ['jwt.token.nonsense', 'daml.ws.auth'], headers: { authorization: `Bearer ${good}` } });
    expect(headerGood.messages.length).toBeGreaterThan(0);
    expect(headerGood.messages[0]).not.toHaveProperty('code');
  });

  it('refuses a valid token without the right with one 403-coded message (no data before it)', async () => {
    const cases: [string, string, unknown][] = [
      ['bob', '/v2/updates', { beginExclusive: 0, endInclusive: end, updateFormat: { includeTransactions: { eventFormat: filter(w.alice), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }],
      ['bob', '/v2/state/active-contracts', { activeAtOffset: end, eventFormat: filter(w.alice) }],
      ['alice', '/v2/state/active-contracts', { activeAtOffset: end, eventFormat: { filtersForAnyParty: {} } }],
      ['alice', '/v2/commands/completions', { userId: 'bob', parties: [w.alice], beginExclusive: 0 }],
      ['gone', '/v2/commands/completions', { userId: 'gone', parties: [w.alice], beginExclusive: 0 }],
      ['ghost', '/v2/state/active-contracts', { activeAtOffset: end, eventFormat: filter(w.alice) }],
    ];
    for (const [user, path, request] of cases) {
      const outcome = await wsExchange(w.server.url, path, request, { protocols: [`jwt.token.${await userToken(user)}`, 'daml.ws.auth'] });
      expectRefusal(outcome, 7);
    }
  });
});
