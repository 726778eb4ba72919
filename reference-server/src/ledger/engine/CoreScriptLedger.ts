/**
 * A Daml Script `ScriptLedger` over the reference's ledger core: what a script does is what the
 * JSON API of `serve` would see. Each script gets a fresh participant (as `daml test` gives a fresh
 * ledger) with the DAR uploaded and vetted through the package service (once; each participant
 * starts from the package store that upload left), static time on the
 * ledger's `ManualClock` from the epoch, parties from the party service (`hint::1220…`), users and
 * rights from the user service, submissions through `submitEngineCommands` and reads through
 * `activeEngineContracts` and the store.
 *
 * Time follows a participant on static time: it moves forward only (Canton's time service refuses
 * to set it backwards, and a daml-script run against Canton fails there); microseconds are kept
 * for the engine, the clock follows to the millisecond.
 */
import type { QualifiedName } from '../../../../daml-engine/ast/Type.js';
import type { EvalError } from '../../../../daml-engine/eval/EvalResult.js';
import type {
  AllocateResult, ScriptActiveContract, ScriptLedger, ScriptLedgerRefusalError, ScriptPartyDetails, ScriptSubmission, ScriptSubmitResult,
  ScriptUser, ScriptUserRight,
} from '../../../../daml-engine/script/ScriptLedger.js';
import { ScriptLedgerRefusal } from '../../../../daml-engine/script/ScriptLedger.js';
import type { LoadedDar, ScriptLedgerFactory, ScriptLedgerSetup } from '../../../../daml-engine/script/runDarScripts.js';
import { scriptCommandResults, scriptCommandsUpdate, scriptTreeOf } from '../../../../daml-engine/script/scriptTransaction.js';
import type { Value } from '../../../../daml-engine/value/Value.js';
import { encodeBlob } from '../blob.js';
import { ManualClock } from '../clock.js';
import type { LedgerError } from '../errors.js';
import { Ledger } from '../Ledger.js';
import type { AdminState } from '../../store/AdminStore.js';
import { MemoryAdminStore } from '../../store/AdminStore.js';
import { uploadDars } from '../packages/startupDars.js';
import type { UnzipResult } from '../packages/unzipDar.js';
import type { PassedChecks } from '../packages/validateDarPackages.js';
import type { Result } from '../result.js';
import type * as W from '../wire.js';
import { engineErrorOf } from './cantonErrorOf.js';
import type { EngineTemplateDef } from './EngineCatalogue.js';
import { isEngineDef } from './EngineCatalogue.js';

/** `code: cause`, as a Canton error's message starts. */
const describe = (e: LedgerError): string => `${e.code}: ${e.cause}`;

/** Java's `Instant.toString` of a time in microseconds (the form Canton's messages print). */
function instantText(micros: bigint): string {
  const ms = micros / 1000n - (micros % 1000n < 0n ? 1n : 0n);
  const iso = new Date(Number(ms)).toISOString();
  const fraction = `${iso.slice(20, 23)}${String(((micros % 1000n) + 1000n) % 1000n).padStart(3, '0')}`.replace(/(000)+$/, '');
  return `${iso.slice(0, 19)}${fraction === '' ? '' : `.${fraction}`}Z`;
}

/** A daml-script `UserRight` as the user service's wire right, and back. */
function wireRight(r: ScriptUserRight): W.Right {
  return { kind: (r.party === undefined ? { [r.right]: { value: {} } } : { [r.right]: { value: { party: r.party } } }) as W.RightKind };
}
function scriptRight(r: W.Right): ScriptUserRight | undefined {
  const [name, body] = Object.entries(r.kind ?? {})[0] ?? [];
  if (name === undefined || name === 'Empty') return undefined;
  const party = (body as { value?: { party?: string } } | undefined)?.value?.party;
  return party === undefined ? { right: name } : { right: name, party };
}
const scriptRights = (rs: readonly W.Right[]): ScriptUserRight[] => rs.map(scriptRight).filter((r) => r !== undefined);

export interface CoreScriptLedgerOptions {
  /** The participant: a fresh `Ledger` on a `ManualClock` at the epoch. */
  readonly ledger: Ledger;
  readonly clock: ManualClock;
  /** Submissions run the engine in slices that yield (`submitEngineCommandsInSlices`); default: at once. */
  readonly sliced?: boolean;
}

export class CoreScriptLedger implements ScriptLedger {
  readonly ledger: Ledger;
  readonly #clock: ManualClock;
  /** The static time in microseconds; the clock holds its millisecond. */
  #time: bigint;
  #submissions = 0;
  readonly #sliced: boolean;

  constructor(options: CoreScriptLedgerOptions) {
    this.ledger = options.ledger;
    this.#clock = options.clock;
    this.#sliced = options.sliced ?? false;
    this.#time = BigInt(Math.trunc(this.#clock.now())) * 1000n;
  }

