import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { hashPreparedTransaction } from '../../reference-server/src/ledger/interactive/preparedTransactionHash.js';
import type { Mutant } from './mutants.js';
import { parse, pathOf, type Fault, type ProxyRequest } from './mutantProxy.js';
import { deep, is, isObject, ok200, onBody, onRequest, type Json } from './mutantKit.js';

/**
 * An eleventh hunt: external parties and interactive submission as wallets use them (prepare,
 * sign, execute, and the reads after). No id of the reference is named: each fault learns what it
 * needs (keys, prepared transactions, submission ids) from the exchanges it sees.
 */

const PREPARE = '/v2/interactive-submission/prepare';
const EXECUTES = /^\/v2\/interactive-submission\/execute(AndWait(ForTransaction)?)?$/;

/** `v`'s preparedTransaction decoded, edited by `edit` (false: left alone) and answered with its V2 hash recomputed. */
function reprepared(v: Json, edit: (p: PreparedTransaction) => boolean): Json {
  if (typeof v.preparedTransaction !== 'string') return v;
  const p = PreparedTransaction.fromBinary(Buffer.from(v.preparedTransaction, 'base64'));
  if (!edit(p)) return v;
  return { ...v, preparedTransaction: Buffer.from(PreparedTransaction.toBinary(p)).toString('base64'), preparedTransactionHash: hashPreparedTransaction(p, 2).toString('base64') };
}

/** A hash computed as if each exercise node's chosen value were unit: right for creates, wrong for exercises. */
const exerciseBlindHash: Fault = onBody(new RegExp(`^${PREPARE}$`), (v) => {
  if (typeof v.preparedTransaction !== 'string') return v;
  const p = PreparedTransaction.fromBinary(Buffer.from(v.preparedTransaction, 'base64'));
  let exercises = 0;
  for (const n of p.transaction?.nodes ?? []) {
    if (n.versionedNode.oneofKind === 'v1' && n.versionedNode.v1.nodeType.oneofKind === 'exercise') {
      n.versionedNode.v1.nodeType.exercise.chosenValue = { sum: { oneofKind: 'unit', unit: {} } };
      exercises++;
    }
  }
  return exercises === 0 ? v : { ...v, preparedTransactionHash: hashPreparedTransaction(p, 2).toString('base64') };
});

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo: the 32 raw key bytes follow it. */
const ED25519_SPKI = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * A participant that resolves the prepared transaction from its own prepare cache by the hash a
 * party's signature covers, not from the bytes submitted: signed over one prepared transaction,
 * another submitted, the signed one commits and the answer says yes.
 */
function executesTheSignedPrepare(): Fault {
  const keys = new Map<string, KeyObject>();
  const pendingKeys = new Map<string, string>();
  const prepared = new Map<string, string>();
  const verifies = (sig: Json, hash: Buffer) => {
    const key = typeof sig.signedBy === 'string' ? keys.get(sig.signedBy) : undefined;
    return key !== undefined && typeof sig.signature === 'string' && verify(null, hash, key, Buffer.from(sig.signature, 'base64'));
  };
  return {
    request(req: ProxyRequest) {
      const body = parse(req.body);
      if (is(req, 'POST', '/v2/parties/external/generate-topology') && isObject(body) && isObject(body.publicKey) && typeof body.publicKey.keyData === 'string' && typeof body.partyHint === 'string') {
        pendingKeys.set(body.partyHint, body.publicKey.keyData);
      }
      if (req.method !== 'POST' || !EXECUTES.test(req.url.split('?')[0]!) || !isObject(body) || typeof body.preparedTransaction !== 'string') return req;
      const own = hashPreparedTransaction(PreparedTransaction.fromBinary(Buffer.from(body.preparedTransaction, 'base64')), 2);
      const sigs = JSON.stringify(body.partySignatures ?? {});
      const all: Json[] = [];
      deep(JSON.parse(sigs) as unknown, (o) => (typeof o.signedBy === 'string' ? (all.push(o), o) : o));
      if (all.length === 0 || all.some((s) => verifies(s, own))) return req;
      for (const [hash, tx] of prepared) {
        if (all.every((s) => verifies(s, Buffer.from(hash, 'base64')))) return { ...req, body: JSON.stringify({ ...body, preparedTransaction: tx }) };
      }
      return req;
    },
    response(req, res) {
      if (is(req, 'POST', '/v2/parties/external/generate-topology')) {
        return ok200(res, (v) => {
          const body = parse(req.body);
          const raw = isObject(body) && typeof body.partyHint === 'string' ? pendingKeys.get(body.partyHint) : undefined;
          if (isObject(v) && typeof v.publicKeyFingerprint === 'string' && raw !== undefined) {
            keys.set(v.publicKeyFingerprint, createPublicKey({ key: Buffer.concat([ED25519_SPKI, Buffer.from(raw, 'base64')]), format: 'der', type: 'spki' }));
          }
          return v;
        });
      }
      if (is(req, 'POST', PREPARE)) {
        return ok200(res, (v) => {
          if (isObject(v) && typeof v.preparedTransactionHash === 'string' && typeof v.preparedTransaction === 'string') prepared.set(v.preparedTransactionHash, v.preparedTransaction);
          return v;
        });
      }
      return res;
    },
  };
}

