import type { Mutant } from './mutants.js';
import { jsonResponse, parse, pathOf, type Fault, type ProxyRequest, type ProxyResponse, type Upstream } from './mutantProxy.js';
import { cantonError, deep, isObject, submittedCommands, withJson, type Json } from './mutantKit.js';

/**
 * A twelfth hunt: a participant that executes Daml wrongly, as a Daml app team sees it over the
 * JSON Ledger API (the suite's own packages on a writable target). A proxy cannot run Daml: a
 * fault that accepts what Daml refuses answers with the last committed answer of the same
 * endpoint (the shape a client gets), or resubmits what the broken participant would have run.
 * No id of the reference is named: each fault learns what it needs from the exchanges it sees.
 */

const SUBMIT = /^\/v2\/commands\/submit-and-wait(-for-transaction|-for-transaction-tree)?$/;
const isSubmit = (req: ProxyRequest) => req.method === 'POST' && SUBMIT.test(pathOf(req.url));

/** The Canton error code of a refusal, or undefined when the answer is none. */
const codeOf = (res: ProxyResponse): string | undefined => {
  const v = res.status >= 400 ? parse(res.body) : undefined;
  return isObject(v) && typeof v.code === 'string' ? v.code : undefined;
};

/** The first command of a submission: its kind and body. */
function firstCommand(req: ProxyRequest): { kind: string; body: Json; actAs: string[]; submitted: Json; commands: Json } | undefined {
  const s = submittedCommands(req);
  const first = s !== undefined && Array.isArray(s.commands.commands) ? s.commands.commands[0] : undefined;
  const [kind, body] = isObject(first) ? Object.entries(first)[0] ?? [] : [];
  if (s === undefined || kind === undefined || !isObject(body)) return undefined;
  const actAs = Array.isArray(s.commands.actAs) ? s.commands.actAs.filter((p): p is string => typeof p === 'string') : [];
  return { kind, body, actAs, submitted: s.body, commands: s.commands };
}

/**
 * A participant that commits what Daml refused with `code` (for commands `when` takes): the answer
 * is the last committed one of the same endpoint, as a client would get for a commit.
 */
function commitsRefused(code: string, when: (command: { kind: string; body: Json }) => boolean = () => true): Fault {
  const committed = new Map<string, string>();
  return {
    response(req, res) {
      if (!isSubmit(req)) return res;
      const path = pathOf(req.url);
      if (res.status === 200) committed.set(path, res.body);
      const c = firstCommand(req);
      const last = committed.get(path);
      return codeOf(res) === code && c !== undefined && when(c) && last !== undefined ? { ...res, status: 200, body: last } : res;
    },
  };
}

/** Refusals with `code` rewritten by `f` (another code, status or category). */
function refusalRewritten(code: string, f: (error: Json) => ProxyResponse): Fault {
  return {
    response(req, res) {
      if (!isSubmit(req) || codeOf(res) !== code) return res;
      const v = parse(res.body);
      return isObject(v) ? f(v) : res;
    },
  };
}

/** The contracts a 200 answer shows consumed (a consuming exercised event). */
function consumedIn(body: string): string[] {
  const out: string[] = [];
  deep(parse(body), (o) => {
    if (o.consuming === true && typeof o.contractId === 'string' && typeof o.choice === 'string') out.push(o.contractId);
    return o;
  });
  return out;
}

/** POSTs `json` to `path` upstream with the headers of `req` (its token). */
const post = (upstream: Upstream, req: ProxyRequest, path: string, json: Json) =>
  upstream.send({ method: 'POST', url: path, headers: { ...req.headers, 'content-type': 'application/json' }, body: JSON.stringify(json) });

/** An Archive of `contractId` (template `templateId`) as `actAs`, submitted upstream. */
const archive = (upstream: Upstream, req: ProxyRequest, templateId: string, contractId: string, actAs: readonly string[], userId: unknown) =>
  post(upstream, req, '/v2/commands/submit-and-wait', {
    commands: [{ ExerciseCommand: { templateId, contractId, choice: 'Archive', choiceArgument: {} } }],
    commandId: `hunt12-archive-${Math.random().toString(36).slice(2)}`, actAs, ...(typeof userId === 'string' ? { userId } : {}),
  });

