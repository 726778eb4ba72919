import { randomBytes } from 'node:crypto';
import type { Mutant } from './mutants.js';
import { jsonResponse, parse, pathOf, type ProxyRequest, type ProxyResponse } from './mutantProxy.js';

/**
 * Mutants of the suite-depth checks: one per check added for an operation or a rule clients rely on. Each is a
 * fault a real implementation might have; the named check must fail against it and pass against
 * the faultless control.
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const is = (req: ProxyRequest, method: string, path: string | RegExp) => req.method === method && (typeof path === 'string' ? pathOf(req.url) === path : path.test(pathOf(req.url)));
const rewriteBody = (res: ProxyResponse, f: (v: unknown) => unknown): ProxyResponse => {
  const v = parse(res.body);
  return v === undefined || res.status !== 200 ? res : { ...res, body: JSON.stringify(f(v)) };
};
const rewriteRequest = (req: ProxyRequest, f: (v: Json) => Json): ProxyRequest => {
  const v = parse(req.body);
  return isObject(v) ? { ...req, body: JSON.stringify(f(v)) } : req;
};
/** Deep map over JSON. */
const deep = (v: unknown, f: (key: string, x: unknown) => unknown): unknown =>
  Array.isArray(v) ? v.map((x) => deep(x, f)) : isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, f(k, deep(x, f))])) : v;
/** Every identifier filter asking for less than everything becomes a wildcard (blob flag kept). */
const wildcardFilters = (v: Json): Json =>
  deep(v, (k, x) => {
    if (k !== 'identifierFilter' || !isObject(x)) return x;
    const inner = Object.values(x)[0];
    const blob = isObject(inner) && isObject(inner.value) ? inner.value.includeCreatedEventBlob === true : false;
    return { WildcardFilter: { value: { includeCreatedEventBlob: blob } } };
  }) as Json;
const REGISTRY = /^\/registry\/allocation-instruction\/v2\/[^/]+\/choice-contexts\/(accept|withdraw)$/;
const contextOf = (req: ProxyRequest, kind: 'accept' | 'withdraw') => req.method === 'POST' && REGISTRY.test(pathOf(req.url)) && pathOf(req.url).endsWith(`/${kind}`);
const withoutContextValue = (v: unknown, key: string, alsoValue: boolean): unknown => {
  if (!isObject(v) || !isObject(v.choiceContextData) || !isObject(v.choiceContextData.values) || !Array.isArray(v.disclosedContracts)) return v;
  const values = v.choiceContextData.values;
  const entry = values[key];
  const cid = isObject(entry) ? entry.value : undefined;
  const rest = alsoValue ? Object.fromEntries(Object.entries(values).filter(([k]) => k !== key)) : values;
  return { ...v, choiceContextData: { ...v.choiceContextData, values: rest }, disclosedContracts: v.disclosedContracts.filter((d) => !(isObject(d) && d.contractId === cid)) };
};

