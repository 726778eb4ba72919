import { createPublicKey, sign, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, CANTON_VERSIONS, type CantonVersion } from '../../reference-server/src/http/api/cantonVersion.js';
import { createLedger, type Ledger } from '../../reference-server/src/ledger/index.js';
import { get, post } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';
import { createAssetCommand, executeBody, freshId, prepareBody } from '../interactive/support/externalParties.js';
import { newKey, signHash, type TestKey } from '../interactive/support/keys.js';

/**
 * Canton 3.6's preview semantics on the reference serving each line: the lookups by transaction
 * hash, the party JWKS, `transactionHash` on completions and transactions, the ledger end's
 * `synchronizerTimes` and the CanActAsAnyParty right; 3.4 and 3.5 show none of them.
 */
interface World {
  readonly server: TestServer;
  readonly ledger: Ledger;
  readonly ext: string;
  readonly key: TestKey;
  readonly alice: string;
}

function must<T>(r: { ok: true; value: T } | { ok: false; error: { code: string; cause: string } }): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.cause}`);
  return r.value;
}

async function worldOn(line: CantonVersion): Promise<World> {
  const ledger = createLedger({ apiVersion: API_VERSION[line] });
  const key = newKey('ed25519');
  const ext = must(ledger.allocateExternalParty('ext', key.publicKey)).party;
  const alice = must(ledger.allocateParty({ partyIdHint: 'alice' })).partyDetails.party;
  return { server: await startServer({ ledger, cantonVersion: line }), ledger, ext, key, alice };
}

const USER = 'participant_admin';
const acsDelta = (party: string) => ({ includeTransactions: { eventFormat: { filtersByParty: { [party]: {} }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } });

/** Prepares and signs a create of ext's, as a wallet does; answers the execute body and the hash signed. */
async function signedCreate(w: World) {
  const prepared = await post(w.server, '/v2/interactive-submission/prepare', prepareBody(w.ext, [createAssetCommand(w.ext, w.ext)], { userId: USER }));
  expect(prepared.status, prepared.text).toBe(200);
  const hash = prepared.body.preparedTransactionHash as string;
  return { hash, body: executeBody(prepared.body.preparedTransaction as string, [{ party: w.ext, signatures: [signHash(w.key, hash)] }], { userId: USER }) };
}

describe('the reference serving Canton 3.6 (preview)', () => {
  let w: World;
  let hash: string;
  let transaction: Record<string, unknown>;
  beforeAll(async () => {
    w = await worldOn('3.6');
    const signed = await signedCreate(w);
    hash = signed.hash;
    const executed = await post(w.server, '/v2/interactive-submission/executeAndWaitForTransaction', { ...signed.body, transactionFormat: acsDelta(w.ext).includeTransactions });
    expect(executed.status, executed.text).toBe(200);
    transaction = executed.body.transaction;
    // The same signed transaction again: refused (its UUID was used), a rejected completion under the same hash.
    const replay = await post(w.server, '/v2/interactive-submission/executeAndWait', { ...signed.body, submissionId: freshId('sub') });
    expect(replay.status).toBeGreaterThanOrEqual(400);
  });
  afterAll(() => w.server.close());

  it('puts the signed hash on the transaction as transactionHash, beside externalTransactionHash', () => {
    expect(transaction['transactionHash']).toBe(hash);
    expect(transaction['externalTransactionHash']).toBe(hash);
  });

  it('completion-by-hash answers the accepted completion and the rejected replay, both carrying the hash', async () => {
    const res = await post(w.server, '/v2/commands/completion-by-hash', { transactionHash: hash });
    expect(res.status, res.text).toBe(200);
    expect(res.body.acceptedCompletion).toMatchObject({ updateId: transaction['updateId'], actAs: [w.ext], transactionHash: hash, status: { code: 0 } });
    expect(res.body.lastRejectedCompletions).toHaveLength(1);
    expect(res.body.lastRejectedCompletions[0]).toMatchObject({ transactionHash: hash, actAs: [w.ext] });
    expect(res.body.lastRejectedCompletions[0].status.code).not.toBe(0);
    // The completion stream shows the same completion, hash included.
    const stream = await post(w.server, '/v2/commands/completions?stream_idle_timeout_ms=100', { userId: USER, parties: [w.ext], beginExclusive: 0 });
    const completions = (stream.body as { completionResponse: { Completion?: { value: Record<string, unknown> } } }[]).flatMap((r) => (r.completionResponse.Completion ? [r.completionResponse.Completion.value] : []));
    expect(completions.find((c) => c['updateId'] === transaction['updateId'])?.['transactionHash']).toBe(hash);
  });

  it('completion-by-hash accepts any base64 spelling of the hash, shows only what the parties see, and refuses an empty hash', async () => {
    const unpadded = hash.replace(/=+$/, '');
    expect((await post(w.server, '/v2/commands/completion-by-hash', { transactionHash: unpadded })).status).toBe(200);
    const notVisible = w.ledger.completionByHash({ transactionHash: hash }, new Set([w.alice]));
    expect(notVisible.ok ? 'found' : notVisible.error.code).toBe('COMPLETION_NOT_FOUND');
    const unknown = await post(w.server, '/v2/commands/completion-by-hash', { transactionHash: Buffer.alloc(32, 7).toString('base64') });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'COMPLETION_NOT_FOUND']);
    const empty = await post(w.server, '/v2/commands/completion-by-hash', { transactionHash: '' });
    expect([empty.status, empty.body.code]).toEqual([400, 'INVALID_ARGUMENT']);
    expect(empty.body.cause).toMatch(/Missing field: transaction_hash/);
  });

  it('update-by-hash answers what update-by-id answers; a hash nothing committed is UPDATE_NOT_FOUND', async () => {
    const byHash = await post(w.server, '/v2/updates/update-by-hash', { transactionHash: hash, updateFormat: acsDelta(w.ext) });
    const byId = await post(w.server, '/v2/updates/update-by-id', { updateId: transaction['updateId'], updateFormat: acsDelta(w.ext) });
    expect(byHash.status, byHash.text).toBe(200);
    expect(byHash.body).toEqual(byId.body);
    expect(byHash.body.update.Transaction.value.transactionHash).toBe(hash);
    // Filtered away for a party that sees nothing of it, as by id.
    const hidden = await post(w.server, '/v2/updates/update-by-hash', { transactionHash: hash, updateFormat: acsDelta(w.alice) });
    expect([hidden.status, hidden.body.code]).toEqual([404, 'UPDATE_NOT_FOUND']);
    const unknown = await post(w.server, '/v2/updates/update-by-hash', { transactionHash: Buffer.alloc(32, 9).toString('base64'), updateFormat: acsDelta(w.ext) });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'UPDATE_NOT_FOUND']);
  });

  it('an internal submission carries no transactionHash (3.6 leaves it to signed submissions)', async () => {
    const res = await post(w.server, '/v2/commands/submit-and-wait-for-transaction', {
      commands: { commands: [createAssetCommand(w.alice, w.alice)], commandId: freshId('internal'), actAs: [w.alice], userId: USER },
      transactionFormat: acsDelta(w.alice).includeTransactions,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.transaction).not.toHaveProperty('transactionHash');
    expect(res.body.transaction).not.toHaveProperty('externalTransactionHash');
  });

  it("the JWKS of an external party is its signing key: a signature by the party verifies with the served JWK", async () => {
    const synchronizer = w.ledger.config.synchronizers[0].id;
    const res = await get(w.server, `/v2/jose/jwks/synchronizer/${encodeURIComponent(synchronizer)}/party/${encodeURIComponent(w.ext)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.keys).toHaveLength(1);
    const jwk = res.body.keys[0];
    expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', kid: w.key.fingerprint, use: 'sig', alg: 'EdDSA' });
    const message = Buffer.from('a party JWT payload');
    expect(verify(null, message, createPublicKey({ key: jwk, format: 'jwk' }), sign(null, message, w.key.privateKey))).toBe(true);
    expect(verify(null, message, createPublicKey({ key: jwk, format: 'jwk' }), sign(null, message, newKey('ed25519').privateKey))).toBe(false);
  });

  it('the JWKS of a local party, of an unknown party, on an unknown synchronizer is empty; a malformed id is INVALID_ARGUMENT', async () => {
    const synchronizer = encodeURIComponent(w.ledger.config.synchronizers[0].id);
    const keysOf = async (sync: string, party: string) => (await get(w.server, `/v2/jose/jwks/synchronizer/${sync}/party/${encodeURIComponent(party)}`)).body.keys;
    expect(await keysOf(synchronizer, w.alice)).toEqual([]);
    expect(await keysOf(synchronizer, `nobody::1220${'ab'.repeat(32)}`)).toEqual([]);
    expect(await keysOf(encodeURIComponent(`elsewhere::1220${'cd'.repeat(32)}`), w.ext)).toEqual([]);
    const bad = await get(w.server, `/v2/jose/jwks/synchronizer/${synchronizer}/party/not-a-party`);
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_ARGUMENT']);
  });

  it("the ledger end names every synchronizer's record time, no earlier than the last commit's", async () => {
    const res = await get(w.server, '/v2/state/ledger-end');
    expect(res.status).toBe(200);
    const times = res.body.synchronizerTimes as { synchronizerId: string; recordTime: string }[];
    expect(times.map((t) => t.synchronizerId)).toEqual(w.ledger.config.synchronizers.map((s) => s.id));
    for (const t of times) expect(t.recordTime >= (transaction['recordTime'] as string)).toBe(true);
    expect(res.body.offset).toBe(w.ledger.store.ledgerEnd);
  });

  it('grants CanActAsAnyParty, and a user holding it acts and reads as any party', async () => {
    const anyParty = { kind: { CanActAsAnyParty: { value: {} } } };
    const created = await post(w.server, '/v2/users', { user: { id: 'operator', isDeactivated: false, identityProviderId: '' }, rights: [anyParty] });
    expect(created.status, created.text).toBe(200);
    const rights = await get(w.server, '/v2/users/operator/rights');
    expect(rights.body.rights).toEqual([anyParty]);
    expect(w.ledger.authorize('operator', [{ kind: 'actAs', party: w.alice }, { kind: 'readAsAnyParty' }]).ok).toBe(true);
    expect(w.ledger.readerScopeOf('operator')).toBe('all');
  });
});

