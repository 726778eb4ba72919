import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { activeContracts, completionOf, createCommand, eventFormat, ledgerEnd, userIdOf } from './support/ledger.js';
import { expectStatus, isObject, jsonEqual, objectBody, qualifiedName, responseOf, type Json } from './support/expect.js';
import { patienceMs, poll } from './support/poll.js';
import { LedgerOp, SD_B, UPSTREAM_B } from './ledgerOps.js';
import type { Exchange } from '../target/exchange.js';
import type { CheckContext, CheckDefinition } from './types.js';

const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });

export interface ExternalParty {
  readonly party: string;
  /** The key's fingerprint as generate-topology answered it (what signatures name). */
  readonly fingerprint: string;
  /** The key's fingerprint as the suite computes it (keyFingerprint). */
  readonly keyFingerprint: string;
  readonly privateKey: KeyObject;
  readonly synchronizerId: string;
}

const b64 = (b: Buffer) => b.toString('base64');
export const signature = (key: KeyObject, data: Buffer, signedBy: string): Json => ({
  format: 'SIGNATURE_FORMAT_CONCAT',
  signature: b64(sign(null, data, key)),
  signedBy,
  signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
});

/**
 * A public key's fingerprint as Canton computes it, and the wallet SDK's `fingerprint()` after it:
 * SHA-256 over the hash purpose (12, as 4 bytes big-endian) and the key, as a hex multihash.
 */
export function keyFingerprint(publicKey: Buffer): string {
  const purpose = Buffer.alloc(4);
  purpose.writeInt32BE(12);
  return `1220${createHash('sha256').update(purpose).update(publicKey).digest('hex')}`;
}

export function needInteractive(ctx: CheckContext): void {
  if (ctx.profile.ledger?.interactiveSubmission === false) ctx.skip(`profile '${ctx.profile.name}' says the target offers no interactive submission (ledger.interactiveSubmission: false)`);
}

/**
 * generate-topology for a fresh Ed25519 key the suite holds, on the first connected synchronizer
 * (status 200 expected; the answer's shape is the caller's to check).
 */
