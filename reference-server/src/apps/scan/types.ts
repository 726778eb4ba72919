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
