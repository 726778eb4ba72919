import type { LedgerError } from '../../ledger/errors.js';
import type { Catalogue, ChoiceDef, InterfaceDef, TemplateDef } from '../../ledger/templates/Catalogue.js';
import type { DamlRecord, DamlValue } from '../../ledger/wire.js';
import type { CreateNode, ExerciseNode, LogEntry, SubmissionInfo, TxNode } from '../LogEntry.js';
import type { ReassignmentStep } from '../StoredContract.js';
import { ACTIVE, StoredContract } from '../StoredContract.js';
import { DataDirError } from './DataDirError.js';

/**
 * The update log on disk: one JSON document per offset. Contracts are shared objects in memory
 * (every index and log entry points at the same one), so an entry writes a contract in full
 * where it is created and by id everywhere else; templates, choices and interfaces by id.
 */

interface ContractDoc {
  readonly id: string;
  readonly t: string;
  readonly a: DamlRecord;
  readonly s: readonly string[];
  readonly o: readonly string[];
  readonly st: readonly string[];
  readonly k?: DamlValue;
  readonly kh?: string;
  readonly n: number;
  readonly sy: number;
  readonly os: number;
  readonly co: number;
  readonly at: number;
  /** Archive offset when already archived (a contract created and archived in one transaction). */
  readonly ao?: number;
}

type NodeDoc =
  | { readonly k: 'c'; readonly n: number; readonly c: ContractDoc; readonly w: readonly string[]; readonly tr: boolean }
  | {
      readonly k: 'x';
      readonly n: number;
      readonly c: string;
      readonly ch: string;
      readonly i?: string;
      /** The exercised template, when another version of the contract's. */
      readonly t?: string;
      readonly a: DamlValue;
      readonly ap: readonly string[];
      readonly co: boolean;
      readonly w: readonly string[];
      readonly l: number;
      readonly r: DamlValue;
      readonly ai: boolean;
    };

type EntryDoc =
  | {
      readonly k: 'transaction';
      readonly o: number;
      readonly rt: number;
      readonly sy: number;
      readonly u: string;
      readonly ea: number;
      readonly nodes: readonly NodeDoc[];
      readonly sub?: SubmissionInfo;
      readonly h?: string;
      /** The prepared transaction's UUID (externally signed transactions). */
      readonly tu?: string;
      /** Contracts created before this transaction that it archives. */
      readonly ar: readonly string[];
    }
  | {
      readonly k: 'reassignment';
      readonly o: number;
      readonly rt: number;
      readonly sy: number;
      readonly u: string;
      readonly c: string;
      readonly step: ReassignmentStep;
      readonly sub?: SubmissionInfo;
    }
  | { readonly k: 'topology'; readonly o: number; readonly rt: number; readonly sy: number; readonly u: string; readonly p: string }
  | { readonly k: 'rejection'; readonly o: number; readonly rt: number; readonly sy: number; readonly sub: SubmissionInfo; readonly e: LedgerError };

function contractDoc(c: StoredContract): ContractDoc {
  return {
    id: c.contractId,
    t: c.template.id,
    a: c.argument,
    s: c.signatories,
    o: c.observers,
    st: c.stakeholders,
    ...(c.key === undefined ? {} : { k: c.key }),
    ...(c.keyHash === undefined ? {} : { kh: c.keyHash }),
    n: c.createdNodeId,
    sy: c.synchronizer,
    os: c.originSynchronizer,
    co: c.createdOffset,
    at: c.createdAt,
    ...(c.archivedOffset === ACTIVE ? {} : { ao: c.archivedOffset }),
  };
}

/** The entry as it is written, with the contract effects of its append. */
export function encodeEntry(entry: LogEntry, archived: readonly StoredContract[]): string {
  const base = { o: entry.offset, rt: entry.recordTime, sy: entry.synchronizer };
  let doc: EntryDoc;
  switch (entry.kind) {
    case 'transaction': {
      const createdHere = new Set(entry.nodes.filter((n) => n.kind === 'create').map((n) => n.contract));
      doc = {
        k: 'transaction',
        ...base,
        u: entry.updateId,
        ea: entry.effectiveAt,
        nodes: entry.nodes.map(nodeDoc),
        ...(entry.submission === undefined ? {} : { sub: entry.submission }),
        ...(entry.externalTransactionHash === undefined ? {} : { h: entry.externalTransactionHash }),
        ...(entry.transactionUuid === undefined ? {} : { tu: entry.transactionUuid }),
        ar: archived.filter((c) => !createdHere.has(c)).map((c) => c.contractId),
      };
      break;
    }
    case 'reassignment':
      doc = { k: 'reassignment', ...base, u: entry.updateId, c: entry.contract.contractId, step: entry.step, ...(entry.submission === undefined ? {} : { sub: entry.submission }) };
      break;
    case 'topology':
      doc = { k: 'topology', ...base, u: entry.updateId, p: entry.party };
      break;
    case 'rejection':
      doc = { k: 'rejection', ...base, sub: entry.submission, e: entry.error };
      break;
  }
  return JSON.stringify(doc);
}

function nodeDoc(n: TxNode): NodeDoc {
  if (n.kind === 'create') return { k: 'c', n: n.nodeId, c: contractDoc(n.contract), w: n.witnesses, tr: n.transient };
  return {
    k: 'x',
    n: n.nodeId,
    c: n.contract.contractId,
    ch: n.choice.name,
    ...(n.interface === undefined ? {} : { i: n.interface.id }),
    ...(n.template === undefined ? {} : { t: n.template.id }),
    a: n.argument,
    ap: n.actingParties,
    co: n.consuming,
    w: n.witnesses,
    l: n.lastDescendantNodeId,
    r: n.result,
    ai: n.archivesInput,
  };
}

