import type { DamlRecord, Ledger, TemplateDef } from '../../ledger/index.js';
import type { LogEntry } from '../../store/LogEntry.js';
import type { StoredContract } from '../../store/StoredContract.js';

const roundNumber = (c: StoredContract): bigint => BigInt(((c.argument.round ?? {}) as DamlRecord).number as string);

/**
 * What Scan's reward accounting knows about rounds. Ingestion starts when the tracker attaches
 * to the ledger, possibly in the middle of a round, so the first ingested round (the oldest open
 * round then, or the first one opened afterwards) may be incomplete; the earliest complete round
 * is the next one, and its records are final once its ClosedMiningRound has been archived.
 */
export class RoundTracker {
  #firstIngested: bigint | undefined;
  #lastArchived: bigint | undefined;
  readonly #unsubscribe: () => void;

  constructor(
    ledger: Ledger,
    readonly openRound: TemplateDef,
    readonly closedRound: TemplateDef,
  ) {
    // Rounds open at attachment: ingestion catches the oldest of them in the middle.
    for (const c of ledger.store.activeSnapshot({ kind: 'template', template: openRound })) {
      const n = roundNumber(c);
      if (this.#firstIngested === undefined || n < this.#firstIngested) this.#firstIngested = n;
    }
    this.#unsubscribe = ledger.onCommit((entry) => this.#apply(entry));
  }

  get firstIngestedRound(): bigint | undefined {
    return this.#firstIngested;
  }

  /** `first ingested + 1`, once that round is archived; undefined before. */
  earliestCompleteRound(): bigint | undefined {
    if (this.#firstIngested === undefined || this.#lastArchived === undefined) return undefined;
    const earliest = this.#firstIngested + 1n;
    return this.#lastArchived >= earliest ? earliest : undefined;
  }

  detach(): void {
    this.#unsubscribe();
  }

  #apply(entry: LogEntry): void {
    if (entry.kind !== 'transaction') return;
    for (const node of entry.nodes) {
      const c = node.contract;
      if (node.kind === 'create') {
        if (c.template === this.openRound) this.#firstIngested ??= roundNumber(c);
      } else if (node.consuming && c.template === this.closedRound) {
        // Counted also when the closed round was created in this very transaction.
        const n = roundNumber(c);
        if (this.#lastArchived === undefined || n > this.#lastArchived) this.#lastArchived = n;
      }
    }
  }
}
