import { createPublicKey, sign, verify, type JsonWebKey } from 'node:crypto';
import type { Exchange } from '../target/exchange.js';
import { expectCantonError, expectStatus, firstDifference, isObject, objectBody, type Json } from './support/expect.js';
import { completionsOf, createCommand, createContract, ledgerEnd, listAfter, suiteParty } from './support/ledger.js';
import { tokenFor } from './ledgerStreams.js';
import { executeBody, externalParty, needInteractive, prepare, signature, type ExternalParty } from './ledgerInteractive.js';
import { LedgerOp, UPSTREAM_B } from './ledgerOps.js';
import { needsCanton } from './support/targetVersion.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * Canton 3.6's additions (main's 3.6.0-SNAPSHOT document, a preview): the lookups by transaction
 * hash, the party JWKS, `transactionHash` on completions and transactions, the ledger end's
 * `synchronizerTimes` and the CanActAsAnyParty right. Each check runs on the 3.6 line only; while
 * 3.6's document is a snapshot, a broken rule warns instead of failing (`snapshotRule`).
 */
export const UPSTREAM_36 = `${UPSTREAM_B} (main's 3.6.0-SNAPSHOT document)`;
export const PreviewOp = {
  completionByHash: 'postV2CommandsCompletion-by-hash',
  updateByHash: 'postV2UpdatesUpdate-by-hash',
  jwks: 'getV2JoseJwks',
} as const;

const on36 = (ctx: CheckContext, what: string) => needsCanton(ctx, '3.6.0', what);

/** One signed transaction of a fresh external party, committed: its hash, transaction and exchanges. */
interface Signed {
  readonly ext: ExternalParty;
  readonly hash: string;
  readonly transaction: Json;
  readonly exchange: Exchange;
}

const acsDelta = (party: string): Json => ({ eventFormat: { filtersByParty: { [party]: {} }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' });

/** Run-wide: every check of this file looks at the same signed transaction. */
function signedTransaction(ctx: CheckContext): Promise<Signed> {
  return ctx.shared('preview36.signed', async () => {
    needInteractive(ctx);
    const ext = await externalParty(ctx);
    const prepared = await prepare(ctx, ext);
    const body = { ...executeBody(ctx, ext, prepared, signature(ext.privateKey, prepared.hash, ext.fingerprint)), transactionFormat: acsDelta(ext.party) };
    const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/interactive-submission/executeAndWaitForTransaction', json: body });
    expectStatus(ctx, e, 200, 'executing the signed transaction (executeAndWaitForTransaction)');
    const tx = objectBody(ctx, e, 'executeAndWaitForTransaction').transaction;
    if (!isObject(tx)) return ctx.fail('executeAndWaitForTransaction must answer {transaction}', e);
    return { ext, hash: prepared.hash.toString('base64'), transaction: tx, exchange: e };
  });
}

export const ledgerPreview36Checks: readonly CheckDefinition[] = [
  {
    id: 'ledger.preview36.transaction-hash',
    title: "3.6: a signed transaction and its completion carry the hash its parties signed as transactionHash; an internal submission's carry none",
    group: 'ledger',
    operationId: LedgerOp.executeAndWaitForTransaction,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_36}: JsTransaction.transactionHash and Completion.transactionHash (the hash signed by the external party; not available for internal submissions)`,
    lines: ['3.6'],
    requires: { writes: true },
    async run(ctx) {
      await on36(ctx, 'transactionHash');
      const { ext, hash, transaction, exchange } = await signedTransaction(ctx);
      ctx.setEvidence(exchange);
      if (transaction.transactionHash !== hash) ctx.fail(`the transaction's transactionHash is ${JSON.stringify(transaction.transactionHash)}, the signed hash ${hash}`, exchange);
      if (transaction.externalTransactionHash !== undefined && transaction.externalTransactionHash !== transaction.transactionHash) {
        ctx.fail(`externalTransactionHash (${String(transaction.externalTransactionHash)}) and transactionHash (${String(transaction.transactionHash)}) differ; 3.6 gives them the same value`, exchange);
      }
      // GetCompletions (3.5.7+, so on every 3.6): by party, whoever submitted.
      const { e: completions, items } = await listAfter(ctx, '/v2/commands/command-completions', { parties: [ext.party], beginExclusive: Number(transaction.offset) - 1 }, {
        what: `the completions of ${ext.party}`,
        enough: (xs) => completionsOf(xs).some((c) => c.updateId === transaction.updateId),
      });
      const mine = completionsOf(items).find((c) => c.updateId === transaction.updateId);
      if (!mine) return ctx.fail(`no completion of update ${String(transaction.updateId)} among ${ext.party}'s completions`, completions);
      if (mine.transactionHash !== hash) ctx.fail(`the completion's transactionHash is ${JSON.stringify(mine.transactionHash)}, the signed hash ${hash}`, completions);
      const internal = await createContract(ctx, await suiteParty(ctx));
      const lookup = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/update-by-id', json: { updateId: internal.updateId, updateFormat: { includeTransactions: acsDelta(await suiteParty(ctx)) } } });
      expectStatus(ctx, lookup, 200, `the internal submission's transaction ${internal.updateId}`);
      const update = objectBody(ctx, lookup, 'update-by-id').update;
      const tx = isObject(update) && isObject(update.Transaction) && isObject(update.Transaction.value) ? update.Transaction.value : undefined;
      if (tx?.transactionHash !== undefined && tx.transactionHash !== '') ctx.fail(`an internal submission's transaction carries transactionHash ${String(tx.transactionHash)}; no party signed it`, lookup);
    },
  },
  {
    id: 'ledger.preview36.completion-by-hash',
    title: '3.6: completion-by-hash answers the accepted completion of the signed transaction, and COMPLETION_NOT_FOUND for a hash nothing signed',
    group: 'ledger',
    operationId: PreviewOp.completionByHash,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_36}: POST /v2/commands/completion-by-hash (GetCompletionByHashResponse.accepted_completion; COMPLETION_NOT_FOUND when there is none)`,
    requires: { writes: true },
    async run(ctx) {
      await on36(ctx, 'POST /v2/commands/completion-by-hash');
      const { ext, hash, transaction } = await signedTransaction(ctx);
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/completion-by-hash', json: { transactionHash: hash } });
      ctx.setEvidence(e);
      expectStatus(ctx, e, 200, 'the completion of the signed transaction, by its hash');
      const accepted = objectBody(ctx, e, 'completion-by-hash').acceptedCompletion;
      if (!isObject(accepted)) return ctx.fail('completion-by-hash answered no acceptedCompletion for a transaction that committed', e);
      if (accepted.updateId !== transaction.updateId) ctx.fail(`the accepted completion names update ${String(accepted.updateId)}, the transaction is ${String(transaction.updateId)}`, e);
      if (accepted.offset !== transaction.offset) ctx.fail(`the accepted completion is at offset ${String(accepted.offset)}, the transaction at ${String(transaction.offset)}`, e);
      if (!Array.isArray(accepted.actAs) || !accepted.actAs.includes(ext.party)) ctx.fail(`the accepted completion does not act as ${ext.party}`, e);
      const unknown = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/completion-by-hash', json: { transactionHash: Buffer.alloc(32, 0x5a).toString('base64') } });
      expectStatus(ctx, unknown, 404, 'completion-by-hash for a hash nothing signed');
      expectCantonError(ctx, unknown, 'completion-by-hash for a hash nothing signed', ['COMPLETION_NOT_FOUND']);
    },
  },
  {
    id: 'ledger.preview36.update-by-hash',
    title: '3.6: update-by-hash answers what update-by-id answers for the same transaction, and UPDATE_NOT_FOUND for an unknown hash',
    group: 'ledger',
    operationId: PreviewOp.updateByHash,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_36}: POST /v2/updates/update-by-hash (an update looked up by its transaction hash; UPDATE_NOT_FOUND when there is none)`,
    requires: { writes: true },
    async run(ctx) {
      await on36(ctx, 'POST /v2/updates/update-by-hash');
      const { ext, hash, transaction } = await signedTransaction(ctx);
      const updateFormat = { includeTransactions: acsDelta(ext.party) };
      const byHash = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/update-by-hash', json: { transactionHash: hash, updateFormat } });
      ctx.setEvidence(byHash);
      expectStatus(ctx, byHash, 200, 'the signed transaction, by its hash');
      const byId = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/update-by-id', json: { updateId: transaction.updateId, updateFormat } });
      expectStatus(ctx, byId, 200, 'the signed transaction, by its update id');
      const difference = firstDifference(objectBody(ctx, byHash, 'update-by-hash'), objectBody(ctx, byId, 'update-by-id'));
      if (difference !== undefined) ctx.fail(`update-by-hash and update-by-id answer differently for the same transaction: ${difference}`, byHash);
      const unknown = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/update-by-hash', json: { transactionHash: Buffer.alloc(32, 0x5b).toString('base64'), updateFormat } });
      expectStatus(ctx, unknown, 404, 'update-by-hash for a hash nothing signed');
      expectCantonError(ctx, unknown, 'update-by-hash for a hash nothing signed', ['UPDATE_NOT_FOUND']);
    },
  },
  {
    id: 'ledger.preview36.jwks',
    title: "3.6: the party JWKS holds the key the external party's signatures verify with",
    group: 'ledger',
    operationId: PreviewOp.jwks,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_36}: GET /v2/jose/jwks/synchronizer/{synchronizer}/party/{party} (the party's public keys as a JWKS, RFC 7517)`,
    requires: { writes: true },
    async run(ctx) {
      await on36(ctx, 'GET /v2/jose/jwks/synchronizer/{synchronizer}/party/{party}');
      const { ext } = await signedTransaction(ctx);
      const e = await ctx.http.request('ledger', { method: 'GET', path: `/v2/jose/jwks/synchronizer/${encodeURIComponent(ext.synchronizerId)}/party/${encodeURIComponent(ext.party)}` });
      ctx.setEvidence(e);
      expectStatus(ctx, e, 200, `the JWKS of ${ext.party}`);
      const keys = objectBody(ctx, e, 'JWKS').keys;
      if (!Array.isArray(keys)) return ctx.fail('the JWKS has no keys array', e);
      const message = Buffer.from(ctx.unique('cc-jwks'));
      const signed = sign(null, message, ext.privateKey);
      const verifies = keys.some((k) => {
        try {
          return isObject(k) && verify(null, message, createPublicKey({ key: k as JsonWebKey, format: 'jwk' }), signed);
        } catch {
          return false;
        }
      });
      if (!verifies) ctx.fail(`none of the ${keys.length} JWKs of ${ext.party} verifies a signature by its key (fingerprint ${ext.fingerprint})`, e);
    },
  },
  {
    id: 'ledger.preview36.ledger-end-synchronizer-times',
    title: "3.6: the ledger end names a record time for each connected synchronizer, none before the last commit's",
    group: 'ledger',
    operationId: LedgerOp.ledgerEnd,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_36}: GetLedgerEndResponse.synchronizer_times (final record times observed for each synchronizer ever connected)`,
    lines: ['3.6'],
    requires: { writes: true },
    async run(ctx) {
      await on36(ctx, "the ledger end's synchronizerTimes");
      const created = await createContract(ctx, await suiteParty(ctx));
      const end = await ledgerEnd(ctx);
      ctx.setEvidence(end.exchange);
      const times = objectBody(ctx, end.exchange, 'ledger end').synchronizerTimes;
      if (!Array.isArray(times) || times.length === 0) return ctx.fail('the ledger end names no synchronizerTimes', end.exchange);
      const syncs = await ctx.http.request('ledger', { method: 'GET', path: '/v2/state/connected-synchronizers' });
      expectStatus(ctx, syncs, 200, 'connected synchronizers');
      const connected = objectBody(ctx, syncs, 'connected synchronizers').connectedSynchronizers;
      const named = new Set(times.flatMap((t) => (isObject(t) && typeof t.synchronizerId === 'string' ? [t.synchronizerId] : [])));
      for (const s of Array.isArray(connected) ? connected : []) {
        if (isObject(s) && typeof s.synchronizerId === 'string' && !named.has(s.synchronizerId)) ctx.fail(`the ledger end names no record time for the connected synchronizer ${s.synchronizerId}`, end.exchange);
      }
      const lookup = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/update-by-id', json: { updateId: created.updateId, updateFormat: { includeTransactions: acsDelta(await suiteParty(ctx)) } } });
      expectStatus(ctx, lookup, 200, `the transaction ${created.updateId}`);
      const update = objectBody(ctx, lookup, 'update-by-id').update;
      const tx = isObject(update) && isObject(update.Transaction) && isObject(update.Transaction.value) ? update.Transaction.value : undefined;
      const own = times.find((t) => isObject(t) && t.synchronizerId === tx?.synchronizerId);
      // RFC 3339 UTC timestamps of equal precision order as strings; parse to compare any.
      if (isObject(own) && typeof own.recordTime === 'string' && typeof tx?.recordTime === 'string' && Date.parse(own.recordTime) < Date.parse(tx.recordTime)) {
        ctx.fail(`the ledger end's record time on ${String(tx.synchronizerId)} (${own.recordTime}) is before the last commit's (${tx.recordTime})`, end.exchange);
      }
    },
  },
  {
    id: 'ledger.preview36.can-act-as-any-party',
    title: '3.6: the CanActAsAnyParty right can be granted, and a user holding it submits as a party it holds no other right for',
    group: 'ledger',
    operationId: LedgerOp.createUser,
    level: 'MUST',
    kind: 'auth',
    specRef: `${UPSTREAM_36}: Right.kind CanActAsAnyParty (the right to authorize commands as any party on the participant)`,
    lines: ['3.6'],
    requires: { writes: true, auth: 'signing' },
    async run(ctx) {
      await on36(ctx, 'the CanActAsAnyParty right');
      const party = await suiteParty(ctx);
      const id = ctx.unique('cc-any-party').replace(/[^a-zA-Z0-9_-]/g, '-');
      const anyParty = { kind: { CanActAsAnyParty: { value: {} } } };
      const created = await ctx.http.request('ledger', { method: 'POST', path: '/v2/users', json: { user: { id, isDeactivated: false, identityProviderId: '' }, rights: [anyParty] } });
      ctx.setEvidence(created);
      expectStatus(ctx, created, 200, `creating user ${id} with CanActAsAnyParty`);
      const rights = await ctx.http.request('ledger', { method: 'GET', path: `/v2/users/${encodeURIComponent(id)}/rights` });
      expectStatus(ctx, rights, 200, `the rights of ${id}`);
      const held = objectBody(ctx, rights, 'rights').rights;
      if (!Array.isArray(held) || !held.some((r) => firstDifference(r, anyParty) === undefined)) ctx.fail(`the rights of ${id} do not list CanActAsAnyParty`, rights);
      const token = await tokenFor(ctx, id);
      const submitted = await ctx.http.request('ledger', {
        method: 'POST',
        path: '/v2/commands/submit-and-wait',
        json: { commands: [{ CreateCommand: createCommand(ctx, party) }], commandId: ctx.unique('cc-any-party-cmd'), actAs: [party], userId: id },
        auth: { token, show: false },
      });
      ctx.setEvidence(submitted);
      expectStatus(ctx, submitted, 200, `a submission as ${party} by ${id}, who holds CanActAsAnyParty only`);
    },
  },
];
