import { PreparedTransaction, type Create } from '@canton-network/core-ledger-proto';
import { hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
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

/** The participant's hash, recomputed by the client with Canton's own tooling (core-tx-visualizer, an independent V2 implementation). */
const recomputeHash = (preparedTransaction: string): Promise<string> => hashPreparedTransaction(preparedTransaction, 'base64');

/** Rewrites the protobuf prepared transaction (what a tampering client would do). */
function tamper(preparedTransaction: string, change: (p: PreparedTransaction) => void): string {
  const p = PreparedTransaction.fromBinary(Buffer.from(preparedTransaction, 'base64'));
  change(p);
  return Buffer.from(PreparedTransaction.toBinary(p)).toString('base64');
}

/** The first create node of a prepared transaction. */
function firstCreate(p: PreparedTransaction): Create {
  for (const n of p.transaction?.nodes ?? []) if (n.versionedNode.oneofKind === 'v1' && n.versionedNode.v1.nodeType.oneofKind === 'create') return n.versionedNode.v1.nodeType.create;
  throw new Error('no create node');
}

function setAmount(c: Create, amount: string): void {
  const sum = c.argument?.sum;
  if (sum?.oneofKind !== 'record') throw new Error('not a record');
  const field = sum.record.fields.find((f) => f.label === 'amount');
  field!.value = { sum: { oneofKind: 'numeric', numeric: amount } };
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
      { synchronizer, onboardingTransactions: generated.body.topologyTransactions.map((transaction: string) => ({ transaction })), multiHashSignatures: [signHash(newKey('ed25519'), generated.body.multiHash, { signedBy: key.fingerprint })] },
      { headers: admin },
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_ARGUMENT', cause: expect.stringMatching(/None of the 1 signatures is a valid signature by the party's key/) });
    expect(w.ledger.isKnownParty(`mallory::${key.fingerprint}`)).toBe(false);
  });

  it('refuses an unsigned allocation and a second allocation of the same party', async () => {
    const key = newKey('ed25519');
    const generated = await post(w.server, '/v2/parties/external/generate-topology', { synchronizer, partyHint: 'erin', publicKey: key.publicKey }, { headers: admin });
    const txs = generated.body.topologyTransactions.map((transaction: string) => ({ transaction }));
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
  it("prepares with read rights only: Canton's protobuf PreparedTransaction, hashed with scheme V2", async () => {
    const p = await prepare([createAssetCommand(carol, carol)], { synchronizerId: synchronizer });
    expect(p.hashingSchemeVersion).toBe('HASHING_SCHEME_VERSION_V2');
    expect(Buffer.from(p.preparedTransactionHash, 'base64')).toHaveLength(32);
    expect(p.preparedTransactionHash).toBe(await recomputeHash(p.preparedTransaction));
    const decoded = PreparedTransaction.fromBinary(Buffer.from(p.preparedTransaction, 'base64'));
    expect(decoded.metadata).toMatchObject({ submitterInfo: { actAs: [carol] }, synchronizerId: synchronizer, mediatorGroup: 0 });
    expect(decoded.metadata?.transactionUuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(firstCreate(decoded)).toMatchObject({ signatories: [carol], stakeholders: [carol], templateId: { moduleName: 'Sample.Asset', entityName: 'Asset' } });
    expect(p.costEstimation).toMatchObject({ totalTrafficCostEstimation: expect.any(Number) });
    expect(p).not.toHaveProperty('hashingDetails');
  });

  it('explains the hash when asked (verboseHashing), and refuses UNSPECIFIED named explicitly, as Canton 3.5 does', async () => {
    const v2 = await prepare([createAssetCommand(carol, carol)], { verboseHashing: true, estimateTrafficCost: { disabled: true } });
    expect(v2.hashingDetails).toContain(Buffer.from(v2.preparedTransactionHash, 'base64').toString('hex'));
    expect(v2.hashingDetails).toMatch(/metadata hash = sha-256/);
    expect(v2).not.toHaveProperty('costEstimation');
    const unspecified = await post(w.server, '/v2/interactive-submission/prepare', prepareBody(carol, [createAssetCommand(carol, carol)], { hashingSchemeVersion: 'HASHING_SCHEME_VERSION_UNSPECIFIED' }), { headers: wallet });
    expect([unspecified.status, unspecified.body.code, unspecified.body.cause]).toEqual([400, 'INVALID_FIELD', 'The submitted command has a field with invalid value: Invalid field hashing_scheme_version: Unspecified version']);
  });

  it('prepares and executes under HASHING_SCHEME_VERSION_V3 when asked (with a max record time, which V3 hashes and V2 does not)', async () => {
    const maxRecordTime = new Date(w.ledger.config.clock.now() + 3_600_000).toISOString();
    const v3 = await prepare([createAssetCommand(carol, carol, '3.0')], { hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3', verboseHashing: true, maxRecordTime });
    expect(v3.hashingSchemeVersion).toBe('HASHING_SCHEME_VERSION_V3');
    expect(v3.hashingDetails).toMatch(/scheme 03/);
    // The same transaction under V2 hashes differently (the V2 oracle agrees with itself, not with V3).
    expect(await recomputeHash(v3.preparedTransaction)).not.toBe(v3.preparedTransactionHash);
    const signed = signedBy(carolKey, carol, v3.preparedTransactionHash);
    // Executing it as V2 recomputes the V2 hash, which the signature does not cover.
    const asV2 = await post(w.server, '/v2/interactive-submission/executeAndWait', executeBody(v3.preparedTransaction, signed), { headers: wallet });
    expect([asV2.status, asV2.body.code], asV2.text).toEqual([400, 'FAILED_TO_EXECUTE_TRANSACTION']);
    expect(asV2.body.cause).toMatch(/\(1 invalid\)/);
    const res = await post(w.server, '/v2/interactive-submission/executeAndWait', executeBody(v3.preparedTransaction, signed, { hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3' }), { headers: wallet });
    expect(res.status, res.text).toBe(200);
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
    const changed = tamper(p.preparedTransaction, (d) => setAmount(firstCreate(d), '1000000.0000000000'));
    expectFailed(await execute(executeBody(changed, signedBy(carolKey, carol, p.preparedTransactionHash))), /Received 0 valid signatures from distinct keys \(1 invalid\), but expected at least 1 valid for carol::/);
  });

  it('a changed transaction the party signed anew (the participant rebuilds it and sees the difference)', async () => {
    const changed = tamper(p.preparedTransaction, (d) => {
      const c = firstCreate(d);
      c.signatories = [w.alice];
      c.stakeholders = [w.alice];
    });
    expectFailed(await execute(executeBody(changed, signedBy(carolKey, carol, await recomputeHash(changed)))), /not what its commands yield/);
  });

  it('a node or transaction LF version other than its package dictates, signed anew: INVALID_FIELD, nothing committed', async () => {
    const before = w.ledger.ledgerEnd().offset;
    const changes: [(d: PreparedTransaction) => void, RegExp][] = [
      [(d) => { firstCreate(d).lfVersion = 'dev'; }, /\(create\) has LF version "dev", but its package \S+ dictates "2\.1"/],
      [(d) => { firstCreate(d).lfVersion = 'dev'; d.transaction!.version = 'dev'; }, /\(create\) has LF version "dev"/],
      [(d) => { d.transaction!.version = '2.2'; }, /the transaction has version "2\.2", but its nodes dictate "2\.1"/],
    ];
    for (const [change, cause] of changes) {
      const changed = tamper(p.preparedTransaction, change);
      const res = await execute(executeBody(changed, signedBy(carolKey, carol, await recomputeHash(changed))));
      expect([res.status, res.body.code]).toEqual([400, 'INVALID_FIELD']);
      expect(res.body.cause).toMatch(cause);
    }
    expect(w.ledger.ledgerEnd().offset).toBe(before);
  });

  it('a contract id the signer chose, signed anew: refused whatever its form', async () => {
    const before = w.ledger.ledgerEnd().offset;
    for (const id of ['x\u0000../../y', 'not-a-contract-id', 'ab'.repeat(300)]) {
      const changed = tamper(p.preparedTransaction, (d) => {
        firstCreate(d).contractId = id;
      });
      const res = await execute(executeBody(changed, signedBy(carolKey, carol, p.preparedTransactionHash)));
      expect([res.status, res.body.code]).toEqual([400, 'INVALID_FIELD']);
      expect(res.body.cause).toMatch(/is not a Canton contract id/);
    }
    const huge = tamper(p.preparedTransaction, (d) => {
      firstCreate(d).contractId = 'a'.repeat(1 << 20);
    });
    const res = await execute(executeBody(huge, signedBy(carolKey, carol, p.preparedTransactionHash)));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    // A well-formed id the ledger did not derive: the rebuild derives its own and sees the difference.
    const forged = tamper(p.preparedTransaction, (d) => {
      firstCreate(d).contractId = '00' + 'ab'.repeat(32);
    });
    expectFailed(await execute(executeBody(forged, signedBy(carolKey, carol, await recomputeHash(forged)))), /not what its commands yield/);
    expect(w.ledger.ledgerEnd().offset).toBe(before);
  });

  it('ledger times the signer chose, signed anew: 25 years back, beyond year 9999, ahead of the record time', async () => {
    const holdings = () => [...(w.ledger.activeContracts({ activeAtOffset: w.ledger.ledgerEnd().offset, eventFormat: { filtersByParty: { [carol]: {} } } } as never) as { ok: true; value: Iterable<unknown> }).value].length;
    const before = holdings();
    const year = 365n * 24n * 3600n * 1_000_000n;
    const cases: [string, (d: PreparedTransaction) => void, number, RegExp][] = [
      ['25 years back', (d) => (d.metadata!.preparationTime -= 25n * year), 400, /more than 24h before the record time/],
      ['year 275760', (d) => (d.metadata!.preparationTime = 8_640_000_000_000_000_000n), 400, /outside RFC 3339/],
      ['a minimum ledger time in year 275760', (d) => (d.metadata!.minLedgerEffectiveTime = 8_640_000_000_000_000_000n), 400, /outside RFC 3339/],
      // The ledger time moves into the signed bounds; the confirmers' record-time check refuses it.
      ['a minimum ledger time a year ahead', (d) => (d.metadata!.minLedgerEffectiveTime = d.metadata!.preparationTime + year), 409, /delta of the ledger time and the record time exceed the time tolerance/],
      ['a maximum ledger time a year back', (d) => (d.metadata!.maxLedgerEffectiveTime = d.metadata!.preparationTime - year), 409, /delta of the ledger time and the record time exceed the time tolerance/],
      ['a minimum after the maximum', (d) => ((d.metadata!.minLedgerEffectiveTime = d.metadata!.preparationTime + 2000n), (d.metadata!.maxLedgerEffectiveTime = d.metadata!.preparationTime)), 400, /is after the maximum/],
      ['a preparation time ahead of the record time', (d) => (d.metadata!.preparationTime += year), 400, /after the record time/],
    ];
    for (const [what, change, status, cause] of cases) {
      const changed = tamper(p.preparedTransaction, change);
      const res = await execute(executeBody(changed, signedBy(carolKey, carol, await recomputeHash(changed))));
      expect([what, res.status], res.text).toEqual([what, status]);
      expect(res.body.cause).toMatch(cause);
    }
    expect(holdings()).toBe(before);
  });

  it('an input contract the signer changed, signed anew', async () => {
    const q = await prepare([createAssetCommand(carol, carol)]);
    const made = await post(w.server, '/v2/interactive-submission/executeAndWaitForTransaction', executeBody(q.preparedTransaction, signedBy(carolKey, carol, q.preparedTransactionHash)), { headers: wallet });
    const contractId = made.body.transaction.events[0].CreatedEvent.contractId as string;
    const archive = await prepare([archiveCommand(contractId)]);
    const changed = tamper(archive.preparedTransaction, (d) => {
      d.metadata!.inputContracts[0]!.createdAt -= 1_000_000n;
    });
    expectFailed(await execute(executeBody(changed, signedBy(carolKey, carol, await recomputeHash(changed)))), /not what its commands yield/);
    const dropped = tamper(archive.preparedTransaction, (d) => {
      d.metadata!.inputContracts = [];
    });
    expectFailed(await execute(executeBody(dropped, signedBy(carolKey, carol, await recomputeHash(dropped)))), /not what its commands yield/);
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

  it('a signature over the wrong hash (another transaction, or the multihash form of this one)', async () => {
    const other = await prepare([createAssetCommand(carol, carol, '2.0')]);
    expectFailed(await execute(executeBody(p.preparedTransaction, signedBy(carolKey, carol, other.preparedTransactionHash))), /\(1 invalid\)/);
    const multihash = Buffer.concat([Buffer.of(0x12, 0x20), Buffer.from(p.preparedTransactionHash, 'base64')]).toString('base64');
    expectFailed(await execute(executeBody(p.preparedTransaction, signedBy(carolKey, carol, multihash))), /\(1 invalid\)/);
  });

  it('an unreadable or truncated prepared transaction, or an unsupported scheme', async () => {
    for (const bad of [Buffer.from('not ours').toString('base64'), Buffer.from(p.preparedTransaction, 'base64').subarray(0, 40).toString('base64'), '***', '']) {
      const res = await execute(executeBody(bad, signedBy(carolKey, carol, p.preparedTransactionHash)));
      expect([res.status, res.body.code], res.text).toEqual([400, 'INVALID_FIELD']);
    }
    // A name the API does not know is refused by the request decoder, as the JSON API does.
    const unknown = await execute(executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash), { hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V9' }));
    expect([unknown.status, unknown.text]).toEqual([400, expect.stringMatching(/hashingSchemeVersion/)]);
    const unspecified = await execute(executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash), { hashingSchemeVersion: 'HASHING_SCHEME_VERSION_UNSPECIFIED' }));
    expect([unspecified.status, unspecified.body.code, unspecified.body.cause]).toEqual([400, 'INVALID_FIELD', 'The submitted command has a field with invalid value: Invalid field hashing_scheme_version: Unspecified version']);
    // Signed under V2, executed as V3: the V3 hash differs, so the signature does not cover it.
    expectFailed(await execute(executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash), { hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3' })), /\(1 invalid\)/);
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

  it('takes an execute-time minLedgerTime as the ledger time: an hour ahead is refused by the record-time check, one in the past is the record time', async () => {
    const p = await prepare([createAssetCommand(carol, carol)]);
    const late = await execute(executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash), { minLedgerTime: { time: { MinLedgerTimeRel: { value: { seconds: 3600, nanos: 0 } } } } }));
    expect([late.status, late.body.code]).toEqual([409, 'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND']);
    const past = { time: { MinLedgerTimeAbs: { value: '2020-01-01T00:00:00Z' } } };
    expect((await execute(executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash), { minLedgerTime: past }))).status).toBe(200);
  });

  it('prepares at a requested minimum ledger time: the preparation time; no bounds for a transaction that does not read the time', async () => {
    const at = new Date(Date.now() + 60_000).toISOString();
    const p = await prepare([createAssetCommand(carol, carol)], { minLedgerTime: { time: { MinLedgerTimeAbs: { value: at } } } });
    const decoded = PreparedTransaction.fromBinary(Buffer.from(p.preparedTransaction, 'base64'));
    expect(decoded.metadata!.preparationTime).toBe(BigInt(Date.parse(at)) * 1000n);
    expect([decoded.metadata?.minLedgerEffectiveTime, decoded.metadata?.maxLedgerEffectiveTime]).toEqual([undefined, undefined]);
  });

  it.each([
    ['minLedgerTimeAbs in year 275760', { minLedgerTime: { time: { MinLedgerTimeAbs: { value: '+275760-09-13T00:00:00.000Z' } } } }],
    ['minLedgerTimeAbs without a time', { minLedgerTime: { time: { MinLedgerTimeAbs: { value: '2025-01-01' } } } }],
    ['minLedgerTimeRel past year 9999', { minLedgerTime: { time: { MinLedgerTimeRel: { value: { seconds: 1e13, nanos: 0 } } } } }],
    ['maxRecordTime in year 275760', { maxRecordTime: '+275760-09-13T00:00:00.000Z' }],
  ])('refuses a time outside RFC 3339 at prepare: %s', async (_what, extra) => {
    const res = await post(w.server, '/v2/interactive-submission/prepare', prepareBody(carol, [createAssetCommand(carol, carol)], extra), { headers: wallet });
    expect(res.status, res.text).toBe(400);
    expect(res.body.cause).toMatch(/RFC 3339|9999/);
  });

  it('refuses an execute-time minLedgerTimeAbs outside RFC 3339', async () => {
    const p = await prepare([createAssetCommand(carol, carol)]);
    const res = await execute(executeBody(p.preparedTransaction, signedBy(carolKey, carol, p.preparedTransactionHash), { minLedgerTime: { time: { MinLedgerTimeAbs: { value: '+275760-09-13T00:00:00.000Z' } } } }));
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_FIELD']);
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
