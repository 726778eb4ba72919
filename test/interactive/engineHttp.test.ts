/**
 * Interactive submission of commands on an uploaded DAR (splice-test-token-v1), over HTTP, by
 * external parties: prepare runs the engine and answers Canton's protobuf PreparedTransaction,
 * which core-tx-visualizer decodes (the real choice and argument) and hashes to the answered
 * hash; execute commits exactly that transaction (contract ids, nodes), once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PreparedTransaction, type Exercise } from '@canton-network/core-ledger-proto';
import { decodePreparedTransaction, hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMetadataProblem } from '../../conformance/src/checks/ledgerMeaning.js';
import { toTimestamp } from '../../reference-server/src/ledger/clock.js';
import { createLedger, ManualClock } from '../../reference-server/src/ledger/index.js';
import { DARS_DIR, HAS_DARS, loadDar } from '../daml/damlFixtures.js';
import { expectCantonError } from '../http/support/cantonError.js';
import { post } from '../http/support/ledgerApi.js';
import { upload } from '../http/support/packages.js';
import { startServer, type TestServer } from '../http/support/startServer.js';
import { executeBody, freshId, onboard, prepareBody } from './support/externalParties.js';
import { newKey, signHash, type TestKey } from './support/keys.js';

const TOKEN_DAR = 'splice/splice-test-token-v1-1.0.0.dar';
const MODULE = 'Splice.Testing.Tokens.TestTokenV1';
const TOKEN = `#splice-test-token-v1:${MODULE}:Token`;
const TOKEN_RULES = `#splice-test-token-v1:${MODULE}:TokenRules`;
/** By package id: the package name also names the server's built-in token-standard interface. */
const FACTORY = HAS_DARS ? `${[...loadDar(TOKEN_DAR).dar.packages].find((p) => p.metadata?.name === 'splice-api-token-transfer-instruction-v1')!.id}:Splice.Api.Token.TransferInstructionV1:TransferFactory` : '';
const NOW = Date.UTC(2026, 0, 15, 12);
/** The server runs without auth: requests name their user. */
const USER = 'wallet';

interface Prepared { preparedTransaction: string; preparedTransactionHash: string; hashingSchemeVersion: string }
interface Event { CreatedEvent?: { contractId: string; templateId: string; createArgument: Record<string, unknown>; createdEventBlob?: string }; ExercisedEvent?: { contractId: string; choice: string; choiceArgument: Record<string, unknown>; consuming: boolean } }

let server: TestServer;
let clock: ManualClock;
let admin: string;
let sender: string;
let receiver: string;
const keys = new Map<string, TestKey>();

beforeAll(async () => {
  clock = new ManualClock(NOW);
  server = await startServer({ ledger: createLedger({ clock }) });
  if (!HAS_DARS) return;
  const sync = server.ledger.config.synchronizers[0]!.id;
  expect((await upload(server, `/v2/dars?synchronizerId=${encodeURIComponent(sync)}`, readFileSync(join(DARS_DIR, TOKEN_DAR)))).status).toBe(200);
  for (const hint of ['admin', 'sender']) {
    const key = newKey('ed25519');
    const party = await onboard(server, {}, `${hint}-ext`, key, sync);
    keys.set(party, key);
  }
  [admin, sender] = [...keys.keys()] as [string, string];
  receiver = ((await post(server, '/v2/parties', { partyIdHint: 'receiver-ext', identityProviderId: '' })).body as { partyDetails: { party: string } }).partyDetails.party;
});
afterAll(() => server.close());

const holding = (amount: string) => ({ owner: sender, instrumentId: { admin, id: 'TEST' }, amount, lock: null, meta: { values: {} } });
const decode = (p: Prepared) => PreparedTransaction.fromBinary(Buffer.from(p.preparedTransaction, 'base64'));
const nodeTypes = (p: PreparedTransaction) => p.transaction!.nodes.map((n) => (n.versionedNode.oneofKind === 'v1' ? n.versionedNode.v1.nodeType : undefined));
const signaturesOf = (p: Prepared, parties: readonly string[]) => parties.map((party) => ({ party, signatures: [signHash(keys.get(party)!, p.preparedTransactionHash)] }));

