/**
 * Builds a transaction while an update runs: a stack of open contexts (the root, then one per
 * exercise being run), node seeds, the contracts the transaction created and consumed, and
 * checkpoints a try/catch rolls back to (transaction.rst "Rollback nodes").
 *
 * Node seeds follow contract-id.rst: action child `i` of the root derives from the transaction
 * seed, action child `i` of an exercise from the exercise's seed. Every action (create, exercise,
 * fetch) takes the next index of its context; a try block continues its parent's count, and a
 * rolled-back subtree keeps the indices it used, so seeds never repeat.
 */
import type { QualifiedName } from '../ast/Type.js';
import type { RecordValue, Value } from '../value/Value.js';
import type { Seed } from './seeds.js';
import { LazySeed } from './seeds.js';
import { plainTransaction, type CreatedContract, type NodeId, type Transaction, type TxNode } from './Transaction.js';

type Draft =
  | { readonly kind: 'create'; readonly contractId: string; readonly templateId: QualifiedName; readonly argument: RecordValue; readonly signatories: readonly string[]; readonly observers: readonly string[]; readonly stakeholders: readonly string[]; readonly seed: LazySeed }
  | {
      readonly kind: 'exercise'; readonly contractId: string; readonly templateId: QualifiedName; readonly interfaceId: QualifiedName | undefined;
      readonly choice: string; readonly choiceArgument: Value; readonly consuming: boolean; readonly actingParties: readonly string[];
      readonly signatories: readonly string[]; readonly stakeholders: readonly string[]; readonly choiceObservers: readonly string[];
      readonly children: Draft[]; result: Value | undefined; readonly seed: LazySeed;
    }
  | { readonly kind: 'fetch'; readonly contractId: string; readonly templateId: QualifiedName; readonly interfaceId: QualifiedName | undefined; readonly actingParties: readonly string[]; readonly signatories: readonly string[]; readonly stakeholders: readonly string[] }
  | { readonly kind: 'rollback'; readonly children: Draft[] };

export type ExerciseDraft = Omit<Extract<Draft, { kind: 'exercise' }>, 'kind' | 'children' | 'result' | 'seed'>;
export type CreateDraft = Omit<Extract<Draft, { kind: 'create' }>, 'kind' | 'seed'>;
export type FetchDraft = Omit<Extract<Draft, { kind: 'fetch' }>, 'kind'>;

interface Context {
  readonly exercise: Extract<Draft, { kind: 'exercise' }> | undefined;
  /** The exercise's id in the Daml engine's allocation order (see `nextNodeId`). */
  readonly exerciseNodeId: number;
  readonly children: Draft[];
  /** Index of the next action child: its seed is `deriveNodeSeed(seed, next)`. */
  next: number;
  readonly seed: LazySeed | Seed;
  readonly authorizers: ReadonlySet<string>;
}

/** Where a try block began: what a rollback restores. */
export interface Checkpoint {
  readonly depth: number;
  /** The try block's own id in allocation order (the rollback node it may become). */
  readonly nodeId: number;
  readonly childCount: number;
  readonly createdCount: number;
  readonly consumedCount: number;
}

/**
 * The stacks `finish` numbers nodes with, kept between calls (every command finishes one
 * transaction; fresh arrays would each allocate their room again). Finishing is synchronous and
 * never re-entered, and a finished walk leaves them empty.
 */
const DRAFTS: Draft[] = [];
const OUTS: NodeId[][] = [];
const IN_ROLLBACKS: boolean[] = [];

export class TransactionBuilder {
  private readonly contexts: Context[];
  /** Contracts created so far, in order (truncated by a rollback). */
  private readonly createdLog: string[] = [];
  /** Made on first use, as `consumers` (most commands create or consume one contract, or none). */
  private createdSet: Set<string> | undefined;
  private readonly consumedLog: string[] = [];
  /** The allocation-order id of the exercise that consumed each contract (`ContractNotActive`). */
  private consumers: Map<string, number> | undefined;
  /**
   * Node ids as the Daml engine allocates them while it runs (PartialTransaction.nextNodeIdx):
   * one per create, fetch, exercise and try block, in the order they begin, rolled-back ones
   * included. Its errors name nodes by these ids (`node NodeId(3) ...`), not by the pre-order
   * ids of the finished transaction.
   */
  private allocated = 0;
  /** Whether any rollback node was made (without one, normalization changes nothing). */
  private rolledBack = false;