/**
 * Daml authorization taken from the contract instead of the choice: an exercise the submitters
 * may not authorize runs as the contract's signatories too (looked up as the submitters see it).
 */
function authorizesAsSignatories(): Fault {
  return {
    async request(req, upstream) {
      const c = isSubmit(req) ? firstCommand(req) : undefined;
      if (c === undefined || c.kind !== 'ExerciseCommand' || typeof c.body.contractId !== 'string') return req;
      const first = await upstream.send(req);
      if (codeOf(first) !== 'DAML_AUTHORIZATION_ERROR') return first;
      const filters = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };
      const events = parse((await post(upstream, req, '/v2/events/events-by-contract-id', { contractId: c.body.contractId, eventFormat: { filtersByParty: Object.fromEntries(c.actAs.map((p) => [p, filters])), verbose: false } })).body);
      const created = isObject(events) && isObject(events.created) && isObject(events.created.createdEvent) ? events.created.createdEvent : undefined;
      const signatories = Array.isArray(created?.signatories) ? created.signatories.filter((p): p is string => typeof p === 'string') : [];
      if (signatories.length === 0) return first;
      const commands = { ...c.commands, actAs: [...new Set([...c.actAs, ...signatories])] };
      const body = c.commands === c.submitted ? commands : { ...c.submitted, commands };
      return upstream.send({ ...req, body: JSON.stringify(body), raw: undefined });
    },
  };
}

/** A command refused with `code` still archives the contract it exercised (a partial commit of the failed choice). */
function refusedExerciseArchives(code: string): Fault {
  return {
    async request(req, upstream) {
      const c = isSubmit(req) ? firstCommand(req) : undefined;
      if (c === undefined || c.kind !== 'ExerciseCommand' || typeof c.body.contractId !== 'string' || typeof c.body.templateId !== 'string') return req;
      const res = await upstream.send(req);
      if (codeOf(res) === code) await archive(upstream, req, c.body.templateId, c.body.contractId, c.actAs, c.commands.userId);
      return res;
    },
  };
}

/** A non-consuming choice archives the contract it was exercised on, its answer as committed. */
function nonConsumingArchives(): Fault {
  return {
    async request(req, upstream) {
      const c = isSubmit(req) ? firstCommand(req) : undefined;
      if (c === undefined || c.kind !== 'ExerciseCommand' || typeof c.body.contractId !== 'string' || typeof c.body.templateId !== 'string' || c.body.choice === 'Archive') return req;
      const res = await upstream.send(req);
      let nonConsuming = false;
      if (res.status === 200) {
        deep(parse(res.body), (o) => {
          if (o.contractId === c.body.contractId && o.choice === c.body.choice && o.consuming === false) nonConsuming = true;
          return o;
        });
      }
      if (nonConsuming) await archive(upstream, req, c.body.templateId, c.body.contractId, c.actAs, c.commands.userId);
      return res;
    },
  };
}

/** An exercise of a contract the participant has answered consumed: its refusal answered as `on` makes it, given the endpoint's last committed answer. */
function archivedExercised(on: (committed: string | undefined, res: ProxyResponse) => ProxyResponse): Fault {
  const consumed = new Set<string>();
  const committed = new Map<string, string>();
  return {
    response(req, res) {
      if (!isSubmit(req)) return res;
      const path = pathOf(req.url);
      if (res.status === 200) {
        committed.set(path, res.body);
        for (const id of consumedIn(res.body)) consumed.add(id);
        return res;
      }
      const c = firstCommand(req);
      return c?.kind === 'ExerciseCommand' && typeof c.body.contractId === 'string' && consumed.has(c.body.contractId) && codeOf(res) !== undefined ? on(committed.get(path), res) : res;
    },
  };
}

/**
 * Archives reach the signatories' view only: an observer's active contracts keep every contract
 * it observed (not signed) that an answer once showed created, after its archive.
 */
