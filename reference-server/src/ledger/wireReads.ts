/**
 * Wire shapes of the point reads, pages and legacy (tree) forms of the update, event, contract
 * and state services (Canton 3.5's JSON Ledger API). Kept apart from wire.ts so each service's
 * additions stay in one place.
 */
import type {
  ArchivedEvent,
  CreatedEvent,
  EventFormat,
  ExercisedEvent,
  JsGetActiveContractsResponse,
  JsReassignment,
  OffsetCheckpoint,
  TransactionFormat,
  Update,
  UpdateFormat,
} from './wire.js';

// ---------------------------------------------------------------- legacy transaction lookups

export interface GetTransactionByIdRequest {
  updateId: string;
  requestingParties?: string[];
  transactionFormat?: TransactionFormat;
}
export interface GetTransactionByOffsetRequest {
  offset: number;
  requestingParties?: string[];
  transactionFormat?: TransactionFormat;
}

export type TreeEvent = { CreatedTreeEvent: { value: CreatedEvent } } | { ExercisedTreeEvent: { value: ExercisedEvent } };

export interface JsTransactionTree {
  updateId: string;
  commandId?: string;
  workflowId?: string;
  effectiveAt: string;
  offset: number;
  eventsById: Record<string, TreeEvent>;
  synchronizerId: string;
  recordTime: string;
}
export interface JsGetTransactionTreeResponse {
  transaction: JsTransactionTree;
}
export interface JsSubmitAndWaitForTransactionTreeResponse {
  transactionTree: JsTransactionTree;
}

export type TreeUpdate =
  | { OffsetCheckpoint: { value: OffsetCheckpoint } }
  | { Reassignment: { value: JsReassignment } }
  | { TransactionTree: { value: JsTransactionTree } };
export interface JsGetUpdateTreesResponse {
  update: TreeUpdate;
}

// ---------------------------------------------------------------- pages

export interface GetUpdatesPageRequest {
  beginOffsetExclusive?: number;
  endOffsetInclusive?: number;
  maxPageSize?: number;
  updateFormat: UpdateFormat;
  descendingOrder?: boolean;
  pageToken?: string;
}
export interface JsGetUpdatesPageResponse {
  updates: { update: Update }[];
  lowestPageOffsetExclusive: number;
  highestPageOffsetInclusive: number;
  nextPageToken?: string;
}

export interface GetActiveContractsPageRequest {
  activeAtOffset?: number;
  eventFormat: EventFormat;
  maxPageSize?: number;
  pageToken?: string;
}
export interface JsGetActiveContractsPageResponse {
  activeContracts: JsGetActiveContractsResponse[];
  activeAtOffset: number;
  nextPageToken?: string;
}

// ---------------------------------------------------------------- events and contracts

export interface GetEventsByContractIdRequest {
  contractId: string;
  eventFormat: EventFormat;
}
export interface JsGetEventsByContractIdResponse {
  created?: { createdEvent: CreatedEvent; synchronizerId: string };
  archived?: { archivedEvent: ArchivedEvent; synchronizerId: string };
}

export interface GetContractRequest {
  contractId: string;
  queryingParties?: string[];
}
export interface GetContractResponse {
  createdEvent: CreatedEvent;
}
