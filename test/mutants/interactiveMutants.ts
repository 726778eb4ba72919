import { createHash } from 'node:crypto';
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { hashPreparedTransaction } from '../../reference-server/src/ledger/interactive/preparedTransactionHash.js';
import { isObject, onBody } from './mutantKit.js';
import type { Mutant } from './mutants.js';
import { jsonResponse, parse, pathOf, type ProxyRequest } from './mutantProxy.js';

/** Mutants of interactive submission's encodings and execute-time validation. */

const isPost = (req: ProxyRequest, path: string) => req.method === 'POST' && pathOf(req.url) === path;

/** A fault rewriting the events of the transaction executeAndWaitForTransaction answers. */
const onExecutedEvents = (rewrite: (events: unknown[]) => unknown[]) =>
  onBody(/^\/v2\/interactive-submission\/executeAndWaitForTransaction$/, (v) => {
    const tx = isObject(v.transaction) ? v.transaction : undefined;
    return tx === undefined || !Array.isArray(tx.events) ? v : { ...v, transaction: { ...tx, events: rewrite(tx.events) } };
  });

export const INTERACTIVE_MUTANTS: readonly Mutant[] = [
  {
    name: 'prepared-hash-not-v2',
    description: "prepare hashes the prepared transaction's bytes (SHA-256 of the protobuf) instead of Canton's hashing scheme V2",
    caughtBy: 'ledger.interactive.prepared-transaction-hash',
    fault: {
      response(req, res) {
        if (!isPost(req, '/v2/interactive-submission/prepare') || res.status !== 200) return res;
        const v = parse(res.body);
        if (!isObject(v) || typeof v.preparedTransaction !== 'string') return res;
        const hash = createHash('sha256').update(Buffer.from(v.preparedTransaction, 'base64')).digest('base64');
        return { ...res, body: JSON.stringify({ ...v, preparedTransactionHash: hash }) };
      },
    },
  },
  {
    name: 'prepared-seeds-not-deriving-ids',
    description: "prepare shows node seeds its contract ids do not derive from (seeds of its own invention, as the reference's built-in models once had), the V2 hash recomputed so the answer is self-consistent",
    caughtBy: 'ledger.interactive.contract-ids-from-node-seeds',
    fault: onBody(/^\/v2\/interactive-submission\/prepare$/, (v) => {
      if (typeof v.preparedTransaction !== 'string') return v;
      const p = PreparedTransaction.fromBinary(Buffer.from(v.preparedTransaction, 'base64'));
      for (const s of p.transaction?.nodeSeeds ?? []) s.seed = createHash('sha256').update(`seed|${s.nodeId}|${v.preparedTransaction.slice(0, 32)}`).digest();
      const preparedTransaction = Buffer.from(PreparedTransaction.toBinary(p)).toString('base64');
      return { ...v, preparedTransaction, preparedTransactionHash: hashPreparedTransaction(p, 2).toString('base64') };
    }),
  },
  {
    name: 'execute-commits-other-ids',
    description: "executeAndWaitForTransaction answers created contracts under ids of the participant's own making, not the prepared ones the party signed",
    caughtBy: 'ledger.interactive.contract-ids-from-node-seeds',
    fault: onExecutedEvents((events) => {
      const flip = (id: string) => `${id.slice(0, 10)}${id[10] === 'a' ? 'b' : 'a'}${id.slice(11)}`;
      return events.map((e) => {
        const created = isObject(e) && isObject(e.CreatedEvent) ? e.CreatedEvent : undefined;
        return created !== undefined && typeof created.contractId === 'string' ? { CreatedEvent: { ...created, contractId: flip(created.contractId) } } : e;
      });
    }),
  },
  {
    name: 'execute-answers-without-creates',
    description: 'executeAndWaitForTransaction answers a transaction whose created events are left out, so nothing shows which ids were committed',
    caughtBy: 'ledger.interactive.contract-ids-from-node-seeds',
    fault: onExecutedEvents((events) => events.filter((e) => !(isObject(e) && isObject(e.CreatedEvent)))),
  },
  {
    name: 'execute-trusts-signer-edits',
    description: 'execute checks the signatures only: what the signer edited and signed anew (contract ids, preparation and ledger times) commits',
    caughtBy: 'ledger.interactive.edited-resigned-rejected',
    fault: {
      response(req, res) {
        if (!isPost(req, '/v2/interactive-submission/executeAndWait') || res.status !== 400) return res;
        const v = parse(res.body);
        const cause = isObject(v) && typeof v.cause === 'string' ? v.cause : '';
        return /not what its commands yield|preparation time|ledger time|ledger effective time/.test(cause) ? jsonResponse(200, { updateId: `1220${'cd'.repeat(32)}`, completionOffset: 1 }) : res;
      },
    },
  },
];
