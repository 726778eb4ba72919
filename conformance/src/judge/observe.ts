import { canonicalDamlJson } from '../checks/support/values.js';
import { DEFINITIVE_CODES, HTTP_OF_CODE, HTTP_OF_GRPC, RETRYABLE_CATEGORIES, VARIABLE_CATEGORY_CODES } from './errorRules.js';
import type { InvariantId } from './invariants.js';
import { canonical, type Observation, type TargetModel, type Violation } from './targetModel.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** One answer of the target as the judge sees it. */
export interface Answer {
  readonly method: string;
  readonly path: string;
  readonly request: unknown;
  /** HTTP status (101 for a stream). */
  readonly status: number;
  /** The parsed body, or a stream's frames as an array. */
  readonly body: unknown;
  readonly stream?: { readonly ended: string; readonly cut: boolean; readonly closeCode?: number };
}

/** Judges one answer against the model and records what it shows. */
export function observe(model: TargetModel, a: Answer, seen: Observation, startTick: number): Violation[] {
  const out: Violation[] = [];
  const ok = (a.status >= 200 && a.status < 300) || a.status === 101;
  if (a.stream) out.push(...judgeStreamEnd(a, seen));
  const frames = a.stream ? (Array.isArray(a.body) ? a.body : []) : [a.body];
  for (const f of frames) out.push(...judgeErrors(model, f, a.stream ? undefined : a.status, seen));
  if (!ok) return out;
  const write = ok && a.method !== 'GET' && !a.stream && isWrite(a.method, a.path);
  const obs: Observation = write ? { ...seen, write: true } : seen;
  if (write) out.push(...recordWrite(model, a, obs, startTick));
  // A write's own answer is judged against what it wrote (it must show the write).
  const judgedFrom = write ? model.tick() : startTick;
  // The filters of a read of events decide their witnesses, views and acsDelta.
  const scope = readScope(a);
  for (const f of frames) {
    walk(f, (o) => {
      out.push(...readObject(model, o, a.path, obs, judgedFrom));
      if (scope !== undefined) out.push(...judgeWitnesses(model, o, scope, a.path, obs), ...judgeViews(o, scope, a.path, obs));
      out.push(...judgeAcsDelta(o, scope?.acsDelta === true, a.path, obs));
      out.push(...judgeLifecycle(model, o, obs));
    });
  }
  out.push(...judgeActiveContracts(model, a, obs));
  if (a.method === 'GET' && /^\/v2\/users\/[^/]+\/rights$/.test(a.path) && isObject(a.body) && Array.isArray(a.body.rights)) {
    const user = decodeURIComponent(a.path.split('/')[3]!);
    if (model.owns('user', user) && model.get('rights', user) !== undefined) out.push(...model.read('rights', user, { rights: rightsSet(a.body.rights) }, obs, startTick));
    const listed = new Set(rightsSet(a.body.rights));
    for (const key of model.keysOf('right', `${user} `)) out.push(...model.read('right', key, { present: listed.has(key.slice(user.length + 1)) }, obs, startTick));
  }
  return out;
}

const WRITES = /^\/v2\/(commands\/submit-and-wait|interactive-submission\/execute-and-wait|users|parties|idps)/;
const isWrite = (method: string, path: string) => WRITES.test(path) && !path.endsWith('/parties/external/generate-topology') && method !== 'GET';

function walk(v: unknown, f: (o: Json) => void): void {
  if (Array.isArray(v)) for (const x of v) walk(x, f);
  else if (isObject(v)) {
    f(v);
    for (const x of Object.values(v)) walk(x, f);
  }
}

/** Timestamps compare as instants written the same way: trailing zeros of the fraction do not count. */
const time = (v: unknown) => (typeof v === 'string' ? v.replace(/(\.\d*?)0+(Z|[+-]\d{2}:\d{2})$/, '$1$2').replace(/\.(Z|[+-])/, '$1') : undefined);
const sorted = (v: unknown) => (Array.isArray(v) ? [...v].map(String).sort() : undefined);
const rightsSet = (rights: unknown[]) => rights.map((r) => canonical(r)).sort();