describe.each(CANTON_VERSIONS.filter((v) => v !== '3.6'))('the reference serving Canton %s shows none of 3.6', (line) => {
  let w: World;
  beforeAll(async () => {
    w = await worldOn(line);
  });
  afterAll(() => w.server.close());

  it('has no lookups by hash and no JWKS (404)', async () => {
    // Raw requests: our document declares no 404 for operations that exist.
    expect((await w.server.http.post('/v2/commands/completion-by-hash').send({ transactionHash: 'AAAA' })).status).toBe(404);
    expect((await w.server.http.post('/v2/updates/update-by-hash').send({ transactionHash: 'AAAA', updateFormat: acsDelta(w.ext) })).status).toBe(404);
    const sync = encodeURIComponent(w.ledger.config.synchronizers[0].id);
    expect((await w.server.http.get(`/v2/jose/jwks/synchronizer/${sync}/party/${encodeURIComponent(w.ext)}`)).status).toBe(404);
  });

  it('puts no transactionHash on a signed transaction or its completion, and no synchronizerTimes on the ledger end', async () => {
    const signed = await signedCreate(w);
    const executed = await post(w.server, '/v2/interactive-submission/executeAndWaitForTransaction', { ...signed.body, transactionFormat: acsDelta(w.ext).includeTransactions });
    expect(executed.status, executed.text).toBe(200);
    expect(executed.body.transaction.externalTransactionHash).toBe(signed.hash);
    expect(executed.body.transaction).not.toHaveProperty('transactionHash');
    const stream = await post(w.server, '/v2/commands/completions?stream_idle_timeout_ms=100', { userId: USER, parties: [w.ext], beginExclusive: 0 });
    expect(JSON.stringify(stream.body)).not.toContain('transactionHash');
    expect((await get(w.server, '/v2/state/ledger-end')).body).toEqual({ offset: w.ledger.store.ledgerEnd });
  });

  it(line === '3.4' ? 'writes empty defaults out, as 3.4 does ("" workflowId, createdEventBlob, submissionId)' : 'leaves empty defaults out', async () => {
    const res = await post(w.server, '/v2/commands/submit-and-wait-for-transaction', {
      commands: { commands: [createAssetCommand(w.alice, w.alice)], commandId: freshId('defaults'), actAs: [w.alice], userId: USER },
      transactionFormat: acsDelta(w.alice).includeTransactions,
    });
    expect(res.status, res.text).toBe(200);
    const tx = res.body.transaction;
    const completions = await post(w.server, '/v2/commands/completions?stream_idle_timeout_ms=100', { userId: USER, parties: [w.alice], beginExclusive: 0 });
    const completion = (completions.body as { completionResponse: { Completion?: { value: Record<string, unknown> } } }[]).find((r) => r.completionResponse.Completion)?.completionResponse.Completion?.value;
    if (line === '3.4') {
      expect([tx.workflowId, tx.events[0].CreatedEvent.createdEventBlob, completion?.['submissionId']]).toEqual(['', '', '']);
    } else {
      expect(tx).not.toHaveProperty('workflowId');
      expect(tx.events[0].CreatedEvent).not.toHaveProperty('createdEventBlob');
      expect(completion).not.toHaveProperty('submissionId');
    }
  });

  it('cannot decode the CanActAsAnyParty right (400, text/plain), as a participant of that line', async () => {
    const res = await post(w.server, '/v2/users', { user: { id: 'operator', isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanActAsAnyParty: { value: {} } } }] });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  });
});
