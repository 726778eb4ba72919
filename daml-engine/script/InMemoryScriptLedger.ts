/**
 * A `ScriptLedger` in memory over the update engine: the ledger `daml test` gives each script.
 * Static time from the epoch, parties allocated from hints (the IDE ledger's rules: a hint once,
 * no hint the first free of `party`, `party1`, `party2`, ...), active contracts by id, visibility
 * by stakeholders, readAs parties and explicit disclosures.
 *
 * Transaction seeds derive from a per-ledger submission counter, the participant id and the
 * submission's time (contract-id.rst), so a run is deterministic.
 */
import { createHash } from 'node:crypto';

import type { Expr } from '../ast/Expr.js';
import type { DefValue, Package } from '../ast/Package.js';
import { qualifiedKey } from '../ast/Package.js';
import type { QualifiedName } from '../ast/Type.js';
import type { FirstOrderBuiltin } from '../builtins/Builtin.js';
import type { BuiltinName } from '../builtins/Builtin.js';
import { lookupTemplate } from '../decode/Packages.js';
import { Evaluator } from '../eval/Evaluator.js';
import type { Transaction } from '../update/Transaction.js';
import { UpdateEngine } from '../update/UpdateEngine.js';
import { deriveTransactionSeed } from '../update/seeds.js';
import type { Value } from '../value/Value.js';
import type {
  AllocateResult, ScriptActiveContract, ScriptLedger, ScriptPartyDetails, ScriptSubmission, ScriptSubmitResult, ScriptUser, ScriptUserRight,
} from './ScriptLedger.js';
import { scriptCommandResults, scriptCommandsUpdate, scriptTreeOf } from './scriptTransaction.js';

export interface InMemoryScriptLedgerOptions {
  readonly getPackage: (packageId: string) => Package | undefined;
  /** Receives `trace` / `debug` output of choices and templates. */
  readonly onTrace?: (message: string) => void;
  /** Steps one submission may take. */
  readonly stepBudget?: number;
  /** For tests only: builtins replacing the engine's (see `EvaluatorOptions.builtinOverrides`). */
  readonly builtinOverrides?: ReadonlyMap<BuiltinName, FirstOrderBuiltin>;
  /** For tests only: see `EvaluatorOptions.directDepth` (0: the machine alone). */
  readonly directDepth?: number;
  readonly participantId?: string;
  /** Top-level values evaluated so far, shared with other ledgers of the same packages (default: this ledger's own). */
  readonly sharedValues?: Map<DefValue, Value>;
}

interface StoredContract extends ScriptActiveContract {
  readonly stakeholders: ReadonlySet<string>;
  /** The ledger time of the transaction that created it. */
  readonly createdAt: bigint;
}

const lit = (value: Value): Expr => ({ kind: 'lit', value });

export class InMemoryScriptLedger implements ScriptLedger {
  private readonly engine: UpdateEngine;
  private readonly views: Evaluator;
  private readonly getPackage: (id: string) => Package | undefined;
  private readonly participantId: string;
  private readonly parties = new Map<string, ScriptPartyDetails>();
  private readonly active = new Map<string, StoredContract>();
  private readonly users = new Map<string, { user: ScriptUser; rights: ScriptUserRight[] }>();
  private time = 0n;
  /** Evaluation steps the ledger's submissions and views took so far. */
  stepsUsed = 0;
  private submissions = 0;

  constructor(options: InMemoryScriptLedgerOptions) {
    this.getPackage = options.getPackage;
    this.participantId = options.participantId ?? 'participant::reference';
    this.engine = new UpdateEngine({
      getPackage: options.getPackage, onTrace: options.onTrace, stepBudget: options.stepBudget, builtinOverrides: options.builtinOverrides,
      directDepth: options.directDepth, sharedValues: options.sharedValues,
    });
    this.views = new Evaluator({
      getPackage: options.getPackage, onTrace: options.onTrace, builtinOverrides: options.builtinOverrides, directDepth: options.directDepth, sharedValues: options.sharedValues,
    });
  }

  async allocateParty(hint: string, displayName?: string): Promise<AllocateResult> {
    if (hint !== '' && !/^[A-Za-z0-9:\-_ ]{1,255}$/.test(hint)) return { ok: false, message: `invalid party id hint '${hint}'` };
    if (this.parties.has(hint)) return { ok: false, message: `party '${hint}' already exists` };
    let party = hint;
    if (party === '') {
      const prefix = displayName === undefined || displayName === '' ? 'party' : displayName;
      party = prefix;
      for (let n = 1; this.parties.has(party); n++) party = `${prefix}${n}`;
      if (!/^[A-Za-z0-9:\-_ ]{1,255}$/.test(party)) return { ok: false, message: `invalid party name '${party}'` };
    }
    this.parties.set(party, displayName === undefined ? { party, isLocal: true } : { party, isLocal: true, displayName });
    return { ok: true, party };
  }

  async listKnownParties(): Promise<readonly ScriptPartyDetails[]> {
    return [...this.parties.values()];
  }

  async createUser(user: ScriptUser, rights: readonly ScriptUserRight[]): Promise<boolean> {
    if (this.users.has(user.userId)) return false;
    this.users.set(user.userId, { user, rights: [] });
    await this.grantUserRights(user.userId, rights);
    return true;
  }

  async getUser(userId: string): Promise<ScriptUser | undefined> { return this.users.get(userId)?.user; }

