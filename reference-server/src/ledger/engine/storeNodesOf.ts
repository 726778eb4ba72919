import { sortedUnique } from '../../../../daml-engine/update/partySets.js';
import type { CreateNode as EngineCreateNode, ExerciseNode as EngineExercise, Transaction } from '../../../../daml-engine/update/Transaction.js';
import type { CreateNode, ExerciseNode, TxNode } from '../../store/LogEntry.js';
import { StoredContract } from '../../store/StoredContract.js';
import { Interner } from '../intern.js';
import type { InterfaceDef, TemplateDef } from '../templates/Catalogue.js';
import type { DamlRecord, DamlValue } from '../wire.js';
import type { EngineChoiceDef } from './EngineCatalogue.js';
import type { EngineRuntime } from './EngineRuntime.js';
import type { RenderedNode, RenderedTransaction } from './engineWorkerProtocol.js';

export interface StoreNodes {
  readonly nodes: readonly TxNode[];
  readonly created: readonly StoredContract[];
  /** Contracts from before the transaction that a consuming exercise archived. */
  readonly consumed: readonly StoredContract[];
}

/**
 * The engine's transaction as the store keeps one: create and exercise nodes with the engine's
 * node ids (pre-order, rollback and fetch nodes counted but not shown, as Canton's events), each
 * with its witnesses: the node's informees plus those of its ancestors (transaction.rst,
 * "Projections"). Rolled-back subtrees are left out; their effects never happened.
 */
export function storeNodesOf(rt: EngineRuntime, interner: Interner, tx: Transaction | RenderedTransaction, inputs: ReadonlyMap<string, StoredContract>, ledgerTime: number): StoreNodes {
  const nodes: TxNode[] = [];
  const created = new Map<string, StoredContract>();
  const consumed: StoredContract[] = [];
  let consumedInTx: Set<string> | undefined;
  // An explicit stack (exercises nest as deep as Daml recursion does): node ids and, beside
  // them, the witnesses of the nodes above.
  const ids: number[] = [];
  const aboves: (readonly string[])[] = [];
  for (let i = tx.roots.length - 1; i >= 0; i--) { ids.push(tx.roots[i]!); aboves.push(Interner.EMPTY); }
  while (ids.length > 0) {
    const id = ids.pop()!;
    const above = aboves.pop()!;
    const n = tx.nodes[id];
    if (n === undefined || n.kind === 'rollback' || n.kind === 'fetch') continue;
    if (n.kind === 'create') {
      const template = rt.catalogue.template(n.templateId);
      if (!template) throw new Error(`the engine created a contract of ${n.templateId.module}:${n.templateId.name}, which no uploaded package declares`);
      // The JSON is made when first read (the JSON API, a blob, the durable store): a Daml Script
      // run or a command answered without its transaction never reads most of them. The engine
      // thread's transaction holds it as text already: parsed when first read.
      const value = n.argument;
      const type = template.engine.type;
      const argument = typeof value === 'string' ? () => JSON.parse(value) as DamlRecord : () => rt.json(value, type) as DamlRecord;
      const signatories = interner.set(n.signatories);
      const stakeholders = interner.set(n.stakeholders);
      const observers = n.stakeholders.length === signatories.length ? Interner.EMPTY : interner.set(n.stakeholders.filter((p) => !signatories.includes(p)));
      const contract = new StoredContract(n.contractId, template, argument, signatories, observers, stakeholders, undefined, undefined, n.nodeId, 0);
      contract.createdAt = ledgerTime;
      created.set(n.contractId, contract);
      const node: CreateNode = { kind: 'create', nodeId: n.nodeId, contract, witnesses: interner.union(stakeholders, above), transient: false };
      nodes.push(node);
      continue;
    }
    const contract = created.get(n.contractId) ?? inputs.get(n.contractId);
    if (!contract) throw new Error(`the engine exercised ${n.contractId}, which it neither created nor looked up`);
    const iface = n.interfaceId === undefined ? undefined : rt.catalogue.interface(n.interfaceId);
    const template = rt.catalogue.template(n.templateId);
    const choice = (iface ?? template)?.choices.get(n.choice);
    if (!choice) throw new Error(`the engine exercised choice ${n.choice}, which ${n.templateId.module}:${n.templateId.name} does not declare`);
    const informees = informeesOf(n.consuming ? n.stakeholders : n.signatories, n.actingParties, n.choiceObservers);
    const witnesses = interner.union(interner.set(informees), above);
    const archivesInput = n.consuming && !created.has(n.contractId);
    // Another version of the contract's template ran the choice (smart contract upgrades).
    const exercised = template !== undefined && template.id !== contract.template.id ? template : undefined;
    const node = new EngineExerciseNode(
      n.nodeId, contract, choice, iface, interner.set(n.actingParties), n.consuming, witnesses, lastDescendant(tx, n.nodeId), archivesInput, rt, n, exercised,
    );
    nodes.push(node);
    if (n.consuming) {
      (consumedInTx ??= new Set()).add(n.contractId);
      if (archivesInput) consumed.push(contract);
    }
    for (let i = n.children.length - 1; i >= 0; i--) { ids.push(n.children[i]!); aboves.push(witnesses); }
  }
  for (const node of nodes) {
    if (node.kind !== 'create') continue;
    node.transient = consumedInTx?.has(node.contract.contractId) ?? false;
    // A contract archived in its own transaction is never an input: no engine value to keep (nor
    // one of the engine thread's: a run on this thread decodes it from the JSON if it needs it).
    const made = (tx.nodes[node.nodeId] as EngineCreateNode | RenderedCreate).argument;
    if (!node.transient && typeof made !== 'string') rt.remember(node.contract, made);
  }
  for (const c of consumed) rt.forget(c);
  return { nodes, created: [...created.values()], consumed };
}