const APP_PATH = /^\/(v0|api\/scan|registry)\//;
const appOrSame = (seen: Observation) => (first: Observation): InvariantId =>
  APP_PATH.test(first.where.split(' ')[1] ?? '') || APP_PATH.test(seen.where.split(' ')[1] ?? '') ? 'judge.payloads.unchanged' : 'judge.facts.reread-equal';
const writeOrSame = (seen: Observation) => (first: Observation): InvariantId => (first.write === true || seen.write === true ? 'judge.writes.answer-is-committed' : 'judge.facts.reread-equal');

function readObject(model: TargetModel, o: Json, path: string, seen: Observation, startTick: number): Violation[] {
  const out: Violation[] = [];
  // A created event (ledger), a Scan contract, a disclosed contract (registry, Scan).
  const cid = str(o.contractId) ?? str(o.contract_id);
  if (cid !== undefined) {
    if (str(o.createdAt) !== undefined) {
      out.push(
        ...model.read('contract', cid, {
          templateId: str(o.templateId)?.startsWith('#') ? undefined : o.templateId,
          templateName: templateNameOf(o.templateId),
          packageName: o.packageName,
          createArgument: o.createArgument === undefined ? undefined : canonicalDamlJson(o.createArgument),
          contractKey: o.contractKey === undefined || o.contractKey === null ? undefined : canonicalDamlJson(o.contractKey),
          signatories: sorted(o.signatories),
          observers: sorted(o.observers),
          createdAt: time(o.createdAt),
          createdEventBlob: str(o.createdEventBlob),
        }, seen, startTick, appOrSame(seen)),
      );
      out.push(...partiesComputed(o, seen));
      // The transaction at the event's offset has that ledger time (an assignment's event, at a
      // reassignment's offset, has no transaction there to differ from).
      if (typeof o.offset === 'number') out.push(...model.read('ledger-time', String(o.offset), { effectiveAt: time(o.createdAt) }, seen, startTick, () => 'judge.events.created-at'));
    } else if (str(o.created_at) !== undefined && o.payload !== undefined) {
      out.push(...model.read('contract', cid, { templateId: o.template_id, templateName: templateNameOf(o.template_id), createArgument: canonicalDamlJson(o.payload), createdAt: time(o.created_at), createdEventBlob: str(o.created_event_blob) }, seen, startTick, appOrSame(seen)));
    } else if (str(o.createdEventBlob) !== undefined && str(o.templateId) !== undefined && APP_PATH.test(path)) {
      out.push(...model.read('contract', cid, { templateId: str(o.templateId)!.startsWith('#') ? undefined : o.templateId, templateName: templateNameOf(o.templateId), createdEventBlob: o.createdEventBlob }, seen, startTick, appOrSame(seen)));
    }
  }
  // An exercised event (ledger effects), keyed by its update's offset and its node id: every face shows the same exercise.
  if (typeof o.choice === 'string' && Array.isArray(o.actingParties) && typeof o.offset === 'number' && typeof o.nodeId === 'number' && cid !== undefined) {
    out.push(...model.read('exercise', `${o.offset}:${o.nodeId}`, { contractId: cid, choice: o.choice, consuming: o.consuming, actingParties: sorted(o.actingParties) }, seen, startTick, writeOrSame(seen)));
  }
  // An archive (a transaction's event, events-by-contract-id's `archived`): the contract is inactive from this offset on.
  const archived = isObject(o.ArchivedEvent) ? o.ArchivedEvent : isObject(o.archivedEvent) ? o.archivedEvent : isObject(o.ExercisedEvent) && o.ExercisedEvent.consuming === true ? o.ExercisedEvent : undefined;
  if (archived !== undefined && typeof archived.offset === 'number' && str(archived.contractId) !== undefined) out.push(...model.archive(str(archived.contractId)!, archived.offset, seen));
  // An archive or exercise names the contract's template: the package may be an upgrade of the
  // one that created it (smart contract upgrades), its name and the template's name may not differ.
  const acted = archived ?? (isObject(o.ExercisedEvent) ? o.ExercisedEvent : undefined);
  if (acted !== undefined && str(acted.contractId) !== undefined) {
    out.push(...model.read('contract', str(acted.contractId)!, { templateName: templateNameOf(acted.templateId), packageName: acted.packageName }, seen, startTick));
  }
  // A committed update, a completion, a write's answer.
  const uid = str(o.updateId);
  if (uid !== undefined) {
    const st = isObject(o.synchronizerTime) ? o.synchronizerTime : {};
    const offset = typeof o.offset === 'number' ? o.offset : typeof o.completionOffset === 'number' ? o.completionOffset : undefined;
    out.push(
      ...model.read('update', uid, { offset, recordTime: time(o.recordTime ?? st.recordTime), synchronizerId: str(o.synchronizerId) ?? str(st.synchronizerId), effectiveAt: time(o.effectiveAt) }, seen, startTick, writeOrSame(seen)),
    );
    if (offset !== undefined) out.push(...model.read('offset', String(offset), { updateId: uid }, seen, startTick, writeOrSame(seen)));
    if (offset !== undefined && str(o.effectiveAt) !== undefined) out.push(...model.read('ledger-time', String(offset), { effectiveAt: time(o.effectiveAt) }, seen, startTick, () => 'judge.events.created-at'));
  }
  // Users, parties and identity-provider configs the run created.
  if (typeof o.id === 'string' && typeof o.isDeactivated === 'boolean' && model.owns('user', o.id)) out.push(...model.read('user', o.id, userFields(o), seen, startTick));
  if (typeof o.party === 'string' && o.isLocal === true) model.localParties.add(o.party);
  if (typeof o.party === 'string' && typeof o.isLocal === 'boolean' && model.owns('party', o.party)) out.push(...model.read('party', o.party, partyFields(o), seen, startTick));
  if (typeof o.identityProviderId === 'string' && typeof o.issuer === 'string' && model.owns('idp', o.identityProviderId)) out.push(...model.read('idp', o.identityProviderId, idpFields(o), seen, startTick));
  // Derived numbers.
  const req = o.confirmationRequestTrafficCostEstimation;
  const res = o.confirmationResponseTrafficCostEstimation;
  const total = o.totalTrafficCostEstimation;
  if (typeof req === 'number' && typeof res === 'number' && typeof total === 'number' && req + res !== total) {
    out.push({ invariant: 'judge.numbers.add-up', message: `costEstimation: totalTrafficCostEstimation ${total} is not confirmationRequestTrafficCostEstimation ${req} + confirmationResponseTrafficCostEstimation ${res}`, second: seen });
  }
  return out;
}

