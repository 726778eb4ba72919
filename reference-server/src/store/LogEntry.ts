import type { LedgerError } from '../ledger/errors.js';
import type { ChoiceDef, InterfaceDef, TemplateDef } from '../ledger/templates/Catalogue.js';
import type { DamlValue, DeduplicationPeriod } from '../ledger/wire.js';
import type { ReassignmentStep, StoredContract } from './StoredContract.js';

/** Who submitted an update, for completions and deduplication. */
export interface SubmissionInfo {
  readonly userId: string;
  /** Sorted, interned. */
  readonly actAs: readonly string[];
  readonly commandId: string;
  readonly submissionId: string | undefined;
  readonly workflowId: string | undefined;
  /** The period that was applied, as completions report it. */
  readonly deduplicationPeriod: DeduplicationPeriod;
  /** The prepared-transaction hash the external submitter signed (base64), on its completion whether accepted or rejected. */
  readonly transactionHash?: string;
}

export interface CreateNode {
  readonly kind: 'create';
  readonly nodeId: number;
  readonly contract: StoredContract;
  /** Parties that see this node: informees plus the witnesses of its ancestors. */
  readonly witnesses: readonly string[];
  /** Archived again within the same transaction: not part of the ACS delta. */
  transient: boolean;
}

export interface ExerciseNode {
  readonly kind: 'exercise';
  readonly nodeId: number;
  readonly contract: StoredContract;
  readonly choice: ChoiceDef;
  readonly interface: InterfaceDef | undefined;
  /**
   * The template whose choice ran, when it is another version of the contract's (smart contract
   * upgrades: ExercisedEvent.template_id names it); absent, the contract's own.
   */
  readonly template?: TemplateDef;
  readonly argument: DamlValue;
  readonly actingParties: readonly string[];
  readonly consuming: boolean;
  readonly witnesses: readonly string[];
  lastDescendantNodeId: number;
  result: DamlValue;
  /** Consumes a contract created before this transaction (an ACS delta archive). */
  archivesInput: boolean;
}

export type TxNode = CreateNode | ExerciseNode;

interface EntryBase {
  readonly offset: number;
  readonly recordTime: number;
  /** Synchronizer index. */
  readonly synchronizer: number;
}

export interface TransactionEntry extends EntryBase {
  readonly kind: 'transaction';
  readonly updateId: string;
  readonly effectiveAt: number;
  readonly nodes: readonly TxNode[];
  readonly submission: SubmissionInfo | undefined;
  /** The prepared transaction hash of an externally signed transaction (base64). */
  readonly externalTransactionHash?: string;
  /** The prepared transaction's UUID of an externally signed transaction: it commits at most once. */
  readonly transactionUuid?: string;
}

export interface ReassignmentEntry extends EntryBase {
  readonly kind: 'reassignment';
  readonly updateId: string;
  readonly contract: StoredContract;
  readonly step: ReassignmentStep;
  readonly submission: SubmissionInfo | undefined;
}

export interface TopologyEntry extends EntryBase {
  readonly kind: 'topology';
  readonly updateId: string;
  readonly party: string;
}

/** A refused submission: no update, but it has an offset and a completion. */
export interface RejectionEntry extends EntryBase {
  readonly kind: 'rejection';
  readonly submission: SubmissionInfo;
  readonly error: LedgerError;
}

export type LogEntry = TransactionEntry | ReassignmentEntry | TopologyEntry | RejectionEntry;
