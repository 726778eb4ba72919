import type { Ledger, LedgerError, Result } from '../../ledger/index.js';
import { fail, ok, PARTICIPANT_ADMIN_USER, toTimestamp } from '../../ledger/index.js';
import type { StoredContract } from '../../store/StoredContract.js';
import { ContractIndex } from '../ContractIndex.js';
import { partyIdProblem } from '../partyIdProblem.js';
import type { AppTemplates } from '../registerAppTemplates.js';
import { compareTimes } from '../time.js';
import { text } from '../amulet/amuletContext.js';
import { AmuletLedgerView } from '../amulet/AmuletLedgerView.js';
import { RoundAutomation, type RoundKeeper } from '../amulet/RoundAutomation.js';
import { RoundTracker } from './RoundTracker.js';
import type {
  ContractWithState,
  GetDsoInfoResponse,
  GetMemberTrafficStatusResponse,
  GetOpenAndIssuingMiningRoundsResponse,
  GetRewardAccountingEarliestAvailableRoundResponse,
  LookupTransferPreapprovalByPartyResponse,
  MaybeCachedContractWithState,
  ScanContract,
} from './types.js';

/** Suggested cache TTL of the rounds answer: one minute, well below a round's tick. */
const TIME_TO_LIVE_MICROS = 60_000_000;

const withoutContract = (c: ContractWithState): MaybeCachedContractWithState => (c.domain_id === undefined ? {} : { domain_id: c.domain_id });

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
/** The SVs of a DsoRules payload (`svs`, a map of SV party to SvInfo, as a JSON object or [key, value] pairs). */
const svCount = (payload: unknown): number => {
  const svs = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>).svs : undefined;
  return Array.isArray(svs) ? svs.length : typeof svs === 'object' && svs !== null ? Object.keys(svs).length : 0;
};

/** Splice's Thresholds.requiredNumVotes: ceil((n + f + 1) / 2) with f = floor((n - 1) / 3), at least 1. */
const votingThreshold = (n: number): number => Math.max(1, Math.ceil((n + Math.floor((n - 1) / 3) + 1) / 2));

export class ScanApp {
  readonly #preapprovals: ContractIndex;
  readonly #rounds: RoundTracker | undefined;
  /** Rendered contracts by stored contract: entries go when the ledger lets go of the contract. */
  readonly #rendered = new WeakMap<StoredContract, ScanContract>();

  readonly amulet: AmuletLedgerView;
  readonly #roundAutomation: RoundKeeper;
  readonly #ownsView: boolean;

  constructor(
    readonly ledger: Ledger,
    templates: AppTemplates,
    options: ScanOptions = {},
    amulet?: AmuletLedgerView,
    rounds?: RoundKeeper,
  ) {
    this.#ownsView = amulet === undefined;
    this.amulet = amulet ?? new AmuletLedgerView(ledger, templates);
    this.#roundAutomation = rounds ?? new RoundAutomation(ledger, this.amulet);
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

  /** GET /v0/dso (and the scan-proxy form): the DSO party and its rules, rounds and node states. */
  dsoInfo(): Result<GetDsoInfoResponse, LedgerError> {
    const dso = this.amulet.dso();
    if (dso === undefined) return fail('CONTRACT_NOT_FOUND', 'No DSO on this ledger: there is no active AmuletRules contract.');
    const rules = this.amulet.amuletRules.first(dso);
    const dsoRules = this.amulet.dsoRules.first(dso);
    const round = this.#roundAutomation.catchUp(dso);
    if (!round.ok) return round;
    const latest = this.amulet.openRounds.get(dso).at(-1);
    if (rules === undefined || dsoRules === undefined || latest === undefined) {
      return fail('CONTRACT_NOT_FOUND', `The DSO ${dso} has no active ${dsoRules === undefined ? 'DsoRules' : 'open mining round'}.`);
    }
    return ok({
      sv_user: PARTICIPANT_ADMIN_USER,
      sv_party_id: dso,
      dso_party_id: dso,
      voting_threshold: votingThreshold(svCount(dsoRules.argument)),
      latest_mining_round: this.#contractWithState(latest),
      amulet_rules: this.#contractWithState(rules),
      dso_rules: this.#contractWithState(dsoRules),
      sv_node_states: [],
    });
  }

  /** GET /v0/scan-proxy/dso-party-id */
  dsoPartyId(): Result<{ dso_party_id: string }, LedgerError> {
    const dso = this.amulet.dso();
    return dso === undefined ? fail('CONTRACT_NOT_FOUND', 'No DSO on this ledger: there is no active AmuletRules contract.') : ok({ dso_party_id: dso });
  }

  /** The AmuletRules contract; `contract` is left out when the caller's cached id is still current. */
  amuletRules(body: unknown): Result<{ amulet_rules_update: MaybeCachedContractWithState }, LedgerError> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail('INVALID_ARGUMENT', 'Invalid request body: expected a JSON object');
    const cached = (body as Record<string, unknown>).cached_amulet_rules_contract_id;
    if (cached !== undefined && cached !== null && typeof cached !== 'string') return fail('INVALID_ARGUMENT', 'Invalid request body: cached_amulet_rules_contract_id must be a string');
    const rules = this.#rules();
    if (!rules.ok) return rules;
    const full = this.#contractWithState(rules.value);
    return ok({ amulet_rules_update: cached === rules.value.contractId ? withoutContract(full) : full });
  }