/** `Module:Entity` of a template id, by package id or by `#package-name`. */
const templateNameOf = (v: unknown): string | undefined => (typeof v === 'string' && v.includes(':') ? v.split(':').slice(1).join(':') : undefined);

const annotations = (m: unknown) => (isObject(m) && isObject(m.annotations) ? m.annotations : {});
const userFields = (u: Json) => ({ primaryParty: u.primaryParty ?? '', isDeactivated: u.isDeactivated ?? false, identityProviderId: u.identityProviderId ?? '', annotations: annotations(u.metadata) });
const partyFields = (p: Json) => ({ isLocal: p.isLocal, identityProviderId: p.identityProviderId ?? '', annotations: annotations(p.localMetadata) });
const idpFields = (c: Json) => ({ isDeactivated: c.isDeactivated ?? false, issuer: c.issuer, jwksUrl: c.jwksUrl, audience: c.audience ?? '' });

function recordWrite(model: TargetModel, a: Answer, seen: Observation, startTick: number): Violation[] {
  const req = isObject(a.request) ? a.request : {};
  const body = isObject(a.body) ? a.body : {};
  const segs = a.path.split('/').map((s) => decodeURIComponent(s));
  const out: Violation[] = [];
  if (a.method === 'POST' && a.path === '/v2/users' && isObject(req.user) && typeof req.user.id === 'string') {
    const id = req.user.id;
    model.own('user', id);
    model.write('user', id, userFields(req.user), seen);
    model.write('rights', id, { rights: rightsSet(Array.isArray(req.rights) ? req.rights : []) }, seen);
  } else if (a.method === 'PATCH' && segs.length === 4 && segs[2] === 'users' && isObject(body.user) && model.owns('user', segs[3]!)) {
    model.write('user', segs[3]!, userFields(body.user), seen);
  } else if (segs.length === 5 && segs[2] === 'users' && segs[4] === 'rights' && model.owns('user', segs[3]!) && Array.isArray(req.rights)) {
    const now = model.get('rights', segs[3]!)?.rights;
    if (Array.isArray(now)) {
      const changed = rightsSet(req.rights);
      const next = a.method === 'POST' ? [...new Set([...(now as string[]), ...changed])].sort() : (now as string[]).filter((r) => !changed.includes(r));
      model.write('rights', segs[3]!, { rights: next }, seen);
    }
  } else if (segs.length === 5 && segs[2] === 'users' && segs[4] === 'rights' && Array.isArray(req.rights)) {
    // A user the run did not create (the run's own user, granted rights over the parties it
    // allocates): its other rights are not known, but each right the run granted or revoked is,
    // and every later read of the user's rights shows it (or its absence).
    for (const r of rightsSet(req.rights)) model.write('right', `${segs[3]!} ${r}`, { present: a.method === 'POST' }, seen);
  } else if (a.method === 'DELETE' && segs.length === 4 && segs[2] === 'users') {
    model.forget('user', segs[3]!);
    model.forget('rights', segs[3]!);
    for (const key of model.keysOf('right', `${segs[3]!} `)) model.forget('right', key);
  } else if (a.method === 'POST' && a.path === '/v2/parties' && isObject(body.partyDetails) && typeof body.partyDetails.party === 'string') {
    const party = body.partyDetails.party;
    model.own('party', party);
    model.localParties.add(party);
    model.write('party', party, { identityProviderId: req.identityProviderId ?? '', annotations: annotations(req.localMetadata) }, seen);
  } else if (a.method === 'PATCH' && segs.length === 4 && segs[2] === 'parties' && isObject(body.partyDetails) && model.owns('party', segs[3]!)) {
    model.write('party', segs[3]!, partyFields(body.partyDetails), seen);
  } else if (a.method === 'POST' && a.path === '/v2/idps' && isObject(req.identityProviderConfig) && typeof req.identityProviderConfig.identityProviderId === 'string') {
    const id = req.identityProviderConfig.identityProviderId;
    model.own('idp', id);
    model.write('idp', id, idpFields(req.identityProviderConfig), seen);
  } else if (a.method === 'PATCH' && segs.length === 4 && segs[2] === 'idps' && isObject(body.identityProviderConfig) && model.owns('idp', segs[3]!)) {
    model.write('idp', segs[3]!, idpFields(body.identityProviderConfig), seen);
  } else if (a.method === 'DELETE' && segs.length === 4 && segs[2] === 'idps') {
    model.forget('idp', segs[3]!);
  } else if (segs.length >= 4 && KIND_OF_COLLECTION[segs[2]!] !== undefined) {
    // A write the model does not follow field by field (moving a user to another identity
    // provider): what it held of the object is no longer known to be current.
    model.clear(KIND_OF_COLLECTION[segs[2]!]!, segs[3]!);
  }
  void startTick;
  return out;
}