/** An exercise's informees, sorted: the parties of `base` (sorted), the acting parties and the choice observers. */
function informeesOf(base: readonly string[], acting: readonly string[], observers: readonly string[]): readonly string[] {
  // Controllers are most often signatories, and choice observers rare: then `base` is the answer.
  if (observers.length === 0 && acting.every((p) => base.includes(p))) return base;
  return sortedUnique([...base, ...acting, ...observers]);
}

type RenderedCreate = Extract<RenderedNode, { kind: 'create' }>;
type RenderedExercise = Extract<RenderedNode, { kind: 'exercise' }>;

/** The last node of a subtree in pre-order: follow the last child down. */
function lastDescendant(tx: Transaction | RenderedTransaction, nodeId: number): number {
  let id = nodeId;
  for (;;) {
    const n = tx.nodes[id];
    const children = n && (n.kind === 'exercise' || n.kind === 'rollback') ? n.children : [];
    if (children.length === 0) return id;
    id = children[children.length - 1] as number;
  }
}

/**
 * An exercise node of the engine's as the store keeps it, the JSON of its argument and result
 * made when first read (the JSON API, the durable store): a Daml Script run, or a command answered
 * without its transaction, never reads most of them. Until then it holds the engine's values (or,
 * made on the engine thread, their JSON text).
 */
class EngineExerciseNode implements ExerciseNode {
  readonly kind = 'exercise' as const;
  #argument: DamlValue | undefined = undefined;
  #result: DamlValue | undefined = undefined;
  #rt: EngineRuntime | undefined;
  #engine: EngineExercise | RenderedExercise | undefined;

  constructor(
    readonly nodeId: number,
    readonly contract: StoredContract,
    readonly choice: EngineChoiceDef,
    readonly iface: InterfaceDef | undefined,
    readonly actingParties: readonly string[],
    readonly consuming: boolean,
    readonly witnesses: readonly string[],
    public lastDescendantNodeId: number,
    public archivesInput: boolean,
    rt: EngineRuntime,
    engine: EngineExercise | RenderedExercise,
    readonly template?: TemplateDef,
  ) {
    this.#rt = rt;
    this.#engine = engine;
  }

  get interface(): InterfaceDef | undefined {
    return this.iface;
  }

  get argument(): DamlValue {
    if (this.#argument === undefined) {
      const made = this.#engine!.choiceArgument;
      this.#argument = typeof made === 'string' ? (JSON.parse(made) as DamlValue) : this.#rt!.json(made, this.choice.engine.argBinder.type);
      this.#release();
    }
    return this.#argument;
  }

  get result(): DamlValue {
    if (this.#result === undefined) {
      const r = this.#engine!.exerciseResult;
      this.#result = r === undefined ? null : typeof r === 'string' ? (JSON.parse(r) as DamlValue) : this.#rt!.json(r, this.choice.engine.returnType);
      this.#release();
    }
    return this.#result;
  }

  set result(value: DamlValue) {
    this.#result = value;
    this.#release();
  }

  /** Lets go of the engine's node once both JSONs are made. */
  #release(): void {
    if (this.#argument !== undefined && this.#result !== undefined) {
      this.#rt = undefined;
      this.#engine = undefined;
    }
  }
}