  constructor(transactionSeed: Seed, submitters: readonly string[]) {
    this.contexts = [{ exercise: undefined, exerciseNodeId: -1, children: [], next: 0, seed: transactionSeed, authorizers: new Set(submitters) }];
  }

  /** The id the next node will take in allocation order: the one a failing action is named by. */
  get nextNodeId(): number {
    return this.allocated;
  }

  /** The allocation-order id of the exercise that consumed `contractId` in this transaction. */
  consumedBy(contractId: string): number | undefined {
    return this.consumers?.get(contractId);
  }

  /** The exercises being run, innermost first, with their allocation-order ids. */
  openExercises(): { readonly nodeId: number; readonly exercise: ExerciseDraft }[] {
    const out: { nodeId: number; exercise: ExerciseDraft }[] = [];
    for (let i = this.contexts.length - 1; i > 0; i--) {
      const c = this.contexts[i]!;
      if (c.exercise) out.push({ nodeId: c.exerciseNodeId, exercise: c.exercise });
    }
    return out;
  }

  private get top(): Context {
    return this.contexts[this.contexts.length - 1]!;
  }

  /** The parties whose authority the running update has (transaction.rst "Authorization"). */
  get authorizers(): ReadonlySet<string> {
    return this.top.authorizers;
  }

  /** Whether no exercise is running: the authorizers are then the submitters. */
  get atRoot(): boolean {
    return this.contexts.length === 1;
  }

  /** Whether this transaction created `contractId` outside a rolled-back subtree. */
  isCreated(contractId: string): boolean {
    return this.createdSet?.has(contractId) ?? false;
  }

  isConsumed(contractId: string): boolean {
    return this.consumers?.has(contractId) ?? false;
  }

  /** Reserves the seed of the next action node of the running context (derived when first read). */
  nextSeed(): LazySeed {
    const top = this.top;
    return new LazySeed(top.seed, top.next++);
  }

  addCreate(c: CreateDraft, seed: LazySeed): void {
    this.allocated++;
    this.top.children.push({
      kind: 'create', contractId: c.contractId, templateId: c.templateId, argument: c.argument,
      signatories: c.signatories, observers: c.observers, stakeholders: c.stakeholders, seed,
    });
    this.createdLog.push(c.contractId);
    (this.createdSet ??= new Set()).add(c.contractId);
  }

  addFetch(fetch: FetchDraft): void {
    // A fetch is an action: it takes an index, though its node keeps no seed (so none is derived).
    this.top.next++;
    this.allocated++;
    this.top.children.push({ kind: 'fetch', ...fetch });
  }

  /** Opens an exercise node; its consequences run with `authorizers`. */
  beginExercise(exercise: ExerciseDraft, authorizers: ReadonlySet<string>): void {
    const seed = this.nextSeed();
    const nodeId = this.allocated++;
    const e = exercise;
    const node: Extract<Draft, { kind: 'exercise' }> = {
      kind: 'exercise', contractId: e.contractId, templateId: e.templateId, interfaceId: e.interfaceId, choice: e.choice,
      choiceArgument: e.choiceArgument, consuming: e.consuming, actingParties: e.actingParties, signatories: e.signatories,
      stakeholders: e.stakeholders, choiceObservers: e.choiceObservers, children: [], result: undefined, seed,
    };
    this.top.children.push(node);
    // Consumed when the choice begins: its own body cannot fetch or exercise the contract again.
    if (exercise.consuming) this.consume(exercise.contractId, nodeId);
    this.contexts.push({ exercise: node, exerciseNodeId: nodeId, children: node.children, next: 0, seed, authorizers });
  }