const KIND_OF_COLLECTION: Readonly<Record<string, 'user' | 'party' | 'idp'>> = { users: 'user', parties: 'party', idps: 'idp' };

/** Templates the suite knows: their signatory and observer expressions over the arguments. */
const KNOWN_TEMPLATES: Readonly<Record<string, (arg: Json) => { signatories: string[]; observers: string[] }>> = {
  'canton-conformance-samples:Sample.Asset:Asset': (a) => ({ signatories: [String(a.issuer)], observers: [String(a.owner), ...(Array.isArray(a.observers) ? a.observers.map(String) : [])] }),
  'canton-conformance-samples:Sample.Account:Account': (a) => ({ signatories: [String(a.bank)], observers: [String(a.holder)] }),
};

function partiesComputed(o: Json, seen: Observation): Violation[] {
  const name = str(o.templateId)?.split(':').slice(1).join(':');
  const compute = name === undefined || o.packageName === undefined ? undefined : KNOWN_TEMPLATES[`${String(o.packageName)}:${name}`];
  if (compute === undefined || !isObject(o.createArgument) || !Array.isArray(o.signatories) || !Array.isArray(o.observers)) return [];
  const want = compute(o.createArgument);
  const sigs = [...new Set(want.signatories)].sort();
  const obs = [...new Set(want.observers)].filter((p) => !sigs.includes(p)).sort();
  const got = { signatories: sorted(o.signatories)!, observers: sorted(o.observers)! };
  if (canonical(got.signatories) === canonical(sigs) && canonical([...new Set(got.observers)]) === canonical(obs)) return [];
  return [{ invariant: 'judge.events.parties-computed', message: `created event of ${String(o.contractId)} (${name}): signatories ${canonical(got.signatories)}, observers ${canonical(got.observers)}; the template computes signatories ${canonical(sigs)}, observers ${canonical(obs)}`, second: seen }];
}

