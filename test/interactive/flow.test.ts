import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../http/support/ledgerApi.js';
import { startSecuredWorld, type SecuredWorld, canExecuteAs, canReadAs } from '../auth/support/securedServer.js';
import { userToken } from '../auth/support/tokens.js';
import { archiveCommand, createAssetCommand, executeBody, onboard, prepareBody, type Headers } from './support/externalParties.js';
import { newKey, signHash, type TestKey } from './support/keys.js';

let w: SecuredWorld;
let admin: Headers;
let wallet: Headers;
let synchronizer: string;
let carolKey: TestKey;
let carol: string;
beforeAll(async () => {
  w = await startSecuredWorld();
  synchronizer = w.ledger.config.synchronizers[0].id;
  admin = { authorization: `Bearer ${await userToken('participant_admin')}` };
  carolKey = newKey('ed25519');
  carol = await onboard(w.server, admin, 'carol', carolKey, synchronizer);
  w.ledger.createUser({ user: { id: 'wallet' }, rights: [canReadAs(carol), canExecuteAs(carol)] });
  wallet = { authorization: `Bearer ${await userToken('wallet')}` };
});
afterAll(() => w.server.close());

/** The participant's hash, recomputed by the client from the document inside the prepared transaction. */
function recomputeHash(preparedTransaction: string, scheme = 2): string {
  const bytes = Buffer.from(preparedTransaction, 'base64');
  expect(bytes.subarray(0, 4).toString('ascii')).toBe('CCPT');
  const canonical = (v: unknown): string =>
    Array.isArray(v)
      ? `[${v.map(canonical).join(',')}]`
      : v !== null && typeof v === 'object'
        ? `{${Object.keys(v)
            .sort()
            .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
            .join(',')}}`
        : JSON.stringify(v);
  const doc = canonical(JSON.parse(bytes.subarray(5).toString('utf8')));
  const purpose = Buffer.alloc(4);
  purpose.writeInt32BE(48);
  const digest = createHash('sha256').update(purpose).update(Buffer.of(scheme)).update(doc, 'utf8').digest();
  return Buffer.concat([Buffer.of(0x12, 0x20), digest]).toString('base64');
}

/** The parts of the prepared document the tampering tests touch. */
interface Doc {
  transaction: { nodes: { argument: Record<string, unknown> }[] };
  commands: { CreateCommand: { createArguments: Record<string, unknown> } }[];
}

/** Rewrites the document inside a prepared transaction (what a tampering client would do). */
function tamper(preparedTransaction: string, change: (doc: Doc) => void): string {
  const bytes = Buffer.from(preparedTransaction, 'base64');
  const doc = JSON.parse(bytes.subarray(5).toString('utf8')) as Doc;
  change(doc);
  return Buffer.concat([bytes.subarray(0, 5), Buffer.from(JSON.stringify(doc), 'utf8')]).toString('base64');
}

async function prepare(commands: unknown[], extra: Record<string, unknown> = {}, as: Headers = wallet, actAs = carol) {
  const res = await post(w.server, '/v2/interactive-submission/prepare', prepareBody(actAs, commands, extra), { headers: as });
  expect(res.status, res.text).toBe(200);
  return res.body as { preparedTransaction: string; preparedTransactionHash: string; hashingSchemeVersion: string; hashingDetails?: string; costEstimation?: unknown };
}

const signedBy = (key: TestKey, party: string, hash: string, overrides = {}) => [{ party, signatures: [signHash(key, hash, overrides)] }];

