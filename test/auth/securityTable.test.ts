import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../http/support/ledgerApi.js';
import { createAsset, operationClasses, type Operation } from './support/operations.js';
import { startSecuredWorld, type SecuredWorld } from './support/securedServer.js';
import { badCredentials, sign, nowSeconds, userToken, type BadCredential } from './support/tokens.js';

let w: SecuredWorld;
let bad: BadCredential[];
beforeAll(async () => {
  w = await startSecuredWorld();
  bad = await badCredentials('root', 'HS256');
});
afterAll(() => w.server.close());

const REDACTED = /^An error occurred\. Please contact the operator and inquire about the request \S+ with tid [0-9a-f]{32}$/;

/** A refusal that tells the caller nothing: redacted cause, no context, the right gRPC code. */
function expectRedacted(body: unknown, grpc: 16 | 7): void {
  expect(body).toMatchObject({ code: 'NA', cause: expect.stringMatching(REDACTED), context: {}, resources: [], errorCategory: -1, grpcCodeValue: grpc });
}

const call = async (op: Operation, headers: Record<string, string>) => send(w.server, op.method, op.path, { headers, ...(op.body === undefined ? {} : { body: op.body }) });
const as = async (user: string) => ({ authorization: `Bearer ${await userToken(user)}` });

describe('every bad credential on every operation class: 401', () => {
  it('covers the operation classes with a user that holds every right (control)', async () => {
    for (const op of operationClasses(w)) {
      const res = await call(op, await as('root'));
      expect(res.status, `${op.name}: ${res.text.slice(0, 200)}`).toBe(200);
    }
  });

  it('refuses each bad token kind on each operation class with 401 and a redacted body', async () => {
    const table: string[] = [];
    for (const op of operationClasses(w)) {
      for (const credential of bad) {
        const res = await call(op, credential.headers);
        table.push(`${op.name} | ${credential.name} | ${res.status}`);
        expect(res.status, `${op.name} with ${credential.name}`).toBe(401);
        expectRedacted(res.body, 16);
      }
    }
    expect(table).toHaveLength(operationClasses(w).length * bad.length);
  });

  it('commits nothing for a refused submission', async () => {
    const before = w.ledger.ledgerEnd().offset;
    for (const credential of bad) await call({ name: 'submit', method: 'POST', path: '/v2/commands/submit-and-wait', body: createAsset(w.alice, w.alice) }, credential.headers);
    expect(w.ledger.ledgerEnd().offset).toBe(before);
  });
});

