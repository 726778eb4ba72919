import type { Mutant } from './mutants.js';
import { parse, pathOf, type Fault, type ProxyRequest, type ProxyResponse } from './mutantProxy.js';
import { cantonError, deep, is, isObject, ok200, onRequest, submittedCommands, without, type Json } from './mutantKit.js';

/**
 * A second hunt for rules clients rely on that no mutant broke yet: the allocation contexts a
 * venue settles with, the caches a wallet keeps of Scan's AmuletRules and rounds, deduplication
 * of commands the ledger rejected, the order of a transaction's events, completion offsets, the
 * WebSocket's party filter and token expiry, and lookups of unknown users.
 */

const ALLOCATION_CONTEXT = /^\/registry\/allocations\/(v1|v2)\/([^/]+)\/choice-contexts\/(execute-transfer|withdraw|cancel)$/;

/** The transaction value of an update element, or undefined. */
const transactionOf = (el: unknown): Json | undefined =>
  isObject(el) && isObject(el.update) && isObject(el.update.Transaction) && isObject(el.update.Transaction.value) ? el.update.Transaction.value : undefined;

/** A command's change id (userId, actAs as a set, commandId) as a key; undefined without a command id. */
const changeIdOf = (c: Json): string | undefined =>
  typeof c.commandId === 'string' ? JSON.stringify([c.userId ?? '', (Array.isArray(c.actAs) ? c.actAs : []).map(String).sort(), c.commandId]) : undefined;

/**
 * Command deduplication recorded at submission, not at commit: a change id (userId, actAs,
 * commandId) whose submission the ledger refused is refused as a duplicate when resubmitted.
 */
function dedupRecordsRejections(): Fault {
  const refused = new Set<string>();
  const changeId = (req: ProxyRequest): string | undefined => {
    const c = submittedCommands(req)?.commands;
    return c === undefined ? undefined : changeIdOf(c);
  };
  return {
    request(req) {
      const key = changeId(req);
      if (key !== undefined && refused.has(key)) return cantonError(409, 'DUPLICATE_COMMAND', 'A command with the given command id has already been successfully processed', 10);
      return req;
    },
    response(req, res) {
      const key = changeId(req);
      const v = parse(res.body);
      const code = isObject(v) && typeof v.code === 'string' ? v.code : undefined;
      // Refused by the ledger (not the request decoder, not as a duplicate): the change id is recorded all the same.
      const byLedger = res.status > 400 ? code !== 'DUPLICATE_COMMAND' : res.status === 400 && code !== undefined && !/INVALID_ARGUMENT|MALFORMED|INVALID_FIELD|MISSING_FIELD/.test(code);
      if (key !== undefined && byLedger) refused.add(key);
      return res;
    },
  };
}