export async function requestTopology(ctx: CheckContext, hint: string): Promise<{ synchronizerId: string; exchange: Exchange; privateKey: KeyObject; publicKey: Buffer }> {
  const syncs = await ctx.http.request('ledger', { method: 'GET', path: '/v2/state/connected-synchronizers' });
  expectStatus(ctx, syncs, 200, 'connected synchronizers');
  const list = objectBody(ctx, syncs, 'connected synchronizers').connectedSynchronizers;
  const first = Array.isArray(list) ? list.find(isObject) : undefined;
  if (!first || typeof first.synchronizerId !== 'string') return ctx.fail('no connected synchronizer to onboard an external party on', syncs);
  const synchronizerId = first.synchronizerId;
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const exchange = await ctx.http.request('ledger', {
    method: 'POST',
    path: '/v2/parties/external/generate-topology',
    json: { synchronizer: synchronizerId, partyHint: ctx.unique(hint).replace(/[^a-zA-Z0-9_-]/g, '-'), publicKey: { format: 'CRYPTO_KEY_FORMAT_RAW', keyData: b64(raw), keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' } },
  });
  expectStatus(ctx, exchange, 200, 'generate-topology');
  return { synchronizerId, exchange, privateKey, publicKey: raw };
}

/** Allocates an external party bound to a fresh Ed25519 key the suite holds. */
export async function externalParty(ctx: CheckContext): Promise<ExternalParty> {
  const { synchronizerId, exchange: topo, privateKey, publicKey } = await requestTopology(ctx, 'cc-ext');
  const t = objectBody(ctx, topo, 'generate-topology');
  if (typeof t.partyId !== 'string' || typeof t.publicKeyFingerprint !== 'string' || typeof t.multiHash !== 'string' || !Array.isArray(t.topologyTransactions)) {
    return ctx.fail('generate-topology must answer {partyId, publicKeyFingerprint, topologyTransactions, multiHash}', topo);
  }
  const fingerprint = t.publicKeyFingerprint;
  const alloc = await ctx.http.request('ledger', {
    method: 'POST',
    path: '/v2/parties/external/allocate',
    json: {
      synchronizer: synchronizerId,
      onboardingTransactions: t.topologyTransactions.map((transaction) => ({ transaction })),
      multiHashSignatures: [signature(privateKey, Buffer.from(t.multiHash, 'base64'), fingerprint)],
      identityProviderId: '',
    },
  });
  expectStatus(ctx, alloc, 200, 'allocating the external party');
  const party = objectBody(ctx, alloc, 'allocate external party').partyId;
  if (party !== t.partyId) ctx.fail(`allocate answered partyId ${String(party)}, generate-topology said ${t.partyId}`, alloc);
  const userId = userIdOf(ctx);
  if (ctx.profile.auth?.required && userId !== undefined) {
    // On a secured participant the run's user needs to execute as (and read as) the new party.
    const grant = await ctx.http.request('ledger', {
      method: 'POST',
      path: `/v2/users/${encodeURIComponent(userId)}/rights`,
      json: { userId, rights: [{ kind: { CanExecuteAs: { value: { party: t.partyId } } } }, { kind: { CanReadAs: { value: { party: t.partyId } } } }], identityProviderId: '' },
    });
    expectStatus(ctx, grant, 200, `granting the run's user rights over the external party`);
  }
  return { party: t.partyId, fingerprint, keyFingerprint: keyFingerprint(publicKey), privateKey, synchronizerId };
}

/** Prepares `command` (by default a create of the profile's template) for the external party alone. */
export async function prepare(ctx: CheckContext, ext: ExternalParty, command?: Json): Promise<{ preparedTransaction: string; hash: Buffer; hashingSchemeVersion: string; commandId: string; exchange: Exchange }> {
  const userId = userIdOf(ctx);
  const commandId = ctx.unique('cc-prep');
  const e = await ctx.http.request('ledger', {
    method: 'POST',
    path: '/v2/interactive-submission/prepare',
    json: { ...(userId === undefined ? {} : { userId }), commandId, commands: [command ?? { CreateCommand: createCommand(ctx, ext.party) }], actAs: [ext.party], synchronizerId: ext.synchronizerId },
  });
  expectStatus(ctx, e, 200, 'prepare');
  const p = objectBody(ctx, e, 'prepare');
  if (typeof p.preparedTransaction !== 'string' || typeof p.preparedTransactionHash !== 'string' || typeof p.hashingSchemeVersion !== 'string') {
    return ctx.fail('prepare must answer {preparedTransaction, preparedTransactionHash, hashingSchemeVersion}', e);
  }
  return { preparedTransaction: p.preparedTransaction, hash: Buffer.from(p.preparedTransactionHash, 'base64'), hashingSchemeVersion: p.hashingSchemeVersion, commandId, exchange: e };
}

export function executeBody(ctx: CheckContext, ext: ExternalParty, prepared: { preparedTransaction: string; hashingSchemeVersion: string }, sig: Json): Json {
  const userId = userIdOf(ctx);
  return {
    preparedTransaction: prepared.preparedTransaction,
    partySignatures: { signatures: [{ party: ext.party, signatures: [sig] }] },
    submissionId: ctx.unique('cc-exec'),
    hashingSchemeVersion: prepared.hashingSchemeVersion,
    deduplicationPeriod: { Empty: {} },
    ...(userId === undefined ? {} : { userId }),
  };
}

/**
 * An external party of the run's, its prepared create, and the execute body signed with its own
 * key; `begin`: the ledger end before the execution (prepare commits nothing). Skips without
 * interactive submission.
 */
export async function signedExecution(ctx: CheckContext): Promise<{ ext: ExternalParty; prepared: Awaited<ReturnType<typeof prepare>>; body: Json; begin: number }> {
  needInteractive(ctx);
  const ext = await externalParty(ctx);
  const prepared = await prepare(ctx, ext);
  const begin = (await ledgerEnd(ctx)).offset;
  return { ext, prepared, body: executeBody(ctx, ext, prepared, signature(ext.privateKey, prepared.hash, ext.fingerprint)), begin };
}

/**
 * Prepares a CreateAndExerciseCommand of the profile's template and consuming choice for the
 * external party (a transaction with an exercise node), or skips when the profile names no choice.
 */
export async function prepareCreateAndExercise(ctx: CheckContext, ext: ExternalParty): Promise<Awaited<ReturnType<typeof prepare>> & { templateId: string; choice: string }> {
  const ex = ctx.profile.ledger?.template?.exercise ?? ctx.skip(`profile '${ctx.profile.name}' names no consuming choice to exercise (ledger.template.exercise)`);
  const { templateId, createArguments } = createCommand(ctx, ext.party);
  const prepared = await prepare(ctx, ext, { CreateAndExerciseCommand: { templateId, createArguments, choice: ex.choice, choiceArgument: ex.choiceArgument } });
  return { ...prepared, templateId: String(templateId), choice: ex.choice };
}

const eventOf = (e: unknown, kind: string): Json | undefined => (isObject(e) && isObject(e[kind]) ? e[kind] : undefined);

export const ledgerInteractiveChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.interactive.round-trip',
    title: 'Interactive submission: external party with a suite-held key, prepare, sign, execute; the contract is then active',
    operationId: LedgerOp.execute,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: interactive-submission prepare/execute; ${UPSTREAM_B} interactive submission (external signatures)`,
    requires: { writes: true },
    async run(ctx) {
      const { ext, body } = await signedExecution(ctx);
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/interactive-submission/execute', json: body });
      expectStatus(ctx, e, 200, 'execute with a valid signature');
      if (!isObject(objectBody(ctx, e, 'execute'))) ctx.fail('execute must answer a JSON object ({})', e);
      // execute returns at once; the transaction commits asynchronously.
      await poll(ctx, 200, async (lastTry) => {
        const end = await ledgerEnd(ctx);
        const acs = await activeContracts(ctx, ext.party, end.offset);
        if (acs.contracts.length > 0) return true;
        if (lastTry) return ctx.fail(`no contract of external party ${ext.party} became active within ${patienceMs(ctx) / 1000} s of the execution`, acs.exchange);
        return undefined;
      });
    },
  }),
  check({
    id: 'ledger.interactive.wrong-key-rejected',
    title: 'Interactive submission signed by a key other than the party’s, or by its key over the hash of another prepared transaction, is refused, and nothing is committed',
    operationId: LedgerOp.executeAndWait,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: execute verifies every party signature against its registered key, over the hash of the prepared transaction submitted`,
    requires: { writes: true },
    async run(ctx) {
      needInteractive(ctx);
      const ext = await externalParty(ctx);
      const prepared = await prepare(ctx, ext);
      const other = generateKeyPairSync('ed25519').privateKey;
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/interactive-submission/executeAndWait', json: executeBody(ctx, ext, prepared, signature(other, prepared.hash, ext.fingerprint)) });
      const r = responseOf(e);
      if (r.status < 400 || r.status >= 500) ctx.fail(`a signature by a foreign key got HTTP ${r.status}; expected a 4xx refusal`, e);
      // The party's own key over another prepared transaction: the signature binds what it covers, not whoever signed.
      const signed = await prepare(ctx, ext);
      const swapped = await ctx.http.request('ledger', { method: 'POST', path: '/v2/interactive-submission/executeAndWait', json: executeBody(ctx, ext, prepared, signature(ext.privateKey, signed.hash, ext.fingerprint)) });
      const s = responseOf(swapped);
      if (s.status < 400 || s.status >= 500) ctx.fail(`a prepared transaction submitted with the party's signature over another prepared transaction's hash got HTTP ${s.status}; expected a 4xx refusal`, swapped);
      const end = await ledgerEnd(ctx);
      const acs = await activeContracts(ctx, ext.party, end.offset);
      if (acs.contracts.length > 0) ctx.fail(`the refused executions left ${acs.contracts.length} active contract(s) of ${ext.party}`, acs.exchange);
    },
  }),
  check({
    id: 'ledger.interactive.execute-and-wait-completion',
    title: "executeAndWait answers the committed transaction's update id and offset, and the execution's completion names the prepared command id, the submission id it was executed with, that update id and offset, and the external party acting",
    operationId: LedgerOp.executeAndWait,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: ExecuteSubmissionAndWaitResponse (update_id, completion_offset); PreparedTransaction metadata submitter_info.command_id; ExecuteSubmissionRequest.submission_id; Completion (command_id, submission_id, update_id, offset, act_as)`,
    requires: { writes: true },
    async run(ctx) {
      const { ext, prepared, body, begin } = await signedExecution(ctx);
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/interactive-submission/executeAndWait', json: body });
      expectStatus(ctx, e, 200, 'executeAndWait');
      const answer = objectBody(ctx, e, 'executeAndWait');
      if (typeof answer.updateId !== 'string' || typeof answer.completionOffset !== 'number') return ctx.fail('executeAndWait must answer {updateId, completionOffset}', e);
      // A wallet reads its transaction next by the answered id, and expects it at the answered offset.
      const byId = await ctx.http.request('ledger', {
        method: 'POST',
        path: '/v2/updates/update-by-id',
        json: { updateId: answer.updateId, updateFormat: { includeTransactions: { eventFormat: eventFormat(ext.party), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } },
      });
      expectStatus(ctx, byId, 200, `update-by-id of the updateId executeAndWait answered (${answer.updateId})`);
      const u = objectBody(ctx, byId, 'update-by-id').update;
      const tx = isObject(u) && isObject(u.Transaction) ? (isObject(u.Transaction.value) ? u.Transaction.value : u.Transaction) : {};
      if (tx.offset !== answer.completionOffset) ctx.fail(`executeAndWait answered completionOffset ${answer.completionOffset}; its transaction ${answer.updateId} is at offset ${JSON.stringify(tx.offset)}`, byId);
      if (!Array.isArray(tx.events) || !tx.events.some((ev) => eventOf(ev, 'CreatedEvent') !== undefined)) ctx.fail(`the transaction ${answer.updateId} executeAndWait answered shows no contract the prepared create made`, byId);
      const { completion, e: ce } = await completionOf(ctx, ext.party, begin, prepared.commandId, 'the execution of the prepared command');
      const status = isObject(completion.status) ? completion.status : undefined;
      if (status && status.code !== 0) ctx.fail(`the execution completed with status ${JSON.stringify(status)}`, ce);
      // A wallet tells its retries of one prepared command apart by the submission id it executed with.
      if (completion.submissionId !== body.submissionId) ctx.fail(`the prepared transaction was executed with submissionId ${String(body.submissionId)}; its completion names ${JSON.stringify(completion.submissionId)}`, ce);
      if (completion.updateId !== answer.updateId || completion.offset !== answer.completionOffset) {
        ctx.fail(`the completion names update ${JSON.stringify(completion.updateId)} at offset ${JSON.stringify(completion.offset)}; executeAndWait answered ${answer.updateId} at ${answer.completionOffset}`, ce);
      }
      if (!jsonEqual(completion.actAs, [ext.party])) ctx.fail(`the execution acted as [${ext.party}]; its completion names actAs ${JSON.stringify(completion.actAs)}`, ce);
    },
  }),
  check({
    id: 'ledger.interactive.execute-for-transaction-shape',
    title: 'executeAndWaitForTransaction answers in the transactionFormat asked: a prepared CreateAndExercise with a consuming choice shows its create and its exercise in LEDGER_EFFECTS',
    operationId: LedgerOp.executeAndWaitForTransaction,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: ExecuteSubmissionAndWaitForTransactionRequest.transaction_format; TransactionShape (LEDGER_EFFECTS: every event of the transaction the parties witness)`,
    requires: { writes: true },
    async run(ctx) {
      needInteractive(ctx);
      const ext = await externalParty(ctx);
      const prepared = await prepareCreateAndExercise(ctx, ext);
      const e = await ctx.http.request('ledger', {
        method: 'POST',
        path: '/v2/interactive-submission/executeAndWaitForTransaction',
        json: { ...executeBody(ctx, ext, prepared, signature(ext.privateKey, prepared.hash, ext.fingerprint)), transactionFormat: { eventFormat: eventFormat(ext.party), transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } },
      });
      expectStatus(ctx, e, 200, 'executeAndWaitForTransaction of a prepared CreateAndExercise');
      const tx = objectBody(ctx, e, 'executeAndWaitForTransaction').transaction;
      const events = isObject(tx) && Array.isArray(tx.events) ? tx.events : [];
      const created = events.map((ev) => eventOf(ev, 'CreatedEvent')).find((c) => c !== undefined && qualifiedName(String(c.templateId)) === qualifiedName(prepared.templateId));
      if (created === undefined) return ctx.fail(`asked for LEDGER_EFFECTS, the answer shows no CreatedEvent of ${prepared.templateId}: the command's create is missing`, e);
      const exercised = events.map((ev) => eventOf(ev, 'ExercisedEvent')).find((x) => x !== undefined && x.contractId === created.contractId);
      if (exercised === undefined) ctx.fail(`asked for LEDGER_EFFECTS, the answer shows no ExercisedEvent of ${prepared.choice} on the contract the command created (${String(created.contractId)})`, e);
    },
  }),
  check({
    id: 'ledger.interactive.execute-min-ledger-time',
    title: "An execution whose minLedgerTime lies an hour ahead (minLedgerTimeAbs) is refused, as a submission's is, and commits nothing",
    operationId: LedgerOp.executeAndWait,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: ExecuteSubmissionRequest.min_ledger_time ("will influence the chosen ledger effective time but will not result in a submission delay"); the ledger time must lie within the record time's tolerance (LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND)`,
    requires: { writes: true },
    async run(ctx) {
      needInteractive(ctx);
      const ext = await externalParty(ctx);
      const prepared = await prepare(ctx, ext);
      const ahead = new Date(Date.now() + 3_600_000).toISOString();
      const e = await ctx.http.request('ledger', {
        method: 'POST',
        path: '/v2/interactive-submission/executeAndWait',
        json: { ...executeBody(ctx, ext, prepared, signature(ext.privateKey, prepared.hash, ext.fingerprint)), minLedgerTime: { time: { MinLedgerTimeAbs: { value: ahead } } } },
      });
      const r = responseOf(e);
      if (r.status < 400 || r.status >= 500) ctx.fail(`an execution asked to run no earlier than ${ahead} (an hour ahead) got HTTP ${r.status}; expected a 4xx refusal (its ledger time is out of the record time's bounds)`, e);
      const end = await ledgerEnd(ctx);
      const acs = await activeContracts(ctx, ext.party, end.offset);
      if (acs.contracts.length > 0) ctx.fail(`the refused execution left ${acs.contracts.length} active contract(s) of ${ext.party}`, acs.exchange);
    },
  }),
];
