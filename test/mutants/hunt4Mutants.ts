import type { Mutant } from './mutants.js';
import { parse, pathOf, type Fault } from './mutantProxy.js';
import { deep, emptyContext, is, isObject, ok200, onBody, onRequest, without, type Json } from './mutantKit.js';

/**
 * A fourth hunt: package and template names of events, witnesses, acsDelta and interface views
 * against the read that asked for them, what a completion, a user, a party or an identity provider
 * config keeps of what it was sent with, optimistic concurrency on users, the package list, a
 * transfer's deadline, and Scan's operator among the DSO's SVs. Most are consistent faults (the
 * same rewrite on every answer and frame), so no two reads disagree: only a rule over one answer,
 * or the engine's re-interpretation, can catch them.
 */

const EVE = 'eve::1220' + 'ab'.repeat(32);

/** `f` on every JSON object of every 200 answer and every WebSocket frame the server sends. */
const everywhere = (f: (o: Json) => Json): Fault => ({
  response: (_req, res) => ok200(res, (v) => deep(v, f)),
  wsResponse: (_req, frame) => {
    const v = parse(frame);
    return [v === undefined ? frame : JSON.stringify(deep(v, f))];
  },
});

const isCreatedEvent = (o: Json) => typeof o.contractId === 'string' && 'createArgument' in o;
/** An ArchivedEvent's body: a contract id, a template and witnesses, nothing created or exercised. */
const isArchivedEvent = (o: Json) => typeof o.contractId === 'string' && typeof o.templateId === 'string' && Array.isArray(o.witnessParties) && !('createArgument' in o) && !('choice' in o);

/**
 * A package list that leaves out the packages of templates its own events name: the participant
 * lists what was uploaded, not what it knows (the packages a contract was created from included).
 */
function listsUploadsOnly(): Fault {
  const used = new Set<string>();
  const learn = (v: unknown) => deep(v, (o) => {
    if (typeof o.templateId === 'string' && /^[0-9a-f]{64}:/.test(o.templateId)) used.add(o.templateId.slice(0, 64));
    return o;
  });
  return {
    response: (req, res) => {
      if (res.status !== 200) return res;
      if (is(req, 'GET', '/v2/packages')) return ok200(res, (v) => (isObject(v) && Array.isArray(v.packageIds) ? { ...v, packageIds: v.packageIds.filter((id) => !used.has(String(id))) } : v));
      const v = parse(res.body);
      if (v !== undefined) learn(v);
      return res;
    },
  };
}

/**
 * A ledger that does not hold transfers to their deadline: a factory transfer whose executeBefore
 * has passed runs as if it had an hour left (the request's deadline moved on before it executes).
 */
const deadlineIgnored: Fault = onRequest(/^\/v2\/commands\/submit-and-wait/, (v) =>
  deep(v, (o) => (isObject(o.transfer) && typeof o.transfer.executeBefore === 'string' && Date.parse(o.transfer.executeBefore) < Date.now() ? { ...o, transfer: { ...o.transfer, executeBefore: new Date(Date.now() + 3_600_000).toISOString() } } : o)) as Json,
);

/** Choice contexts on paths matching `pattern` answered empty: no data, no disclosed contracts. */
const contextsEmptied = (pattern: RegExp): Fault => onBody(pattern, (v) => ({ ...v, ...emptyContext }));