  endExercise(result: Value): void {
    const context = this.contexts.pop();
    if (!context?.exercise || this.contexts.length === 0) throw new Error('endExercise without an open exercise');
    context.exercise.result = result;
  }

  private consume(contractId: string, by: number): void {
    this.consumedLog.push(contractId);
    (this.consumers ??= new Map()).set(contractId, by);
  }

  /** Where a try block begins; the block takes a node id, as the engine's `beginTry` does. */
  checkpoint(): Checkpoint {
    return { depth: this.contexts.length, nodeId: this.allocated++, childCount: this.top.children.length, createdCount: this.createdLog.length, consumedCount: this.consumedLog.length };
  }

  /**
   * Rolls back to `checkpoint`: exercises left open by the exception stay in the tree without a
   * result, everything since the checkpoint moves under one rollback node, and contracts created
   * or consumed since then are as before.
   */
  rollbackTo(checkpoint: Checkpoint): void {
    if (this.contexts.length < checkpoint.depth) throw new Error('rollback past its try block');
    this.contexts.length = checkpoint.depth;
    const top = this.top;
    const moved = top.children.splice(checkpoint.childCount);
    top.children.push({ kind: 'rollback', children: moved });
    this.rolledBack = true;
    for (const id of this.createdLog.splice(checkpoint.createdCount)) this.createdSet?.delete(id);
    for (const id of this.consumedLog.splice(checkpoint.consumedCount)) {
      this.consumers?.delete(id);
    }
  }

  /** The finished transaction: rollback nodes normalized, then node ids in pre-order from 0. */
  finish(): Transaction {
    if (this.contexts.length !== 1) throw new Error('finish with an exercise still open');
    const nodes: TxNode[] = [];
    // Seeds are read as hex only by prepared transactions and tests: derived and written on demand.
    const seeded: { readonly nodeId: NodeId; readonly seed: LazySeed }[] = [];
    const created: CreatedContract[] = [];
    const archived: string[] = [];

    // Pre-order with an explicit stack (nesting depth is the Daml program's, not the JS stack's):
    // three parallel stacks, the draft, the id list it goes to, and whether it is rolled back.
    const drafts = DRAFTS;
    const outs = OUTS;
    const inRollbacks = IN_ROLLBACKS;
    const number = (roots: readonly Draft[]): NodeId[] => {
      const ids: NodeId[] = [];
      for (let i = roots.length - 1; i >= 0; i--) { drafts.push(roots[i]!); outs.push(ids); inRollbacks.push(false); }
      while (drafts.length > 0) {
        const draft = drafts.pop()!;
        const out = outs.pop()!;
        const inRollback = inRollbacks.pop()!;
        const nodeId = nodes.length;
        out.push(nodeId);
        switch (draft.kind) {
          case 'create': {
            const seed = draft.seed;
            nodes.push({
              kind: 'create', nodeId, contractId: draft.contractId, templateId: draft.templateId, argument: draft.argument,
              signatories: draft.signatories, observers: draft.observers, stakeholders: draft.stakeholders,
            });
            seeded.push({ nodeId, seed });
            if (!inRollback) created.push({ contractId: draft.contractId, templateId: draft.templateId, argument: draft.argument, signatories: draft.signatories, observers: draft.observers });
            break;
          }
          case 'fetch': {
            nodes.push({
              kind: 'fetch', nodeId, contractId: draft.contractId, templateId: draft.templateId, interfaceId: draft.interfaceId,
              actingParties: draft.actingParties, signatories: draft.signatories, stakeholders: draft.stakeholders,
            });
            break;
          }
          case 'exercise': case 'rollback': {
            const children: NodeId[] = [];
            const inner = inRollback || draft.kind === 'rollback';
            const kids = draft.children;
            if (draft.kind === 'exercise') {
              const d = draft;
              const seed = d.seed;
              nodes.push({
                kind: 'exercise', nodeId, contractId: d.contractId, templateId: d.templateId, interfaceId: d.interfaceId, choice: d.choice,
                choiceArgument: d.choiceArgument, consuming: d.consuming, actingParties: d.actingParties, signatories: d.signatories,
                stakeholders: d.stakeholders, choiceObservers: d.choiceObservers, children, exerciseResult: d.result,
              });
              seeded.push({ nodeId, seed });
              if (!inRollback && draft.consuming) archived.push(draft.contractId);
            } else {
              nodes.push({ kind: 'rollback', nodeId, children });
            }
            for (let i = kids.length - 1; i >= 0; i--) { drafts.push(kids[i]!); outs.push(children); inRollbacks.push(inner); }
            break;
          }
        }
      }
      return ids;
    };
    const top = this.contexts[0]!.children;
    const roots = number(this.rolledBack ? normalize(top) : top);
    return new BuiltTransaction(nodes, roots, seeded, created, archived);
  }
}