  /** Evaluation steps the participant's engine took for this script (submissions and views). */
  get stepsUsed(): number {
    return this.ledger.engine.stepsUsed;
  }

  async allocateParty(hint: string): Promise<AllocateResult> {
    const r = this.ledger.allocateParty(hint === '' ? {} : { partyIdHint: hint });
    return r.ok ? { ok: true, party: r.value.partyDetails.party } : { ok: false, message: describe(r.error) };
  }

  async listKnownParties(): Promise<readonly ScriptPartyDetails[]> {
    const out: ScriptPartyDetails[] = [];
    let pageToken = '';
    do {
      const page = this.#must(this.ledger.listParties({ pageToken }));
      out.push(...page.partyDetails.map((p) => ({ party: p.party, isLocal: p.isLocal ?? true })));
      pageToken = page.nextPageToken ?? '';
    } while (pageToken !== '');
    return out;
  }

  async getTime(): Promise<bigint> {
    return this.#time;
  }

  async setTime(micros: bigint): Promise<void> {
    if (micros < this.#time) {
      throw new ScriptLedgerRefusal(
        `INVALID_ARGUMENT: The submitted request has invalid arguments: new_time [${instantText(micros)}] is before current_time [${instantText(this.#time)}]. Setting time backwards is not allowed.`,
      );
    }
    this.#time = micros;
    this.#clock.set(Number(micros / 1000n));
  }

  async submit(s: ScriptSubmission): Promise<ScriptSubmitResult> {
    const getPackage = (id: string) => this.ledger.engine.packages.get(id);
    const { update, kinds } = scriptCommandsUpdate(getPackage, s.commands);
    const req = {
      actAs: s.actAs, readAs: s.readAs, commands: [update], disclosedContracts: s.disclosures.map((d) => d.blob),
      userId: 'daml-script', commandId: `daml-script-${++this.#submissions}`, ledgerTime: this.#time,
    };
    // In slices when the scripts' own code is (a run inside a server's process): its other clients
    // are served meanwhile. Otherwise at once: nothing else waits, and the same outcome costs less.
    const r = this.#sliced ? await this.ledger.submitEngineCommandsInSlices(req) : this.ledger.submitEngineCommands(req);
    if (!r.ok) return { ok: false, error: submitFailure(r.error) };
    const [result] = r.value.results;
    return { ok: true, results: result === undefined ? [] : scriptCommandResults(result, kinds), tree: scriptTreeOf(r.value.transaction) };
  }

  async query(parties: readonly string[], templateId: QualifiedName): Promise<readonly ScriptActiveContract[]> {
    return this.ledger.activeEngineContracts(templateId, parties).map((c) => ({ contractId: c.contractId, templateId: c.templateId, argument: c.argument as ScriptActiveContract['argument'] }));
  }

  async queryContractId(parties: readonly string[], contractId: string): Promise<(ScriptActiveContract & { readonly blob: string }) | undefined> {
    const c = this.ledger.store.contract(contractId);
    if (!c || !c.isActive || c.createdOffset === 0 || !c.stakeholders.some((p) => parties.includes(p))) return undefined;
    if (!isEngineDef(c.template) || c.template.kind !== 'template') return undefined;
    const argument = this.ledger.engine.argumentOf(c);
    if (argument?.kind !== 'record') return undefined;
    return { contractId, templateId: (c.template as EngineTemplateDef).engine.name, argument, blob: encodeBlob(c, this.ledger.config.blobKey) };
  }

  async queryInterface(parties: readonly string[], interfaceId: QualifiedName): Promise<readonly { readonly contractId: string; readonly view: Value | undefined }[]> {
    const offset = (cid: string) => this.ledger.store.contract(cid)?.createdOffset ?? 0;
    // In creation order, as the participant's active contract set lists them.
    return this.ledger.activeEngineContracts(interfaceId, parties)
      .map((c) => ({ contractId: c.contractId, view: c.view, at: offset(c.contractId) }))
      .sort((a, b) => a.at - b.at)
      .map(({ contractId, view }) => ({ contractId, view }));
  }

  async createUser(user: ScriptUser, rights: readonly ScriptUserRight[]): Promise<boolean> {
    const r = this.ledger.createUser({
      user: { id: user.userId, ...(user.primaryParty === undefined ? {} : { primaryParty: user.primaryParty }) }, rights: rights.map(wireRight),
    });
    if (!r.ok && r.error.code === 'USER_ALREADY_EXISTS') return false;
    this.#must(r);
    return true;
  }

  async getUser(userId: string): Promise<ScriptUser | undefined> {
    const r = this.ledger.getUser(userId);
    if (!r.ok && r.error.code === 'USER_NOT_FOUND') return undefined;
    const u = this.#must(r).user;
    return { userId: u.id, primaryParty: u.primaryParty === undefined || u.primaryParty === '' ? undefined : u.primaryParty };
  }