export const HUNT4_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt4-package-name-rewritten',
    description: 'every event names another package name than its package has (the same everywhere): a client selecting templates by #package-name never finds its contracts',
    caughtBy: 'ledger.daml.own-package',
    reinterpret: 'judge.daml.package-name',
    fault: everywhere((o) => (typeof o.contractId === 'string' && typeof o.packageName === 'string' ? { ...o, packageName: `${o.packageName}-renamed` } : o)),
  },
  {
    name: 'hunt4-archived-template-renamed',
    description: 'archived events name another template than the contract was created from (the same everywhere): a client dropping the archived contract from its view of that template keeps it',
    caughtBy: 'ledger.events-by-contract-id.create-then-archive',
    judge: { invariant: 'judge.facts.reread-equal' },
    fault: everywhere((o) => (isArchivedEvent(o) ? { ...o, templateId: String(o.templateId).replace(/:[^:]+$/, ':Renamed') } : o)),
  },
  {
    name: 'hunt4-witnesses-first-only',
    description: 'events name only the first of their witnesses (the same everywhere): of two requesting stakeholders, the second never learns from the event that it is one',
    caughtBy: 'ledger.daml.own-package',
    judge: { invariant: 'judge.events.witnesses-requested' },
    fault: everywhere((o) => (isCreatedEvent(o) && Array.isArray(o.witnessParties) && o.witnessParties.length > 1 ? { ...o, witnessParties: o.witnessParties.slice(0, 1) } : o)),
  },
  {
    name: 'hunt4-witnesses-plus-other-party',
    description: 'created events name a party as witness that the read did not ask for: a client reading for one party learns of another that (it believes) saw the contract',
    caughtBy: 'ledger.visibility.stakeholders-only',
    fault: everywhere((o) => (isCreatedEvent(o) && Array.isArray(o.witnessParties) ? { ...o, witnessParties: [...o.witnessParties, EVE] } : o)),
  },
  {
    name: 'hunt4-completion-submission-id-lost',
    description: 'completions carry a submission id of their own, not the one the command was submitted with: a client cannot tell which of its retries completed',
    caughtBy: 'ledger.async.submit-then-completion',
    fault: everywhere((o) => (typeof o.commandId === 'string' && 'status' in o && typeof o.submissionId === 'string' ? { ...o, submissionId: `participant-${o.commandId}` } : o)),
  },
  {
    name: 'hunt4-user-created-active',
    description: 'POST /v2/users creates every user active, whatever isDeactivated says: a user an operator provisioned switched off can log in at once',
    caughtBy: 'ledger.users.create-get-round-trip',
    fault: onRequest(/^\/v2\/users$/, (v) => (isObject(v.user) ? { ...v, user: { ...v.user, isDeactivated: false } } : v)),
  },
  {
    name: 'hunt4-user-annotations-dropped',
    description: "POST /v2/users drops the user's metadata annotations: an application's data on its users is lost at creation",
    caughtBy: 'ledger.users.create-get-round-trip',
    fault: onRequest(/^\/v2\/users$/, (v) => (isObject(v.user) ? { ...v, user: without(v.user, 'metadata') } : v)),
  },
  {
    name: 'hunt4-party-annotations-dropped',
    description: "POST /v2/parties drops the party's localMetadata annotations: an application's data on its parties is lost at allocation",
    caughtBy: 'ledger.parties.allocate-round-trip',
    fault: onRequest(/^\/v2\/parties$/, (v) => without(v, 'localMetadata')),
  },
  {
    name: 'hunt4-packages-lists-uploads-only',
    description: 'GET /v2/packages leaves out the packages of templates its own events name: a client fetching the package of a contract it reads is told there is none',
    caughtBy: 'ledger.packages.list',
    fault: listsUploadsOnly(),
  },
  {
    name: 'hunt4-acs-delta-always-true',
    description: 'every event says acsDelta true (the same everywhere): a client tracking active contracts from a ledger-effects stream adds contracts created and archived in one transaction, and counts non-consuming exercises as archives',
    caughtBy: 'ledger.commands.create-and-exercise',
    // The engine's acsDelta (judge.daml.acs-delta) fails it before the judge's rule does (judge.test.ts proves that one).
    reinterpret: 'judge.daml.acs-delta',
    fault: everywhere((o) => (typeof o.acsDelta === 'boolean' ? { ...o, acsDelta: true } : o)),
  },
  {
    name: 'hunt4-acs-delta-always-false',
    description: 'every event says acsDelta false (the same everywhere): a client tracking active contracts from a ledger-effects stream never sees one become active',
    caughtBy: 'ledger.exercise.result-and-events',
    // The engine's acsDelta (judge.daml.acs-delta) fails it before the judge's rule does (judge.test.ts proves that one).
    reinterpret: 'judge.daml.acs-delta',
    fault: everywhere((o) => (typeof o.acsDelta === 'boolean' ? { ...o, acsDelta: false } : o)),
  },
  {
    name: 'hunt4-completion-act-as-widened',
    description: 'completions name an acting party the command did not act as: a client attributing its commands by actAs credits another party',
    caughtBy: 'ledger.async.submit-then-completion',
    fault: everywhere((o) => (typeof o.commandId === 'string' && 'status' in o && Array.isArray(o.actAs) ? { ...o, actAs: [...o.actAs, EVE] } : o)),
  },
  {
    name: 'hunt4-idp-created-active',
    description: 'POST /v2/idps creates every identity provider config active, whatever isDeactivated says: tokens of an issuer an admin meant to enable later are accepted at once',
    caughtBy: 'ledger.idp.create-get',
    fault: onRequest(/^\/v2\/idps$/, (v) => (isObject(v.identityProviderConfig) ? { ...v, identityProviderConfig: { ...v.identityProviderConfig, isDeactivated: false } } : v)),
  },
  {
    name: 'hunt4-views-of-unrequested-interface',
    description: 'created events carrying views also carry a view of an interface no filter asked for: a client rendering every view it is sent shows one it never asked for (and pays for computing it)',
    caughtBy: 'ledger.filters.active-contracts',
    judge: { invariant: 'judge.events.views-requested' },
    fault: everywhere((o) =>
      isCreatedEvent(o) && Array.isArray(o.interfaceViews) && isObject(o.interfaceViews[0])
        ? { ...o, interfaceViews: [...o.interfaceViews, { ...o.interfaceViews[0], interfaceId: String(o.interfaceViews[0].interfaceId).replace(/:[^:]+:[^:]+$/, ':Other.Module:Unasked') }] }
        : o,
    ),
  },
  {
    name: 'hunt4-user-update-version-ignored',
    description: "PATCH /v2/users/{user-id} ignores metadata.resourceVersion: of two admin tools editing one user, the later silently overwrites the earlier's change",
    caughtBy: 'ledger.users.update-resource-version',
    fault: onRequest(/^\/v2\/users\/[^/]+$/, (v) => (isObject(v.user) && isObject(v.user.metadata) ? { ...v, user: { ...v.user, metadata: { ...v.user.metadata, resourceVersion: '' } } } : v), 'PATCH'),
  },
  {
    name: 'hunt4-reject-withdraw-contexts-empty',
    description: "the reject and withdraw contexts of a pending v1 transfer are empty (the registry thinks only accept needs one): a wallet's Reject and Withdraw buttons fail on the ledger",
    caughtBy: 'registry.cross-group.transfer-contexts-let-reject-withdraw-succeed',
    fault: contextsEmptied(/^\/registry\/transfer-instruction\/v1\/[^/]+\/choice-contexts\/(reject|withdraw)$/),
  },
  {
    name: 'hunt4-reject-withdraw-contexts-empty-v2',
    description: 'the same on the v2 paths only (the v1 contexts are right): a v2 wallet cannot reject or withdraw a pending transfer',
    caughtBy: 'registry.cross-group.transfer-contexts-let-reject-withdraw-succeed',
    fault: contextsEmptied(/^\/registry\/transfer-instruction\/v2\/[^/]+\/choice-contexts\/(reject|withdraw)$/),
  },
  {
    name: 'hunt4-allocation-contexts-empty',
    description: "an allocation's execute-transfer, cancel and withdraw contexts are empty: the settlement app cannot settle or cancel, nor the sender withdraw, on the ledger",
    caughtBy: 'registry.cross-group.allocation-contexts-let-choices-succeed',
    fault: contextsEmptied(/^\/registry\/allocations\/v1\/[^/]+\/choice-contexts\/(execute-transfer|cancel|withdraw)$/),
  },
  {
    name: 'hunt4-allocation-contexts-empty-v2',
    description: "a v2 allocation's cancel and withdraw contexts are empty (v1's are right): the executors cannot cancel, nor the authorizer withdraw, on the ledger",
    caughtBy: 'registry.cross-group.allocation-contexts-let-choices-succeed',
    fault: contextsEmptied(/^\/registry\/allocations\/v2\/[^/]+\/choice-contexts\/(cancel|withdraw)$/),
  },
  {
    name: 'hunt4-allocation-reported-failed',
    description: 'AllocationFactory_Allocate answers AllocationInstructionResult_Failed for an allocation that went through: an app told its allocation failed allocates again, and locks the funds twice',
    caughtBy: 'registry.factories.ids-work-on-ledger',
    fault: onBody(/^\/v2\/commands\/submit-and-wait-for-transaction$/, (v) => deep(v, (o) => (o.tag === 'AllocationInstructionResult_Completed' ? { ...o, tag: 'AllocationInstructionResult_Failed' } : o)) as Json),
  },
  {
    name: 'hunt4-transfer-deadline-ignored',
    description: "a factory transfer runs after its executeBefore: a wallet's deadline (after which it treats the transfer as failed and may send again) is not enforced",
    caughtBy: 'registry.transfer-factory.expired-refused',
    fault: deadlineIgnored,
  },
  {
    name: 'hunt4-scan-operator-not-an-sv',
    description: "GET /v0/dso (and the scan proxy's) names as sv_party_id a party that is not an SV of the DSO it reports",
    caughtBy: 'scan.dso.consistent',
    fault: { response: (req, res) => (req.method === 'GET' && /\/v0\/(scan-proxy\/)?dso$/.test(pathOf(req.url)) ? ok200(res, (v) => (isObject(v) ? { ...v, sv_party_id: EVE } : v)) : res) },
  },
];
