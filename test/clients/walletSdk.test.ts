import { randomUUID } from 'node:crypto';
import { SDK, signTransactionHash } from '@canton-network/wallet-sdk';
import { createKeyPair } from '@canton-network/core-signing-lib';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { createAuthenticator } from '../../reference-server/src/http/api/auth/authConfig.js';
import { ASSET_TEMPLATE, createLedger, PARTICIPANT_ADMIN_USER, type Ledger } from '../../reference-server/src/ledger/index.js';
import { createHandlers } from '../../reference-server/src/msw/index.js';
import { createReferenceServer } from '../../reference-server/src/server.js';
import { ES256_PUBLIC_PEM, userToken } from '../auth/support/tokens.js';
import { quietSdkLogs, sdkLogAdapter } from './support/quietSdkLogs.js';
import './support/node20Builtins.js';

/**
 * The published wallet SDK (@canton-network/wallet-sdk 1.4.0), unchanged, driven as a wallet
 * does: SDK.create with a static token, list parties and users, onboard an external party
 * (generate the topology, recompute its multiHash with the SDK's own hash utility, sign,
 * allocate), and read the active contracts through the SDK's ACS reader.
 */
interface SdkTarget {
  readonly ledgerClientUrl: string;
  readonly ledger: Ledger;
  readonly token: string;
  readonly errors: string[];
  close(): Promise<void>;
}

const TIMEOUT = 30_000;

/**
 * What the test calls on core-acs-reader's ACSReader (BaseReader's methods): its published .d.ts
 * imports extension-less paths that NodeNext resolution cannot follow, so the inherited methods
 * are invisible to the type checker, though present at run time.
 */
interface AcsQuery {
  readonly parties: string[];
  readonly templateIds: string[];
  readonly filterByParty: boolean;
}
interface AcsReader {
  read(options: AcsQuery): Promise<unknown[]>;
  readJsContracts(options: AcsQuery): Promise<{ contractId: string; templateId: string; createArgument: unknown }[]>;
}

async function koaTarget(auth: 'none' | 'es256'): Promise<SdkTarget> {
  const errors: string[] = [];
  const ledger = createLedger();
  const authenticator = auth === 'none' ? undefined : await createAuthenticator({ mode: 'es256', key: { kind: 'public-key-file', path: ES256_PUBLIC_PEM } }, { participantId: ledger.config.participantId });
  const server = await createReferenceServer({
    ledger,
    port: 0,
    host: '127.0.0.1',
    ...(authenticator === undefined ? {} : { authenticator }),
    log: { ...silentLogger, error: (message, cause) => errors.push(`${message}: ${String(cause)}`) },
  });
  return { ledgerClientUrl: server.url, ledger: server.ledger, token: await userToken(PARTICIPANT_ADMIN_USER, 'ES256'), errors, close: () => server.close() };
}

async function mswTarget(): Promise<SdkTarget> {
  const errors: string[] = [];
  const mock = createHandlers({ ledgerUrl: 'http://participant.test:7575', log: { ...silentLogger, error: (message, cause) => errors.push(`${message}: ${String(cause)}`) } });
  const server = setupServer(...mock.handlers);
  server.events.on('request:unhandled', ({ request }) => errors.push(`unhandled ${request.method} ${request.url}`));
  server.listen({ onUnhandledRequest: 'error' });
  return {
    ledgerClientUrl: mock.urls.ledger,
    ledger: mock.ledger,
    token: await userToken(PARTICIPANT_ADMIN_USER, 'ES256'),
    errors,
    close: () => {
      server.close();
      return Promise.resolve();
    },
  };
}

quietSdkLogs();