function judgeErrors(model: TargetModel, body: unknown, status: number | undefined, seen: Observation): Violation[] {
  if (!isObject(body) || typeof body.code !== 'string' || typeof body.errorCategory !== 'number' || typeof body.grpcCodeValue !== 'number') return [];
  const out: Violation[] = [];
  const { code, errorCategory: category, grpcCodeValue: grpc } = body as { code: string; errorCategory: number; grpcCodeValue: number };
  const bad = (invariant: InvariantId, message: string, first?: Observation) => out.push({ invariant, message: `error ${code}: ${message}`, ...(first ? { first } : {}), second: seen });
  const http = HTTP_OF_CODE[code] ?? HTTP_OF_GRPC[grpc];
  if (status !== undefined && http !== undefined && http !== status) bad('judge.errors.consistent', `gRPC code ${grpc} is HTTP ${http}, answered with HTTP ${status}`);
  const ctx = isObject(body.context) ? body.context : {};
  if (typeof ctx.category === 'string' && category !== -1 && ctx.category !== String(category)) bad('judge.errors.consistent', `context.category ${ctx.category} is not errorCategory ${category}`);
  if (category !== -1 && !VARIABLE_CATEGORY_CODES.has(code)) {
    // One code, one category and gRPC code, over the whole run (a code may pin a gRPC code other
    // than its category's: LIST_TOO_LARGE is RESOURCE_EXHAUSTED).
    out.push(...model.read('error', code, { category, grpc }, seen, Number.MAX_SAFE_INTEGER, () => 'judge.errors.consistent'));
  }
  const retryable = RETRYABLE_CATEGORIES.has(category);
  const own = DEFINITIVE_CODES[code];
  if (own !== undefined && retryable) bad('judge.errors.definitive-not-retryable', `a definitive refusal (category ${own}) answered as retryable category ${category}`);
  else if (!retryable && str(body.retryInfo) !== undefined && category !== -1) bad('judge.errors.definitive-not-retryable', `category ${category} is definitive, yet the error carries retryInfo ${String(body.retryInfo)}`);
  return out;
}

/** An active-contracts snapshot at an offset: none of its contracts may be archived at or before it, nor created after it. */
function judgeActiveContracts(model: TargetModel, a: Answer, seen: Observation): Violation[] {
  const req = isObject(a.request) ? a.request : {};
  if (a.path !== '/v2/state/active-contracts' || typeof req.activeAtOffset !== 'number' || req.activeAtOffset <= 0 || !Array.isArray(a.body)) return [];
  const out: Violation[] = [];
  for (const item of a.body) {
    const entry = isObject(item) && isObject(item.contractEntry) ? item.contractEntry : {};
    const active = isObject(entry.JsActiveContract) ? entry.JsActiveContract : {};
    const cid = isObject(active.createdEvent) ? str(active.createdEvent.contractId) : undefined;
    if (cid === undefined) continue;
    out.push(...model.activeAt(cid, req.activeAtOffset, seen));
    // Its created event is the one of its last update (create or assignment): at or before the snapshot.
    const own = (active.createdEvent as Json).offset;
    if (typeof own === 'number' && own > req.activeAtOffset) {
      out.push({ invariant: 'judge.contracts.active-after-created', message: `the active contracts at offset ${req.activeAtOffset} hold ${cid}, whose created event is at offset ${own}, after it`, second: seen });
    }
    const sync = str(active.synchronizerId);
    if (sync !== undefined) out.push(...model.activeFrom(cid, req.activeAtOffset, sync, seen));
  }
  return out;
}

