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