describe('external party onboarding', () => {
  it('names the party after its key: hint::1220<fingerprint of the key>', () => {
    expect(carol).toBe(`carol::${carolKey.fingerprint}`);
    expect(w.ledger.isKnownParty(carol)).toBe(true);
  });

  it('onboards an ECDSA P-256 party as well (SPKI key, DER signature)', async () => {
    const key = newKey('p256');
    expect(await onboard(w.server, admin, 'dave', key, synchronizer)).toBe(`dave::${key.fingerprint}`);
  });

  it('refuses an allocation whose multi-hash is signed by another key', async () => {
    const key = newKey('ed25519');
    const generated = await post(w.server, '/v2/parties/external/generate-topology', { synchronizer, partyHint: 'mallory', publicKey: key.publicKey }, { headers: admin });
    const res = await post(
      w.server,
      '/v2/parties/external/allocate',
      { synchronizer, onboardingTransactions: [{ transaction: generated.body.topologyTransactions[0] }], multiHashSignatures: [signHash(newKey('ed25519'), generated.body.multiHash, { signedBy: key.fingerprint })] },
      { headers: admin },
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_ARGUMENT', cause: expect.stringMatching(/None of the 1 signatures is a valid signature by the party's key/) });
    expect(w.ledger.isKnownParty(`mallory::${key.fingerprint}`)).toBe(false);
  });

  it('refuses an unsigned allocation and a second allocation of the same party', async () => {
    const key = newKey('ed25519');
    const generated = await post(w.server, '/v2/parties/external/generate-topology', { synchronizer, partyHint: 'erin', publicKey: key.publicKey }, { headers: admin });
    const txs = [{ transaction: generated.body.topologyTransactions[0] }];
    const unsigned = await post(w.server, '/v2/parties/external/allocate', { synchronizer, onboardingTransactions: txs }, { headers: admin });
    expect([unsigned.status, unsigned.body.code]).toEqual([400, 'INVALID_ARGUMENT']);
    expect(unsigned.body.cause).toMatch(/carries no signature/);
    const signed = { synchronizer, onboardingTransactions: txs, multiHashSignatures: [signHash(key, generated.body.multiHash)] };
    expect((await post(w.server, '/v2/parties/external/allocate', signed, { headers: admin })).status).toBe(200);
    const again = await post(w.server, '/v2/parties/external/allocate', signed, { headers: admin });
    expect([again.status, again.body.code]).toEqual([409, 'PARTY_ALREADY_EXISTS']);
  });

  it.each([
    ['an unknown synchronizer', (k: TestKey) => ({ synchronizer: 'nowhere::1220' + '0'.repeat(64), partyHint: 'x', publicKey: k.publicKey }), /not connected synchronizer/],
    ['an empty hint', (k: TestKey) => ({ synchronizer: '', partyHint: '', publicKey: k.publicKey }), /synchronizer|hint/],
    ['a key of the wrong length', (k: TestKey) => ({ synchronizer: '', partyHint: 'x', publicKey: { ...k.publicKey, keyData: 'AAAA' } }), /32 bytes/],
    ['an unsupported key spec', (k: TestKey) => ({ synchronizer: '', partyHint: 'x', publicKey: { ...k.publicKey, keySpec: 'SIGNING_KEY_SPEC_EC_SECP256K1' } }), /unsupported keySpec/],
    ['a key that is not what its spec says', (k: TestKey) => ({ synchronizer: '', partyHint: 'x', publicKey: { ...newKey('p256').publicKey, keySpec: k.publicKey.keySpec } }), /not SIGNING_KEY_SPEC_EC_CURVE25519/],
    ['a threshold above the confirming participants', (k: TestKey) => ({ synchronizer: '', partyHint: 'x', publicKey: k.publicKey, confirmationThreshold: 2 }), /threshold exceeds/],
  ])('refuses to generate a topology for %s with 400 INVALID_ARGUMENT', async (_what, body, cause) => {
    const request = body(newKey('ed25519'));
    if (request.synchronizer === '') request.synchronizer = synchronizer;
    const res = await post(w.server, '/v2/parties/external/generate-topology', request, { headers: admin });
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_ARGUMENT']);
    expect(res.body.cause).toMatch(cause);
  });
});

