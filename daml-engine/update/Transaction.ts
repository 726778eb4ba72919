/**
 * The transaction an update builds (transaction.rst "Transactions"): nodes by id, numbered in
 * pre-order as Canton numbers them, the roots, and what the transaction did to contracts.
 */
import type { QualifiedName } from '../ast/Type.js';
import type { RecordValue, Value } from '../value/Value.js';

export type NodeId = number;

export interface CreateNode {
  readonly kind: 'create';
  readonly nodeId: NodeId;
  readonly contractId: string;
  readonly templateId: QualifiedName;
  readonly argument: RecordValue;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
  readonly stakeholders: readonly string[];
}

export interface ExerciseNode {
  readonly kind: 'exercise';
  readonly nodeId: NodeId;
  readonly contractId: string;
  readonly templateId: QualifiedName;
  /** The interface of an `exercise_interface`. */
  readonly interfaceId: QualifiedName | undefined;
  readonly choice: string;
  readonly choiceArgument: Value;
  readonly consuming: boolean;
  /** The controllers. */
  readonly actingParties: readonly string[];
  readonly signatories: readonly string[];
  readonly stakeholders: readonly string[];
  readonly choiceObservers: readonly string[];
  readonly children: readonly NodeId[];
  /** Absent when an exception left the choice (the node then sits under a rollback node). */
  readonly exerciseResult: Value | undefined;
}

export interface FetchNode {
  readonly kind: 'fetch';
  readonly nodeId: NodeId;
  readonly contractId: string;
  readonly templateId: QualifiedName;
  readonly interfaceId: QualifiedName | undefined;
  /** The authorizers that are stakeholders of the contract. */
  readonly actingParties: readonly string[];
  readonly signatories: readonly string[];
  readonly stakeholders: readonly string[];
}

export interface RollbackNode {
  readonly kind: 'rollback';
  readonly nodeId: NodeId;
  readonly children: readonly NodeId[];
}

export type TxNode = CreateNode | ExerciseNode | FetchNode | RollbackNode;

export interface CreatedContract {
  readonly contractId: string;
  readonly templateId: QualifiedName;
  readonly argument: RecordValue;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
}

export interface Transaction {
  /** `nodes[i].nodeId === i`. */
  readonly nodes: readonly TxNode[];
  readonly roots: readonly NodeId[];
  /**
   * Seeds (hex) of create and exercise nodes, by node id, in node order: kept beside the nodes,
   * as Canton keeps them in the transaction's metadata. A create's contract id derives from its
   * seed (contract-id.rst).
   */
  readonly nodeSeeds: readonly (readonly [NodeId, string])[];
  /** Contracts created outside rollback nodes, in node order (some may be archived later in it). */
  readonly created: readonly CreatedContract[];
  /** Contracts a consuming exercise outside rollback nodes archived, in node order. */
  readonly archived: readonly string[];
}

/** `tx` as plain data, its node seeds written out (a built transaction derives them when first read): what JSON and structured clone can carry. */
export function plainTransaction(tx: Transaction): Transaction {
  return { nodes: tx.nodes, roots: tx.roots, nodeSeeds: tx.nodeSeeds, created: tx.created, archived: tx.archived };
}

/** The seed (hex) of node `nodeId` of `tx`, if it has one (a create or an exercise). */
export function nodeSeedOf(tx: Transaction, nodeId: NodeId): string | undefined {
  for (const [id, seed] of tx.nodeSeeds) if (id === nodeId) return seed;
  return undefined;
}