/** What one party's filter (or the any-party filter) takes: everything, or the templates it names. */
interface PartyFilter {
  readonly all: boolean;
  readonly templates: ReadonlySet<string>;
  /** `Module:Entity` of each interface the filter asks views of (includeInterfaceView). */
  readonly views: ReadonlySet<string>;
}

/** The filters of a read of created events, and whether its events are ACS-delta ones. */
interface ReadScope {
  readonly acsDelta: boolean;
  readonly byParty: ReadonlyMap<string, PartyFilter>;
  readonly anyParty: PartyFilter | undefined;
  /** `Module:Entity` of every interface some filter of the read asks views of. */
  readonly views: ReadonlySet<string>;
}

function partyFilterOf(filter: unknown): PartyFilter {
  const cumulative = isObject(filter) && Array.isArray(filter.cumulative) ? filter.cumulative : [];
  const templates = new Set<string>();
  const views = new Set<string>();
  let all = cumulative.length === 0;
  for (const c of cumulative) {
    const f = isObject(c) && isObject(c.identifierFilter) ? c.identifierFilter : {};
    if (isObject(f.WildcardFilter)) all = true;
    const t = isObject(f.TemplateFilter) && isObject(f.TemplateFilter.value) ? str(f.TemplateFilter.value.templateId) : undefined;
    if (t !== undefined) templates.add(t);
    const i = isObject(f.InterfaceFilter) && isObject(f.InterfaceFilter.value) ? f.InterfaceFilter.value : undefined;
    const name = i?.includeInterfaceView === true ? templateNameOf(i.interfaceId) : undefined;
    if (name !== undefined) views.add(name);
  }
  return { all, templates, views };
}

/** The scope of a read whose created events the witness rule judges; undefined for any other answer. */
function readScope(a: Answer): ReadScope | undefined {
  const req = isObject(a.request) ? a.request : undefined;
  if (req === undefined) return undefined;
  let format: unknown;
  let acsDelta = true;
  if (/^\/v2\/state\/active-contracts(-page)?$/.test(a.path)) format = req.eventFormat;
  else if (a.path.startsWith('/v2/updates') && isObject(req.updateFormat) && isObject(req.updateFormat.includeTransactions)) {
    format = req.updateFormat.includeTransactions.eventFormat;
    acsDelta = req.updateFormat.includeTransactions.transactionShape === 'TRANSACTION_SHAPE_ACS_DELTA';
  } else if (a.path === '/v2/commands/submit-and-wait-for-transaction' && isObject(req.commands)) {
    // Without a transactionFormat the answer is ACS_DELTA for the submitters and readers, each with
    // a wildcard (SubmitAndWaitForTransactionRequest.transaction_format).
    const tf = req.transactionFormat;
    if (isObject(tf)) {
      format = tf.eventFormat;
      acsDelta = tf.transactionShape === 'TRANSACTION_SHAPE_ACS_DELTA';
    } else {
      const parties = [...(Array.isArray(req.commands.actAs) ? req.commands.actAs : []), ...(Array.isArray(req.commands.readAs) ? req.commands.readAs : [])].map(String);
      format = { filtersByParty: Object.fromEntries(parties.map((p) => [p, {}])) };
    }
  }
  if (!isObject(format)) return undefined;
  const byParty = new Map(Object.entries(isObject(format.filtersByParty) ? format.filtersByParty : {}).map(([p, f]) => [p, partyFilterOf(f)]));
  const anyParty = isObject(format.filtersForAnyParty) ? partyFilterOf(format.filtersForAnyParty) : undefined;
  const views = new Set([...byParty.values(), ...(anyParty ? [anyParty] : [])].flatMap((pf) => [...pf.views]));
  return { acsDelta, byParty, anyParty, views };
}

/** The stakeholders of a created event: its signatories and observers. */
const stakeholdersOf = (c: Json): string[] => [...new Set([...(Array.isArray(c.signatories) ? c.signatories : []), ...(Array.isArray(c.observers) ? c.observers : [])].map(String))];