describe('prepare, sign, execute', () => {
  it('prepares with read rights only, and the hash is SHA-256 over the canonical document', async () => {
    const p = await prepare([createAssetCommand(carol, carol)], { synchronizerId: synchronizer });
    expect(p.hashingSchemeVersion).toBe('HASHING_SCHEME_VERSION_V2');
    const hash = Buffer.from(p.preparedTransactionHash, 'base64');
    expect([hash.length, hash[0], hash[1]]).toEqual([34, 0x12, 0x20]);
    expect(p.preparedTransactionHash).toBe(recomputeHash(p.preparedTransaction));
    expect(p.costEstimation).toMatchObject({ totalTrafficCostEstimation: expect.any(Number) });
    expect(p).not.toHaveProperty('hashingDetails');
  });

  it('explains the hash when asked (verboseHashing) and hashes with V3 when asked', async () => {
    const v2 = await prepare([createAssetCommand(carol, carol)], { verboseHashing: true, estimateTrafficCost: { disabled: true } });
    expect(v2.hashingDetails).toContain(Buffer.from(v2.preparedTransactionHash, 'base64').toString('hex'));
    expect(v2).not.toHaveProperty('costEstimation');
    const v3 = await prepare([createAssetCommand(carol, carol)], { hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3' });
    expect(v3.hashingSchemeVersion).toBe('HASHING_SCHEME_VERSION_V3');
    expect(v3.preparedTransactionHash).toBe(recomputeHash(v3.preparedTransaction, 3));
  });

  it('commits nothing at prepare time', async () => {
    const before = w.ledger.ledgerEnd().offset;
    await prepare([createAssetCommand(carol, carol)]);
    expect(w.ledger.ledgerEnd().offset).toBe(before);
  });

  it('executes a signed transaction once, and it shows in updates with its external hash', async () => {
    const p = await prepare([createAssetCommand(carol, carol, '7.0')]);
    const body = executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash));
    const res = await post(w.server, '/v2/interactive-submission/executeAndWait', body, { headers: wallet });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ updateId: expect.any(String), completionOffset: expect.any(Number) });

    const offset = res.body.completionOffset as number;
    const updates = await post(
      w.server,
      '/v2/updates',
      { beginExclusive: offset - 1, endInclusive: offset, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [carol]: {} }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } },
      { headers: wallet },
    );
    expect(updates.status, updates.text).toBe(200);
    const tx = updates.body[0].update.Transaction.value;
    expect(tx).toMatchObject({ updateId: res.body.updateId, offset, commandId: expect.any(String), externalTransactionHash: p.preparedTransactionHash });
    expect(tx.events[0].CreatedEvent).toMatchObject({ signatories: [carol], createArgument: { owner: carol, amount: '7.0000000000' } });

    // Replaying the same execution after it succeeded: the change id is taken.
    const replay = await post(w.server, '/v2/interactive-submission/executeAndWait', { ...body, submissionId: 'retry-1' }, { headers: wallet });
    expect([replay.status, replay.body.code]).toEqual([409, 'DUPLICATE_COMMAND']);
    expect(w.ledger.ledgerEnd().offset).toBeGreaterThanOrEqual(offset);
  });

  it('execute answers {} at once and the outcome arrives on completions', async () => {
    const p = await prepare([createAssetCommand(carol, carol)]);
    const body = executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash));
    const res = await post(w.server, '/v2/interactive-submission/execute', body, { headers: wallet });
    expect([res.status, res.text]).toEqual([200, '{}']);
    await new Promise((r) => setTimeout(r, 20));
    const completions = await post(w.server, '/v2/commands/completions?stream_idle_timeout_ms=50', { userId: 'wallet', parties: [carol], beginExclusive: 0 }, { headers: wallet });
    const mine = (completions.body as { completionResponse?: { Completion?: { value: { submissionId?: string; status?: { code: number }; updateId?: string } } } }[])
      .map((c) => c.completionResponse?.Completion?.value)
      .find((c) => c?.submissionId === body.submissionId);
    expect(mine).toMatchObject({ status: { code: 0 }, updateId: expect.any(String) });
  });

  it('executeAndWaitForTransaction answers the transaction, filtered by its format', async () => {
    const p = await prepare([createAssetCommand(carol, carol)]);
    const res = await post(w.server, '/v2/interactive-submission/executeAndWaitForTransaction', executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash)), { headers: wallet });
    expect(res.status, res.text).toBe(200);
    expect(res.body.transaction.events).toHaveLength(1);
    expect(res.body.transaction.externalTransactionHash).toBe(p.preparedTransactionHash);
  });

  it('accepts the RAW Ed25519 format and signatures from non-acting parties alongside (discarded)', async () => {
    const p = await prepare([createAssetCommand(carol, carol)]);
    const extra = { party: w.alice, signatures: [signHash(newKey('ed25519'), p.preparedTransactionHash)] };
    const body = executeBody(p.preparedTransaction, [...signedBy(carolKey, carol, p.preparedTransactionHash, { format: 'SIGNATURE_FORMAT_RAW' }), extra]);
    expect((await post(w.server, '/v2/interactive-submission/executeAndWait', body, { headers: wallet })).status).toBe(200);
  });

  it('executes for an ECDSA P-256 party with a DER signature, not with CONCAT', async () => {
    const key = newKey('p256');
    const dave = await onboard(w.server, admin, 'dave2', key, synchronizer);
    w.ledger.grantUserRights('wallet', { userId: 'wallet', rights: [canReadAs(dave), canExecuteAs(dave)] });
    const p = await prepare([createAssetCommand(dave, dave)], {}, wallet, dave);
    const concat = await post(w.server, '/v2/interactive-submission/executeAndWait', executeBody(p.preparedTransaction, signedBy(key, dave, p.preparedTransactionHash, { format: 'SIGNATURE_FORMAT_CONCAT' })), { headers: wallet });
    expect([concat.status, concat.body.code]).toEqual([400, 'FAILED_TO_EXECUTE_TRANSACTION']);
    const der = await post(w.server, '/v2/interactive-submission/executeAndWait', executeBody(p.preparedTransaction, signedBy(key, dave, p.preparedTransactionHash)), { headers: wallet });
    expect(der.status, der.text).toBe(200);
  });
});

