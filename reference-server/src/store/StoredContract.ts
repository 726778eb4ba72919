import type { TemplateDef } from '../ledger/templates/Catalogue.js';
import type { DamlRecord, DamlValue } from '../ledger/wire.js';

/** Archive offset of a contract that is still active. */
export const ACTIVE = Number.MAX_SAFE_INTEGER;

/** One step of a contract's travel between synchronizers, kept for historical ACS queries. */
export interface ReassignmentStep {
  readonly offset: number;
  readonly kind: 'unassign' | 'assign';
  readonly reassignmentId: string;
  readonly source: number;
  readonly target: number;
  readonly counter: number;
  readonly submitter: string;
}

/** How a create argument is made on first read (an engine contract: most are never read as JSON). */
export type ArgumentMaker = () => DamlRecord;

/**
 * A contract as the store keeps it. One instance per contract, shared by every index and log
 * entry, so its size decides how many contracts fit in memory: party arrays are interned, the
 * template is a shared reference, and the wire JSON is built only when asked for (the engine's
 * contracts make even their argument's JSON on first read).
 */
export class StoredContract {
  /** The argument's JSON once made, or how to make it (one field: either is all a contract holds). */
  #argument: DamlRecord | ArgumentMaker;
  /** Set when the creating transaction commits. */
  createdOffset = 0;
  createdAt = 0;
  archivedOffset = ACTIVE;
  reassignmentCounter = 0;
  /** Present while unassigned and not yet assigned: the contract is in flight. */
  inFlight: ReassignmentStep | undefined = undefined;
  history: ReassignmentStep[] | undefined = undefined;

  constructor(
    readonly contractId: string,
    readonly template: TemplateDef,
    /** The create argument as the JSON API shows it, or how to make it when first read. */
    argument: DamlRecord | ArgumentMaker,
    readonly signatories: readonly string[],
    /** Stakeholders that are not signatories, as CreatedEvent.observers reports them. */
    readonly observers: readonly string[],
    readonly stakeholders: readonly string[],
    readonly key: DamlValue | undefined,
    /** Template id + canonical key, the key index's key. */
    readonly keyHash: string | undefined,
    readonly createdNodeId: number,
    /** Index of the synchronizer in the configuration. */
    public synchronizer: number,
    public originSynchronizer: number = synchronizer,
  ) {
    this.#argument = argument;
  }

  /** The create argument as the JSON API shows it (made on first read where the engine created the contract). */
  get argument(): DamlRecord {
    const a = this.#argument;
    if (typeof a !== 'function') return a;
    const made = a();
    this.#argument = made;
    return made;
  }

  /** The argument's JSON if it was made already (never makes it). */
  get argumentIfMade(): DamlRecord | undefined {
    const a = this.#argument;
    return typeof a === 'function' ? undefined : a;
  }

  get isActive(): boolean {
    return this.archivedOffset === ACTIVE;
  }

  /** Was the contract active (created, not archived) at offset `at`? */
  activeAt(at: number): boolean {
    return this.createdOffset > 0 && this.createdOffset <= at && this.archivedOffset > at;
  }

  /** Where the contract was at offset `at`: assigned to a synchronizer, or in flight. */
  locationAt(at: number): { synchronizer: number; counter: number; inFlight: ReassignmentStep | undefined } {
    if (this.history === undefined || (this.history[0]?.offset ?? ACTIVE) > at) {
      return { synchronizer: this.originSynchronizer, counter: 0, inFlight: undefined };
    }
    let loc = { synchronizer: this.originSynchronizer, counter: 0, inFlight: undefined as ReassignmentStep | undefined };
    for (const step of this.history) {
      if (step.offset > at) break;
      loc =
        step.kind === 'unassign'
          ? { synchronizer: step.source, counter: step.counter, inFlight: step }
          : { synchronizer: step.target, counter: step.counter, inFlight: undefined };
    }
    return loc;
  }
}
