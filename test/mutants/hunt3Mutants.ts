import type { Mutant } from './mutants.js';
import { jsonResponse, parse, pathOf, type Fault, type ProxyRequest, type ProxyResponse, type Upstream } from './mutantProxy.js';
import { deep, everywhere, is, isObject, ok200, onRequest, submittedCommands, without, type Json } from './mutantKit.js';

/**
 * A third hunt, from consistent faults (the same rewrite on every HTTP answer and WebSocket frame,
 * so no comparison between two reads can catch them): the keys of Scan's round maps, a user's
 * deactivation on lookup, reassignment counters, the user a completion names, lookups of several
 * parties, and the signature that onboards an external party.
 */


/** The reassignment counter an event or active contract carries, if any. */
const counterOf = (o: Json): number | undefined => (typeof o.reassignmentCounter === 'number' ? o.reassignmentCounter : undefined);

/** Keys of `map` moved one entry on: each key holds the next entry's round. */
function rotated(map: unknown): unknown {
  if (!isObject(map)) return map;
  const keys = Object.keys(map);
  const values = Object.values(map);
  return Object.fromEntries(keys.map((k, i) => [k, values[(i + 1) % values.length]]));
}

/**
 * External party onboarding without the key check: an allocation the participant refused for its
 * signature is answered 200 with the party generate-topology named for that key.
 */
function allocatesWithoutTheKey(): Fault {
  const partyOfKey = new Map<string, string>();
  return {
    response(req: ProxyRequest, res: ProxyResponse): ProxyResponse {
      const v = parse(res.body);
      if (is(req, 'POST', '/v2/parties/external/generate-topology') && res.status === 200 && isObject(v)) partyOfKey.set(String(v.publicKeyFingerprint), String(v.partyId));
      if (!is(req, 'POST', '/v2/parties/external/allocate') || res.status !== 400) return res;
      const body = parse(req.body);
      const signedBy = isObject(body) && Array.isArray(body.multiHashSignatures) && isObject(body.multiHashSignatures[0]) ? String(body.multiHashSignatures[0].signedBy) : '';
      const party = partyOfKey.get(signedBy);
      return party === undefined ? res : jsonResponse(200, { partyId: party });
    },
  };
}

/** An upload the participant refused with `code` answered 200 instead (the check behind it skipped). */
const refusalAsSuccess = (code: string, reason?: RegExp): Fault => ({
  response: (req, res) => {
    if (req.method !== 'POST' || !/^\/v2\/(dars|packages)$/.test(pathOf(req.url)) || res.status !== 400) return res;
    const v = parse(res.body);
    return isObject(v) && v.code === code && (reason === undefined || reason.test(JSON.stringify(v.context ?? {}))) ? jsonResponse(200, {}) : res;
  },
});

/**
 * Package selection by upload order: a command whose templates name a package by `#name` and
 * state no preference gets one for the oldest vetted version of that name (read from the vetting).
 */
async function runOldestVersion(req: ProxyRequest, upstream: Upstream): Promise<ProxyRequest> {
  const commands = submittedCommands(req);
  const name = commands === undefined ? undefined : /"templateId":"#([^:"]+):/.exec(JSON.stringify(commands.commands.commands ?? []))?.[1];
  if (commands === undefined || name === undefined || Array.isArray(commands.commands.packageIdSelectionPreference)) return req;
  const vetting = parse((await upstream.send({ method: 'POST', url: '/v2/package-vetting/list', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ packageMetadataFilter: { packageNamePrefixes: [name] } }) })).body);
  const versions = isObject(vetting) && Array.isArray(vetting.vettedPackages)
    ? vetting.vettedPackages.flatMap((v) => (isObject(v) && Array.isArray(v.packages) ? v.packages.filter(isObject) : [])).filter((p) => p.packageName === name)
    : [];
  const oldest = versions.sort((a, b) => String(a.packageVersion).localeCompare(String(b.packageVersion), undefined, { numeric: true }))[0];
  if (oldest === undefined) return req;
  const withPreference = { ...commands.commands, packageIdSelectionPreference: [oldest.packageId] };
  return { ...req, body: JSON.stringify(commands.body === commands.commands ? withPreference : { ...commands.body, commands: withPreference }) };
}

/**
 * Offset deduplication ignored: a submission whose period is a DeduplicationOffset is sent on
 * under a fresh command id, so nothing deduplicates it (and it commits again).
 */
function dedupOffsetIgnored(): (req: ProxyRequest) => ProxyRequest {
  let n = 0;
  return (req) => {
    const s = submittedCommands(req);
    if (s === undefined || !isObject(s.commands.deduplicationPeriod) || !('DeduplicationOffset' in s.commands.deduplicationPeriod)) return req;
    const fresh = { ...without(s.commands, 'deduplicationPeriod'), commandId: `${String(s.commands.commandId)}-again-${++n}` };
    return { ...req, body: JSON.stringify(s.body === s.commands ? fresh : { ...s.body, commands: fresh }) };
  };
}