/** What decoding needs: the catalogue, the contracts replayed so far, and shared party arrays. */
export interface DecodeEnv {
  readonly catalogue: Catalogue;
  contract(contractId: string): StoredContract | undefined;
  /** The same array for equal party lists (a million contracts share a handful of them). */
  parties(list: readonly string[]): readonly string[];
}

/** An entry read back, with the effects to apply to the store and the contract changes it implies. */
export interface DecodedEntry {
  readonly entry: LogEntry;
  readonly created: readonly StoredContract[];
  readonly archived: readonly StoredContract[];
}

export function decodeEntry(text: string, env: DecodeEnv): DecodedEntry {
  const doc = JSON.parse(text) as EntryDoc;
  const base = { offset: doc.o, recordTime: doc.rt, synchronizer: doc.sy };
  const known = (id: string): StoredContract => {
    const c = env.contract(id);
    if (c === undefined) throw new DataDirError(`the update at offset ${doc.o} uses contract ${id}, which no earlier update created`);
    return c;
  };
  switch (doc.k) {
    case 'transaction': {
      const local = new Map<string, StoredContract>();
      for (const n of doc.nodes) if (n.k === 'c') local.set(n.c.id, contractOf(n.c, env));
      const nodes = doc.nodes.map((n): TxNode => {
        if (n.k === 'c') return { kind: 'create', nodeId: n.n, contract: local.get(n.c.id) as StoredContract, witnesses: env.parties(n.w), transient: n.tr } satisfies CreateNode;
        const contract = local.get(n.c) ?? known(n.c);
        const iface = n.i === undefined ? undefined : interfaceOf(n.i, env.catalogue, doc.o);
        const exercised = n.t === undefined ? undefined : templateOf(n.t, env.catalogue, doc.o);
        const owner = iface ?? exercised ?? contract.template;
        const choice = owner.choices.get(n.ch);
        if (choice === undefined) throw new DataDirError(`the update at offset ${doc.o} exercises choice ${n.ch}, which ${owner.id} does not have`);
        return {
          kind: 'exercise',
          nodeId: n.n,
          contract,
          choice: choice as ChoiceDef,
          interface: iface,
          ...(exercised === undefined ? {} : { template: exercised }),
          argument: n.a,
          actingParties: env.parties(n.ap),
          consuming: n.co,
          witnesses: env.parties(n.w),
          lastDescendantNodeId: n.l,
          result: n.r,
          archivesInput: n.ai,
        } satisfies ExerciseNode;
      });
      const archived = doc.ar.map(known);
      for (const c of archived) c.archivedOffset = doc.o;
      for (const c of local.values()) if (!c.isActive) archived.push(c);
      const entry: LogEntry = {
        kind: 'transaction',
        ...base,
        updateId: doc.u,
        effectiveAt: doc.ea,
        nodes,
        submission: doc.sub === undefined ? undefined : submissionOf(doc.sub, env),
        ...(doc.h === undefined ? {} : { externalTransactionHash: doc.h }),
        ...(doc.tu === undefined ? {} : { transactionUuid: doc.tu }),
      };
      return { entry, created: [...local.values()], archived };
    }
    case 'reassignment': {
      const c = known(doc.c);
      const step = doc.step;
      // What Ledger.unassign / assign did to the contract, in the same order.
      if (step.kind === 'unassign') {
        c.inFlight = step;
      } else {
        c.inFlight = undefined;
        c.synchronizer = step.target;
        c.reassignmentCounter = step.counter;
      }
      (c.history ??= []).push(step);
      const entry: LogEntry = { kind: 'reassignment', ...base, updateId: doc.u, contract: c, step, submission: doc.sub === undefined ? undefined : submissionOf(doc.sub, env) };
      return { entry, created: [], archived: [] };
    }
    case 'topology':
      return { entry: { kind: 'topology', ...base, updateId: doc.u, party: doc.p }, created: [], archived: [] };
    case 'rejection':
      return { entry: { kind: 'rejection', ...base, submission: submissionOf(doc.sub, env), error: doc.e }, created: [], archived: [] };
    default:
      throw new DataDirError(`an update of unknown kind ${JSON.stringify((doc as { k?: unknown }).k)} (written by a newer version?)`);
  }
}

function contractOf(d: ContractDoc, env: DecodeEnv): StoredContract {
  const t = env.catalogue.resolve(d.t);
  if (!t.ok || t.value.kind !== 'template') {
    throw new DataDirError(`the ledger holds contracts of template ${d.t}, which this server does not declare (start it with the fixtures and apps that declared it)`);
  }
  const c = new StoredContract(d.id, t.value as TemplateDef, d.a, env.parties(d.s), env.parties(d.o), env.parties(d.st), d.k, d.kh, d.n, d.sy, d.os);
  c.createdOffset = d.co;
  c.createdAt = d.at;
  if (d.ao !== undefined) c.archivedOffset = d.ao;
  return c;
}

function templateOf(id: string, catalogue: Catalogue, offset: number): TemplateDef {
  const t = catalogue.resolve(id);
  if (!t.ok || t.value.kind !== 'template') throw new DataDirError(`the update at offset ${offset} uses template ${id}, which this server does not declare`);
  return t.value;
}

function interfaceOf(id: string, catalogue: Catalogue, offset: number): InterfaceDef {
  const i = catalogue.resolve(id);
  if (!i.ok || i.value.kind !== 'interface') throw new DataDirError(`the update at offset ${offset} uses interface ${id}, which this server does not declare`);
  return i.value;
}

function submissionOf(s: SubmissionInfo, env: DecodeEnv): SubmissionInfo {
  return { ...s, actAs: env.parties(s.actAs), submissionId: s.submissionId, workflowId: s.workflowId };
}