describe('tampering and bad signatures are refused', () => {
  let p: Awaited<ReturnType<typeof prepare>>;
  beforeAll(async () => {
    p = await prepare([createAssetCommand(carol, carol, '1.0')]);
  });
  const execute = (body: unknown) => post(w.server, '/v2/interactive-submission/executeAndWait', body, { headers: wallet });
  const expectFailed = (res: { status: number; body: { code: string; cause: string } }, cause: RegExp) => {
    expect([res.status, res.body.code]).toEqual([400, 'FAILED_TO_EXECUTE_TRANSACTION']);
    expect(res.body.cause).toMatch(cause);
  };

  it('a changed transaction with the original signature', async () => {
    const changed = tamper(p.preparedTransaction, (d) => {
      d.transaction.nodes[0]!.argument.amount = '1000000.0000000000';
    });
    expectFailed(await execute(executeBody(changed, signedBy(carolKey, carol, p.preparedTransactionHash))), /Received 0 valid signatures from distinct keys \(1 invalid\), but expected at least 1 valid for carol::/);
  });

  it('a changed transaction the party signed anew (the participant rebuilds it and sees the difference)', async () => {
    const changed = tamper(p.preparedTransaction, (d) => {
      d.transaction.nodes[0]!.argument.amount = '1000000.0000000000';
    });
    expectFailed(await execute(executeBody(changed, signedBy(carolKey, carol, recomputeHash(changed)))), /not what its commands yield/);
  });

  it('changed commands, signed anew', async () => {
    const changed = tamper(p.preparedTransaction, (d) => {
      d.commands[0]!.CreateCommand.createArguments.amount = '2.0';
    });
    expectFailed(await execute(executeBody(changed, signedBy(carolKey, carol, recomputeHash(changed)))), /not what its commands yield/);
  });

  it('a signature by another key under the right fingerprint', async () => {
    const res = await execute(executeBody(p.preparedTransaction, signedBy(newKey('ed25519'), carol, p.preparedTransactionHash, { signedBy: carolKey.fingerprint })));
    expectFailed(res, /Received 0 valid signatures from distinct keys \(1 invalid\)/);
  });

  it('a signature naming another key', async () => {
    const other = newKey('ed25519');
    expectFailed(await execute(executeBody(p.preparedTransaction, signedBy(other, carol, p.preparedTransactionHash))), /\(1 invalid\)/);
  });

  it('no signature for the acting party, or only for another party', async () => {
    expectFailed(await execute(executeBody(p.preparedTransaction, [])), /The following actAs parties did not provide an external signature: carol::/);
    expectFailed(await execute(executeBody(p.preparedTransaction, [{ party: carol, signatures: [] }])), /Received 0 valid signatures from distinct keys \(0 invalid\)/);
    const bobs = [{ party: w.bob, signatures: [signHash(carolKey, p.preparedTransactionHash)] }];
    expectFailed(await execute(executeBody(p.preparedTransaction, bobs)), /did not provide an external signature/);
  });

  it('a signature over the hash of another hashing scheme', async () => {
    expectFailed(await execute(executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash), { hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3' })), /\(1 invalid\)/);
  });

  it('an unreadable prepared transaction, or an unsupported scheme', async () => {
    const garbage = await execute(executeBody(Buffer.from('not ours').toString('base64'), signedBy(carolKey, carol, p.preparedTransactionHash)));
    expect([garbage.status, garbage.body.code]).toEqual([400, 'INVALID_FIELD']);
    const scheme = await execute(executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash), { hashingSchemeVersion: 'HASHING_SCHEME_VERSION_UNSPECIFIED' }));
    expect([scheme.status, scheme.body.code]).toEqual([400, 'INVALID_FIELD']);
  });

  it('an archived input: the second of two transactions spending the same contract', async () => {
    const q = await prepare([createAssetCommand(carol, carol)]);
    const made = await post(w.server, '/v2/interactive-submission/executeAndWaitForTransaction', executeBody(q.preparedTransaction, signedBy(carolKey, carol, q.preparedTransactionHash)), { headers: wallet });
    const contractId = made.body.transaction.events[0].CreatedEvent.contractId as string;
    const first = await prepare([archiveCommand(contractId)]);
    const second = await prepare([archiveCommand(contractId)]);
    expect((await execute(executeBody(first.preparedTransaction, signedBy(carolKey, carol, first.preparedTransactionHash)))).status).toBe(200);
    const late = await execute(executeBody(second.preparedTransaction, signedBy(carolKey, carol, second.preparedTransactionHash)));
    expect([late.status, late.body.code]).toEqual([404, 'CONTRACT_NOT_FOUND']);
  });

  it('commits none of the refused transactions', async () => {
    const offsetBefore = w.ledger.ledgerEnd().offset;
    await execute(executeBody(p.preparedTransaction, []));
    expect(w.ledger.ledgerEnd().offset).toBe(offsetBefore);
    // The original, correctly signed, still executes: nothing above consumed its change id.
    expect((await execute(executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash)))).status).toBe(200);
  });
});