function observersKeepArchived(): Fault {
  const seen = new Map<string, Json>();
  const remember = (body: string) => deep(parse(body), (o) => {
    if (typeof o.contractId === 'string' && typeof o.templateId === 'string' && Array.isArray(o.signatories) && Array.isArray(o.observers) && 'createArgument' in o) seen.set(o.contractId, o);
    return o;
  });
  return {
    response(req, res) {
      if (req.method !== 'POST' || res.status !== 200) return res;
      if (isSubmit(req)) {
        remember(res.body);
        return res;
      }
      if (pathOf(req.url) !== '/v2/state/active-contracts') return res;
      const q = parse(req.body);
      const byParty = isObject(q) && isObject(q.eventFormat) && isObject(q.eventFormat.filtersByParty) ? q.eventFormat.filtersByParty : undefined;
      const parties = byParty === undefined ? [] : Object.keys(byParty);
      if (parties.length !== 1) return res;
      const party = parties[0]!;
      const template = JSON.stringify(byParty?.[party] ?? {}).match(/"templateId":"([^"]+)"/)?.[1];
      return withJson(res, (v) => {
        if (!Array.isArray(v)) return v;
        const present = new Set<string>();
        deep(v, (o) => {
          if (typeof o.contractId === 'string') present.add(o.contractId);
          return o;
        });
        const kept = [...seen.values()].filter((c) => !present.has(String(c.contractId)) && (c.observers as unknown[]).includes(party) && !(c.signatories as unknown[]).includes(party) && (template === undefined || c.templateId === template));
        const synchronizerId = (isObject(v[0]) && isObject(v[0].contractEntry) && isObject(v[0].contractEntry.JsActiveContract) ? v[0].contractEntry.JsActiveContract.synchronizerId : undefined) ?? '';
        return [...v, ...kept.map((c) => ({ workflowId: '', contractEntry: { JsActiveContract: { createdEvent: { ...c, witnessParties: [party] }, synchronizerId, reassignmentCounter: 0 } } }))];
      });
    },
  };
}

/**
 * Packages uploaded while the participant runs are listed but not loaded into its engine: a
 * command naming a package id the list did not hold at the first request is refused PACKAGE_NOT_FOUND.
 */
function uploadsNotLoaded(): Fault {
  let loaded: Set<string> | undefined;
  return {
    async request(req, upstream) {
      if (loaded === undefined) {
        const v = parse((await upstream.send({ method: 'GET', url: '/v2/packages', headers: req.headers, body: '' })).body);
        loaded = new Set(isObject(v) && Array.isArray(v.packageIds) ? v.packageIds.filter((p): p is string => typeof p === 'string') : []);
      }
      const c = isSubmit(req) ? firstCommand(req) : undefined;
      const pkg = typeof c?.body.templateId === 'string' && !c.body.templateId.startsWith('#') ? c.body.templateId.split(':')[0]! : undefined;
      return pkg !== undefined && !loaded.has(pkg) ? cantonError(404, 'PACKAGE_NOT_FOUND', `Couldn't find package ${pkg}`, 11) : req;
    },
  };
}

const REFUSALS = 'ledger.daml.refusals';