/** Completions (HTTP lists and WebSocket frames) of executed submissions without their submissionId. */
function executedCompletionsWithoutSubmissionId(): Fault {
  const executed = new Set<string>();
  const strip = (v: unknown) => deep(v, (o) => (typeof o.commandId === 'string' && typeof o.submissionId === 'string' && executed.has(o.submissionId) ? { ...o, submissionId: '' } : o));
  const completions = /^\/v2\/commands\/completions$/;
  return {
    request(req) {
      const body = parse(req.body);
      if (req.method === 'POST' && EXECUTES.test(req.url.split('?')[0]!) && isObject(body) && typeof body.submissionId === 'string') executed.add(body.submissionId);
      return req;
    },
    response: (req, res) => (completions.test(req.url.split('?')[0]!) ? ok200(res, strip) : res),
    wsResponse: (req, frame) => {
      const v = parse(frame);
      return [completions.test(req.url.split('?')[0]!) && v !== undefined ? JSON.stringify(strip(v)) : frame];
    },
  };
}

export const HUNT11_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt11-prepare-drops-disclosed-contracts',
    description: "prepare ignores the request's disclosedContracts: an external party's wallet cannot prepare a transfer's accept with the registry's context (its contracts are not the party's to see)",
    caughtBy: 'registry.cross-group.transfer-context-lets-accept-succeed',
    needs: 'registry',
    fault: {
      request(req) {
        if (req.method !== 'POST' || pathOf(req.url) !== PREPARE) return req;
        const body = parse(req.body);
        if (!isObject(body) || body.disclosedContracts === undefined) return req;
        const { disclosedContracts: _dropped, ...rest } = body;
        return { ...req, body: JSON.stringify(rest) };
      },
    },
  },
  {
    name: 'hunt11-exercise-node-hash-blind',
    description: "prepare's V2 hash leaves out an exercise node's chosen value (its encoder covers creates right): a wallet recomputing the hash of a transaction that exercises a choice finds another hash, and what the party signs does not bind the choice argument",
    caughtBy: 'ledger.interactive.prepared-transaction-hash',
    fault: exerciseBlindHash,
  },
  {
    name: 'hunt11-execute-runs-the-signed-prepare',
    description: 'execute looks the prepared transaction up by the hash the signature covers (its prepare cache), not by the bytes submitted: a signature over one prepared transaction executes it when another is submitted',
    caughtBy: 'ledger.interactive.wrong-key-rejected',
    fault: executesTheSignedPrepare(),
  },
  {
    name: 'hunt11-execute-and-wait-offset-early',
    description: "executeAndWait answers the completion offset one before the transaction's (the ledger end it was sequenced after): a wallet reading its transaction up to that offset misses it",
    caughtBy: 'ledger.interactive.execute-and-wait-completion',
    fault: onBody(/^\/v2\/interactive-submission\/executeAndWait$/, (v) => (typeof v.completionOffset === 'number' ? { ...v, completionOffset: v.completionOffset - 1 } : v)),
  },
  {
    name: 'hunt11-execute-and-wait-foreign-update-id',
    description: "executeAndWait answers an update id of its own (the command's tracking id) rather than the committed transaction's: a wallet's update-by-id of it finds nothing",
    caughtBy: 'ledger.interactive.execute-and-wait-completion',
    fault: onBody(/^\/v2\/interactive-submission\/executeAndWait$/, (v) => (typeof v.updateId === 'string' ? { ...v, updateId: `1220${[...v.updateId.slice(4)].reverse().join('')}` } : v)),
  },
  {
    name: 'hunt11-executed-completion-without-submission-id',
    description: "the completions of externally signed submissions carry no submissionId (only the command service's path sets it): a wallet telling its retries apart by submission id finds none",
    caughtBy: 'ledger.interactive.execute-and-wait-completion',
    fault: executedCompletionsWithoutSubmissionId(),
  },
  {
    name: 'hunt11-prepared-command-id-of-its-own',
    description: "prepare records a command id of its own in the prepared transaction's submitter info (hash recomputed): the execution completes under it, and a wallet waiting for its command id never sees its completion",
    caughtBy: 'ledger.interactive.prepared-transaction-hash',
    fault: onBody(new RegExp(`^${PREPARE}$`), (v) =>
      reprepared(v, (p) => {
        const s = p.metadata?.submitterInfo;
        if (s === undefined) return false;
        s.commandId = `${s.commandId}-prepared`;
        return true;
      }),
    ),
  },
  {
    name: 'hunt11-execute-for-transaction-ignores-shape',
    description: 'executeAndWaitForTransaction answers the ACS delta whatever transactionFormat asks: a wallet asking for LEDGER_EFFECTS to show the choice it exercised gets no exercised event',
    caughtBy: 'ledger.interactive.execute-for-transaction-shape',
    fault: onRequest(/^\/v2\/interactive-submission\/executeAndWaitForTransaction$/, (v) =>
      isObject(v.transactionFormat) ? { ...v, transactionFormat: { ...v.transactionFormat, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } : v,
    ),
  },
  {
    name: 'hunt11-execute-ignores-min-ledger-time',
    description: "execute drops the request's minLedgerTime: an execution asked to run no earlier than an hour ahead commits now",
    caughtBy: 'ledger.interactive.execute-min-ledger-time',
    fault: onRequest(EXECUTES, (v) => Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'minLedgerTime'))),
  },
  {
    name: 'hunt11-topology-hosts-observation-only',
    description: 'generate-topology reads localParticipantObservationOnly as set: the party is hosted with observation permission only, and no participant confirms for it',
    caughtBy: 'ledger.interactive.round-trip',
    fault: onRequest(/^\/v2\/parties\/external\/generate-topology$/, (v) => ({ ...v, localParticipantObservationOnly: true })),
  },
  {
    name: 'hunt11-stream-drops-external-hash',
    description: 'the update stream leaves externalTransactionHash out of externally signed transactions (the execute answer and update-by-id carry it): a wallet matching its history to what it signed finds no hash',
    caughtBy: 'ledger.interactive.committed-hash-is-signed-hash',
    fault: {
      response: (req, res) => (is(req, 'POST', '/v2/updates') ? ok200(res, (v) => deep(v, (o) => (typeof o.externalTransactionHash === 'string' ? Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'externalTransactionHash')) : o))) : res),
      wsResponse: (req, frame) => {
        const v = parse(frame);
        return [req.url.split('?')[0] === '/v2/updates' && v !== undefined ? JSON.stringify(deep(v, (o) => (typeof o.externalTransactionHash === 'string' ? Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'externalTransactionHash')) : o))) : frame];
      },
    },
  },
];