async function prepare(actAs: string[], commands: unknown[], extra: Record<string, unknown> = {}): Promise<Prepared> {
  const res = await post(server, '/v2/interactive-submission/prepare', { ...prepareBody(actAs[0]!, commands, extra), actAs, userId: USER });
  expect(res.status, res.text).toBe(200);
  return res.body as Prepared;
}

async function executeForTransaction(p: Prepared, parties: readonly string[], extra: Record<string, unknown> = {}) {
  return post(server, '/v2/interactive-submission/executeAndWaitForTransaction', {
    ...executeBody(p.preparedTransaction, signaturesOf(p, parties), { hashingSchemeVersion: p.hashingSchemeVersion, userId: USER, ...extra }),
    transactionFormat: {
      eventFormat: { filtersByParty: Object.fromEntries(parties.map((party) => [party, { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] }])), verbose: true },
      transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
    },
  }, { unchecked: true });
}

/** The token rules and a holding of 100, created by one interactive submission of both parties. */
async function mint(): Promise<{ rules: NonNullable<Event['CreatedEvent']>; token: NonNullable<Event['CreatedEvent']> }> {
  const p = await prepare([admin, sender], [
    { CreateCommand: { templateId: TOKEN_RULES, createArguments: { admin } } },
    { CreateCommand: { templateId: TOKEN, createArguments: { holding: holding('100.0') } } },
  ]);
  const res = await executeForTransaction(p, [admin, sender]);
  expect(res.status, res.text).toBe(200);
  const [rules, token] = (res.body.transaction.events as Event[]).map((e) => e.CreatedEvent!);
  return { rules: rules!, token: token! };
}

const transferCommand = (rulesId: string, tokenId: string, amount = '30.5') => ({
  ExerciseCommand: {
    templateId: FACTORY,
    contractId: rulesId,
    choice: 'TransferFactory_Transfer',
    choiceArgument: {
      expectedAdmin: admin,
      transfer: {
        sender, receiver, amount, instrumentId: { admin, id: 'TEST' },
        requestedAt: '2026-01-15T11:00:00Z', executeBefore: '2026-01-16T12:00:00Z', inputHoldingCids: [tokenId], meta: { values: {} },
      },
      extraArgs: { context: { values: { 'splice.lfdecentralizedtrust.org/reason': { tag: 'AV_Text', value: 'rent' } } }, meta: { values: {} } },
    },
  },
});

async function prepareTransfer(scheme: 'HASHING_SCHEME_VERSION_V2' | 'HASHING_SCHEME_VERSION_V3' = 'HASHING_SCHEME_VERSION_V2') {
  const { rules, token } = await mint();
  const disclosed = [{ contractId: rules.contractId, templateId: rules.templateId, createdEventBlob: rules.createdEventBlob, synchronizerId: '' }];
  const p = await prepare([sender], [transferCommand(rules.contractId, token.contractId)], { disclosedContracts: disclosed, hashingSchemeVersion: scheme });
  return { rules, token, p };
}

