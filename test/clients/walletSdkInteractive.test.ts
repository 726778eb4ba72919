import { PreparedTransaction as ProtoPreparedTransaction } from '@canton-network/core-ledger-proto';
import { createKeyPair } from '@canton-network/core-signing-lib';
import { decodePreparedTransaction, hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { SDK, signTransactionHash } from '@canton-network/wallet-sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { createAuthenticator } from '../../reference-server/src/http/api/auth/authConfig.js';
import { hashPreparedTransaction as ourHash } from '../../reference-server/src/ledger/interactive/index.js';
import { ASSET_TEMPLATE, createLedger, PARTICIPANT_ADMIN_USER } from '../../reference-server/src/ledger/index.js';
import { createHandlers } from '../../reference-server/src/msw/index.js';
import { createReferenceServer } from '../../reference-server/src/server.js';
import { ES256_PUBLIC_PEM, userToken } from '../auth/support/tokens.js';
import { quietSdkLogs, sdkLogAdapter } from './support/quietSdkLogs.js';
import { API_VERSION, type CantonVersion } from '../../conformance/src/schema/cantonVersions.js';
import './support/node20Builtins.js';

/**
 * Interactive submission with the published wallet SDK (@canton-network/wallet-sdk 1.4.0),
 * unchanged, as a wallet runs it: `ledger.prepare`, `decode()` and the SDK's own V2 hash equal
 * to `preparedTransactionHash` (and core-tx-visualizer's, and ours), sign, `ledger.execute`, and
 * the new contract in `ledger.acs.read`; against the Koa server (unsecured and ES256) and msw.
 */

interface Target {
  readonly url: string;
  readonly token: string;
  close(): Promise<void>;
}

const TIMEOUT = 30_000;

async function koa(auth: 'none' | 'es256', line?: CantonVersion): Promise<Target> {
  const ledger = createLedger(line === undefined ? {} : { apiVersion: API_VERSION[line] });
  const authenticator = auth === 'none' ? undefined : await createAuthenticator({ mode: 'es256', key: { kind: 'public-key-file', path: ES256_PUBLIC_PEM } }, { participantId: ledger.config.participantId });
  const server = await createReferenceServer({ ledger, port: 0, host: '127.0.0.1', ...(line === undefined ? {} : { cantonVersion: line }), ...(authenticator === undefined ? {} : { authenticator }), log: silentLogger });
  return { url: server.url, token: await userToken(PARTICIPANT_ADMIN_USER, 'ES256'), close: () => server.close() };
}

async function msw(): Promise<Target> {
  const mock = createHandlers({ ledgerUrl: 'http://participant.test:7575', log: silentLogger });
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  return {
    url: mock.urls.ledger,
    token: await userToken(PARTICIPANT_ADMIN_USER, 'ES256'),
    close: () => {
      server.close();
      return Promise.resolve();
    },
  };
}

/** The SDK as a wallet creates it: a static token, the ledger URL, nothing bridged. */
async function sdkFor(t: Target) {
  return SDK.create({ auth: { method: 'static', token: t.token }, ledgerClientUrl: t.url, logAdapter: sdkLogAdapter } as never);
}

/** Onboards an external party over the JSON API with the SDK's signing library (topology is another test's subject). */
async function onboard(t: Target, publicKey: string, privateKey: string): Promise<string> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${t.token}` };
  const syncs = (await (await fetch(`${t.url}/v2/state/connected-synchronizers`, { headers })).json()) as { connectedSynchronizers: { synchronizerId: string }[] };
  const synchronizer = syncs.connectedSynchronizers[0]!.synchronizerId;
  const generated = await fetch(`${t.url}/v2/parties/external/generate-topology`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ synchronizer, partyHint: `sdk-${Math.random().toString(36).slice(2, 8)}`, publicKey: { format: 'CRYPTO_KEY_FORMAT_RAW', keyData: publicKey, keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' } }),
  });
  expect(generated.status).toBe(200);
  const topology = (await generated.json()) as { partyId: string; publicKeyFingerprint: string; topologyTransactions: string[]; multiHash: string };
  const allocated = await fetch(`${t.url}/v2/parties/external/allocate`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      synchronizer,
      // The wallet's user gets CanActAs on the new party (what the SDK's grantUserRights does).
      userId: PARTICIPANT_ADMIN_USER,
      onboardingTransactions: topology.topologyTransactions.map((transaction) => ({ transaction })),
      multiHashSignatures: [{ format: 'SIGNATURE_FORMAT_CONCAT', signature: signTransactionHash(topology.multiHash, privateKey), signedBy: topology.publicKeyFingerprint, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' }],
    }),
  });
  expect(allocated.status, await allocated.clone().text()).toBe(200);
  return topology.partyId;
}

quietSdkLogs();

describe.each([
  ['the Koa reference server without auth', () => koa('none')],
  ['the Koa reference server with --auth es256', () => koa('es256')],
  ['the msw handlers', msw],
  // The other lines the reference serves: the SDK's interactive flow works on each.
  ['the Koa reference server serving Canton 3.4', () => koa('none', '3.4')],
  ['the Koa reference server serving Canton 3.6', () => koa('none', '3.6')],
])('wallet-sdk interactive submission against %s', (_name, start) => {
  let target: Target;
  let sdk: Awaited<ReturnType<typeof SDK.create>>;
  let party: string;
  let keys: { publicKey: string; privateKey: string };
  beforeAll(async () => {
    target = await start();
    sdk = await sdkFor(target);
    keys = createKeyPair();
    party = await onboard(target, keys.publicKey, keys.privateKey);
  }, TIMEOUT);
  afterAll(async () => {
    await target?.close();
  });

  it('prepare, decode, verify the hash three ways, sign, execute; the contract is in the ACS', async () => {
    const createArguments = { issuer: party, owner: party, amount: '12.5', observers: null };
    const prepared = sdk.ledger.prepare({ partyId: party, commands: [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments } }] });
    const { response } = await prepared.toJSON();
    expect(response.hashingSchemeVersion).toBe('HASHING_SCHEME_VERSION_V2');

    // What a wallet must do before signing: decode, look at what it signs, recompute the hash.
    const decoded = await prepared.decode();
    expect(decoded.metadata?.submitterInfo?.actAs).toEqual([party]);
    const create = decoded.transaction?.nodes[0]?.versionedNode;
    expect(create?.oneofKind === 'v1' && create.v1.nodeType.oneofKind === 'create' ? create.v1.nodeType.create.signatories : undefined).toEqual([party]);
    const sdkHash = (await sdk.utils.hash.preparedTransaction(response.preparedTransaction)).toBase64();
    expect(sdkHash).toBe(response.preparedTransactionHash);
    expect(await hashPreparedTransaction(decodePreparedTransaction(response.preparedTransaction), 'base64')).toBe(response.preparedTransactionHash);
    expect(ourHash(ProtoPreparedTransaction.fromBinary(Buffer.from(response.preparedTransaction, 'base64')), 2).toString('base64')).toBe(response.preparedTransactionHash);

    const executed = await sdk.ledger.execute(prepared.sign(keys.privateKey), { partyId: party });
    expect(executed).toMatchObject({ updateId: expect.any(String), completionOffset: expect.any(Number) });

    const active = await sdk.ledger.acs.read({ parties: [party], templateIds: [ASSET_TEMPLATE], filterByParty: true });
    expect(active.map((c) => c.createArgument)).toContainEqual({ ...createArguments, amount: '12.5000000000' });
  }, TIMEOUT);

  it('a hash the wallet recomputes after tampering is refused with the participant error the SDK surfaces', async () => {
    const prepared = sdk.ledger.prepare({ partyId: party, commands: [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer: party, owner: party, amount: '1.0', observers: null } } }] });
    const { response } = await prepared.toJSON();
    const tx = decodePreparedTransaction(response.preparedTransaction);
    tx.metadata!.preparationTime -= 25n * 365n * 24n * 3600n * 1_000_000n;
    const edited = Buffer.from(ProtoPreparedTransaction.toBinary(tx)).toString('base64');
    const hash = await hashPreparedTransaction(tx, 'base64');
    const signed = sdk.ledger.fromSignature({ ...response, preparedTransaction: edited, preparedTransactionHash: hash }, signTransactionHash(hash, keys.privateKey));
    await expect(sdk.ledger.execute(signed, { partyId: party })).rejects.toMatchObject({ cause: expect.stringMatching(/preparation time/) });
  }, TIMEOUT);
});