/**
 * The Daml engine's rollback normalization, bottom-up, with an explicit stack (exercises may nest
 * as deep as the Daml program recursed):
 *   1. a rollback of nothing is dropped;
 *   2. ROLL [ROLL [xs], ys] becomes ROLL [xs], ROLL [ys];
 *   3. ROLL [xs, ROLL [ys]] becomes ROLL [xs, ys].
 * Roots are not themselves wrapped: the rules apply to what a rollback node holds.
 */
function normalize(roots: readonly Draft[]): Draft[] {
  type Frame = { readonly draft: Draft | undefined; readonly kids: readonly Draft[]; i: number; readonly acc: Draft[] };
  const stack: Frame[] = [{ draft: undefined, kids: roots, i: 0, acc: [] }];
  for (;;) {
    const top = stack[stack.length - 1]!;
    if (top.i < top.kids.length) {
      const d = top.kids[top.i++]!;
      if (d.kind === 'exercise' || d.kind === 'rollback') stack.push({ draft: d, kids: d.children, i: 0, acc: [] });
      else top.acc.push(d);
      continue;
    }
    stack.pop();
    if (!top.draft) return top.acc;
    const parent = stack[stack.length - 1]!;
    if (top.draft.kind === 'exercise') parent.acc.push({ ...top.draft, children: top.acc });
    else parent.acc.push(...makeRollback(top.acc));
  }
}

/** A rollback of already normalized nodes, normalized. */
function makeRollback(items: readonly Draft[]): Draft[] {
  const out: Draft[] = [];
  let i = 0;
  while (i < items.length && items[i]!.kind === 'rollback') out.push(items[i++]!); // rule 2
  const rest = items.slice(i);
  if (rest.length === 0) return out; // rule 1
  const last = rest[rest.length - 1]!;
  if (rest.length > 1 && last.kind === 'rollback') out.push({ kind: 'rollback', children: [...rest.slice(0, -1), ...last.children] }); // rule 3
  else out.push({ kind: 'rollback', children: rest });
  return out;
}

/** A finished transaction: its node seeds are derived and written as hex when first read. */
class BuiltTransaction implements Transaction {
  readonly #seeded: readonly { readonly nodeId: NodeId; readonly seed: LazySeed }[];
  #nodeSeeds: (readonly [NodeId, string])[] | undefined;

  constructor(
    readonly nodes: readonly TxNode[],
    readonly roots: readonly NodeId[],
    seeded: readonly { readonly nodeId: NodeId; readonly seed: LazySeed }[],
    readonly created: readonly CreatedContract[],
    readonly archived: readonly string[],
  ) {
    this.#seeded = seeded;
  }

  get nodeSeeds(): readonly (readonly [NodeId, string])[] {
    return (this.#nodeSeeds ??= this.#seeded.map((s) => [s.nodeId, s.seed.hex] as const));
  }

  /** As a plain transaction's JSON (the seeds included). */
  toJSON(): Transaction {
    return plainTransaction(this);
  }
}