export const HUNT3_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt3-issuing-round-keys-rotated',
    description: "POST /v0/open-and-issuing-mining-rounds keys issuing_mining_rounds by the wrong ids (each key holds the next round): a wallet's cache, kept by these keys, holds rounds under ids they do not have",
    caughtBy: 'scan.rounds.cached-ids',
    fault: { response: (req, res) => (is(req, 'POST', '/v0/open-and-issuing-mining-rounds') ? ok200(res, (v) => (isObject(v) ? { ...v, issuing_mining_rounds: rotated(v.issuing_mining_rounds) } : v)) : res) },
  },
  {
    name: 'hunt3-get-user-never-deactivated',
    description: 'GET /v2/users/{user-id} answers isDeactivated false whatever the user is (the list and the update answer are right): an admin tool looking a user up before reactivating it sees it active',
    caughtBy: 'ledger.users.list-includes-created',
    fault: { response: (req, res) => (req.method === 'GET' && /^\/v2\/users\/[^/]+$/.test(pathOf(req.url)) ? ok200(res, (v) => deep(v, (o) => ('isDeactivated' in o ? { ...o, isDeactivated: false } : o))) : res) },
  },
  {
    name: 'hunt3-reassignment-counter-starts-at-one',
    description: 'reassignment counters count from 1 (a created contract shows 1 in the active contracts, its first unassignment 2): a client ordering reassignments by counter takes the create for a reassigned contract',
    caughtBy: 'ledger.reassignment.unassign-assign',
    fault: everywhere((o) => (counterOf(o) !== undefined ? { ...o, reassignmentCounter: counterOf(o)! + 1 } : o)),
  },
  {
    name: 'hunt3-reassignment-counter-never-grows',
    description: 'reassignment counters stay 0 through unassignments and assignments: a client cannot tell which of two reassignments of a contract came later',
    caughtBy: 'ledger.reassignment.unassign-assign',
    fault: everywhere((o) => (counterOf(o) !== undefined ? { ...o, reassignmentCounter: 0 } : o)),
  },
  {
    name: 'hunt3-assignment-counter-one-ahead',
    description: 'an assignment (and the contract it activates) carries a counter one more than its unassignment: the two halves of one reassignment no longer pair up',
    caughtBy: 'ledger.reassignment.unassign-assign',
    fault: everywhere((o) => {
      const a = isObject(o.JsAssignmentEvent) ? o.JsAssignmentEvent : undefined;
      if (a !== undefined && typeof a.reassignmentCounter === 'number') return { ...o, JsAssignmentEvent: { ...a, reassignmentCounter: a.reassignmentCounter + 1 } };
      const c = isObject(o.JsActiveContract) ? o.JsActiveContract : undefined;
      return c !== undefined && typeof c.reassignmentCounter === 'number' && c.reassignmentCounter > 0 ? { ...o, JsActiveContract: { ...c, reassignmentCounter: c.reassignmentCounter + 1 } } : o;
    }),
  },
  {
    name: 'hunt3-completion-names-another-user',
    description: "completions carry another user than the one that submitted the command: a client matching its completions by user drops its own",
    caughtBy: 'ledger.command-completions.by-party',
    fault: everywhere((o) => (typeof o.userId === 'string' && typeof o.commandId === 'string' && 'status' in o ? { ...o, userId: 'someone-else' } : o)),
  },
  {
    name: 'hunt3-party-lookup-path-party-only',
    description: 'GET /v2/parties/{party} answers at most one party, ignoring ?parties=: a wallet looking several parties up at once learns of the first only',
    caughtBy: 'ledger.parties.get-unknown-empty',
    fault: {
      response: (req, res) =>
        req.method === 'GET' && /^\/v2\/parties\/[^/]+$/.test(pathOf(req.url)) && pathOf(req.url) !== '/v2/parties/participant-id'
          ? ok200(res, (v) => (isObject(v) && Array.isArray(v.partyDetails) ? { ...v, partyDetails: v.partyDetails.slice(0, 1) } : v))
          : res,
    },
  },
  {
    name: 'hunt3-external-allocate-any-signature',
    description: "POST /v2/parties/external/allocate does not check that the party's key signed the multiHash: anyone can onboard the party id of a key they do not hold",
    caughtBy: 'ledger.external-party.allocate-needs-the-key',
    fault: allocatesWithoutTheKey(),
  },
  {
    name: 'hunt3-create-and-exercise-creates-only',
    description: 'CreateAndExerciseCommand runs its create and drops the exercise: the command succeeds, the choice never happens',
    caughtBy: 'ledger.commands.create-and-exercise',
    fault: onRequest(/^\/v2\/commands\//, (v) =>
      deep(v, (o) => (isObject(o.CreateAndExerciseCommand) ? { CreateCommand: { templateId: o.CreateAndExerciseCommand.templateId, createArguments: o.CreateAndExerciseCommand.createArguments } } : o)) as Json,
    ),
  },
  {
    name: 'hunt3-acs-delta-keeps-transient-contracts',
    description: 'update-by-id serves ACS_DELTA with the events of LEDGER_EFFECTS: a contract created and consumed in the same transaction shows as created, so an ACS kept from the deltas holds a contract that never was active',
    caughtBy: 'ledger.commands.create-and-exercise',
    fault: onRequest(/^\/v2\/updates\/update-by-id$/, (v) => deep(v, (o) => (o.transactionShape === 'TRANSACTION_SHAPE_ACS_DELTA' ? { ...o, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } : o)) as Json),
  },
  {
    name: 'hunt3-prepare-ignores-the-amount',
    description: "prepare builds the create with another amount than the command's (a default where it should read the argument): the party signs the hash of what was prepared, and the participant commits it",
    caughtBy: 'ledger.interactive.execute-and-wait-for-transaction',
    reinterpret: 'judge.daml.payload',
    fault: onRequest(/^\/v2\/interactive-submission\/prepare$/, (v) =>
      deep(v, (o) => (isObject(o.createArguments) && typeof o.createArguments.amount === 'string' ? { ...o, createArguments: { ...o.createArguments, amount: '11.0' } } : o)) as Json,
    ),
  },
  {
    name: 'upgrade-check-skipped',
    description: 'a vetting change that puts a version beside one it does not upgrade (a template field dropped) is answered 200: the lineage check skipped, so contracts of the old version meet code that cannot read them',
    caughtBy: 'ledger.packages.upgrade-incompatible-refused',
    fault: refusalAsSuccess('NOT_VALID_UPGRADE_PACKAGE'),
  },
  {
    name: 'hunt3-package-version-clash-accepted',
    description: 'an upload whose package takes the name and version of another already uploaded is answered 200 (the clash check skipped): two packages under one name and version, and package selection picks either',
    caughtBy: 'ledger.packages.same-name-and-version-refused',
    fault: refusalAsSuccess('KNOWN_PACKAGE_VERSION'),
  },
  {
    name: 'hunt3-upload-skips-type-checking',
    description: 'uploads are not type-checked: a DAR whose package does not type-check is answered 200 (its code fails only when a command runs it, for every client after)',
    caughtBy: 'ledger.packages.invalid-package-refused',
    fault: refusalAsSuccess('DAR_VALIDATION_ERROR'),
  },
  {
    name: 'upload-accepts-non-exhaustive-case',
    description: "the upload check does not require exhaustive cases (daml-lf-2.rst): a package with a case on a Bool that has no False alternative is answered 200, and a command reaching it fails at run time",
    caughtBy: 'ledger.packages.invalid-package-refused',
    fault: refusalAsSuccess('DAR_VALIDATION_ERROR', /non-exhaustive/),
  },
  {
    name: 'upload-builtins-untyped-at-their-types',
    description: 'the upload check types polymorphic builtins without their type arguments: LESS @Int64 of an Int64 and a Text is answered 200',
    caughtBy: 'ledger.packages.invalid-package-refused',
    fault: refusalAsSuccess('DAR_VALIDATION_ERROR', /LESS/),
  },
  {
    name: 'upload-type-variables-agree-with-anything',
    description: 'the upload check lets a type variable stand for any type inside polymorphic code: /\\a. \\x:a. ADD_INT64 x 1 is answered 200, and a command reaching it with a Text crashes the engine',
    caughtBy: 'ledger.packages.invalid-package-refused',
    fault: refusalAsSuccess('DAR_VALIDATION_ERROR', /expected Int64, found a\b/),
  },
  {
    name: 'upload-dictionaries-untyped',
    description: 'the upload check does not type structs or expand synonyms: a type class dictionary whose method has another type than its class says is answered 200',
    caughtBy: 'ledger.packages.invalid-package-refused',
    fault: refusalAsSuccess('DAR_VALIDATION_ERROR', /expected Sized, found ⟨size: Text⟩/),
  },
  {
    name: 'upload-serializability-unchecked',
    description: 'the upload check does not require serializable types: a record marked serializable with a function field is answered 200, and a contract holding a function cannot be stored',
    caughtBy: 'ledger.packages.invalid-package-refused',
    fault: refusalAsSuccess('DAR_VALIDATION_ERROR', /function type/),
  },
  {
    name: 'upload-numeric-scales-unchecked',
    description: "the upload check ignores Numeric scales: ADD_NUMERIC @10 of a Numeric 10 and a Numeric 2 is answered 200",
    caughtBy: 'ledger.packages.invalid-package-refused',
    fault: refusalAsSuccess('DAR_VALIDATION_ERROR', /expected Numeric 10, found Numeric 2/),
  },
  {
    name: 'hunt3-upload-skips-self-consistency',
    description: 'uploads are not checked for missing dependencies: a DAR naming a package it does not carry is answered 200',
    caughtBy: 'ledger.packages.invalid-package-refused',
    fault: refusalAsSuccess('DAR_NOT_SELF_CONSISTENT'),
  },
  {
    name: 'hunt3-read-as-ignored',
    description: "commands' readAs is ignored (only actAs parties' contracts are visible to the command): an app reading reference data as the public party gets CONTRACT_NOT_FOUND",
    caughtBy: 'ledger.commands.read-as',
    fault: onRequest(/^\/v2\/commands\//, (v) => deep(v, (o) => (Array.isArray(o.readAs) && Array.isArray(o.actAs) ? { ...o, readAs: [] } : o)) as Json),
  },
  {
    name: 'hunt3-package-preference-ignored',
    description: "commands' packageIdSelectionPreference is ignored: an app pinned to a version of its package runs the newest one",
    caughtBy: 'ledger.commands.package-selection',
    fault: onRequest(/^\/v2\/commands\//, (v) => deep(v, (o) => (Array.isArray(o.packageIdSelectionPreference) ? without(o, 'packageIdSelectionPreference') : o)) as Json),
  },
  {
    name: 'hunt3-package-name-runs-oldest',
    description: 'a command naming its template by package name runs the oldest vetted version of that name (the first uploaded), not the highest',
    caughtBy: 'ledger.commands.package-selection',
    fault: { request: runOldestVersion },
  },
  {
    name: 'hunt3-dedup-offset-ignored',
    description: 'a deduplication period given as an offset deduplicates nothing (only durations are honoured): a client resubmitting with the offset it last saw commits twice',
    caughtBy: 'ledger.dedup.duplicate-409',
    fault: { request: dedupOffsetIgnored() },
  },
  {
    name: 'hunt3-created-at-one-second-late',
    description: "every created event carries a createdAt one second after its transaction's effectiveAt (the time taken at commit, not at interpretation), the same wherever it is read",
    caughtBy: 'ledger.submit.visible-in-acs',
    judge: { invariant: 'judge.events.created-at' },
    fault: everywhere((o) => (typeof o.createdAt === 'string' && typeof o.contractId === 'string' && Array.isArray(o.signatories) ? { ...o, createdAt: new Date(Date.parse(o.createdAt) + 1000).toISOString() } : o)),
  },
  {
    name: 'hunt3-total-supply-negative',
    description: "the instruments' totalSupply is the negated sum (burns counted as holdings), the same in the list and the lookup",
    caughtBy: 'registry.metadata.instrument-list',
    fault: { response: (req, res) => (req.method === 'GET' && /^\/registry\/metadata\/v1\/instruments(\/[^/]+)?$/.test(pathOf(req.url)) ? ok200(res, (v) => deep(v, (o) => (typeof o.totalSupply === 'string' && o.totalSupply !== '0' ? { ...o, totalSupply: `-${o.totalSupply}` } : o))) : res) },
  },
  {
    name: 'hunt3-vetting-bounds-ignored',
    description: "vetting updates drop newValidFromInclusive and newValidUntilExclusive: an upgrade an operator scheduled for later is vetted, and run, at once",
    caughtBy: 'ledger.commands.package-selection',
    fault: onRequest(/^\/v2\/package-vetting(\/update)?$/, (v) => deep(v, (o) => without(without(o, 'newValidFromInclusive'), 'newValidUntilExclusive')) as Json),
  },
  {
    name: 'hunt3-featured-app-right-of-another-provider',
    description: "Scan's featured-apps lookup answers the right with another provider in its payload (an index keyed by the DSO, not the provider)",
    caughtBy: 'scan.cross-group.featured-app-right-found',
    fault: { response: (req, res) => (req.method === 'GET' && /^\/v0\/featured-apps\//.test(pathOf(req.url)) ? ok200(res, (v) => deep(v, (o) => (isObject(o.payload) && typeof o.payload.provider === 'string' ? { ...o, payload: { ...o.payload, provider: `other::1220${'ef'.repeat(32)}` } } : o))) : res) },
  },
  {
    name: 'hunt3-featured-app-rights-never-found',
    description: "Scan's featured-apps lookup never finds a right created after Scan started (a cache filled once)",
    caughtBy: 'scan.cross-group.featured-app-right-found',
    fault: { response: (req, res) => (req.method === 'GET' && /^\/v0\/featured-apps\//.test(pathOf(req.url)) ? ok200(res, (v) => (isObject(v) ? without(v, 'featured_app_right') : v)) : res) },
  },
];