describe.runIf(HAS_DARS)('interactive submission of an uploaded DAR over HTTP (needs ../shared/upstream/daml/dars)', () => {
  it('prepares the engine transaction of several commands: two creates, hashed as core-tx-visualizer recomputes it', async () => {
    const p = await prepare([admin, sender], [{ CreateCommand: { templateId: TOKEN, createArguments: { holding: holding('1.0') } } }, { CreateCommand: { templateId: TOKEN_RULES, createArguments: { admin } } }]);
    expect(p.hashingSchemeVersion).toBe('HASHING_SCHEME_VERSION_V2');
    expect(await hashPreparedTransaction(p.preparedTransaction, 'base64')).toBe(p.preparedTransactionHash);
    const tx = decode(p);
    expect(tx.transaction?.roots).toEqual(['0', '1']);
    expect(nodeTypes(tx).map((t) => t?.oneofKind === 'create' && t.create.templateId?.entityName)).toEqual(['Token', 'TokenRules']);
    expect(tx.metadata?.submitterInfo?.actAs).toEqual([admin, sender].sort());
    expect(tx.metadata?.preparationTime).toBe(BigInt(NOW) * 1000n);
    // Creating reads no time: execution chooses the ledger time.
    expect(tx.metadata?.minLedgerEffectiveTime).toBeUndefined();
  });

  it("a transaction that reads no time commits at the execution's ledger time; verboseHashing details it", async () => {
    const p = await prepare([admin, sender], [{ CreateCommand: { templateId: TOKEN, createArguments: { holding: holding('2.0') } } }], { verboseHashing: true });
    expect((p as Prepared & { hashingDetails?: string }).hashingDetails).toMatch(/Metadata/i);
    clock.advance(30_000);
    const res = await executeForTransaction(p, [admin, sender]);
    expect(res.status, res.text).toBe(200);
    expect(res.body.transaction.effectiveAt).toBe(toTimestamp(clock.now()));
    expect((res.body.transaction.events as Event[])[0]!.CreatedEvent!.contractId).toBe(nodeTypes(decode(p)).map((t) => (t?.oneofKind === 'create' ? t.create.contractId : ''))[0]);
  });

  it('prepare shows the real choice on a disclosed factory; execute commits exactly that transaction', async () => {
    const { rules, token, p } = await prepareTransfer();
    expect(await hashPreparedTransaction(p.preparedTransaction, 'base64')).toBe(p.preparedTransactionHash);
    const visualized = decodePreparedTransaction(p.preparedTransaction);
    const nodes = nodeTypes(visualized);
    expect(nodes.map((t) => t?.oneofKind)).toEqual(['exercise', 'fetch', 'exercise', 'create', 'create']);
    const root = (nodes[0] as { exercise: Exercise }).exercise;
    expect(root).toMatchObject({ contractId: rules.contractId, choiceId: 'TransferFactory_Transfer', actingParties: [sender], interfaceId: { entityName: 'TransferFactory' }, templateId: { entityName: 'TokenRules' } });
    const transfer = root.chosenValue?.sum.oneofKind === 'record' ? root.chosenValue.sum.record.fields.find((f) => f.label === 'transfer')?.value : undefined;
    const amount = transfer?.sum.oneofKind === 'record' ? transfer.sum.record.fields.find((f) => f.label === 'amount')?.value?.sum : undefined;
    expect(amount).toEqual({ oneofKind: 'numeric', numeric: '30.5000000000' });
    // The choice compares the ledger time with requestedAt and executeBefore: the transaction is pinned to its preparation time.
    const meta = visualized.metadata!;
    expect([meta.minLedgerEffectiveTime, meta.maxLedgerEffectiveTime]).toEqual([meta.preparationTime, meta.preparationTime]);
    expect(meta.inputContracts.map((c) => (c.contract.oneofKind === 'v1' ? c.contract.v1.contractId : ''))).toEqual([rules.contractId, token.contractId].sort());
    const preparedCreates = nodes.flatMap((t) => (t?.oneofKind === 'create' ? [t.create.contractId] : []));

    const preparedAt = clock.now();
    clock.advance(60_000);
    const res = await executeForTransaction(p, [sender]);
    expect(res.status, res.text).toBe(200);
    const events = res.body.transaction.events as Event[];
    expect(events.map((e) => (e.CreatedEvent ? 'created' : e.ExercisedEvent?.choice))).toEqual(['TransferFactory_Transfer', 'Archive', 'created', 'created']);
    expect(events[0]!.ExercisedEvent).toMatchObject({ contractId: rules.contractId, consuming: false, choiceArgument: { transfer: { amount: '30.5000000000', sender, receiver } } });
    expect(events[1]!.ExercisedEvent).toMatchObject({ contractId: token.contractId, consuming: true });
    expect(events.flatMap((e) => (e.CreatedEvent ? [e.CreatedEvent.contractId] : []))).toEqual(preparedCreates);
    expect(events[2]!.CreatedEvent!.createArgument).toMatchObject({ holding: { owner: sender, amount: '69.5000000000' } });
    // Pinned by the choice: committed at the preparation time, not at the execution's.
    expect(res.body.transaction.effectiveAt).toBe(toTimestamp(preparedAt));
    expect(res.body.transaction.externalTransactionHash).toBe(p.preparedTransactionHash);

    // The same transaction read back by update id: the same events.
    const byId = await post(server, '/v2/updates/transaction-by-id', {
      updateId: res.body.transaction.updateId,
      transactionFormat: { eventFormat: { filtersByParty: { [sender]: {} }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
    }, { unchecked: true });
    expect(byId.status, byId.text).toBe(200);
    expect((byId.body.transaction.events as Event[]).map((e) => e.CreatedEvent?.contractId ?? e.ExercisedEvent?.contractId)).toEqual(events.map((e) => e.CreatedEvent?.contractId ?? e.ExercisedEvent?.contractId));
  });

  it('hashes with scheme V3 when asked, as core-tx-visualizer does not (V2 only): executes under V3', async () => {
    const { p } = await prepareTransfer('HASHING_SCHEME_VERSION_V3');
    expect(p.hashingSchemeVersion).toBe('HASHING_SCHEME_VERSION_V3');
    expect(await hashPreparedTransaction(p.preparedTransaction, 'base64')).not.toBe(p.preparedTransactionHash);
    const res = await executeForTransaction(p, [sender]);
    expect(res.status, res.text).toBe(200);
  });

  it('refuses a tampered transaction, a wrong signature, a reused UUID and a consumed input with the built-in codes', async () => {
    const { token, p } = await prepareTransfer();
    // Tampered and signed again by the sender: the rebuilt transaction is not the signed one.
    const decoded = decode(p);
    const change = nodeTypes(decoded)[3];
    if (change?.oneofKind !== 'create' || change.create.argument?.sum.oneofKind !== 'record') throw new Error('no change create');
    const holdingField = change.create.argument.sum.record.fields.find((f) => f.label === 'holding')!.value!;
    if (holdingField.sum.oneofKind !== 'record') throw new Error('holding is a record');
    holdingField.sum.record.fields.find((f) => f.label === 'amount')!.value = { sum: { oneofKind: 'numeric', numeric: '99.5000000000' } };
    const tamperedBytes = Buffer.from(PreparedTransaction.toBinary(decoded)).toString('base64');
    const tampered = { ...p, preparedTransaction: tamperedBytes, preparedTransactionHash: await hashPreparedTransaction(tamperedBytes, 'base64') };
    const refused = await executeForTransaction(tampered, [sender]);
    expect(refused.status).toBe(400);
    expectCantonError(refused.body, 'FAILED_TO_EXECUTE_TRANSACTION', /not what its commands yield/);

    // The original bytes under a signature of another key.
    const wrong = await post(server, '/v2/interactive-submission/executeAndWait', executeBody(p.preparedTransaction, [{ party: sender, signatures: [signHash(newKey('ed25519'), p.preparedTransactionHash, { signedBy: keys.get(sender)!.fingerprint })] }], { userId: USER }), { unchecked: true });
    expect(wrong.status).toBe(400);
    expectCantonError(wrong.body, 'FAILED_TO_EXECUTE_TRANSACTION', /valid signatures/);

    const first = await post(server, '/v2/interactive-submission/executeAndWait', executeBody(p.preparedTransaction, signaturesOf(p, [sender]), { userId: USER }), { unchecked: true });
    expect(first.status, first.text).toBe(200);
    // The same signed transaction from another user (another change id, so no command deduplication): the mediator refuses the UUID.
    const again = await post(server, '/v2/interactive-submission/executeAndWait', executeBody(p.preparedTransaction, signaturesOf(p, [sender]), { userId: 'other-wallet' }), { unchecked: true });
    expectCantonError(again.body, 'DUPLICATE_CONFIRMATION_REQUEST_UUID');
    // Canton's AlarmErrorCode: UnredactedSecurityAlert (5), INVALID_ARGUMENT; the suite's catalogue agrees.
    expect([again.status, again.body.errorCategory, again.body.grpcCodeValue]).toEqual([400, 5, 3]);
    expect(errorMetadataProblem(again.status, again.body)).toBeUndefined();

    // Preparing on the holding the transfer consumed: refused as the command service refuses it.
    const { rules } = await mint();
    const stale = await post(server, '/v2/interactive-submission/prepare', {
      ...prepareBody(sender, [transferCommand(rules.contractId, token.contractId)], {
        disclosedContracts: [{ contractId: rules.contractId, templateId: rules.templateId, createdEventBlob: rules.createdEventBlob, synchronizerId: '' }],
      }),
      userId: USER,
    }, { unchecked: true });
    expect(stale.status).toBe(404);
    expectCantonError(stale.body, 'CONTRACT_NOT_FOUND');
  });

  it.each([
    ['a node dropped', 'INVALID_FIELD', (t: PreparedTransaction) => { t.transaction!.nodes.splice(3, 1); }],
    ['the root choice renamed', 'COMMAND_PREPROCESSING_FAILED', (t: PreparedTransaction) => { const r = nodeTypes(t)[0]; if (r?.oneofKind === 'exercise') r.exercise.choiceId = 'TransferFactory_Nope'; }],
    ['the root template in an unknown package', 'COMMAND_PREPROCESSING_FAILED', (t: PreparedTransaction) => { const r = nodeTypes(t)[0]; if (r?.oneofKind === 'exercise') r.exercise.templateId!.packageId = 'ab'.repeat(32); }],
    ['the root interface renamed', 'TEMPLATES_OR_INTERFACES_NOT_FOUND', (t: PreparedTransaction) => { const r = nodeTypes(t)[0]; if (r?.oneofKind === 'exercise') r.exercise.interfaceId!.entityName = 'Nope'; }],
    ['a choice argument of the wrong type', 'FAILED_TO_EXECUTE_TRANSACTION', (t: PreparedTransaction) => { const r = nodeTypes(t)[0]; if (r?.oneofKind === 'exercise') r.exercise.chosenValue = { sum: { oneofKind: 'text', text: 'not a record' } }; }],
    ['the input contracts removed', 'CONTRACT_NOT_FOUND', (t: PreparedTransaction) => { t.metadata!.inputContracts = []; }],
    ['a child that is not a node', 'INVALID_FIELD', (t: PreparedTransaction) => { const r = nodeTypes(t)[0]; if (r?.oneofKind === 'exercise') r.exercise.children.push('99'); }],
  ])('refuses a re-signed transaction with %s: %s, nothing committed', async (_what, code, change) => {
    const { p } = await prepareTransfer();
    const decoded = decode(p);
    change(decoded);
    const bytes = Buffer.from(PreparedTransaction.toBinary(decoded)).toString('base64');
    const end = server.ledger.store.ledgerEnd;
    // Signed anew when the client can hash it at all; else under the original hash (the participant cannot hash it either).
    const hash = await hashPreparedTransaction(bytes, 'base64').catch(() => p.preparedTransactionHash);
    const res = await executeForTransaction({ ...p, preparedTransaction: bytes, preparedTransactionHash: hash }, [sender]);
    expect(res.status, res.text).toBeGreaterThanOrEqual(400);
    expect(res.status, res.text).toBeLessThan(500);
    expectCantonError(res.body, code);
    expect(server.ledger.store.ledgerEnd).toBe(end);
    expect(server.errors).toEqual([]);
  });

  /** Sets the LF version of the transfer's i-th node (exercise, fetch, exercise, create, create). */
  const setNodeVersion = (i: number, v: string) => (t: PreparedTransaction) => {
    const n = nodeTypes(t)[i];
    if (n?.oneofKind === 'create') n.create.lfVersion = v;
    else if (n?.oneofKind === 'exercise') n.exercise.lfVersion = v;
    else if (n?.oneofKind === 'fetch') n.fetch.lfVersion = v;
    else throw new Error(`node ${i} has no LF version`);
  };
  const setInputVersion = (v: string) => (t: PreparedTransaction) => {
    for (const c of t.metadata!.inputContracts) if (c.contract.oneofKind === 'v1') c.contract.v1.lfVersion = v;
  };
  it.each([
    ['the root exercise on LF dev', setNodeVersion(0, 'dev'), /node 0 \(exercise\) has LF version "dev", but its package \w+ dictates "2\.1"/],
    ['the fetch on an unknown LF version', setNodeVersion(1, '2.2'), /node 1 \(fetch\) has LF version "2\.2"/],
    ['a child exercise on LF 1.17', setNodeVersion(2, '1.17'), /node 2 \(exercise\) has LF version "1\.17"/],
    ['a create with no LF version', setNodeVersion(3, ''), /node 3 \(create\) has LF version ""/],
    ['a create on LF dev, the transaction too', (t: PreparedTransaction) => { setNodeVersion(4, 'dev')(t); t.transaction!.version = 'dev'; }, /node 4 \(create\) has LF version "dev"/],
    ['every node and the transaction on LF dev', (t: PreparedTransaction) => { for (let i = 0; i < 5; i++) setNodeVersion(i, 'dev')(t); t.transaction!.version = 'dev'; }, /node 0 \(exercise\) has LF version "dev"/],
    ['the transaction version alone', (t: PreparedTransaction) => { t.transaction!.version = 'dev'; }, /the transaction has version "dev", but its nodes dictate "2\.1"/],
    ['the input contracts on LF dev', setInputVersion('dev'), /input contract \w+ has LF version "dev"/],
  ])('refuses a re-signed transaction with %s: INVALID_FIELD naming the version its package dictates, nothing committed', async (_what, change, cause) => {
    const { p } = await prepareTransfer();
    const decoded = decode(p);
    change(decoded);
    const bytes = Buffer.from(PreparedTransaction.toBinary(decoded)).toString('base64');
    const end = server.ledger.store.ledgerEnd;
    // Hashed and signed anew, as an attacker holding the key would.
    const hash = await hashPreparedTransaction(bytes, 'base64');
    const res = await executeForTransaction({ ...p, preparedTransaction: bytes, preparedTransactionHash: hash }, [sender]);
    expect(res.status, res.text).toBe(400);
    expectCantonError(res.body, 'INVALID_FIELD', cause);
    expect(server.ledger.store.ledgerEnd).toBe(end);
    expect(server.errors).toEqual([]);
  });

  it('refuses at execution a transaction whose input was consumed after preparation', async () => {
    const { token, p } = await prepareTransfer();
    const archive = await prepare([admin, sender], [{ ExerciseCommand: { templateId: TOKEN, contractId: token.contractId, choice: 'Archive', choiceArgument: {} } }]);
    expect((await executeForTransaction(archive, [admin, sender])).status).toBe(200);
    const res = await post(server, '/v2/interactive-submission/executeAndWait', executeBody(p.preparedTransaction, signaturesOf(p, [sender]), { submissionId: freshId('sub'), userId: USER }), { unchecked: true });
    expect([res.status, res.body.code]).toEqual([404, 'CONTRACT_NOT_FOUND']);
    expect(res.body.cause).toContain(token.contractId);
  });
});