/**
 * A created event names as witnesses (event.proto witness_parties) every requesting party among
 * its stakeholders whose filter takes the contract: by name, or, for a read for any party, every
 * stakeholder the target said it hosts. In an ACS-delta event or an active contract no other party
 * (ledger-effects events also name the informees of the exercises above them). A filter that takes
 * the contract only through an interface may leave its party out.
 */
function judgeWitnesses(model: TargetModel, o: Json, scope: ReadScope, path: string, seen: Observation): Violation[] {
  if (str(o.contractId) === undefined || o.createArgument === undefined || !Array.isArray(o.witnessParties) || !Array.isArray(o.signatories)) return [];
  const stakeholders = stakeholdersOf(o);
  const witnesses = o.witnessParties.map(String);
  const template = str(o.templateId);
  const byName = template !== undefined && str(o.packageName) !== undefined ? `#${String(o.packageName)}:${templateNameOf(template)}` : undefined;
  const takes = (pf: PartyFilter) => pf.all || (template !== undefined && pf.templates.has(template)) || (byName !== undefined && pf.templates.has(byName));
  const required = stakeholders.filter((p) => {
    const pf = scope.byParty.get(p);
    return (pf !== undefined && takes(pf)) || (scope.anyParty !== undefined && takes(scope.anyParty) && model.localParties.has(p));
  });
  const allowed = (p: string) => stakeholders.includes(p) && (scope.anyParty !== undefined || scope.byParty.has(p));
  const extra = scope.acsDelta ? witnesses.filter((p) => !allowed(p)) : [];
  const missing = required.filter((p) => !witnesses.includes(p));
  if (extra.length === 0 && missing.length === 0) return [];
  const named = extra.length > 0 ? ` name ${extra.join(', ')}, not a requesting stakeholder` : '';
  const lacking = missing.length > 0 ? `${extra.length > 0 ? ' and' : ''} lack ${missing.join(', ')}, a requesting stakeholder whose filter takes the contract` : '';
  return [{ invariant: 'judge.events.witnesses-requested', message: `contract ${String(o.contractId)} in ${path}: witnessParties ${JSON.stringify(witnesses)}${named}${lacking}`, second: seen }];
}

/** A created event carries views only of interfaces a filter of the read asked views of (event.proto interface_views). */
function judgeViews(o: Json, scope: ReadScope, path: string, seen: Observation): Violation[] {
  if (str(o.contractId) === undefined || !Array.isArray(o.interfaceViews)) return [];
  return o.interfaceViews
    .filter(isObject)
    .filter((v) => templateNameOf(v.interfaceId) !== undefined && !scope.views.has(templateNameOf(v.interfaceId)!))
    .map((v) => ({ invariant: 'judge.events.views-requested' as const, message: `contract ${String(o.contractId)} in ${path} carries a view of ${String(v.interfaceId)}, an interface no filter of the read asked views of`, second: seen }));
}

/**
 * `acsDelta` (event.proto, Canton 3.4 on): whether the event is part of the ACS-delta view of the
 * same read, which a client tracking active contracts from a ledger-effects stream relies on. In
 * an ACS-delta read or the active contract set every created event has it. In any read: not a
 * non-consuming exercise, not a contract created and archived in the same transaction (nor that
 * archive); a created event that stays, witnessed by one of its stakeholders, has it.
 */