  /** GET /v0/scan-proxy/amulet-rules */
  amuletRulesProxy(): Result<{ amulet_rules: ContractWithState }, LedgerError> {
    const rules = this.#rules();
    return rules.ok ? ok({ amulet_rules: this.#contractWithState(rules.value) }) : rules;
  }

  /** POST /v0/open-and-issuing-mining-rounds: maps by contract id; cached ids come back without their contract. */
  openAndIssuingRounds(body: unknown): Result<GetOpenAndIssuingMiningRoundsResponse, LedgerError> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail('INVALID_ARGUMENT', 'Invalid request body: expected a JSON object');
    const b = body as Record<string, unknown>;
    const ids = (k: string): Result<Set<string>, LedgerError> => {
      const v = b[k];
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) return fail('INVALID_ARGUMENT', `Invalid request body: ${k} must be a list of contract ids`);
      return ok(new Set(v as string[]));
    };
    const cachedOpen = ids('cached_open_mining_round_contract_ids');
    if (!cachedOpen.ok) return cachedOpen;
    const cachedIssuing = ids('cached_issuing_round_contract_ids');
    if (!cachedIssuing.ok) return cachedIssuing;
    const rounds = this.#currentRounds();
    if (!rounds.ok) return rounds;
    const map = (cs: readonly StoredContract[], cached: Set<string>) =>
      Object.fromEntries(cs.map((c) => [c.contractId, cached.has(c.contractId) ? withoutContract(this.#contractWithState(c)) : this.#contractWithState(c)]));
    return ok({
      open_mining_rounds: map(rounds.value.open, cachedOpen.value),
      issuing_mining_rounds: map(rounds.value.issuing, cachedIssuing.value),
      time_to_live_in_microseconds: TIME_TO_LIVE_MICROS,
    });
  }

  /** GET /v0/scan-proxy/open-and-issuing-mining-rounds: lists, oldest round first. */
  openAndIssuingRoundsProxy(): Result<{ open_mining_rounds: ContractWithState[]; issuing_mining_rounds: ContractWithState[] }, LedgerError> {
    const rounds = this.#currentRounds();
    if (!rounds.ok) return rounds;
    return ok({ open_mining_rounds: rounds.value.open.map((c) => this.#contractWithState(c)), issuing_mining_rounds: rounds.value.issuing.map((c) => this.#contractWithState(c)) });
  }

  /** GET /v0/featured-apps/{provider_party_id}: the provider's FeaturedAppRight, or an empty answer. */
  featuredAppRight(provider: string): Result<{ featured_app_right?: ScanContract }, LedgerError> {
    const problem = partyIdProblem(provider);
    if (problem !== undefined) return fail('INVALID_ARGUMENT', problem);
    const c = this.amulet.featuredApps.first(provider);
    return ok(c === undefined ? {} : { featured_app_right: this.#contractWithState(c).contract as ScanContract });
  }

  /**
   * GET /v0/domains/{domain_id}/members/{member_id}/traffic-status for a known synchronizer and a
   * well-formed member id (`PAR::` or `MED::` + id::fingerprint): the traffic purchased for it
   * (its MemberTraffic contracts, as Scan sums them) is its target and its limit; traffic is not
   * consumed here, so consumed stays 0.
   */
  trafficStatus(domainId: string, memberId: string): Result<GetMemberTrafficStatusResponse, LedgerError> {
    if (!this.ledger.config.synchronizers.some((s) => s.id === domainId)) return fail('CONTRACT_NOT_FOUND', `Unknown synchronizer '${domainId.slice(0, 120)}'`);
    if (!/^(PAR|MED)::[^:]+::1220[0-9a-f]{64}$/.test(memberId)) {
      return fail('INVALID_ARGUMENT', `Invalid member id '${memberId.slice(0, 120)}': expected PAR::<id>::<fingerprint> or MED::<id>::<fingerprint>`);
    }
    const purchased = this.amulet.memberTraffic.get(`${domainId}\n${memberId}`).reduce((sum, c) => sum + Number(text(c.argument.totalPurchased) || '0'), 0);
    return ok({ traffic_status: { actual: { total_consumed: 0, total_limit: purchased }, target: { total_purchased: purchased } } });
  }

  #rules(): Result<StoredContract, LedgerError> {
    const dso = this.amulet.dso();
    const rules = dso === undefined ? undefined : this.amulet.amuletRules.first(dso);
    return rules === undefined ? fail('CONTRACT_NOT_FOUND', 'No active AmuletRules contract.') : ok(rules);
  }

  #currentRounds(): Result<{ open: readonly StoredContract[]; issuing: readonly StoredContract[] }, LedgerError> {
    const dso = this.amulet.dso();
    if (dso === undefined) return ok({ open: [], issuing: [] });
    const caught = this.#roundAutomation.catchUp(dso);
    if (!caught.ok) return caught;
    return ok({ open: this.amulet.openRounds.get(dso), issuing: this.amulet.issuingRounds.get(dso) });
  }

  detach(): void {
    if (this.#ownsView) this.amulet.detach();
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
