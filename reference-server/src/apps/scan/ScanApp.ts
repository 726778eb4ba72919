import type { Ledger, LedgerError, Result } from '../../ledger/index.js';
import { fail, ok, toTimestamp } from '../../ledger/index.js';
import type { StoredContract } from '../../store/StoredContract.js';
import { ContractIndex } from '../ContractIndex.js';
import { partyIdProblem } from '../partyIdProblem.js';
import type { AppTemplates } from '../registerAppTemplates.js';
import { compareTimes } from '../time.js';
import { RoundTracker } from './RoundTracker.js';
import type { ContractWithState, GetRewardAccountingEarliestAvailableRoundResponse, LookupTransferPreapprovalByPartyResponse, ScanContract } from './types.js';

export interface ScanOptions {
  /**
   * Whether this Scan runs reward accounting (CIP-0104 app-activity ingestion). Default true;
   * when false the earliest-round read answers 404 "Reward accounting is not enabled".
   */
  readonly rewardAccounting?: boolean;
}

/**
 * Splice Scan's two reads (group C), answered from indexes the app keeps current from the
 * ledger's commits: transfer preapprovals by receiver (newest `validFrom` first) and the round
 * tracker of reward accounting. Lookups cost the same with ten or a million contracts.
 */
export class ScanApp {
  readonly #preapprovals: ContractIndex;
  readonly #rounds: RoundTracker | undefined;
  /** Rendered contracts by stored contract: entries go when the ledger lets go of the contract. */
  readonly #rendered = new WeakMap<StoredContract, ScanContract>();

  constructor(
    readonly ledger: Ledger,
    templates: AppTemplates,
    options: ScanOptions = {},
  ) {
    this.#preapprovals = new ContractIndex(
      ledger,
      templates.transferPreapproval,
      (c) => [c.argument.receiver as string],
      // Newest validFrom first; of equal ones the latest created.
      (a, b) => compareTimes(b.argument.validFrom as string, a.argument.validFrom as string) || b.createdOffset - a.createdOffset || b.createdNodeId - a.createdNodeId,
    );
    this.#rounds = options.rewardAccounting === false ? undefined : new RoundTracker(ledger, templates.openMiningRound, templates.closedMiningRound);
  }

  /**
   * GET /v0/transfer-preapprovals/by-party/{party}: the active TransferPreapproval whose receiver
   * is `party`. Expired ones that nobody archived yet are still answered, as Scan does.
   */
  lookupTransferPreapprovalByParty(party: string): Result<LookupTransferPreapprovalByPartyResponse, LedgerError> {
    const problem = partyIdProblem(party);
    if (problem !== undefined) return fail('INVALID_ARGUMENT', problem);
    const c = this.#preapprovals.first(party);
    if (c === undefined) return fail('TRANSFER_PREAPPROVAL_NOT_FOUND', `No TransferPreapproval found for party: ${party}`);
    return ok({ transfer_preapproval: this.#contractWithState(c) });
  }

  /** GET /v0/internal/reward-accounting-process/rounds/earliest-available (and its pre-0.6.5 path). */
  earliestAvailableRound(): Result<GetRewardAccountingEarliestAvailableRoundResponse, LedgerError> {
    if (this.#rounds === undefined) return fail('REWARD_ACCOUNTING_NOT_ENABLED', 'Reward accounting is not enabled');
    const earliest = this.#rounds.earliestCompleteRound();
    if (earliest === undefined) return fail('REWARD_ACCOUNTING_NO_DATA', 'No reward accounting data available yet');
    return ok({ earliest_round: Number(earliest) });
  }

  /** The round tracker, for tests and diagnostics; undefined when reward accounting is off. */
  get rounds(): RoundTracker | undefined {
    return this.#rounds;
  }

  detach(): void {
    this.#preapprovals.detach();
    this.#rounds?.detach();
  }

  #contractWithState(c: StoredContract): ContractWithState {
    // A contract's Scan form never changes (only where it is assigned does): it is rendered, blob
    // included, on its first lookup and kept with the contract, as Scan's store keeps the blob.
    let contract = this.#rendered.get(c);
    if (contract === undefined) {
      contract = {
        template_id: c.template.id,
        contract_id: c.contractId,
        payload: c.argument,
        created_event_blob: this.ledger.createdEventBlob(c.contractId) as string,
        created_at: toTimestamp(c.createdAt),
      };
      this.#rendered.set(c, contract);
    }
    const synchronizer = this.ledger.config.synchronizers[c.synchronizer];
    // While in flight the contract has no synchronizer to name.
    return c.inFlight === undefined && synchronizer !== undefined ? { contract, domain_id: synchronizer.id } : { contract };
  }
}
