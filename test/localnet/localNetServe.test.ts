import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalNet } from '../../reference-server/src/localnet/startLocalNet.js';
import { localNetToken, loopbackUrls, startTestLocalNet } from './support.js';
import { SPLICE_COMMIT_TS, SPLICE_VERSION } from '../../conformance/src/schema/spliceVersions.js';

/** `serve --localnet`: LocalNet's listeners, prefixes and auth over one ledger. */
describe('serve --localnet', () => {
  let net: LocalNet;
  let urls: ReturnType<typeof loopbackUrls>;
  let token: string;
  const get = (url: string, t: string | null = token) => fetch(url, { headers: t === null ? {} : { authorization: `Bearer ${t}` } });
  const post = (url: string, body: unknown, t = token) =>
    fetch(url, { method: 'POST', headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    net = await startTestLocalNet();
    urls = loopbackUrls(net);
    token = await localNetToken();
  });
  afterAll(() => net.close());

  it('names its URLs as the wallet SDK\'s localNetStaticConfig does', () => {
    expect(net.urls.ledger).toBe(`http://localhost:${net.ports.ledger}`);
    expect(net.urls.validator).toBe(`http://localhost:${net.ports.validator}/api/validator`);
    expect(net.urls.registry).toBe(`http://localhost:${net.ports.validator}/api/validator/v0/scan-proxy`);
    expect(net.urls.scan).toBe(`http://scan.localhost:${net.ports.scan}/api/scan`);
    expect(net.urls.tokenStandard).toBe(`http://localhost:${net.ports.tokenStandard}`);
  });

  it('the validator answers its user\'s party, which ledger-api-user acts as, with ParticipantAdmin', async () => {
    const res = await get(`${urls.validator}/v0/validator-user`);
    expect(res.status).toBe(200);
    const info = (await res.json()) as { party_id: string; user_name: string };
    expect(info).toMatchObject({ party_id: net.validatorParty, user_name: 'ledger-api-user' });
    expect(info.party_id).toMatch(/^app_user_localnet-localparty-1::1220[0-9a-f]{64}$/);
    const rights = (await (await get(`${urls.ledger}/v2/users/ledger-api-user/rights`)).json()) as { rights: { kind: Record<string, unknown> }[] };
    expect(rights.rights.map((r) => Object.keys(r.kind)[0]).sort()).toEqual(['CanActAs', 'ParticipantAdmin']);
    expect(rights.rights.find((r) => 'CanActAs' in r.kind)?.kind).toEqual({ CanActAs: { value: { party: net.validatorParty } } });
  });

  it('Scan and the validator say their Splice release without a token (GET /version)', async () => {
    for (const url of [`${urls.scan}/version`, `${urls.validator}/version`]) {
      const res = await get(url, null);
      expect(res.status, url).toBe(200);
      expect(await res.json(), url).toEqual({ version: SPLICE_VERSION, commit_ts: SPLICE_COMMIT_TS });
    }
  });

  it('accepts HS256 tokens signed with "unsafe" for LocalNet\'s audience only', async () => {
    expect((await get(`${urls.ledger}/v2/users/ledger-api-user`)).status).toBe(200);
    expect((await get(`${urls.ledger}/v2/users/ledger-api-user`, null)).status).toBe(401);
    expect((await get(`${urls.ledger}/v2/users/ledger-api-user`, await localNetToken('ledger-api-user', 'not-unsafe'))).status).toBe(401);
    expect((await get(`${urls.ledger}/v2/users/ledger-api-user`, await localNetToken('ledger-api-user', 'unsafe', { aud: 'https://elsewhere' }))).status).toBe(401);
    // The validator's scan proxy checks the same tokens, in Scan's dialect.
    const refused = await get(`${urls.validator}/v0/scan-proxy/dso-party-id`, null);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: expect.any(String) });
  });

  it('Scan and the token-standard registry are public, as Splice serves them', async () => {
    const scanRoot = urls.scan.replace(/\/api\/scan$/, '');
    for (const url of [`${urls.scan}/v0/dso`, `${urls.tokenStandard}/registry/metadata/v1/info`, `${scanRoot}/registry/metadata/v1/info`]) {
      expect((await get(url, null)).status, url).toBe(200);
    }
  });

  it('refuses a valid token for a user the participant does not know (PERMISSION_DENIED, as Canton), until an admin creates it', async () => {
    const user = `wallet-${randomUUID().slice(0, 8)}`;
    const own = await localNetToken(user);
    const unknown = await get(`${urls.ledger}/v2/users/${user}`, own);
    expect(unknown.status).toBe(403);
    // Redacted as the participant redacts permission errors; PERMISSION_DENIED is gRPC code 7.
    expect(await unknown.json()).toMatchObject({ code: 'NA', grpcCodeValue: 7 });
    // Nothing was created by the refused token.
    expect((await get(`${urls.ledger}/v2/users/${user}`)).status).toBe(404);
    expect((await post(`${urls.ledger}/v2/users`, { user: { id: user, isDeactivated: false, identityProviderId: '' }, rights: [] })).status).toBe(200);
    expect((await get(`${urls.ledger}/v2/users/${user}`, own)).status).toBe(200);
    const rights = (await (await get(`${urls.ledger}/v2/users/${user}/rights`, own)).json()) as { rights: unknown[] };
    expect(rights.rights).toEqual([]);
    // Without rights it may not act for the validator.
    const denied = await post(`${urls.ledger}/v2/commands/submit-and-wait`, {
      commands: [{ CreateCommand: { templateId: '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping', createArguments: { id: 'x', initiator: net.validatorParty, responder: net.validatorParty } } }],
      commandId: randomUUID(),
      userId: user,
      actAs: [net.validatorParty],
    }, own);
    expect(denied.status).toBe(403);
  });

  it('has the global synchronizer first, by its alias', async () => {
    const syncs = (await (await get(`${urls.ledger}/v2/state/connected-synchronizers`)).json()) as { connectedSynchronizers: { synchronizerAlias: string }[] };
    expect(syncs.connectedSynchronizers[0]?.synchronizerAlias).toBe('global');
  });

  it('serves Canton\'s built-in Ping: create, Respond (by the responder) archives it', async () => {
    const v = net.validatorParty;
    const created = await post(`${urls.ledger}/v2/commands/submit-and-wait-for-transaction`, {
      commands: {
        commands: [{ CreateCommand: { templateId: '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping', createArguments: { id: randomUUID(), initiator: v, responder: v } } }],
        commandId: randomUUID(),
        userId: 'ledger-api-user',
        actAs: [v],
      },
    });
    expect(created.status).toBe(200);
    const tx = (await created.json()) as { transaction: { events: { CreatedEvent?: { contractId: string; templateId: string; signatories: string[]; observers: string[] } }[] } };
    const event = tx.transaction.events[0]?.CreatedEvent;
    expect(event?.templateId).toMatch(/:Canton\.Internal\.Ping:Ping$/);
    expect(event?.signatories).toEqual([v]);
    const respond = await post(`${urls.ledger}/v2/commands/submit-and-wait-for-transaction`, {
      commands: {
        commands: [{ ExerciseCommand: { templateId: '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping', contractId: event?.contractId, choice: 'Respond', choiceArgument: {} } }],
        commandId: randomUUID(),
        userId: 'ledger-api-user',
        actAs: [v],
      },
    });
    expect(respond.status).toBe(200);
    const archived = (await respond.json()) as { transaction: { events: { ArchivedEvent?: { contractId: string } }[] } };
    expect(archived.transaction.events[0]?.ArchivedEvent?.contractId).toBe(event?.contractId);
  });

  it('each listener serves its own API under its own prefix', async () => {
    // The registry: on the token-standard port, and under the validator's scan proxy; not on the ledger port.
    const info = await get(`${urls.tokenStandard}/registry/metadata/v1/info`);
    expect(info.status).toBe(200);
    const proxied = await get(`${urls.registry}/registry/metadata/v1/info`);
    expect(await proxied.json()).toEqual(await info.json());
    expect((await get(`${urls.ledger}/registry/metadata/v1/info`)).status).toBe(404);
    // Scan under /api/scan; its proxy forms under the validator.
    expect((await get(`${urls.scan}/v0/dso`)).status).toBe(200);
    expect((await get(`${urls.validator}/v0/scan-proxy/amulet-rules`)).status).toBe(200);
    expect((await get(`${urls.validator}/v0/scan-proxy/dso-party-id`)).status).toBe(200);
    expect((await get(`${urls.tokenStandard}/v2/version`)).status).toBe(404);
    // An unknown validator path answers in Scan's dialect.
    const unknown = await get(`${urls.validator}/v0/no-such-thing`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: expect.any(String) });
  });
});