export const HUNT2_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt2-allocation-context-discloses-nothing',
    description: "the allocation choice contexts name the AmuletRules and the open round but disclose no contract (disclosures built for transfer instructions only): the executor, no stakeholder of either, cannot execute, cancel or withdraw",
    caughtBy: 'registry.allocation.contexts-v1',
    needs: 'registry',
    fault: { response: (req, res) => (req.method === 'POST' && ALLOCATION_CONTEXT.test(pathOf(req.url)) ? ok200(res, (v) => (isObject(v) ? { ...v, disclosedContracts: [] } : v)) : res) },
  },
  {
    name: 'hunt2-allocation-v2-contexts-v1-only',
    description: 'the v2 allocation contexts (withdraw, cancel) look the id up among v1 allocations only: an allocation made by the v2 allocation factory gets 404',
    caughtBy: 'registry.cross-group.settlement-context-lets-settle-batch-succeed',
    needs: 'registry',
    fault: {
      request: async (req, upstream) => {
        const m = ALLOCATION_CONTEXT.exec(pathOf(req.url));
        if (req.method !== 'POST' || m === null || m[1] !== 'v2') return req;
        const v1 = await upstream.send({ ...req, url: req.url.replace('/allocations/v2/', '/allocations/v1/'), raw: undefined });
        return v1.status === 404 ? v1 : req;
      },
    },
  },
  {
    name: 'hunt2-amulet-rules-any-cache-omits',
    description: 'POST /v0/amulet-rules leaves the contract out whenever the caller names a cached id, stale or not: a wallet holding an archived AmuletRules never learns the new one',
    caughtBy: 'scan.amulet-rules.cached-id',
    needs: 'scan',
    fault: {
      response: (req, res) => {
        const body = parse(req.body);
        if (!is(req, 'POST', '/v0/amulet-rules') || !isObject(body) || typeof body.cached_amulet_rules_contract_id !== 'string') return res;
        return ok200(res, (v) => (isObject(v) && isObject(v.amulet_rules_update) ? { ...v, amulet_rules_update: without(v.amulet_rules_update, 'contract') } : v));
      },
    },
  },
  {
    name: 'hunt2-rounds-any-cache-omits-all',
    description: 'POST /v0/open-and-issuing-mining-rounds treats a non-empty cache as up to date: every round comes back without its contract, so a wallet caching an old round never sees the new one',
    caughtBy: 'scan.rounds.cached-ids',
    needs: 'scan',
    fault: {
      response: (req, res) => {
        const body = parse(req.body);
        const cached = isObject(body) && Array.isArray(body.cached_open_mining_round_contract_ids) && body.cached_open_mining_round_contract_ids.length > 0;
        if (!is(req, 'POST', '/v0/open-and-issuing-mining-rounds') || !cached) return res;
        const strip = (m: unknown) => (isObject(m) ? Object.fromEntries(Object.entries(m).map(([k, r]) => [k, isObject(r) ? without(r, 'contract') : r])) : m);
        return ok200(res, (v) => (isObject(v) ? { ...v, open_mining_rounds: strip(v.open_mining_rounds), issuing_mining_rounds: strip(v.issuing_mining_rounds) } : v));
      },
    },
  },
  {
    name: 'hunt2-dedup-records-rejections',
    description: 'deduplication records a change id at submission, not at commit: a command the ledger refused (a contract not found, a failed precondition) is refused as DUPLICATE_COMMAND when retried',
    caughtBy: 'ledger.dedup.rejected-not-deduplicated',
    fault: dedupRecordsRejections(),
  },
  {
    name: 'hunt2-transaction-events-reversed',
    description: "the HTTP update list serves each transaction's events in reverse node order (an index read descending): a client folding events sees an archive before the create it archives",
    caughtBy: 'ledger.updates.transaction-shape',
    fault: {
      response: (req, res) =>
        is(req, 'POST', '/v2/updates')
          ? ok200(res, (v) => (Array.isArray(v) ? v.map((el) => { const tx = transactionOf(el); return tx && Array.isArray(tx.events) && tx.events.length > 1 ? { update: { Transaction: { value: { ...tx, events: [...tx.events].reverse() } } } } : el; }) : v))
          : res,
    },
  },
  {
    name: 'hunt2-completion-offset-one-early',
    description: "completions carry the offset one before their transaction's (the offset of the ledger end the command was sequenced after): a client reading updates up to a completion's offset misses its transaction",
    caughtBy: 'ledger.ids.agree-across-apis',
    fault: {
      response: (req, res) =>
        is(req, 'POST', '/v2/commands/completions') ? ok200(res, (v) => deep(v, (x) => (typeof x.commandId === 'string' && typeof x.offset === 'number' && x.offset > 0 ? { ...x, offset: x.offset - 1 } : x))) : res,
    },
  },
  {
    name: 'hunt2-updates-begin-inclusive',
    description: 'the HTTP update list reads beginExclusive as inclusive: a client resuming from its last offset gets that update again',
    caughtBy: 'ledger.updates.ordered',
    fault: onRequest(/^\/v2\/updates$/, (v) => (typeof v.beginExclusive === 'number' && v.beginExclusive >= 1 ? { ...v, beginExclusive: v.beginExclusive - 1 } : v)),
  },
  {
    name: 'hunt2-ws-updates-for-any-party',
    description: "the /v2/updates WebSocket reads filtersByParty as filtersForAnyParty (the HTTP list keeps the party): a party's live stream shows transactions it is no stakeholder of",
    caughtBy: 'ledger.filters.updates',
    fault: {
      wsRequest(req, frame) {
        const v = parse(frame);
        if (pathOf(req.url) !== '/v2/updates' || !isObject(v)) return frame;
        return JSON.stringify(deep(v, (x) => {
          if (!isObject(x.filtersByParty)) return x;
          const first = Object.values(x.filtersByParty)[0];
          const { filtersByParty: _p, ...rest } = x;
          return { ...rest, filtersForAnyParty: isObject(first) ? first : {} };
        }));
      },
    },
  },
  {
    name: 'hunt2-unknown-user-rights-empty',
    description: 'GET /v2/users/{id}/rights of a user that does not exist answers 200 with no rights instead of 404 USER_NOT_FOUND: a provisioning client concludes the user exists',
    caughtBy: 'ledger.users.rights-model',
    fault: {
      response: (req, res) => (req.method === 'GET' && /^\/v2\/users\/[^/]+\/rights$/.test(pathOf(req.url)) && res.status === 404 ? { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rights: [] }) } : res),
    },
  },
  {
    name: 'hunt2-ws-ignores-expiry',
    description: 'the token on a WebSocket upgrade is checked for signature and scope but not expiry (HTTP checks all three): an expired token still opens live streams',
    caughtBy: 'ledger.auth.expired-token-401',
    fault: {},
    secured: 'websocket-ignores-expiry',
  },
  {
    name: 'hunt2-rights-on-reads-only',
    description: "the user's rights are checked on reads but not on command submission (the command service's authorization rule missed): a user with no right submits as any party",
    caughtBy: 'ledger.auth.no-right-403',
    fault: {},
    secured: 'rights-on-reads-only',
  },
  {
    name: 'hunt2-registry-context-cache-outlives-contract',
    description: 'the registry caches choice contexts by path and serves the cached 200 once the instruction or allocation is archived (instead of 404): a wallet keeps offering to accept a transfer that is settled',
    caughtBy: 'registry.cross-group.transfer-context-lets-accept-succeed',
    needs: 'registry',
    fault: contextCacheOutlivesContract(),
  },
  {
    name: 'hunt2-refusal-as-unavailable',
    description: 'a submission the ledger refuses for a missing contract answers 503 UNAVAILABLE (every engine error mapped to a transient one): clients retry a command that can never succeed',
    caughtBy: 'ledger.errors.not-found-not-retryable',
    fault: {
      response: (req, res) => {
        const v = parse(res.body);
        if (req.method !== 'POST' || !pathOf(req.url).startsWith('/v2/commands/submit-and-wait') || res.status !== 404 || !isObject(v)) return res;
        return cantonError(503, 'UNAVAILABLE', `The submission could not be processed: ${String(v.cause ?? '')}`, 1);
      },
    },
  },
  {
    name: 'hunt2-completions-drop-rejections',
    description: 'the completion streams (HTTP and WebSocket, both endpoints) carry successful completions only (fed from the transaction log): an async submission the ledger rejects never completes, and its client waits forever',
    caughtBy: 'ledger.async.rejection-completes',
    fault: onCompletions((c) => (isObject(c.status) && c.status.code !== 0 ? undefined : c)),
  },
  {
    name: 'hunt2-rejection-completion-status-ok',
    description: "rejected commands complete with status code 0 and the rejection's message (a status mapping that keeps the message, drops the code): a client reads the rejection as success",
    caughtBy: 'ledger.async.rejection-completes',
    fault: onCompletions((c) => (isObject(c.status) && c.status.code !== 0 ? { ...c, status: { ...c.status, code: 0 } } : c)),
  },
  {
    name: 'hunt2-scan-domain-id-of-config',
    description: "Scan names, as the synchronizer of the AmuletRules and the rounds, the decentralized synchronizer of its configuration instead of the one the contracts live on: a wallet submits to a synchronizer that does not know them",
    caughtBy: 'scan.cross-group.domain-id-connected',
    needs: 'scan',
    fault: {
      response: (req, res) =>
        req.method === 'POST' && ['/v0/amulet-rules', '/v0/open-and-issuing-mining-rounds'].includes(pathOf(req.url))
          ? ok200(res, (v) => deep(v, (x) => (typeof x.domain_id === 'string' ? { ...x, domain_id: `global-domain::1220${'d0'.repeat(32)}` } : x)))
          : res,
    },
  },
  {
    name: 'hunt2-commands-drop-disclosed-contracts',
    description: 'the JSON API drops disclosedContracts from the commands it submits and prepares (a codec that does not map the field): a wallet accepting a transfer with the registry context has the AmuletRules it cannot see',
    caughtBy: 'registry.cross-group.transfer-context-lets-accept-succeed',
    fault: onRequest(/^\/v2\/(commands\/.*|interactive-submission\/prepare)$/, (v) =>
      (isObject(v.commands) ? { ...without(v, 'disclosedContracts'), commands: without(v.commands, 'disclosedContracts') } : without(v, 'disclosedContracts'))),
  },
  {
    name: 'hunt2-dedup-act-as-ordered',
    description: 'the deduplication key takes actAs as a list, not a set: a retry listing the same parties in another order is not a duplicate, and the command is committed twice',
    caughtBy: 'ledger.dedup.duplicate-409',
    fault: dedupActAsOrdered(),
  },
  {
    name: 'hunt2-unknown-package-internal',
    description: 'a command naming a package the participant does not know answers 500 INTERNAL (the package resolver throws): clients and load balancers retry a command that can never succeed',
    caughtBy: 'ledger.errors.not-found-not-retryable',
    fault: {
      response: (req, res) => {
        const v = parse(res.body);
        if (req.method !== 'POST' || !pathOf(req.url).startsWith('/v2/commands/') || res.status !== 404 || !isObject(v) || !/PACKAGE|TEMPLATES_OR_INTERFACES/.test(String(v.code))) return res;
        return cantonError(500, 'INTERNAL', 'An error occurred. Please contact the operator and inquire about the request', 4);
      },
    },
  },
  {
    name: 'hunt2-ws-acs-at-ledger-end',
    description: 'the active-contracts WebSocket serves the snapshot at the ledger end whatever activeAtOffset asks (the HTTP form honours it): a client pairing the snapshot with updates from activeAtOffset counts later changes twice',
    caughtBy: 'ledger.acs.websocket-equals-http',
    fault: {
      async wsRequest(req, frame, upstream) {
        const v = parse(frame);
        if (pathOf(req.url) !== '/v2/state/active-contracts' || !isObject(v) || typeof v.activeAtOffset !== 'number') return frame;
        const end = parse((await upstream.send({ method: 'GET', url: '/v2/state/ledger-end', headers: {}, body: '' })).body);
        return isObject(end) && typeof end.offset === 'number' ? JSON.stringify({ ...v, activeAtOffset: end.offset }) : frame;
      },
    },
  },
];

