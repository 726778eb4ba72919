import { randomUUID, sign } from 'node:crypto';
import { WebSocketClient } from '@canton-network/core-asyncapi-client';
import { LedgerClient } from '@canton-network/core-ledger-client';
import { AuthTokenProvider } from '@canton-network/core-wallet-auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../conformance/src/cli/token.js';
import { startSecuredWorld, type SecuredWorld } from '../auth/support/securedServer.js';
import { sign as signJwt, nowSeconds } from '../auth/support/tokens.js';
import { ASSET } from './support/externalParties.js';
import { newKey } from './support/keys.js';
import { installWebSocket } from '../clients/support/installWebSocket.js';

type PinoLike = ConstructorParameters<typeof LedgerClient>[0]['logger'];
function quietLogger(): PinoLike {
  const noop = () => undefined;
  const logger = { trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, level: 'silent', child: () => logger };
  return logger as unknown as PinoLike;
}

/** The published LedgerClient, unchanged, with a static token as a wallet configures it. */
function client(w: SecuredWorld, token: string): LedgerClient {
  const logger = quietLogger();
  return new LedgerClient({ baseUrl: new URL(w.server.url), logger, accessTokenProvider: AuthTokenProvider.fromToken(token, logger), version: '3.4' });
}

let w: SecuredWorld;
beforeAll(async () => {
  installWebSocket();
  w = await startSecuredWorld();
});

/** The published WebSocketClient: it offers the token as jwt.token.<JWT> beside daml.ws.auth. */
function streams(token: string): WebSocketClient {
  const client = new WebSocketClient({ baseUrl: w.server.url.replace(/^http/, 'ws'), accessTokenProvider: AuthTokenProvider.fromToken(token, quietLogger()), version: '3.4' });
  // Its own pino logger at level info (JSON lines on stdout; private in its typings): silence it.
  (client as unknown as { logger: { level: string } }).logger.level = 'silent';
  return client;
}

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}
afterAll(() => w.server.close());

describe('the published LedgerClient against the secured reference server', () => {
  it('onboards an external party, prepares, signs and executes as wallet-sdk does', async () => {
    const admin = client(w, await mintToken({ user: 'participant_admin', algorithm: 'hs256' }));
    const synchronizerId = await admin.getSynchronizerId();
    const key = newKey('ed25519');
    const topology = await admin.generateTopology(synchronizerId, key.publicKey.keyData, 'frank');
    const multiHashSignature = {
      format: 'SIGNATURE_FORMAT_CONCAT' as const,
      signature: sign(null, Buffer.from(topology.multiHash, 'base64'), key.privateKey).toString('base64'),
      signedBy: topology.publicKeyFingerprint,
      signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' as const,
    };
    const { partyId } = await admin.allocateExternalParty(
      synchronizerId,
      topology.topologyTransactions!.map((transaction) => ({ transaction })),
      [multiHashSignature],
    );
    expect(partyId).toBe(`frank::${key.fingerprint}`);

    const walletUser = `wallet-${randomUUID().slice(0, 8)}`;
    await admin.createUser(walletUser, partyId);
    await admin.grantRights(walletUser, { readAs: [partyId] });
    await admin.post('/v2/users/{user-id}/rights', { userId: walletUser, rights: [{ kind: { CanExecuteAs: { value: { party: partyId } } } }] }, { path: { 'user-id': walletUser } });

    const wallet = client(w, await mintToken({ user: walletUser, algorithm: 'hs256' }));
    const prepared = await wallet.post('/v2/interactive-submission/prepare', {
      commands: [{ CreateCommand: { templateId: ASSET, createArguments: { issuer: partyId, owner: partyId, amount: '3.0', observers: null } } }],
      commandId: randomUUID(),
      userId: walletUser,
      actAs: [partyId],
      readAs: [],
      disclosedContracts: [],
      synchronizerId,
      packageIdSelectionPreference: [],
      verboseHashing: false,
    });
    const signature = sign(null, Buffer.from(prepared.preparedTransactionHash, 'base64'), key.privateKey).toString('base64');
    const executed = await wallet.post('/v2/interactive-submission/executeAndWait', {
      userId: walletUser,
      preparedTransaction: prepared.preparedTransaction!,
      hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
      submissionId: randomUUID(),
      deduplicationPeriod: { Empty: {} },
      partySignatures: {
        signatures: [
          { party: partyId, signatures: [{ signature, signedBy: partyId.split('::')[1]!, format: 'SIGNATURE_FORMAT_CONCAT', signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' }] },
        ],
      },
    });
    expect(executed).toEqual({ updateId: expect.any(String), completionOffset: expect.any(Number) });
    expect(w.server.errors).toEqual([]);
  });

  it('surfaces a refused token as the JsCantonError body (401) and a missing right as 403', async () => {
    const forged = client(w, await signJwt({ sub: 'participant_admin', scope: 'daml_ledger_api', exp: nowSeconds() + 600 }, 'HS256', 'not-the-server-secret'));
    await expect(forged.post('/v2/parties', { partyIdHint: 'nope' })).rejects.toMatchObject({ code: 'NA', grpcCodeValue: 16 });
    const alice = client(w, await mintToken({ user: 'alice', algorithm: 'hs256' }));
    await expect(alice.post('/v2/parties', { partyIdHint: 'nope' })).rejects.toMatchObject({ code: 'NA', grpcCodeValue: 7 });
  });

  it('streams updates over the WebSocket with the token in the subprotocol, and hands a refusal to the application', async () => {
    const alice = client(w, await mintToken({ user: 'alice', algorithm: 'hs256' }));
    const created = await alice.post('/v2/commands/submit-and-wait', {
      commands: [{ CreateCommand: { templateId: ASSET, createArguments: { issuer: w.alice, owner: w.alice, amount: '1.0', observers: null } } }],
      commandId: randomUUID(),
      actAs: [w.alice],
    });
    const request = { beginExclusive: 0, endInclusive: created.completionOffset, partyId: w.alice, templateIds: [ASSET] };
    const updates = await collect(streams(await mintToken({ user: 'alice', algorithm: 'hs256' })).streamUpdates(request));
    expect(updates.some((u) => u.update !== undefined && 'Transaction' in u.update && u.update.Transaction.value.updateId === created.updateId)).toBe(true);

    const refused = await collect(streams(await mintToken({ user: 'bob', algorithm: 'hs256' })).streamUpdates(request));
    expect(refused).toEqual([expect.objectContaining({ code: 'NA', grpcCodeValue: 7 })]);
    const forged = await collect(streams(await signJwt({ sub: 'alice', scope: 'daml_ledger_api', exp: nowSeconds() + 600 }, 'HS256', 'wrong-secret')).streamUpdates(request));
    expect(forged).toEqual([expect.objectContaining({ code: 'NA', grpcCodeValue: 16 })]);
  });
});