describe.each([
  ['the Koa reference server without auth', () => koaTarget('none')],
  ['the Koa reference server with --auth es256', () => koaTarget('es256')],
  ['the msw handlers', mswTarget],
])('@canton-network/wallet-sdk against %s', (_name, start) => {
  let target: SdkTarget;
  let sdk: Awaited<ReturnType<typeof SDK.create>>;
  beforeAll(async () => {
    target = await start();
    sdk = await SDK.create({ auth: { method: 'static', token: target.token }, ledgerClientUrl: target.ledgerClientUrl, logAdapter: sdkLogAdapter } as never);
  }, TIMEOUT);
  afterAll(async () => {
    await target?.close();
  });

  it('SDK.create settles on the token’s user; party.list and user.list read the participant', async () => {
    const parties = await sdk.party.list();
    const listed = target.ledger.listParties();
    const known = listed.ok ? listed.value.partyDetails.map((p) => p.party) : [];
    expect([...parties].sort()).toEqual(known.sort());
    const users = await sdk.user.list();
    expect(users.users?.map((u) => u.id)).toContain(PARTICIPANT_ADMIN_USER);
    expect(target.errors).toEqual([]);
  });

  it('user.create makes a user once (the SDK branches on USER_NOT_FOUND from GET /v2/users/{id}) and finds it the second time', async () => {
    const owner = target.ledger.allocateParty({ partyIdHint: `user-${randomUUID().slice(0, 8)}` });
    if (!owner.ok) throw new Error(owner.error.cause);
    const party = owner.value.partyDetails.party;
    const userId = `sdk-user-${randomUUID().slice(0, 8)}`;
    const made = await sdk.user.create({ userId, primaryParty: party, userRights: { actAs: [party] } });
    expect(made).toMatchObject({ id: userId, primaryParty: party });
    expect(await sdk.user.create({ userId, primaryParty: party })).toMatchObject({ id: userId });
    const rights = target.ledger.listUserRights(userId);
    expect(rights.ok && rights.value.rights).toEqual([{ kind: { CanActAs: { value: { party } } } }]);
    expect(target.errors).toEqual([]);
  });

  it(
    'onboards an external party: topology(), the SDK’s own multiHash equals the server’s, sign, execute',
    async () => {
      const keys = createKeyPair();
      const hint = `wallet-${randomUUID().slice(0, 8)}`;
      const prepared = sdk.party.external.create(keys.publicKey, { partyHint: hint });
      const topology = await prepared.topology();
      expect(topology.topologyTransactions).toHaveLength(3);
      expect(await sdk.utils.hash.topologyTransaction(topology.topologyTransactions)).toBe(topology.multiHash);
      const party = await prepared.sign(keys.privateKey).execute({ grantUserRights: true });
      expect(party.partyId).toBe(topology.partyId);
      expect(party.partyId).toMatch(new RegExp(`^${hint}::1220[0-9a-f]{64}$`));
      expect(target.ledger.isKnownParty(party.partyId)).toBe(true);
      expect(await sdk.party.list()).toContain(party.partyId);
      expect(target.errors).toEqual([]);
    },
    TIMEOUT,
  );

  it('a multiHash signed by another key is refused and the party is not allocated', async () => {
    const keys = createKeyPair();
    const prepared = sdk.party.external.create(keys.publicKey, { partyHint: `forged-${randomUUID().slice(0, 8)}` });
    const topology = await prepared.topology();
    const forged = signTransactionHash(topology.multiHash, createKeyPair().privateKey);
    const refused: unknown = await prepared.execute(forged, { grantUserRights: false }).then(() => undefined, (e: unknown) => e);
    // The SDK hands the participant's JsCantonError through.
    expect(refused).toMatchObject({ code: 'INVALID_ARGUMENT', errorCategory: 8, cause: expect.stringContaining('None of the 1 signatures is a valid signature') });
    expect(target.ledger.isKnownParty(topology.partyId)).toBe(false);
  });

  it('ledger.acsReader.read returns the party’s active contracts (verbose: false beside eventFormat)', async () => {
    const owner = target.ledger.allocateParty({ partyIdHint: `reader-${randomUUID().slice(0, 8)}` });
    if (!owner.ok) throw new Error(owner.error.cause);
    const party = owner.value.partyDetails.party;
    const created = target.ledger.submitAndWait({
      commands: [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer: party, owner: party, amount: '7.0', observers: null } } }],
      commandId: `acs-${randomUUID()}`,
      userId: PARTICIPANT_ADMIN_USER,
      actAs: [party],
    });
    if (!created.ok) throw new Error(created.error.cause);
    // The token's user reads what it may read as, as on a participant with auth.
    const granted = target.ledger.grantUserRights(PARTICIPANT_ADMIN_USER, { userId: PARTICIPANT_ADMIN_USER, rights: [{ kind: { CanReadAs: { value: { party } } } }] });
    if (!granted.ok) throw new Error(granted.error.cause);
    const query = { parties: [party], templateIds: [ASSET_TEMPLATE], filterByParty: true };
    const reader = sdk.ledger.acsReader as unknown as AcsReader & { readonly raw: AcsReader };
    expect(await reader.read(query)).toHaveLength(1);
    for (const contracts of [await reader.readJsContracts(query), await reader.raw.readJsContracts(query)]) {
      expect(contracts.map((c) => [typeof c.contractId, c.templateId, c.createArgument])).toEqual([
        ['string', expect.stringMatching(/:Sample\.Asset:Asset$/), { issuer: party, owner: party, amount: '7.0000000000', observers: null }],
      ]);
    }
    expect(target.errors).toEqual([]);
  });
});