/** Choice contexts cached by path: a later 404 (the contract archived) is answered with the cached 200. */
function contextCacheOutlivesContract(): Fault {
  const cache = new Map<string, ProxyResponse>();
  return {
    response(req, res) {
      const path = pathOf(req.url);
      if (req.method !== 'POST' || !/^\/registry\/(transfer-instruction|allocations|allocation-instruction)\/v[12]\/[^/]+\/choice-contexts\/[a-z-]+$/.test(path)) return res;
      if (res.status === 200) cache.set(path, res);
      return res.status === 404 && cache.has(path) ? cache.get(path)! : res;
    },
  };
}

const COMPLETION_PATHS = ['/v2/commands/completions', '/v2/commands/command-completions'];
/** Each completion of the completion streams (HTTP lists and WebSocket frames) through `f` (undefined drops it). */
function onCompletions(f: (c: Json) => Json | undefined): Fault {
  const element = (el: unknown): unknown[] => {
    if (!isObject(el) || !isObject(el.completionResponse) || !isObject(el.completionResponse.Completion)) return [el];
    const wrapper = el.completionResponse.Completion;
    const value = isObject(wrapper.value) ? wrapper.value : wrapper;
    const out = f(value);
    if (out === undefined) return [];
    return [{ ...el, completionResponse: { ...el.completionResponse, Completion: isObject(wrapper.value) ? { ...wrapper, value: out } : out } }];
  };
  return {
    response: (req, res) => (req.method === 'POST' && COMPLETION_PATHS.includes(pathOf(req.url)) ? ok200(res, (v) => (Array.isArray(v) ? v.flatMap(element) : v)) : res),
    wsResponse(req, frame) {
      if (!COMPLETION_PATHS.includes(pathOf(req.url))) return [frame];
      const v = parse(frame);
      return v === undefined ? [frame] : element(v).map((x) => JSON.stringify(x));
    },
  };
}

/** A change id whose actAs was seen in another order gets a fresh command id, so it commits again (a key over the actAs list as sent). */
function dedupActAsOrdered(): Fault {
  const seen = new Map<string, string>();
  return {
    request(req) {
      const submitted = submittedCommands(req);
      if (submitted === undefined) return req;
      const { body, commands: c } = submitted;
      const set = changeIdOf(c);
      if (set === undefined || !Array.isArray(c.actAs)) return req;
      const order = JSON.stringify(c.actAs);
      const first = seen.get(set);
      if (first === undefined) seen.set(set, order);
      if (first === undefined || first === order) return req;
      const renamed = { ...c, commandId: `${c.commandId}-${c.actAs.length}-reordered` };
      return { ...req, body: JSON.stringify(isObject(body.commands) ? { ...body, commands: renamed } : renamed) };
    },
  };
}
