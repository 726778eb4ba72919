/**
 * A Daml Script `ScriptLedger` over the JSON Ledger API v2 of any participant (`test --ledger-url`),
 * as `daml script --ledger-host` runs scripts against a node: the DAR uploaded once
 * (`POST /v2/dars`), parties from party management, users and rights from user management,
 * each submission through `submit-and-wait-for-transaction` with the ledger-effects shape (its
 * events rebuilt into the tree daml-script sees), queries over the active contract set at the
 * ledger end, contract arguments and results converted by their Daml-LF types.
 *
 * Every script shares the participant (there is no fresh ledger per script, as with daml-script
 * against a node). Time is the participant's wall clock: `getTime` is the local clock, and
 * `setTime` fails the script as daml-script's gRPC client fails on a wall-clock participant.
 */
import type { Package, QualifiedName, ScriptLedgerFactory, Type, Value } from '../../../daml-engine/index.js';
import { decodeJson, encodeJson, lookupInterface, lookupTemplate } from '../../../daml-engine/index.js';
import type { DataTypes } from '../../../daml-engine/json/DataTypes.js';
import { packageDataTypes } from '../../../daml-engine/json/packageDataTypes.js';
import type {
  AllocateResult, ScriptActiveContract, ScriptCommand, ScriptCommandResult, ScriptLedger, ScriptPartyDetails, ScriptSubmission,
  ScriptSubmitResult, ScriptTreeEvent, ScriptUser, ScriptUserRight,
} from '../../../daml-engine/script/ScriptLedger.js';
import { ScriptLedgerRefusal } from '../../../daml-engine/script/ScriptLedger.js';
import type { LoadedDar } from '../../../daml-engine/script/runDarScripts.js';
import type { RecordValue } from '../../../daml-engine/value/Value.js';
import { UNIT } from '../../../daml-engine/value/Value.js';
import { transportErrorOf } from './transportError.js';

export interface JsonApiLedgerOptions {
  /** The participant's JSON API base URL, e.g. `http://localhost:7575`. */
  readonly url: string;
  /** A bearer token, when the participant requires one. */
  readonly token: string | undefined;
  /** The user id commands are submitted as when there is no token (the token names it otherwise). */
  readonly userId?: string;
  /** The clock `getTime` reads (ms); default `Date.now`. */
  readonly now?: () => number;
}

type Json = Record<string, unknown>;

/** No HTTP exchange with the participant happened (connection refused, unknown host, TLS): not a refusal. */
export class ParticipantUnreachable extends ScriptLedgerRefusal {
  /** `reason`: what the transport said (`connection refused (ECONNREFUSED): ...`). */
  constructor(request: string, readonly reason: string) {
    super(`${request}: the participant cannot be reached: ${reason}`);
  }
}

/** An HTTP answer: the JSON body, or the participant's error (its Canton code and cause). */
type Reply = { readonly ok: true; readonly body: Json } | { readonly ok: false; readonly status: number; readonly code: string; readonly message: string; readonly context: Json };

const idOf = (q: QualifiedName): string => `${q.packageId}:${q.module}:${q.name}`;
function nameOf(id: string): QualifiedName {
  const [packageId = '', module = '', name = ''] = id.split(':');
  return { packageId, module, name };
}
const conType = (tycon: QualifiedName): Type => ({ kind: 'con', tycon, args: [] });

class JsonApi {
  constructor(private readonly options: JsonApiLedgerOptions) {}

  async call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Reply> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.options.token !== undefined) headers.Authorization = `Bearer ${this.options.token}`;
    if (body !== undefined) headers['Content-Type'] = contentType;
    let response: Response;
    try {
      response = await fetch(new URL(path, this.options.url.endsWith('/') ? this.options.url : `${this.options.url}/`), {
        method, headers, body: body === undefined ? undefined : body instanceof Uint8Array ? Buffer.from(body) : JSON.stringify(body),
      });
    } catch (e) {
      throw new ParticipantUnreachable(`${method} ${path}`, transportErrorOf(e, false, 0).message);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? {} : JSON.parse(text);
    } catch {
      json = { cause: text.slice(0, 500) };
    }
    if (response.ok) return { ok: true, body: (json ?? {}) as Json };
    const e = (json ?? {}) as Json;
    return {
      ok: false, status: response.status, code: typeof e.code === 'string' ? e.code : `HTTP ${response.status}`,
      message: typeof e.cause === 'string' ? e.cause : text.slice(0, 500), context: (e.context ?? {}) as Json,
    };
  }

  /** The body, or the script ends with the participant's error. */
  async must(method: string, path: string, body?: unknown): Promise<Json> {
    const r = await this.call(method, path, body);
    if (!r.ok) throw new ScriptLedgerRefusal(`${refusalText(r)} (${method} ${path})`);
    return r.body;
  }
}