  async deleteUser(userId: string): Promise<boolean> { return this.users.delete(userId); }

  async listAllUsers(): Promise<readonly ScriptUser[]> {
    return [...this.users.values()].map((u) => u.user).sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  }

  async grantUserRights(userId: string, rights: readonly ScriptUserRight[]): Promise<readonly ScriptUserRight[] | undefined> {
    const u = this.users.get(userId);
    if (!u) return undefined;
    const granted: ScriptUserRight[] = [];
    for (const r of rights) {
      if (u.rights.some((x) => sameRight(x, r)) || granted.some((x) => sameRight(x, r))) continue;
      granted.push(r);
    }
    u.rights.push(...granted);
    return granted;
  }

  async revokeUserRights(userId: string, rights: readonly ScriptUserRight[]): Promise<readonly ScriptUserRight[] | undefined> {
    const u = this.users.get(userId);
    if (!u) return undefined;
    const revoked = u.rights.filter((x) => rights.some((r) => sameRight(x, r)));
    u.rights = u.rights.filter((x) => !revoked.includes(x));
    return revoked;
  }

  async listUserRights(userId: string): Promise<readonly ScriptUserRight[] | undefined> { return this.users.get(userId)?.rights; }

  async getTime(): Promise<bigint> { return this.time; }
  async setTime(micros: bigint): Promise<void> { this.time = micros; }

  async submit(s: ScriptSubmission): Promise<ScriptSubmitResult> {
    const readers = new Set([...s.actAs, ...s.readAs]);
    const disclosed = new Set(s.disclosures.filter((d) => d.blob === this.blob(d.contractId)).map((d) => d.contractId));
    const seedInput = createHash('sha256').update(`submission/${this.submissions++}`).digest();
    const { update, kinds } = scriptCommandsUpdate(this.getPackage, s.commands);
    const outcome = this.engine.submit({
      update,
      submitters: s.actAs,
      transactionSeed: deriveTransactionSeed(new Uint8Array(seedInput), this.participantId, this.time),
      preparationTime: this.time,
      getContract: (cid) => {
        const c = this.active.get(cid);
        if (!c) return undefined;
        // A contract created after the submission's ledger time (the script moved time back) is
        // not effective yet: the IDE ledger reports it not found, Canton rejects the time.
        if (c.createdAt > this.time) return undefined;
        // Canton answers CONTRACT_NOT_FOUND for a contract the readers cannot see.
        if (!disclosed.has(cid) && ![...c.stakeholders].some((p) => readers.has(p))) return undefined;
        return { templateId: c.templateId, argument: c.argument };
      },
    });
    this.stepsUsed += outcome.steps;
    if (!outcome.ok) return { ok: false, error: outcome.error };
    this.commit(outcome.transaction);
    return { ok: true, results: scriptCommandResults(outcome.result, kinds), tree: scriptTreeOf(outcome.transaction) };
  }

  private commit(tx: Transaction): void {
    for (const c of tx.created) {
      this.active.set(c.contractId, {
        contractId: c.contractId, templateId: c.templateId, argument: c.argument,
        stakeholders: new Set([...c.signatories, ...c.observers]), createdAt: this.time,
      });
    }
    for (const cid of tx.archived) this.active.delete(cid);
  }

  private visible(parties: readonly string[]): (c: StoredContract) => boolean {
    const readers = new Set(parties);
    return (c) => [...c.stakeholders].some((p) => readers.has(p));
  }

  async query(parties: readonly string[], templateId: QualifiedName): Promise<readonly ScriptActiveContract[]> {
    const key = qualifiedKey(templateId);
    const sees = this.visible(parties);
    return [...this.active.values()].filter((c) => qualifiedKey(c.templateId) === key && sees(c)).map(strip);
  }

  async queryContractId(parties: readonly string[], contractId: string): Promise<(ScriptActiveContract & { readonly blob: string }) | undefined> {
    const c = this.active.get(contractId);
    if (!c || !this.visible(parties)(c)) return undefined;
    return { ...strip(c), blob: this.blob(contractId) };
  }

  async queryInterface(parties: readonly string[], interfaceId: QualifiedName): Promise<readonly { readonly contractId: string; readonly view: Value | undefined }[]> {
    const key = qualifiedKey(interfaceId);
    const sees = this.visible(parties);
    const out: { contractId: string; view: Value | undefined }[] = [];
    for (const c of this.active.values()) {
      if (!sees(c) || !lookupTemplate(this.getPackage, c.templateId)?.implements.has(key)) continue;
      const view = this.views.evaluate({
        kind: 'viewInterface', iface: interfaceId,
        expr: { kind: 'toInterface', iface: interfaceId, template: c.templateId, expr: lit(c.argument) },
      });
      this.stepsUsed += view.steps;
      out.push({ contractId: c.contractId, view: view.ok ? view.value : undefined });
    }
    return out;
  }

  /** The disclosure blob of a contract: opaque to scripts, checked when they disclose it. */
  private blob(contractId: string): string {
    return createHash('sha256').update(`${this.participantId}/${contractId}`).digest('base64');
  }
}

const sameRight = (a: ScriptUserRight, b: ScriptUserRight): boolean => a.right === b.right && a.party === b.party;

const strip = (c: StoredContract): ScriptActiveContract => ({ contractId: c.contractId, templateId: c.templateId, argument: c.argument });