  async deleteUser(userId: string): Promise<boolean> {
    const r = this.ledger.deleteUser(userId);
    if (!r.ok && r.error.code === 'USER_NOT_FOUND') return false;
    this.#must(r);
    return true;
  }

  async listAllUsers(): Promise<readonly ScriptUser[]> {
    const out: ScriptUser[] = [];
    let pageToken = '';
    do {
      const page = this.#must(this.ledger.listUsers({ pageToken }));
      out.push(...page.users.map((u) => ({ userId: u.id, primaryParty: u.primaryParty === undefined || u.primaryParty === '' ? undefined : u.primaryParty })));
      pageToken = page.nextPageToken ?? '';
    } while (pageToken !== '');
    return out;
  }

  async grantUserRights(userId: string, rights: readonly ScriptUserRight[]): Promise<readonly ScriptUserRight[] | undefined> {
    const r = this.ledger.grantUserRights(userId, { userId, rights: rights.map(wireRight) });
    if (!r.ok && r.error.code === 'USER_NOT_FOUND') return undefined;
    return scriptRights(this.#must(r).newlyGrantedRights);
  }

  async revokeUserRights(userId: string, rights: readonly ScriptUserRight[]): Promise<readonly ScriptUserRight[] | undefined> {
    const r = this.ledger.revokeUserRights(userId, { userId, rights: rights.map(wireRight) });
    if (!r.ok && r.error.code === 'USER_NOT_FOUND') return undefined;
    return scriptRights(this.#must(r).newlyRevokedRights);
  }

  async listUserRights(userId: string): Promise<readonly ScriptUserRight[] | undefined> {
    const r = this.ledger.listUserRights(userId);
    if (!r.ok && r.error.code === 'USER_NOT_FOUND') return undefined;
    return scriptRights(this.#must(r).rights);
  }

  /** A refusal daml-script does not turn into a value ends the script, naming the Canton error. */
  #must<T>(r: Result<T, LedgerError>): T {
    if (!r.ok) throw new ScriptLedgerRefusal(describe(r.error));
    return r.value;
  }
}

/**
 * A refused submission as the script sees it: the engine's failure behind the Canton error when
 * there is one; a contract the participant did not find as `contractNotFound`; any other refusal
 * by its Canton code.
 */
function submitFailure(e: LedgerError): EvalError | ScriptLedgerRefusalError {
  const engine = engineErrorOf(e);
  if (engine) return engine;
  const contractId = e.context?.contract_id;
  if ((e.code === 'CONTRACT_NOT_FOUND' || e.code === 'CONTRACT_NOT_ACTIVE') && contractId !== undefined && contractId !== '') {
    return { kind: 'ledger', failure: { kind: 'contractNotFound', contractId }, message: e.cause, definition: undefined };
  }
  return { kind: 'refused', code: e.code, message: e.cause };
}

/** A fresh participant on static time from the epoch, with `admin` (the packages and their vetting). */
function participant(
  setup: Pick<ScriptLedgerSetup, 'loaded'> & Partial<ScriptLedgerSetup>, admin: AdminState | undefined, passedChecks?: PassedChecks,
): { ledger: Ledger; clock: ManualClock } {
  const clock = new ManualClock(0);
  const ledger = new Ledger({
    clock,
    adminStore: new MemoryAdminStore(admin),
    engineStepBudget: setup.stepBudget,
    engineOnTrace: setup.onTrace,
    enginePackageCache: setup.loaded.packages.cache,
    ...(setup.sharedValues === undefined ? {} : { engineSharedValues: setup.sharedValues }),
    engineBuiltinOverrides: setup.builtinOverrides,
    passedChecks,
    // A participant of the DAR's packages alone, as `daml test`'s: the reference's built-in sample templates are not Daml Script's to see.
    sampleTemplates: false,
  });
  return { ledger, clock };
}

/**
 * The factory `runDarScripts` takes to run each script on a fresh ledger core, or why the
 * participant refuses the DAR. The DAR is uploaded once through the package service and vetted on
 * every synchronizer (as `serve --dar` does); each script's participant starts from a copy of the
 * package store that upload left, so reading the DAR is not paid per script.
 */
export function coreScriptLedgers(
  loaded: LoadedDar, options: { readonly passedChecks?: PassedChecks; readonly inflated?: UnzipResult } = {},
): Result<ScriptLedgerFactory, string> {
  const first = participant({ loaded }, undefined, options.passedChecks);
  const uploaded = uploadDars(first.ledger, [{ name: 'the DAR', bytes: loaded.bytes, ...(options.inflated === undefined ? {} : { inflated: options.inflated }) }]);
  if (!uploaded.ok) return uploaded;
  const admin = first.ledger.admin.snapshot();
  return {
    ok: true,
    value: (setup) => {
      const p = participant(setup, admin);
      return new CoreScriptLedger({ ...p, sliced: setup.sliced });
    },
  };
}