export const HUNT12_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt12-ensure-not-enforced-on-create',
    description: "a create command whose argument breaks its template's ensure commits (the precondition's result is ignored): an app whose invariants live in ensure clauses finds contracts that break them",
    caughtBy: REFUSALS,
    fault: commitsRefused('TEMPLATE_PRECONDITION_VIOLATED', (c) => c.kind === 'CreateCommand'),
  },
  {
    name: 'hunt12-ensure-not-enforced-in-choice',
    description: "the ensure is checked for create commands only: a choice creating a contract that breaks its template's ensure commits",
    caughtBy: REFUSALS,
    fault: commitsRefused('TEMPLATE_PRECONDITION_VIOLATED', (c) => c.kind === 'ExerciseCommand'),
  },
  {
    name: 'hunt12-controllers-not-checked',
    description: "Daml authorization is taken from the contract, not the choice: an observer exercising a choice only the signatory controls runs it as the signatory",
    caughtBy: REFUSALS,
    fault: authorizesAsSignatories(),
  },
  {
    name: 'hunt12-uncaught-exception-commits',
    description: 'an exception no handler catches ends the choice, and the transaction commits as if it had returned',
    caughtBy: REFUSALS,
    fault: commitsRefused('UNHANDLED_EXCEPTION'),
  },
  {
    name: 'hunt12-archived-contract-exercisable',
    description: 'the contract store looks contracts up without their archival: an exercise of a contract consumed earlier commits again (a double spend)',
    caughtBy: REFUSALS,
    fault: archivedExercised((committed, res) => (committed === undefined ? res : { ...res, status: 200, body: committed })),
  },
  {
    name: 'hunt12-archived-contract-retryable',
    description: 'an exercise of an archived contract is refused as contention (LOCAL_VERDICT_LOCKED_CONTRACTS, 409, retryable): a client retries a command that can never succeed',
    caughtBy: REFUSALS,
    fault: archivedExercised((_committed) => cantonError(409, 'LOCAL_VERDICT_LOCKED_CONTRACTS', 'Rejected transaction is referring to locked contracts', 2)),
  },
  {
    name: 'hunt12-precondition-generic-code',
    description: "a broken ensure is refused under the generic DAML_INTERPRETATION_ERROR, not TEMPLATE_PRECONDITION_VIOLATED: a client telling invalid input from other failures by the code cannot",
    caughtBy: REFUSALS,
    fault: refusalRewritten('TEMPLATE_PRECONDITION_VIOLATED', (e) => jsonResponse(400, { ...e, code: 'DAML_INTERPRETATION_ERROR' })),
  },
  {
    name: 'hunt12-exception-as-user-error',
    description: 'an uncaught Daml exception is refused INTERPRETATION_USER_ERROR (the code of a pre-exception abort), not UNHANDLED_EXCEPTION: a client decoding the exception from the error finds none',
    caughtBy: REFUSALS,
    fault: refusalRewritten('UNHANDLED_EXCEPTION', (e) => jsonResponse(400, { ...e, code: 'INTERPRETATION_USER_ERROR', resources: [['EXCEPTION_TEXT', String(e.cause)]] })),
  },
  {
    name: 'hunt12-daml-authorization-as-permission-denied',
    description: "a choice exercised by a party that is not its controller is refused 403 PERMISSION_DENIED (the API's own authorization), not 400 DAML_AUTHORIZATION_ERROR: a client takes it for a token without the right and re-authenticates",
    caughtBy: REFUSALS,
    fault: refusalRewritten('DAML_AUTHORIZATION_ERROR', (e) => cantonError(403, 'PERMISSION_DENIED', String(e.cause), 6)),
  },
  {
    name: 'hunt12-refused-choice-still-consumes',
    description: "a consuming choice refused because its successor breaks the ensure still archives the contract (the failed choice's archive committed): the owner loses a contract to a refused command",
    caughtBy: REFUSALS,
    fault: refusedExerciseArchives('TEMPLATE_PRECONDITION_VIOLATED'),
  },
  {
    name: 'hunt12-observers-keep-archived',
    description: "archives reach the signatories' view only: an observer's active contracts keep a contract after its archive",
    caughtBy: REFUSALS,
    fault: observersKeepArchived(),
  },
  {
    name: 'hunt12-non-consuming-archives',
    description: 'a non-consuming choice archives the contract it was exercised on (its answer says non-consuming): the next exercise on it finds no contract',
    caughtBy: 'ledger.daml.own-package',
    fault: nonConsumingArchives(),
  },
  {
    name: 'hunt12-uploaded-packages-not-loaded',
    description: "a package uploaded while the participant runs is listed and vetted but not loaded into its engine: commands naming it are refused PACKAGE_NOT_FOUND until a restart",
    caughtBy: 'ledger.daml.own-package',
    fault: uploadsNotLoaded(),
  },
];