describe('time bounds', () => {
  const execute = (body: unknown) => post(w.server, '/v2/interactive-submission/executeAndWait', body, { headers: wallet });

  it('refuses execution after the prepared maxRecordTime', async () => {
    const p = await prepare([createAssetCommand(carol, carol)], { maxRecordTime: new Date(Date.now() - 1000).toISOString() });
    const res = await execute(executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash)));
    expect([res.status, res.body.code]).toEqual([400, 'FAILED_TO_EXECUTE_TRANSACTION']);
    expect(res.body.cause).toMatch(/after the transaction's maxRecordTime/);
  });

  it('honours an execute-time minLedgerTime the prepared ledger time meets, refuses one it does not', async () => {
    const p = await prepare([createAssetCommand(carol, carol)]);
    const late = await execute(executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash), { minLedgerTime: { time: { MinLedgerTimeRel: { value: { seconds: 3600, nanos: 0 } } } } }));
    expect([late.status, late.body.code]).toEqual([400, 'FAILED_TO_EXECUTE_TRANSACTION']);
    const past = { time: { MinLedgerTimeAbs: { value: '2020-01-01T00:00:00Z' } } };
    expect((await execute(executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash), { minLedgerTime: past }))).status).toBe(200);
  });

  it('prepares at a requested minimum ledger time', async () => {
    const at = new Date(Date.now() + 60_000).toISOString();
    const p = await prepare([createAssetCommand(carol, carol)], { minLedgerTime: { time: { MinLedgerTimeAbs: { value: at } } } });
    const doc = JSON.parse(Buffer.from(p.preparedTransaction, 'base64').subarray(5).toString('utf8')) as { metadata: { ledgerEffectiveTime: number } };
    expect(doc.metadata.ledgerEffectiveTime).toBeGreaterThanOrEqual(Date.parse(at));
  });
});

describe('rights', () => {
  it('prepare needs read rights: CanExecuteAs alone is not enough', async () => {
    w.ledger.createUser({ user: { id: 'signer-only' }, rights: [canExecuteAs(carol)] });
    const res = await post(w.server, '/v2/interactive-submission/prepare', prepareBody(carol, [createAssetCommand(carol, carol)]), { headers: { authorization: `Bearer ${await userToken('signer-only')}` } });
    expect([res.status, res.body.grpcCodeValue]).toEqual([403, 7]);
  });

  it('execute needs CanExecuteAs (or CanActAs) for the prepared actAs parties: CanReadAs is not enough', async () => {
    w.ledger.createUser({ user: { id: 'watcher' }, rights: [canReadAs(carol)] });
    const watcher = { authorization: `Bearer ${await userToken('watcher')}` };
    const p = await prepare([createAssetCommand(carol, carol)], {}, watcher);
    const res = await post(w.server, '/v2/interactive-submission/executeAndWait', executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash)), { headers: watcher });
    expect([res.status, res.body.grpcCodeValue]).toEqual([403, 7]);
  });

  it('a user cannot prepare or execute under another userId', async () => {
    const p = await prepare([createAssetCommand(carol, carol)]);
    const res = await post(w.server, '/v2/interactive-submission/executeAndWait', executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash), { userId: 'alice' }), { headers: wallet });
    expect(res.status).toBe(403);
    const prep = await post(w.server, '/v2/interactive-submission/prepare', prepareBody(carol, [createAssetCommand(carol, carol)], { userId: 'alice' }), { headers: wallet });
    expect(prep.status).toBe(403);
  });

  it('onboarding needs an admin', async () => {
    const res = await post(w.server, '/v2/parties/external/generate-topology', { synchronizer, partyHint: 'x', publicKey: newKey('ed25519').publicKey }, { headers: wallet });
    expect(res.status).toBe(403);
  });
});