/**
 * A refusal as `code: message`, and what a 401 or 403 means: the participant's body says no more
 * than "An error occurred" for them, as Canton hides why a token is refused.
 */
function refusalText(r: Extract<Reply, { ok: false }>): string {
  const why = r.status === 401 ? ' [HTTP 401: the participant takes no request without a valid token]'
    : r.status === 403 ? " [HTTP 403: the token's user lacks the rights this request needs]" : '';
  return `${r.code}: ${r.message}${why}`;
}

/** A daml-script `UserRight` as the JSON API's right, and back. */
const wireRight = (r: ScriptUserRight): Json => ({ kind: { [r.right]: { value: r.party === undefined ? {} : { party: r.party } } } });
function scriptRight(r: unknown): ScriptUserRight | undefined {
  const [name, body] = Object.entries(((r as Json | undefined)?.kind ?? {}) as Json)[0] ?? [];
  if (name === undefined || name === 'Empty') return undefined;
  const party = ((body as Json | undefined)?.value as Json | undefined)?.party;
  return typeof party === 'string' ? { right: name, party } : { right: name };
}
const scriptRights = (rs: unknown): ScriptUserRight[] => (Array.isArray(rs) ? rs : []).map(scriptRight).filter((r) => r !== undefined);
const scriptUser = (u: Json): ScriptUser => ({ userId: String(u.id), primaryParty: typeof u.primaryParty === 'string' && u.primaryParty !== '' ? u.primaryParty : undefined });

export class JsonApiScriptLedger implements ScriptLedger {
  readonly #api: JsonApi;
  readonly #types: DataTypes;
  readonly #getPackage: (id: string) => Package | undefined;
  readonly #options: JsonApiLedgerOptions;
  #commands = 0;
  readonly #run = Math.random().toString(16).slice(2, 10);
  /** Steps are the participant's; none are counted here. */
  readonly stepsUsed = 0;

  constructor(getPackage: (id: string) => Package | undefined, options: JsonApiLedgerOptions) {
    this.#api = new JsonApi(options);
    this.#getPackage = getPackage;
    this.#types = packageDataTypes(getPackage);
    this.#options = options;
  }

  async allocateParty(hint: string): Promise<AllocateResult> {
    const r = await this.#api.call('POST', 'v2/parties', { partyIdHint: hint, identityProviderId: '' });
    if (!r.ok) return { ok: false, message: `${r.code}: ${r.message}` };
    return { ok: true, party: String((r.body.partyDetails as Json).party) };
  }

  async listKnownParties(): Promise<readonly ScriptPartyDetails[]> {
    const out: ScriptPartyDetails[] = [];
    let pageToken = '';
    do {
      const page = await this.#api.must('GET', `v2/parties${pageToken === '' ? '' : `?pageToken=${encodeURIComponent(pageToken)}`}`);
      for (const p of (page.partyDetails ?? []) as Json[]) out.push({ party: String(p.party), isLocal: p.isLocal !== false });
      pageToken = typeof page.nextPageToken === 'string' ? page.nextPageToken : '';
    } while (pageToken !== '');
    return out;
  }

