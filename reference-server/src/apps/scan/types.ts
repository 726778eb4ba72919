/** Wire shapes of the two Scan reads (specs/scan.openapi.yaml); Scan names members in snake_case. */

export interface ScanContract {
  readonly template_id: string;
  readonly contract_id: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly created_event_blob: string;
  readonly created_at: string;
}

export interface ContractWithState {
  readonly contract: ScanContract;
  /** The synchronizer the contract is assigned to; absent while it is being reassigned. */
  readonly domain_id?: string;
}

export interface LookupTransferPreapprovalByPartyResponse {
  readonly transfer_preapproval: ContractWithState;
}

export interface GetRewardAccountingEarliestAvailableRoundResponse {
  readonly earliest_round: number;
}

/** A contract a caller may already hold: `contract` is left out when its id was in the request. */
export interface MaybeCachedContractWithState {
  readonly contract?: ScanContract;
  readonly domain_id?: string;
}

export interface GetDsoInfoResponse {
  readonly sv_user: string;
  readonly sv_party_id: string;
  readonly dso_party_id: string;
  readonly voting_threshold: number;
  readonly latest_mining_round: ContractWithState;
  readonly amulet_rules: ContractWithState;
  readonly dso_rules: ContractWithState;
  readonly sv_node_states: readonly ContractWithState[];
}

export interface GetOpenAndIssuingMiningRoundsResponse {
  readonly open_mining_rounds: Readonly<Record<string, MaybeCachedContractWithState>>;
  readonly issuing_mining_rounds: Readonly<Record<string, MaybeCachedContractWithState>>;
  readonly time_to_live_in_microseconds: number;
}

export interface GetMemberTrafficStatusResponse {
  readonly traffic_status: {
    readonly actual: { readonly total_consumed: number; readonly total_limit: number };
    readonly target: { readonly total_purchased: number };
  };
}