describe('a valid token without the right: 403', () => {
  const readFilter = (party: string) => ({ filtersByParty: { [party]: {} } });
  const cases: [string, string, () => Operation][] = [
    ['submits as another party', 'alice', () => ({ name: '', method: 'POST', path: '/v2/commands/submit-and-wait', body: createAsset(w.bob, w.bob) })],
    ['submits with readAs it lacks', 'alice', () => ({ name: '', method: 'POST', path: '/v2/commands/submit-and-wait', body: createAsset(w.alice, w.alice, { readAs: [w.bob] }) })],
    ['submits under another userId', 'alice', () => ({ name: '', method: 'POST', path: '/v2/commands/submit-and-wait', body: createAsset(w.alice, w.alice, { userId: 'bob' }) })],
    ['admin submits as a party it has no right for', 'participant_admin', () => ({ name: '', method: 'POST', path: '/v2/commands/submit-and-wait', body: createAsset(w.alice, w.alice) })],
    ['reader submits', 'reader', () => ({ name: '', method: 'POST', path: '/v2/commands/submit-and-wait', body: createAsset(w.alice, w.alice) })],
    ['executor submits (execute is not act)', 'executor', () => ({ name: '', method: 'POST', path: '/v2/commands/submit-and-wait', body: createAsset(w.alice, w.alice) })],
    ['deactivated user submits', 'gone', () => ({ name: '', method: 'POST', path: '/v2/commands/submit-and-wait', body: createAsset(w.alice, w.alice) })],
    ['deactivated user reads the version', 'gone', () => ({ name: '', method: 'GET', path: '/v2/version' })],
    ['unknown user reads the version', 'ghost', () => ({ name: '', method: 'GET', path: '/v2/version' })],
    ["reads another party's contracts", 'alice', () => ({ name: '', method: 'POST', path: '/v2/state/active-contracts', body: { activeAtOffset: 0, eventFormat: readFilter(w.bob) } })],
    ['reads contracts of an unknown party', 'alice', () => ({ name: '', method: 'POST', path: '/v2/state/active-contracts', body: { activeAtOffset: 0, eventFormat: readFilter('nobody::1220' + '0'.repeat(64)) } })],
    ['reads for any party without the right', 'alice', () => ({ name: '', method: 'POST', path: '/v2/state/active-contracts', body: { activeAtOffset: 0, eventFormat: { filtersForAnyParty: {} } } })],
    ['reads updates of another party', 'alice', () => ({ name: '', method: 'POST', path: '/v2/updates', body: { beginExclusive: 0, endInclusive: 0, updateFormat: { includeTransactions: { eventFormat: readFilter(w.bob), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } } })],
    ["reads another user's completions", 'alice', () => ({ name: '', method: 'POST', path: '/v2/commands/completions', body: { userId: 'bob', parties: [w.alice] } })],
    ['submit-and-wait-for-transaction reads as another party', 'alice', () => ({ name: '', method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction', body: { commands: createAsset(w.alice, w.alice), transactionFormat: { eventFormat: readFilter(w.bob), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } })],
    ['lists users', 'alice', () => ({ name: '', method: 'GET', path: '/v2/users' })],
    ["reads another user's record", 'alice', () => ({ name: '', method: 'GET', path: '/v2/users/bob' })],
    ['reads an unknown user record', 'alice', () => ({ name: '', method: 'GET', path: '/v2/users/ghost' })],
    ["reads another user's rights", 'alice', () => ({ name: '', method: 'GET', path: '/v2/users/bob/rights' })],
    ['creates a user', 'alice', () => ({ name: '', method: 'POST', path: '/v2/users', body: { user: { id: 'mallory' } } })],
    ['grants itself rights', 'alice', () => ({ name: '', method: 'POST', path: '/v2/users/alice/rights', body: { userId: 'alice', rights: [{ kind: { CanActAs: { value: { party: w.bob } } } }] } })],
    ['identity provider admin grants ParticipantAdmin', 'idp', () => ({ name: '', method: 'POST', path: '/v2/users/idp/rights', body: { userId: 'idp', rights: [{ kind: { ParticipantAdmin: { value: {} } } }] } })],
    ['identity provider admin creates a participant admin', 'idp', () => ({ name: '', method: 'POST', path: '/v2/users', body: { user: { id: 'shadow-admin' }, rights: [{ kind: { ParticipantAdmin: { value: {} } } }] } })],
    ['deletes a user', 'alice', () => ({ name: '', method: 'DELETE', path: '/v2/users/bob' })],
    ['allocates a party', 'alice', () => ({ name: '', method: 'POST', path: '/v2/parties', body: { partyIdHint: 'sneaky' } })],
    ['lists parties', 'alice', () => ({ name: '', method: 'GET', path: '/v2/parties' })],
    ['looks up a party', 'alice', () => ({ name: '', method: 'GET', path: `/v2/parties/${encodeURIComponent(w.bob)}` })],
  ];

  it.each(cases)('%s (%s)', async (_what, user, op) => {
    const res = await call(op(), await as(user));
    expect(res.status, res.text.slice(0, 300)).toBe(403);
    expectRedacted(res.body, 7);
  });

  it('answers the same for a user that exists and one that does not', async () => {
    const [known, unknown] = [await call({ name: '', method: 'GET', path: '/v2/users/bob' }, await as('alice')), await call({ name: '', method: 'GET', path: '/v2/users/ghost' }, await as('alice'))];
    const shape = (b: Record<string, unknown>) => ({ ...b, cause: '', traceId: '' });
    expect([known.status, shape(known.body)]).toEqual([unknown.status, shape(unknown.body)]);
  });
});

describe('what each right does allow (controls for the 403 table)', () => {
  const cases: [string, string, () => Operation, number][] = [
    ['a user submits as its party, userId defaulted', 'alice', () => ({ name: '', method: 'POST', path: '/v2/commands/submit-and-wait', body: createAsset(w.alice, w.alice) }), 200],
    ['a user submits naming itself', 'alice', () => ({ name: '', method: 'POST', path: '/v2/commands/submit-and-wait', body: createAsset(w.alice, w.alice, { userId: 'alice' }) }), 200],
    ['an admin with the act right submits for another user', 'root', () => ({ name: '', method: 'POST', path: '/v2/commands/submit-and-wait', body: createAsset(w.alice, w.alice, { userId: 'alice' }) }), 200],
    ['a reader reads its party', 'reader', () => ({ name: '', method: 'POST', path: '/v2/state/active-contracts', body: { activeAtOffset: 0, eventFormat: { filtersByParty: { [w.alice]: {} } } } }), 200],
    ['the auditor reads for any party', 'auditor', () => ({ name: '', method: 'POST', path: '/v2/state/active-contracts', body: { activeAtOffset: 0, eventFormat: { filtersForAnyParty: {} } } }), 200],
    ['a user reads its own record', 'alice', () => ({ name: '', method: 'GET', path: '/v2/users/alice' }), 200],
    ['a user reads its own rights', 'alice', () => ({ name: '', method: 'GET', path: '/v2/users/alice/rights' }), 200],
    ['a user reads who it is', 'alice', () => ({ name: '', method: 'GET', path: '/v2/authenticated-user' }), 200],
    ['the identity provider admin lists users', 'idp', () => ({ name: '', method: 'GET', path: '/v2/users' }), 200],
    ['the identity provider admin grants CanActAs', 'idp', () => ({ name: '', method: 'POST', path: '/v2/users/reader/rights', body: { userId: 'reader', rights: [{ kind: { CanReadAs: { value: { party: w.bob } } } }] } }), 200],
    ['the participant admin creates a participant admin', 'participant_admin', () => ({ name: '', method: 'POST', path: '/v2/users', body: { user: { id: 'second-admin' }, rights: [{ kind: { ParticipantAdmin: { value: {} } } }] } }), 200],
  ];

  it.each(cases)('%s (%s)', async (_what, user, op, status) => {
    const res = await call(op(), await as(user));
    expect(res.status, res.text.slice(0, 300)).toBe(status);
  });

  it('takes a revoked right away at once, even for a cached token', async () => {
    const token = { authorization: `Bearer ${await sign({ sub: 'bob', scope: 'daml_ledger_api', exp: nowSeconds() + 600 })}` };
    const op: Operation = { name: '', method: 'POST', path: '/v2/state/active-contracts', body: { activeAtOffset: 0, eventFormat: { filtersByParty: { [w.bob]: {} } } } };
    expect((await call(op, token)).status).toBe(200);
    w.ledger.revokeUserRights('bob', { userId: 'bob', rights: [{ kind: { CanActAs: { value: { party: w.bob } } } }] });
    expect((await call(op, token)).status).toBe(403);
  });

  it('reports a refused submission on the refused path only: a valid but unauthorised one is not committed', async () => {
    const before = w.ledger.ledgerEnd().offset;
    await call({ name: '', method: 'POST', path: '/v2/commands/submit-and-wait', body: createAsset(w.bob, w.bob) }, await as('alice'));
    expect(w.ledger.ledgerEnd().offset).toBe(before);
  });
});

describe('public endpoints', () => {
  it.each(['/docs/openapi', '/docs/asyncapi', '/livez', '/readyz'])('%s needs no token, and ignores a bad one', async (path) => {
    expect((await send(w.server, 'GET', path, { unchecked: true })).status).toBe(200);
    expect((await send(w.server, 'GET', path, { unchecked: true, headers: { authorization: 'Bearer nonsense' } })).status).toBe(200);
  });

  it('while the Ledger API behind it refuses the same bad token', async () => {
    const res = await send(w.server, 'GET', '/v2/version', { headers: { authorization: 'Bearer nonsense' } });
    expect(res.status).toBe(401);
    expectRedacted(res.body, 16);
  });
});