export const SUITE_DEPTH_MUTANTS: readonly Mutant[] = [
  {
    name: 'party-lookup-never-finds',
    description: 'GET /v2/parties/{party} answers an empty list for parties allocated after start-up (a stale index)',
    caughtBy: 'ledger.parties.allocate-round-trip',
    fault: { response: (req, res) => (is(req, 'GET', /^\/v2\/parties\/(?!participant-id$)[^/]+$/) ? rewriteBody(res, () => ({ partyDetails: [] })) : res) },
  },
  {
    name: 'parties-listed-twice',
    description: 'GET /v2/parties lists every party twice (the store and its cache both answer)',
    caughtBy: 'ledger.parties.list-includes-known',
    fault: { response: (req, res) => (is(req, 'GET', '/v2/parties') ? rewriteBody(res, (v) => (isObject(v) && Array.isArray(v.partyDetails) ? { ...v, partyDetails: [...v.partyDetails, ...v.partyDetails] } : v)) : res) },
  },
  {
    name: 'party-lookup-invents-parties',
    description: 'GET /v2/parties/{party} answers details for any well-formed party id, allocated or not',
    caughtBy: 'ledger.parties.get-unknown-empty',
    fault: {
      response: (req, res) => {
        if (req.method !== 'GET' || !pathOf(req.url).startsWith('/v2/parties/') || res.status !== 200) return res;
        const party = decodeURIComponent(pathOf(req.url).slice('/v2/parties/'.length));
        return rewriteBody(res, (v) => (isObject(v) && Array.isArray(v.partyDetails) && v.partyDetails.length === 0 ? { partyDetails: [{ party, isLocal: true, identityProviderId: '' }] } : v));
      },
    },
  },
  {
    name: 'participant-id-without-namespace',
    description: 'GET /v2/parties/participant-id answers the node name alone, without its namespace',
    caughtBy: 'ledger.parties.participant-id',
    fault: { response: (req, res) => (is(req, 'GET', '/v2/parties/participant-id') ? rewriteBody(res, (v) => (isObject(v) && typeof v.participantId === 'string' ? { participantId: v.participantId.split('::')[0] } : v)) : res) },
  },
  {
    name: 'create-user-drops-primary-party',
    description: 'POST /v2/users ignores the primary party of the new user',
    caughtBy: 'ledger.users.create-get-round-trip',
    fault: { request: (req) => (is(req, 'POST', '/v2/users') ? rewriteRequest(req, (v) => (isObject(v.user) ? { ...v, user: { ...v.user, primaryParty: '' } } : v)) : req) },
  },
  {
    name: 'unknown-user-200',
    description: 'GET /v2/users/{id} answers a blank user for ids that do not exist',
    caughtBy: 'ledger.users.get-unknown-404',
    fault: { response: (req, res) => (req.method === 'GET' && /^\/v2\/users\/[^/]+$/.test(pathOf(req.url)) && res.status === 404 ? jsonResponse(200, { user: { id: decodeURIComponent(pathOf(req.url).split('/')[3]!), isDeactivated: false } }) : res) },
  },
  {
    name: 'user-list-cached',
    description: 'GET /v2/users answers from a cache filled on the first call: deleted users stay listed',
    caughtBy: 'ledger.users.list-includes-created',
    fault: () => {
      let cached: string | undefined;
      return { response: (req, res) => (is(req, 'GET', '/v2/users') && res.status === 200 ? { ...res, body: (cached ??= res.body) } : res) };
    },
  },
  {
    name: 'update-user-ignores-mask',
    description: 'PATCH /v2/users/{id} applies every field of the request, whatever the update mask names',
    caughtBy: 'ledger.users.update-primary-party',
    fault: { request: (req) => (req.method === 'PATCH' && /^\/v2\/users\/[^/]+$/.test(pathOf(req.url)) ? rewriteRequest(req, (v) => ({ ...v, updateMask: { paths: ['primary_party', 'is_deactivated'], unknownFields: { fields: {} } } })) : req) },
  },
  {
    name: 'grant-echoes-request',
    description: 'granting rights answers every requested right as newly granted, held or not',
    caughtBy: 'ledger.users.rights-grant',
    fault: {
      response: (req, res) => {
        const sent = parse(req.body);
        return is(req, 'POST', /^\/v2\/users\/[^/]+\/rights$/) && isObject(sent) ? rewriteBody(res, () => ({ newlyGrantedRights: sent.rights })) : res;
      },
    },
  },
  {
    name: 'rights-list-drops-participant-wide',
    description: 'GET /v2/users/{id}/rights leaves out rights that name no party (CanReadAsAnyParty, ...)',
    caughtBy: 'ledger.users.rights-list',
    fault: {
      response: (req, res) =>
        is(req, 'GET', /^\/v2\/users\/[^/]+\/rights$/)
          ? rewriteBody(res, (v) => (isObject(v) && Array.isArray(v.rights) ? { rights: v.rights.filter((r) => JSON.stringify(r).includes('"party"')) } : v))
          : res,
    },
  },
  {
    name: 'revoke-echoes-request',
    description: 'revoking rights answers every requested right as revoked, held or not',
    caughtBy: 'ledger.users.rights-revoke',
    fault: {
      response: (req, res) => {
        const sent = parse(req.body);
        return is(req, 'PATCH', /^\/v2\/users\/[^/]+\/rights$/) && isObject(sent) ? rewriteBody(res, () => ({ newlyRevokedRights: sent.rights })) : res;
      },
    },
  },
  {
    name: 'delete-user-no-op',
    description: 'DELETE /v2/users/{id} answers 200 {} but the user and its rights stay',
    caughtBy: 'ledger.users.rights-model',
    fault: { request: (req) => (req.method === 'DELETE' && /^\/v2\/users\/cc-m[01]-/.test(pathOf(req.url)) ? jsonResponse(200, {}) : req) },
  },
  {
    name: 'authenticated-user-empty',
    description: 'GET /v2/authenticated-user answers 200 {} when there is no user to name',
    caughtBy: 'ledger.users.authenticated-user',
    fault: { response: (req, res) => (is(req, 'GET', '/v2/authenticated-user') ? jsonResponse(200, {}) : res) },
  },
  {
    name: 'completion-names-another-update',
    description: "completions carry the submission's own id where the update id belongs",
    caughtBy: 'ledger.ids.agree-across-apis',
    fault: {
      response: (req, res) =>
        is(req, 'POST', '/v2/commands/completions')
          ? rewriteBody(res, (v) => deep(v, (k, x) => (k === 'Completion' && isObject(x) && isObject(x.value) && typeof x.value.updateId === 'string' ? { value: { ...x.value, updateId: `1220${randomBytes(32).toString('hex')}` } } : x)))
          : res,
    },
  },
  {
    name: 'submit-for-transaction-echoes-arguments',
    description: 'submit-and-wait-for-transaction answers the create arguments as sent, not as the ledger stored them',
    caughtBy: 'ledger.submit-for-transaction.matches-stream',
    fault: {
      response: (req, res) => {
        const sent = parse(req.body);
        if (!is(req, 'POST', '/v2/commands/submit-and-wait-for-transaction') || !isObject(sent) || !isObject(sent.commands) || !Array.isArray(sent.commands.commands)) return res;
        const create = sent.commands.commands.find((c) => isObject(c) && isObject(c.CreateCommand)) as Json | undefined;
        if (!create) return res;
        const args = (create.CreateCommand as Json).createArguments;
        return rewriteBody(res, (v) => deep(v, (k, x) => (k === 'CreatedEvent' && isObject(x) ? { ...x, createArgument: args } : x)));
      },
    },
  },
  {
    name: 'exercise-result-dropped',
    description: 'exercised events carry no exerciseResult',
    caughtBy: 'ledger.exercise.result-and-events',
    fault: { response: (req, res) => (is(req, 'POST', '/v2/commands/submit-and-wait-for-transaction') ? rewriteBody(res, (v) => deep(v, (k, x) => (k === 'exerciseResult' ? null : x))) : res) },
  },
  {
    name: 'updates-ignore-transaction-shape',
    description: 'POST /v2/updates always answers in ACS_DELTA shape, whatever transactionShape says',
    caughtBy: 'ledger.updates.transaction-shape',
    fault: { request: (req) => (is(req, 'POST', '/v2/updates') ? { ...req, body: req.body.replace(/TRANSACTION_SHAPE_LEDGER_EFFECTS/g, 'TRANSACTION_SHAPE_ACS_DELTA') } : req) },
  },
  {
    name: 'execute-for-transaction-without-events',
    description: 'executeAndWaitForTransaction answers the transaction with no events',
    caughtBy: 'ledger.interactive.execute-and-wait-for-transaction',
    fault: { response: (req, res) => (is(req, 'POST', '/v2/interactive-submission/executeAndWaitForTransaction') ? rewriteBody(res, (v) => (isObject(v) && isObject(v.transaction) ? { transaction: { ...v.transaction, events: [] } } : v)) : res) },
  },
  {
    name: 'prepared-hash-as-hex',
    description: 'prepare answers preparedTransactionHash hex-encoded instead of base64',
    caughtBy: 'ledger.interactive.prepare-shape',
    fault: {
      response: (req, res) =>
        is(req, 'POST', '/v2/interactive-submission/prepare')
          ? rewriteBody(res, (v) => (isObject(v) && typeof v.preparedTransactionHash === 'string' ? { ...v, preparedTransactionHash: Buffer.from(v.preparedTransactionHash, 'base64').toString('hex') } : v))
          : res,
    },
  },
  {
    name: 'party-lookup-local-namespace-only',
    description: "GET /v2/parties/{party} finds only parties in the participant's own namespace (external parties are unknown)",
    caughtBy: 'ledger.parties.external-allocate',
    fault: {
      async request(req, upstream) {
        if (!is(req, 'GET', /^\/v2\/parties\/(?!participant-id$)[^/]+$/)) return req;
        const own = parse((await upstream.send({ method: 'GET', url: '/v2/parties/participant-id', headers: req.headers, body: '' })).body);
        const namespace = isObject(own) && typeof own.participantId === 'string' ? own.participantId.split('::')[1] : undefined;
        const party = decodeURIComponent(pathOf(req.url).slice('/v2/parties/'.length));
        return party.split('::')[1] === namespace ? req : jsonResponse(200, { partyDetails: [] });
      },
    },
  },
  {
    name: 'topology-multihash-random',
    description: 'generate-topology salts its topology transactions: the same hint and key give another multiHash each time',
    caughtBy: 'ledger.parties.generate-topology-deterministic',
    fault: { response: (req, res) => (is(req, 'POST', '/v2/parties/external/generate-topology') ? rewriteBody(res, (v) => (isObject(v) ? { ...v, multiHash: randomBytes(34).toString('base64') } : v)) : res) },
  },
  {
    name: 'acs-ignores-template-filters',
    description: 'active contracts treat template and interface filters as wildcards: every visible contract comes back',
    caughtBy: 'ledger.filters.active-contracts',
    fault: { request: (req) => (is(req, 'POST', '/v2/state/active-contracts') ? rewriteRequest(req, wildcardFilters) : req) },
  },
  {
    name: 'updates-ignore-template-filters',
    description: 'the HTTP update list treats template and interface filters as wildcards',
    caughtBy: 'ledger.filters.updates',
    fault: { request: (req) => (is(req, 'POST', '/v2/updates') ? rewriteRequest(req, wildcardFilters) : req) },
  },
  {
    name: 'unlabelled-values-without-verbose',
    description: 'with verbose false, records come back as lists of field values (unlabelled, as gRPC sends them)',
    caughtBy: 'ledger.acs.verbose-values',
    fault: {
      response: (req, res) => {
        const sent = parse(req.body);
        if (!is(req, 'POST', '/v2/state/active-contracts') || !isObject(sent) || !isObject(sent.eventFormat) || sent.eventFormat.verbose !== false) return res;
        return rewriteBody(res, (v) => deep(v, (k, x) => (k === 'createArgument' && isObject(x) ? Object.values(x) : x)));
      },
    },
  },
  {
    name: 'acs-reads-for-any-party',
    description: 'active contracts by party answer every contract on the participant (filtersByParty read as filtersForAnyParty)',
    caughtBy: 'ledger.visibility.stakeholders-only',
    fault: {
      request: (req) =>
        is(req, 'POST', '/v2/state/active-contracts')
          ? rewriteRequest(req, (v) => {
              const f = isObject(v.eventFormat) ? v.eventFormat : undefined;
              if (!f || !isObject(f.filtersByParty) || f.filtersForAnyParty !== undefined) return v;
              const [filters] = Object.values(f.filtersByParty);
              return { ...v, eventFormat: { filtersForAnyParty: filters ?? {}, verbose: f.verbose } };
            })
          : req,
    },
  },
  {
    name: 'synchronizer-alias-as-id',
    description: 'connected synchronizers answer the alias as the synchronizer id',
    caughtBy: 'ledger.synchronizers.connected',
    fault: {
      response: (req, res) =>
        is(req, 'GET', '/v2/state/connected-synchronizers')
          ? rewriteBody(res, (v) => (isObject(v) && Array.isArray(v.connectedSynchronizers) ? { connectedSynchronizers: v.connectedSynchronizers.map((s) => (isObject(s) ? { ...s, synchronizerId: s.synchronizerAlias } : s)) } : v))
          : res,
    },
  },
  {
    name: 'pruned-offsets-as-strings',
    description: 'latest pruned offsets come as strings (the protobuf int64 JSON mapping) instead of numbers',
    caughtBy: 'ledger.pruned-offsets.shape',
    fault: { response: (req, res) => (is(req, 'GET', '/v2/state/latest-pruned-offsets') ? rewriteBody(res, (v) => (isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)])) : v)) : res) },
  },
  {
    name: 'readyz-needs-token',
    description: 'GET /readyz sits behind the JWT check: 401 without a token',
    caughtBy: 'ledger.health.readyz',
    fault: { request: (req) => (is(req, 'GET', '/readyz') && req.headers.authorization === undefined ? jsonResponse(401, { code: 'UNAUTHENTICATED', cause: 'no token', context: {}, errorCategory: 6 }) : req) },
  },
  {
    name: 'in-flight-shown-active',
    description: 'active contracts show a contract being reassigned as still active on its source synchronizer',
    caughtBy: 'ledger.reassignment.unassign-assign',
    fault: {
      response: (req, res) =>
        is(req, 'POST', '/v2/state/active-contracts')
          ? rewriteBody(res, (v) =>
              Array.isArray(v)
                ? v.map((item) => {
                    const u = isObject(item) && isObject(item.contractEntry) && isObject(item.contractEntry.JsIncompleteUnassigned) ? item.contractEntry.JsIncompleteUnassigned : undefined;
                    if (!u) return item;
                    const source = isObject(u.unassignedEvent) ? u.unassignedEvent.source : undefined;
                    return { ...item, contractEntry: { JsActiveContract: { createdEvent: u.createdEvent, synchronizerId: source, reassignmentCounter: 0 } } };
                  })
                : v,
            )
          : res,
    },
  },
  {
    name: 'reassignment-completions-lost',
    description: 'reassignments submitted with async/submit-reassignment never show on the completion stream',
    caughtBy: 'ledger.reassignment.async-completion',
    fault: () => {
      const ids = new Set<string>();
      return {
        request(req) {
          const v = parse(req.body);
          if (is(req, 'POST', '/v2/commands/async/submit-reassignment') && isObject(v) && isObject(v.reassignmentCommands)) ids.add(String(v.reassignmentCommands.commandId));
          return req;
        },
        response: (req, res) =>
          is(req, 'POST', '/v2/commands/completions')
            ? rewriteBody(res, (v) => (Array.isArray(v) ? v.filter((x) => !ids.has(String((JSON.stringify(x).match(/"commandId":"([^"]+)"/) ?? [])[1]))) : v))
            : res,
      };
    },
  },
  {
    name: 'withdraw-context-without-blobs',
    description: "the withdraw context's disclosed contracts carry no createdEventBlob",
    caughtBy: 'registry.withdraw.context-shape',
    needs: 'registry',
    fault: { response: (req, res) => (contextOf(req, 'withdraw') ? rewriteBody(res, (v) => deep(v, (k, x) => (k === 'createdEventBlob' ? undefined : x))) : res) },
  },
  {
    name: 'withdraw-unknown-id-400',
    description: 'the withdraw context of an unknown instruction answers 400 instead of 404',
    caughtBy: 'registry.withdraw.unknown-id-404',
    needs: 'registry',
    fault: { response: (req, res) => (contextOf(req, 'withdraw') && res.status === 404 ? jsonResponse(400, { error: 'bad instruction id' }) : res) },
  },
  {
    name: 'context-names-undisclosed-contract',
    description: 'the accept context names the account map but does not disclose it',
    caughtBy: 'registry.accept.context-complete',
    needs: 'registry',
    fault: { response: (req, res) => (contextOf(req, 'accept') ? rewriteBody(res, (v) => withoutContextValue(v, 'account-map', false)) : res) },
  },
  {
    name: 'accept-context-omits-account-map',
    description: 'the accept context leaves out the account map the choice needs (neither named nor disclosed)',
    caughtBy: 'registry.accept.context-usable',
    needs: 'registry',
    fault: { response: (req, res) => (contextOf(req, 'accept') ? rewriteBody(res, (v) => withoutContextValue(v, 'account-map', true)) : res) },
  },
  {
    name: 'withdraw-context-empty',
    description: 'the withdraw context is empty: the token rules the choice needs are neither named nor disclosed',
    caughtBy: 'registry.withdraw.context-usable',
    needs: 'registry',
    fault: { response: (req, res) => (contextOf(req, 'withdraw') ? rewriteBody(res, (v) => withoutContextValue(v, 'token-rules', true)) : res) },
  },
];