function judgeAcsDelta(o: Json, acsDeltaRead: boolean, path: string, seen: Observation): Violation[] {
  const out: Violation[] = [];
  const flag = (e: Json, want: boolean, why: string) => {
    if (typeof e.acsDelta === 'boolean' && e.acsDelta !== want) out.push({ invariant: 'judge.events.acs-delta', message: `${why}: acsDelta is ${String(e.acsDelta)} (${path})`, second: seen });
  };
  if (isObject(o.JsActiveContract) && isObject(o.JsActiveContract.createdEvent)) flag(o.JsActiveContract.createdEvent, true, `active contract ${String(o.JsActiveContract.createdEvent.contractId)}`);
  if (!Array.isArray(o.events) || str(o.updateId) === undefined) return out;
  const events = o.events.filter(isObject);
  const consumed = new Set(events.map((e) => (isObject(e.ExercisedEvent) && e.ExercisedEvent.consuming === true ? str(e.ExercisedEvent.contractId) : undefined)).filter((c) => c !== undefined));
  const createdHere = new Set(events.map((e) => (isObject(e.CreatedEvent) ? str(e.CreatedEvent.contractId) : undefined)).filter((c) => c !== undefined));
  for (const e of events) {
    if (isObject(e.CreatedEvent)) {
      const c = e.CreatedEvent;
      const cid = String(c.contractId);
      if (consumed.has(cid)) flag(c, false, `contract ${cid}, created and archived in update ${String(o.updateId)}`);
      else if (acsDeltaRead) flag(c, true, `created event of ${cid} in an ACS-delta read`);
      else if (Array.isArray(c.witnessParties) && c.witnessParties.some((p) => stakeholdersOf(c).includes(String(p)))) flag(c, true, `created event of ${cid}, which stays active and a stakeholder witnesses`);
    } else if (isObject(e.ExercisedEvent)) {
      const x = e.ExercisedEvent;
      if (x.consuming !== true) flag(x, false, `non-consuming exercise ${String(x.choice)} on ${String(x.contractId)}`);
      else if (createdHere.has(String(x.contractId))) flag(x, false, `archive of ${String(x.contractId)}, created in the same update`);
    }
  }
  return out;
}

/**
 * A transaction's creates, archives and exercises, at its offset on its synchronizer: a contract
 * is exercised only between its create and its archive (judge.contracts.used-while-active). An
 * exercise of a contract whose create the read never showed (created before, or seen by other
 * parties only) is judged by what was shown, no more.
 */
function judgeLifecycle(model: TargetModel, o: Json, seen: Observation): Violation[] {
  if (str(o.updateId) === undefined || !Array.isArray(o.events) || typeof o.offset !== 'number') return [];
  const at = { offset: o.offset, synchronizerId: str(o.synchronizerId) ?? '', seen };
  const out: Violation[] = [];
  for (const e of o.events.filter(isObject)) {
    const created = isObject(e.CreatedEvent) ? str(e.CreatedEvent.contractId) : undefined;
    const exercised = isObject(e.ExercisedEvent) ? e.ExercisedEvent : undefined;
    const archived = isObject(e.ArchivedEvent) ? str(e.ArchivedEvent.contractId) : exercised?.consuming === true ? str(exercised.contractId) : undefined;
    if (created !== undefined) out.push(...model.lifecycle(created, 'created', at));
    if (exercised !== undefined && str(exercised.contractId) !== undefined) out.push(...model.lifecycle(str(exercised.contractId)!, exercised.consuming === true ? 'consumed' : 'exercised', at));
    if (archived !== undefined) out.push(...model.lifecycle(archived, 'archived', at));
  }
  return out;
}

/** Streams with an end of their own: the update stream up to endInclusive, an active-contracts snapshot. */
function judgeStreamEnd(a: Answer, seen: Observation): Violation[] {
  if (a.stream === undefined || a.stream.cut || a.status !== 101) return [];
  const req = isObject(a.request) ? a.request : {};
  const bounded = (/^\/v2\/updates/.test(a.path) && typeof req.endInclusive === 'number') || (a.path === '/v2/state/active-contracts' && typeof req.activeAtOffset === 'number');
    // Not `idle`: a slow target may pause longer than a check's idle window; a hang ends in a timeout.
  // RFC 6455 §5.5.1: a Close frame MAY hold no status, which a client sees as 1005 (no status
  // received): a clean close still, as Canton's own 1000 is (an error ends with 1011 or a 4xxx).
  const normal = a.stream.ended === 'closed' && (a.stream.closeCode === undefined || a.stream.closeCode === 1000 || a.stream.closeCode === 1005);
  if (!bounded || normal || a.stream.ended === 'idle') return [];
  const how = a.stream.ended === 'closed' ? `a close with code ${String(a.stream.closeCode)}` : a.stream.ended;
  return [{ invariant: 'judge.streams.bounded-close', message: `the stream ${a.path} has an end (${typeof req.endInclusive === 'number' ? `endInclusive ${req.endInclusive}` : `activeAtOffset ${String(req.activeAtOffset)}`}) but ended by ${how}, not a normal close (1000, or no status: 1005)`, second: seen }];
}