  async getTime(): Promise<bigint> {
    return BigInt(Math.trunc((this.#options.now ?? Date.now)())) * 1000n;
  }

  async setTime(_micros: bigint): Promise<void> {
    throw new ScriptLedgerRefusal('setTime is not supported against a participant on wall-clock time (the JSON Ledger API has no time service); daml-script fails the same way');
  }

  async submit(s: ScriptSubmission): Promise<ScriptSubmitResult> {
    const commands = s.commands.map((c) => this.#command(c));
    const filter = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };
    const r = await this.#api.call('POST', 'v2/commands/submit-and-wait-for-transaction', {
      commands: {
        commands, commandId: `daml-script-${this.#run}-${++this.#commands}`, actAs: s.actAs, readAs: s.readAs,
        ...(this.#options.token === undefined ? { userId: this.#options.userId ?? 'daml-script' } : {}),
        disclosedContracts: s.disclosures.map((d) => ({ templateId: idOf(d.templateId), contractId: d.contractId, createdEventBlob: d.blob, synchronizerId: '' })),
      },
      transactionFormat: {
        eventFormat: { filtersByParty: Object.fromEntries(s.actAs.map((p) => [p, filter])), verbose: false },
        transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
      },
    });
    if (!r.ok) {
      if (r.status >= 500 && r.code.startsWith('HTTP')) throw new ScriptLedgerRefusal(`${r.code}: ${r.message}`);
      // The contract id is in the error's context, or only in its message ("... with id 00ab...").
      const contractId = typeof r.context.contract_id === 'string' ? r.context.contract_id : /\b(00[0-9a-f]{64,})\b/.exec(r.message)?.[1];
      if ((r.code === 'CONTRACT_NOT_FOUND' || r.code === 'CONTRACT_NOT_ACTIVE') && contractId !== undefined) {
        return { ok: false, error: { kind: 'ledger', failure: { kind: 'contractNotFound', contractId }, message: r.message, definition: undefined } };
      }
      return { ok: false, error: { kind: 'refused', code: r.code, message: r.message } };
    }
    const events = (((r.body.transaction as Json | undefined)?.events ?? []) as Json[]).map((e) => {
      const [kind, body] = Object.entries(e)[0] ?? ['', {}];
      return { kind, body: body as Json };
    });
    const tree = this.#tree(events);
    return { ok: true, tree, results: tree.map((e): ScriptCommandResult => e.kind === 'created'
      ? { kind: 'create', contractId: e.contractId }
      : { kind: 'exercise', result: (e as { result: Value }).result }) };
  }

  async query(parties: readonly string[], templateId: QualifiedName): Promise<readonly ScriptActiveContract[]> {
    const found = await this.#acs(parties, { TemplateFilter: { value: { templateId: idOf(templateId), includeCreatedEventBlob: false } } });
    return found.map((c) => ({ contractId: String(c.contractId), templateId: nameOf(String(c.templateId)), argument: this.#argument(c) }));
  }

  async queryContractId(parties: readonly string[], contractId: string): Promise<(ScriptActiveContract & { readonly blob: string }) | undefined> {
    const found = await this.#acs(parties, { WildcardFilter: { value: { includeCreatedEventBlob: true } } });
    const c = found.find((x) => x.contractId === contractId);
    if (!c) return undefined;
    return { contractId, templateId: nameOf(String(c.templateId)), argument: this.#argument(c), blob: String(c.createdEventBlob ?? '') };
  }

  async queryInterface(parties: readonly string[], interfaceId: QualifiedName): Promise<readonly { readonly contractId: string; readonly view: Value | undefined }[]> {
    const view = lookupInterface(this.#getPackage, interfaceId)?.view;
    const found = await this.#acs(parties, { InterfaceFilter: { value: { interfaceId: idOf(interfaceId), includeInterfaceView: true, includeCreatedEventBlob: false } } });
    return found.map((c) => {
      const v = ((c.interfaceViews ?? []) as Json[])[0];
      const decoded = view && v?.viewValue !== undefined && v.viewValue !== null ? decodeJson(view, v.viewValue, this.#types) : undefined;
      return { contractId: String(c.contractId), view: decoded?.ok ? decoded.value : undefined };
    });
  }

  async createUser(user: ScriptUser, rights: readonly ScriptUserRight[]): Promise<boolean> {
    const r = await this.#api.call('POST', 'v2/users', {
      user: { id: user.userId, primaryParty: user.primaryParty ?? '', isDeactivated: false, identityProviderId: '' }, rights: rights.map(wireRight),
    });
    if (!r.ok && r.code === 'USER_ALREADY_EXISTS') return false;
    if (!r.ok) throw new ScriptLedgerRefusal(`${r.code}: ${r.message}`);
    return true;
  }

  async getUser(userId: string): Promise<ScriptUser | undefined> {
    const r = await this.#api.call('GET', `v2/users/${encodeURIComponent(userId)}`);
    if (!r.ok && r.code === 'USER_NOT_FOUND') return undefined;
    if (!r.ok) throw new ScriptLedgerRefusal(`${r.code}: ${r.message}`);
    return scriptUser(r.body.user as Json);
  }

  async deleteUser(userId: string): Promise<boolean> {
    const r = await this.#api.call('DELETE', `v2/users/${encodeURIComponent(userId)}`);
    if (!r.ok && r.code === 'USER_NOT_FOUND') return false;
    if (!r.ok) throw new ScriptLedgerRefusal(`${r.code}: ${r.message}`);
    return true;
  }

  async listAllUsers(): Promise<readonly ScriptUser[]> {
    const out: ScriptUser[] = [];
    let pageToken = '';
    do {
      const page = await this.#api.must('GET', `v2/users${pageToken === '' ? '' : `?pageToken=${encodeURIComponent(pageToken)}`}`);
      out.push(...((page.users ?? []) as Json[]).map(scriptUser));
      pageToken = typeof page.nextPageToken === 'string' ? page.nextPageToken : '';
    } while (pageToken !== '');
    return out;
  }

  async grantUserRights(userId: string, rights: readonly ScriptUserRight[]): Promise<readonly ScriptUserRight[] | undefined> {
    return this.#rights('POST', userId, rights, 'newlyGrantedRights');
  }

  async revokeUserRights(userId: string, rights: readonly ScriptUserRight[]): Promise<readonly ScriptUserRight[] | undefined> {
    return this.#rights('PATCH', userId, rights, 'newlyRevokedRights');
  }

  async listUserRights(userId: string): Promise<readonly ScriptUserRight[] | undefined> {
    const r = await this.#api.call('GET', `v2/users/${encodeURIComponent(userId)}/rights`);
    if (!r.ok && r.code === 'USER_NOT_FOUND') return undefined;
    if (!r.ok) throw new ScriptLedgerRefusal(`${r.code}: ${r.message}`);
    return scriptRights(r.body.rights);
  }

  async #rights(method: string, userId: string, rights: readonly ScriptUserRight[], answer: string): Promise<readonly ScriptUserRight[] | undefined> {
    const r = await this.#api.call(method, `v2/users/${encodeURIComponent(userId)}/rights`, { userId, rights: rights.map(wireRight), identityProviderId: '' });
    if (!r.ok && r.code === 'USER_NOT_FOUND') return undefined;
    if (!r.ok) throw new ScriptLedgerRefusal(`${r.code}: ${r.message}`);
    return scriptRights(r.body[answer]);
  }

  /** Created events of the active contracts `parties` see through `filter`, at the ledger end. */
  async #acs(parties: readonly string[], filter: Json): Promise<Json[]> {
    const end = await this.#api.must('GET', 'v2/state/ledger-end');
    const body = await this.#api.must('POST', 'v2/state/active-contracts', {
      eventFormat: { filtersByParty: Object.fromEntries(parties.map((p) => [p, { cumulative: [{ identifierFilter: filter }] }])), verbose: false },
      activeAtOffset: end.offset,
    });
    const seen = new Set<string>();
    const out: Json[] = [];
    for (const entry of (Array.isArray(body) ? body : []) as Json[]) {
      const active = ((entry.contractEntry as Json | undefined)?.JsActiveContract as Json | undefined)?.createdEvent as Json | undefined;
      if (!active || seen.has(String(active.contractId))) continue;
      seen.add(String(active.contractId));
      out.push(active);
    }
    return out;
  }

  #argument(created: Json): RecordValue {
    const decoded = decodeJson(conType(nameOf(String(created.templateId))), created.createArgument, this.#types);
    if (!decoded.ok || decoded.value.kind !== 'record') {
      throw new ScriptLedgerRefusal(`the participant's contract ${String(created.contractId)} does not fit its template: ${decoded.ok ? 'not a record' : decoded.problem.message}`);
    }
    return decoded.value;
  }

  #command(c: ScriptCommand): Json {
    const encodeArg = (templateId: QualifiedName, argument: Value) => encodeJson(argument, conType(templateId), this.#types);
    const choiceArg = (templateId: QualifiedName, choice: string, argument: Value) => {
      const type = this.#choice(templateId, choice)?.argBinder.type ?? { kind: 'builtin', builtin: 'UNIT', args: [] };
      return encodeJson(argument, type, this.#types);
    };
    switch (c.kind) {
      case 'create': return { CreateCommand: { templateId: idOf(c.templateId), createArguments: encodeArg(c.templateId, c.argument) } };
      case 'exercise':
        return { ExerciseCommand: { templateId: idOf(c.templateId), contractId: c.contractId, choice: c.choice, choiceArgument: choiceArg(c.templateId, c.choice, c.argument) } };
      case 'createAndExercise':
        return {
          CreateAndExerciseCommand: {
            templateId: idOf(c.templateId), createArguments: encodeArg(c.templateId, c.argument), choice: c.choice,
            choiceArgument: choiceArg(c.templateId, c.choice, c.choiceArgument),
          },
        };
    }
  }

  #choice(templateOrInterface: QualifiedName, choice: string) {
    return lookupTemplate(this.#getPackage, templateOrInterface)?.choices.get(choice) ?? lookupInterface(this.#getPackage, templateOrInterface)?.choices.get(choice);
  }

  /** The tree of a ledger-effects transaction: events in node order, an exercise holding the nodes up to its last descendant. */
  #tree(events: readonly { kind: string; body: Json }[]): (ScriptTreeEvent & { result?: Value })[] {
    const nodes = events.filter((e) => e.kind === 'CreatedEvent' || e.kind === 'ExercisedEvent')
      .sort((a, b) => Number(a.body.nodeId) - Number(b.body.nodeId));
    let i = 0;
    const build = (until: number): (ScriptTreeEvent & { result?: Value })[] => {
      const out: (ScriptTreeEvent & { result?: Value })[] = [];
      while (i < nodes.length && Number(nodes[i]!.body.nodeId) <= until) {
        const { kind, body } = nodes[i++]!;
        const templateId = nameOf(String(body.templateId));
        if (kind === 'CreatedEvent') {
          out.push({ kind: 'created', contractId: String(body.contractId), templateId, argument: this.#argument(body) });
          continue;
        }
        const interfaceId = typeof body.interfaceId === 'string' && body.interfaceId !== '' ? nameOf(body.interfaceId) : undefined;
        const choice = this.#choice(interfaceId ?? templateId, String(body.choice));
        const decode = (type: Type | undefined, json: unknown): Value => {
          const d = type ? decodeJson(type, json, this.#types) : undefined;
          return d?.ok ? d.value : UNIT;
        };
        const children = build(Number(body.lastDescendantNodeId ?? body.nodeId));
        out.push({
          kind: 'exercised', contractId: String(body.contractId), templateId, interfaceId, choice: String(body.choice),
          argument: decode(choice?.argBinder.type, body.choiceArgument), children, result: decode(choice?.returnType, body.exerciseResult),
        });
      }
      return out;
    };
    return build(Number.MAX_SAFE_INTEGER);
  }
}

/**
 * The factory `runDarScripts` takes to run scripts against the participant at `options.url`, after
 * uploading the DAR there once; or why the participant refuses it.
 */
export async function jsonApiScriptLedgers(
  loaded: LoadedDar, options: JsonApiLedgerOptions,
): Promise<{ ok: true; value: ScriptLedgerFactory } | { ok: false; error: string; status?: number; unreachable?: true }> {
  const api = new JsonApi(options);
  let r: Reply;
  try {
    r = await api.call('POST', 'v2/dars', loaded.bytes, 'application/octet-stream');
  } catch (e) {
    return e instanceof ParticipantUnreachable ? { ok: false, error: e.reason, unreachable: true } : { ok: false, error: (e as Error).message };
  }
  if (!r.ok && r.code === 'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER') {
    // Connected to several synchronizers: upload (and vet) on each, as `serve --dar` does.
    const connected = await api.call('GET', 'v2/state/connected-synchronizers');
    const ids = connected.ok ? ((connected.body.connectedSynchronizers ?? []) as Json[]).map((c) => String(c.synchronizerId)) : [];
    for (const id of [...new Set(ids)]) {
      r = await api.call('POST', `v2/dars?synchronizerId=${encodeURIComponent(id)}`, loaded.bytes, 'application/octet-stream');
      if (!r.ok) break;
    }
  }
  if (!r.ok) return { ok: false, error: refusalText(r), status: r.status };
  const getPackage = (id: string) => loaded.packages.get(id);
  return { ok: true, value: () => new JsonApiScriptLedger(getPackage, options) };
}
