import { createHmac } from 'node:crypto';
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { decodePreparedTransaction, hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { activeContracts, ledgerEnd } from './support/ledger.js';
import { responseOf } from './support/expect.js';
import { executeBody, externalParty, needInteractive, prepare, signature } from './ledgerInteractive.js';
import { LedgerOp, UPSTREAM_B } from './ledgerOps.js';
import type { Exchange } from '../target/exchange.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * Interactive submission as wallets verify it: the prepared transaction is Canton's protobuf and
 * its hash is Canton's scheme V2 (checked with Canton's own client tooling, core-tx-visualizer,
 * never with code of the target), and execute refuses what a signer edited and signed anew.
 */

const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });

/** The prepared transaction as Canton's tooling reads it, or a failed check. */
function decoded(ctx: CheckContext, preparedTransaction: string, exchange: Exchange): PreparedTransaction {
  try {
    return decodePreparedTransaction(preparedTransaction);
  } catch (e) {
    return ctx.fail(`preparedTransaction is not a protobuf com.daml.ledger.api.v2.interactive.PreparedTransaction (core-tx-visualizer: ${e instanceof Error ? e.message : String(e)})`, exchange);
  }
}

const YEAR_MICROS = 365n * 24n * 3600n * 1_000_000n;

/** Edits a signer could make and sign anew; a participant must refuse each (it derives these itself). */
const EDITS: readonly { what: string; edit: (p: PreparedTransaction) => boolean }[] = [
  {
    what: 'a contract id of its choosing on the created contract',
    edit: (p) => {
      for (const n of p.transaction?.nodes ?? []) {
        if (n.versionedNode.oneofKind === 'v1' && n.versionedNode.v1.nodeType.oneofKind === 'create') {
          n.versionedNode.v1.nodeType.create.contractId = `00${'ab'.repeat(32)}`;
          return true;
        }
      }
      return false;
    },
  },
  {
    what: 'a preparation time 25 years in the past',
    edit: (p) => {
      if (p.metadata === undefined) return false;
      p.metadata.preparationTime -= 25n * YEAR_MICROS;
      return true;
    },
  },
  {
    what: 'a minimum ledger effective time 1000 years ahead',
    edit: (p) => {
      if (p.metadata === undefined) return false;
      p.metadata.minLedgerEffectiveTime = p.metadata.preparationTime + 1000n * YEAR_MICROS;
      return true;
    },
  },
];

/**
 * A V1 contract id's discriminator as the Daml engine derives it (contract-id.rst; Daml's
 * `Hash.deriveContractDiscriminator`): HMAC-SHA256 keyed by the create's node seed over the
 * submission time in µs (8 bytes, big-endian), then the stakeholders as a set: their count (4
 * bytes), then each, sorted as Java sorts strings (UTF-16 code units, as JavaScript's sort), as
 * its UTF-8 length (4 bytes) and bytes. Computed here with node:crypto, not the engine's code.
 */
export function v1Discriminator(nodeSeed: Uint8Array, submissionTimeMicros: bigint, stakeholders: readonly string[]): string {
  const sorted = [...new Set(stakeholders)].sort();
  const time = Buffer.alloc(12);
  time.writeBigInt64BE(submissionTimeMicros, 0);
  time.writeInt32BE(sorted.length, 8);
  const parts = [time];
  for (const party of sorted) {
    const bytes = Buffer.from(party, 'utf8');
    const length = Buffer.alloc(4);
    length.writeInt32BE(bytes.length, 0);
    parts.push(length, bytes);
  }
  return createHmac('sha256', nodeSeed).update(Buffer.concat(parts)).digest('hex');
}

/** A V1 contract id (version byte 00, a 32-byte discriminator, any suffix): the ids contract-id.rst derives. */
const V1_ID = /^00([0-9a-f]{64})(?:[0-9a-f]{2})*$/;

export const ledgerInteractiveEncodingChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.interactive.prepared-transaction-hash',
    title: "A prepared transaction is Canton's protobuf PreparedTransaction and its hash is the V2 hash recomputed over it",
    operationId: LedgerOp.prepare,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: interactive submission, "the hash must be recomputed by the client before signing" (hashing scheme V2)`,
    requires: { writes: true },
    async run(ctx) {
      needInteractive(ctx);
      const ext = await externalParty(ctx);
      const prepared = await prepare(ctx, ext);
      if (prepared.hashingSchemeVersion !== 'HASHING_SCHEME_VERSION_V2') ctx.fail(`prepare answered hashingSchemeVersion ${prepared.hashingSchemeVersion}; expected HASHING_SCHEME_VERSION_V2`, prepared.exchange);
      const tx = decoded(ctx, prepared.preparedTransaction, prepared.exchange);
      if (tx.transaction === undefined || tx.transaction.roots.length === 0) ctx.fail('the decoded PreparedTransaction has no transaction roots', prepared.exchange);
      const actAs = tx.metadata?.submitterInfo?.actAs ?? [];
      if (!actAs.includes(ext.party)) ctx.fail(`the decoded metadata.submitterInfo.actAs is [${actAs.join(', ')}]; expected it to name ${ext.party}`, prepared.exchange);
      const recomputed = await hashPreparedTransaction(tx, 'hex');
      const answered = prepared.hash.toString('hex');
      if (recomputed !== answered) ctx.fail(`preparedTransactionHash is ${answered}; the V2 hash recomputed over the prepared transaction is ${recomputed}`, prepared.exchange);
    },
  }),
  check({
    id: 'ledger.interactive.contract-ids-from-node-seeds',
    title: "Each create of a prepared transaction has a node seed, and its V1 contract id's discriminator is HMAC-SHA256 of that seed, the preparation time and the stakeholders",
    operationId: LedgerOp.prepare,
    level: 'MUST',
    kind: 'example',
    specRef: 'Daml-LF contract-id.rst, "Contract ID Scheme V1" and "Node seeds"; the seeds are part of the prepared transaction the party signs (hashing scheme V2), and the confirming participants re-derive the ids from them',
    requires: { writes: true },
    async run(ctx) {
      needInteractive(ctx);
      const ext = await externalParty(ctx);
      const prepared = await prepare(ctx, ext);
      const tx = decoded(ctx, prepared.preparedTransaction, prepared.exchange);
      const preparationTime = tx.metadata?.preparationTime;
      if (preparationTime === undefined) return ctx.fail('the decoded PreparedTransaction has no metadata.preparationTime', prepared.exchange);
      const seeds = new Map((tx.transaction?.nodeSeeds ?? []).map((s) => [String(s.nodeId), s.seed]));
      let judged = 0;
      for (const n of tx.transaction?.nodes ?? []) {
        if (n.versionedNode.oneofKind !== 'v1' || n.versionedNode.v1.nodeType.oneofKind !== 'create') continue;
        const create = n.versionedNode.v1.nodeType.create;
        const v1 = V1_ID.exec(create.contractId);
        // Another scheme's ids (a later contract-id version) derive otherwise: not judged here.
        if (v1 === null) continue;
        const seed = seeds.get(n.nodeId);
        if (seed === undefined || seed.length !== 32) {
          return ctx.fail(`create node ${n.nodeId} (contract ${create.contractId}) has no 32-byte seed in transaction.nodeSeeds: nothing the party signs derives its contract id`, prepared.exchange);
        }
        const expected = v1Discriminator(seed, preparationTime, [...create.signatories, ...create.stakeholders]);
        if (v1[1] !== expected) {
          ctx.fail(
            `create node ${n.nodeId}: contract id ${create.contractId} has discriminator ${v1[1]}; HMAC-SHA256 of its node seed ${Buffer.from(seed).toString('hex')}, ` +
              `the preparation time ${preparationTime} µs and the stakeholders [${create.stakeholders.join(', ')}] is ${expected}`,
            prepared.exchange,
          );
        }
        judged++;
      }
      if (judged === 0) ctx.skip('the prepared transaction holds no create node with a V1 contract id (00 followed by a 32-byte discriminator)');
    },
  }),
  check({
    id: 'ledger.interactive.edited-resigned-rejected',
    title: 'Execute refuses a prepared transaction its signer edited (contract id, preparation or ledger time) and signed anew, and commits nothing',
    operationId: LedgerOp.executeAndWait,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: execute validates the prepared transaction (contract ids, ledger time bounds) instead of trusting the signer`,
    requires: { writes: true },
    async run(ctx) {
      needInteractive(ctx);
      const ext = await externalParty(ctx);
      const prepared = await prepare(ctx, ext);
      const original = decoded(ctx, prepared.preparedTransaction, prepared.exchange);
      for (const { what, edit } of EDITS) {
        const copy = PreparedTransaction.clone(original);
        if (!edit(copy)) ctx.fail(`the prepared transaction has nothing to edit for ${what}`, prepared.exchange);
        const encoded = Buffer.from(PreparedTransaction.toBinary(copy)).toString('base64');
        const hash = Buffer.from(await hashPreparedTransaction(copy, 'hex'), 'hex');
        const e = await ctx.http.request('ledger', {
          method: 'POST',
          path: '/v2/interactive-submission/executeAndWait',
          json: executeBody(ctx, ext, { preparedTransaction: encoded, hashingSchemeVersion: prepared.hashingSchemeVersion }, signature(ext.privateKey, hash, ext.fingerprint)),
        });
        const r = responseOf(e);
        if (r.status < 400 || r.status >= 500) ctx.fail(`a prepared transaction with ${what}, signed anew over its recomputed hash, got HTTP ${r.status}; expected a 4xx refusal`, e);
      }
      const end = await ledgerEnd(ctx);
      const acs = await activeContracts(ctx, ext.party, end.offset);
      if (acs.contracts.length > 0) ctx.fail(`the refused executions left ${acs.contracts.length} active contract(s) of ${ext.party}`, acs.exchange);
    },
  }),
];
