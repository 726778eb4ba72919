import type { Mutant } from './mutants.js';
import { cantonError, without } from './mutantKit.js';
import { parse, pathOf, type ProxyRequest, type ProxyResponse } from './mutantProxy.js';

/**
 * Faults of Canton 3.6's additions. They run in their own bed (preview36.test.ts) against the
 * reference serving 3.6, judged as 3.6: a caught fault ends its check as `warn`, since 3.6's
 * document is a snapshot (the rule warns instead of failing until a release line has it).
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const is = (req: ProxyRequest, method: string, path: string) => req.method === method && pathOf(req.url) === path;
const rewrite = (res: ProxyResponse, f: (v: Json) => unknown): ProxyResponse => {
  const v = parse(res.body);
  return res.status === 200 && isObject(v) ? { ...res, body: JSON.stringify(f(v)) } : res;
};

export const PREVIEW36_MUTANTS: readonly Mutant[] = [
  {
    name: 'preview36-transaction-hash-missing',
    description: 'a 3.6 participant leaves transactionHash off the signed transaction (only the deprecated externalTransactionHash)',
    caughtBy: 'ledger.preview36.transaction-hash',
    line: '3.6',
    fault: {
      response: (req, res) =>
        is(req, 'POST', '/v2/interactive-submission/executeAndWaitForTransaction') ? rewrite(res, (v) => (isObject(v.transaction) ? { ...v, transaction: without(v.transaction, 'transactionHash') } : v)) : res,
    },
  },
  {
    name: 'preview36-completion-by-hash-misses-accepted',
    description: 'completion-by-hash finds the rejected completions only, never the accepted one',
    caughtBy: 'ledger.preview36.completion-by-hash',
    line: '3.6',
    fault: { response: (req, res) => (is(req, 'POST', '/v2/commands/completion-by-hash') ? rewrite(res, (v) => without(v, 'acceptedCompletion')) : res) },
  },
  {
    name: 'preview36-update-by-hash-drops-events',
    description: "update-by-hash answers the transaction without its events (the format's filters not applied as by id)",
    caughtBy: 'ledger.preview36.update-by-hash',
    line: '3.6',
    fault: {
      response: (req, res) =>
        is(req, 'POST', '/v2/updates/update-by-hash')
          ? rewrite(res, (v) => (isObject(v.update) && isObject(v.update.Transaction) && isObject(v.update.Transaction.value) ? { update: { Transaction: { value: { ...v.update.Transaction.value, events: [] } } } } : v))
          : res,
    },
  },
  {
    name: 'preview36-jwks-wrong-key',
    description: "the party JWKS serves a key other than the party's (the participant's own, say)",
    caughtBy: 'ledger.preview36.jwks',
    line: '3.6',
    fault: {
      response: (req, res) =>
        req.method === 'GET' && pathOf(req.url).startsWith('/v2/jose/jwks/')
          ? rewrite(res, (v) => ({ keys: (Array.isArray(v.keys) ? v.keys : []).map((k: unknown) => (isObject(k) ? { ...k, x: Buffer.alloc(32, 3).toString('base64url') } : k)) }))
          : res,
    },
  },
  {
    name: 'preview36-ledger-end-without-times',
    description: 'a 3.6 ledger end answers its offset only, without synchronizerTimes',
    caughtBy: 'ledger.preview36.ledger-end-synchronizer-times',
    line: '3.6',
    fault: { response: (req, res) => (is(req, 'GET', '/v2/state/ledger-end') ? rewrite(res, (v) => without(v, 'synchronizerTimes')) : res) },
  },
  {
    name: 'preview36-any-party-right-ignored',
    description: 'CanActAsAnyParty is stored but not honoured: a submission by its holder is refused for lack of CanActAs',
    caughtBy: 'ledger.preview36.can-act-as-any-party',
    line: '3.6',
    fault: {
      request: (req) => {
        const v = parse(req.body);
        return is(req, 'POST', '/v2/commands/submit-and-wait') && isObject(v) && typeof v.userId === 'string' && v.userId.startsWith('cc-any-party')
          ? cantonError(403, 'PERMISSION_DENIED', 'The user does not hold the right to act as this party', 7)
          : req;
      },
    },
    server: { http: {} },
  },
];
