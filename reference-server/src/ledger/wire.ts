/**
 * JSON Ledger API v2 shapes the core takes and produces (Canton 3.4/3.5, as specs/ledger.openapi.yaml). Field names are
 * the wire names; int64 travels as a JSON number. The HTTP layer decodes requests into these types
 * and renders responses from them unchanged, so this file is the contract between the two.
 *
 * Union members follow the wire: most oneOf payloads sit in `{value: ...}`, but `Command`, `Event`
 * and `JsContractEntry` payloads do not.
 */

/** A Daml-LF JSON value: records are objects, Int64/Numeric strings, variants `{tag, value}`. */
export type DamlValue = null | boolean | number | string | DamlValue[] | { [field: string]: DamlValue };
export type DamlRecord = { [field: string]: DamlValue };

/** RFC 3339 timestamp. */
export type Timestamp = string;

export interface UnknownFieldSet {
  fields: Record<string, unknown>;
}

export interface Duration {
  seconds: number;
  nanos: number;
  unknownFields?: UnknownFieldSet;
}

export interface TraceContext {
  traceparent?: string;
  tracestate?: string;
}

export interface ObjectMeta {
  resourceVersion?: string;
  annotations?: Record<string, string>;
}

export interface FieldMask {
  paths?: string[];
  unknownFields?: UnknownFieldSet;
}

// ---------------------------------------------------------------- commands

export interface CreateCommand {
  templateId: string;
  createArguments: DamlValue;
}
export interface ExerciseCommand {
  templateId: string;
  contractId: string;
  choice: string;
  choiceArgument: DamlValue;
}
export interface CreateAndExerciseCommand {
  templateId: string;
  createArguments: DamlValue;
  choice: string;
  choiceArgument: DamlValue;
}
export interface ExerciseByKeyCommand {
  templateId: string;
  contractKey: DamlValue;
  choice: string;
  choiceArgument: DamlValue;
}
export type Command =
  | { CreateCommand: CreateCommand }
  | { ExerciseCommand: ExerciseCommand }
  | { CreateAndExerciseCommand: CreateAndExerciseCommand }
  | { ExerciseByKeyCommand: ExerciseByKeyCommand };

export type DeduplicationPeriod =
  | { DeduplicationDuration: { value: Duration } }
  | { DeduplicationOffset: { value: number } }
  | { Empty: Record<string, never> };

export interface DisclosedContract {
  templateId?: string;
  contractId?: string;
  createdEventBlob: string;
  synchronizerId?: string;
}

export interface PrefetchContractKey {
  templateId: string;
  contractKey: DamlValue;
}

export interface JsCommands {
  commands: Command[];
  commandId: string;
  actAs: string[];
  userId?: string;
  readAs?: string[];
  workflowId?: string;
  deduplicationPeriod?: DeduplicationPeriod;
  minLedgerTimeAbs?: Timestamp;
  minLedgerTimeRel?: Duration;
  submissionId?: string;
  disclosedContracts?: DisclosedContract[];
  synchronizerId?: string;
  packageIdSelectionPreference?: string[];
  prefetchContractKeys?: PrefetchContractKey[];
  tapsMaxPasses?: number;
}

export interface JsSubmitAndWaitForTransactionRequest {
  commands: JsCommands;
  transactionFormat?: TransactionFormat;
}

/** One reassignment step: start moving a contract, or finish a move someone started. */
export type ReassignmentCommand = {
  command:
    | { UnassignCommand: { value: { contractId: string; source: string; target: string } } }
    | { AssignCommand: { value: { reassignmentId: string; source: string; target: string } } }
    | { Empty: Record<string, never> };
};

export interface ReassignmentCommands {
  workflowId?: string;
  userId?: string;
  commandId: string;
  submitter: string;
  submissionId?: string;
  commands: ReassignmentCommand[];
}

export interface JsSubmitAndWaitForReassignmentRequest {
  reassignmentCommands: ReassignmentCommands;
  eventFormat?: EventFormat;
}

export interface JsSubmitAndWaitForReassignmentResponse {
  reassignment: JsReassignment;
}

export interface SubmitReassignmentRequest {
  reassignmentCommands: ReassignmentCommands;
}

export type SubmitReassignmentResponse = Record<string, never>;

export interface SubmitAndWaitResponse {
  updateId: string;
  completionOffset: number;
}
export interface JsSubmitAndWaitForTransactionResponse {
  transaction: JsTransaction;
}
export type SubmitResponse = Record<string, never>;

// ---------------------------------------------------------------- filters and formats

export type IdentifierFilter =
  | { WildcardFilter: { value: { includeCreatedEventBlob?: boolean } } }
  | { TemplateFilter: { value: { templateId: string; includeCreatedEventBlob?: boolean } } }
  | {
      InterfaceFilter: {
        value: { interfaceId: string; includeInterfaceView?: boolean; includeCreatedEventBlob?: boolean };
      };
    }
  | { Empty: Record<string, never> };

export interface CumulativeFilter {
  identifierFilter?: IdentifierFilter;
}
export interface Filters {
  cumulative?: CumulativeFilter[];
}
export interface EventFormat {
  filtersByParty?: Record<string, Filters>;
  filtersForAnyParty?: Filters;
  verbose?: boolean;
}
/** Legacy (deprecated in 3.4/3.5, removed later) form of an event filter. */
export interface TransactionFilter {
  filtersByParty?: Record<string, Filters>;
  filtersForAnyParty?: Filters;
}
export type TransactionShape =
  | 'TRANSACTION_SHAPE_UNSPECIFIED'
  | 'TRANSACTION_SHAPE_ACS_DELTA'
  | 'TRANSACTION_SHAPE_LEDGER_EFFECTS';
export interface TransactionFormat {
  eventFormat: EventFormat;
  transactionShape: TransactionShape;
}
export interface TopologyFormat {
  includeParticipantAuthorizationEvents?: { parties?: string[] };
}
export interface UpdateFormat {
  includeTransactions?: TransactionFormat;
  includeReassignments?: EventFormat;
  includeTopologyEvents?: TopologyFormat;
}

// ---------------------------------------------------------------- events

export interface JsStatus {
  code: number;
  message: string;
  details?: ProtoAny[];
}
export interface ProtoAny {
  typeUrl: string;
  value: string;
  unknownFields: UnknownFieldSet;
  valueDecoded?: unknown;
}

export interface JsInterfaceView {
  interfaceId: string;
  viewStatus: JsStatus;
  viewValue?: DamlValue;
  implementationPackageId?: string;
}

export interface CreatedEvent {
  offset: number;
  nodeId: number;
  contractId: string;
  templateId: string;
  contractKey?: DamlValue;
  contractKeyHash?: string;
  createArgument: DamlValue;
  createdEventBlob?: string;
  interfaceViews?: JsInterfaceView[];
  witnessParties: string[];
  signatories: string[];
  observers?: string[];
  createdAt: Timestamp;
  packageName: string;
  representativePackageId: string;
  acsDelta: boolean;
}

export interface ArchivedEvent {
  offset: number;
  nodeId: number;
  contractId: string;
  templateId: string;
  witnessParties: string[];
  packageName: string;
  implementedInterfaces?: string[];
}

export interface ExercisedEvent {
  offset: number;
  nodeId: number;
  contractId: string;
  templateId: string;
  interfaceId?: string;
  choice: string;
  choiceArgument: DamlValue;
  actingParties: string[];
  consuming: boolean;
  witnessParties: string[];
  lastDescendantNodeId: number;
  exerciseResult?: DamlValue;
  packageName: string;
  implementedInterfaces?: string[];
  acsDelta: boolean;
}

export type Event =
  | { CreatedEvent: CreatedEvent }
  | { ArchivedEvent: ArchivedEvent }
  | { ExercisedEvent: ExercisedEvent };

export interface JsTransaction {
  updateId: string;
  commandId?: string;
  workflowId?: string;
  effectiveAt: Timestamp;
  events: Event[];
  offset: number;
  synchronizerId: string;
  traceContext?: TraceContext;
  recordTime: Timestamp;
  externalTransactionHash?: string;
  paidTrafficCost?: number;
  /** Canton 3.6: the same value as `externalTransactionHash`, its successor. */
  transactionHash?: string;
}

export interface UnassignedEvent {
  reassignmentId: string;
  contractId: string;
  templateId: string;
  source: string;
  target: string;
  submitter?: string;
  reassignmentCounter: number;
  assignmentExclusivity?: Timestamp;
  witnessParties: string[];
  packageName: string;
  offset: number;
  nodeId: number;
}

export interface JsAssignmentEvent {
  source: string;
  target: string;
  reassignmentId: string;
  submitter: string;
  reassignmentCounter: number;
  createdEvent: CreatedEvent;
}
/** The ACS form of an assignment seen without its unassignment (same fields, optional submitter). */
export interface JsAssignedEvent {
  source: string;
  target: string;
  reassignmentId: string;
  submitter?: string;
  reassignmentCounter: number;
  createdEvent: CreatedEvent;
}

export type JsReassignmentEvent =
  | { JsAssignmentEvent: JsAssignmentEvent }
  | { JsUnassignedEvent: { value: UnassignedEvent } };

export interface JsReassignment {
  updateId: string;
  commandId?: string;
  workflowId?: string;
  offset: number;
  events: JsReassignmentEvent[];
  traceContext?: TraceContext;
  recordTime: Timestamp;
  synchronizerId: string;
  paidTrafficCost?: number;
}

export type ParticipantPermission =
  | 'PARTICIPANT_PERMISSION_UNSPECIFIED'
  | 'PARTICIPANT_PERMISSION_SUBMISSION'
  | 'PARTICIPANT_PERMISSION_CONFIRMATION'
  | 'PARTICIPANT_PERMISSION_OBSERVATION';

export interface TopologyEvent {
  event?:
    | {
        ParticipantAuthorizationAdded: {
          value: { partyId: string; participantId: string; participantPermission: ParticipantPermission };
        };
      }
    | {
        ParticipantAuthorizationChanged: {
          value: { partyId: string; participantId: string; participantPermission: ParticipantPermission };
        };
      }
    | { ParticipantAuthorizationRevoked: { value: { partyId: string; participantId: string } } }
    | { Empty: Record<string, never> };
}

export interface JsTopologyTransaction {
  updateId: string;
  offset: number;
  synchronizerId: string;
  recordTime: Timestamp;
  events: TopologyEvent[];
  traceContext?: TraceContext;
}

export interface SynchronizerTime {
  synchronizerId: string;
  recordTime: Timestamp;
}
export interface OffsetCheckpoint {
  offset: number;
  synchronizerTimes?: SynchronizerTime[];
}

export type Update =
  | { Transaction: { value: JsTransaction } }
  | { Reassignment: { value: JsReassignment } }
  | { TopologyTransaction: { value: JsTopologyTransaction } }
  | { OffsetCheckpoint: { value: OffsetCheckpoint } };

export interface JsGetUpdatesResponse {
  update: Update;
}

// ---------------------------------------------------------------- state service

export interface GetActiveContractsRequest {
  activeAtOffset: number;
  eventFormat?: EventFormat;
  /** Legacy: give `filter`/`verbose` or `eventFormat`, never both. */
  filter?: TransactionFilter;
  verbose?: boolean;
  streamContinuationToken?: string;
}

export interface JsActiveContract {
  createdEvent: CreatedEvent;
  synchronizerId: string;
  reassignmentCounter: number;
}
export interface JsIncompleteUnassigned {
  createdEvent: CreatedEvent;
  unassignedEvent: UnassignedEvent;
}
export interface JsIncompleteAssigned {
  assignedEvent: JsAssignedEvent;
}
export type JsContractEntry =
  | { JsActiveContract: JsActiveContract }
  | { JsIncompleteAssigned: JsIncompleteAssigned }
  | { JsIncompleteUnassigned: JsIncompleteUnassigned }
  | { JsEmpty: Record<string, never> };

export interface JsGetActiveContractsResponse {
  workflowId?: string;
  contractEntry: JsContractEntry;
  streamContinuationToken?: string;
}

export interface GetLedgerEndResponse {
  offset: number;
  /** Canton 3.6: the record time this participant has observed on each synchronizer. */
  synchronizerTimes?: SynchronizerTime[];
}

/** Canton 3.6 (preview): a completion looked up by the transaction hash its submitter signed. */
export interface GetCompletionByHashRequest {
  transactionHash: string;
}
export interface GetCompletionByHashResponse {
  acceptedCompletion?: Completion;
  lastRejectedCompletions?: Completion[];
}
/** Canton 3.6 (preview): an update looked up by its transaction hash. */
export interface GetUpdateByHashRequest {
  transactionHash: string;
  updateFormat: UpdateFormat;
}
/** Canton 3.6 (preview): a party's public keys as a JWKS (RFC 7517). */
export interface GetJwksResponse {
  keys: Record<string, unknown>[];
}

export interface GetLatestPrunedOffsetsResponse {
  participantPrunedUpToInclusive: number;
  allDivulgedContractsPrunedUpToInclusive: number;
}

export interface ConnectedSynchronizer {
  synchronizerAlias: string;
  synchronizerId: string;
  permission?: ParticipantPermission;
}
export interface GetConnectedSynchronizersResponse {
  connectedSynchronizers: ConnectedSynchronizer[];
}

// ---------------------------------------------------------------- updates service

export interface GetUpdatesRequest {
  beginExclusive: number;
  endInclusive?: number;
  updateFormat?: UpdateFormat;
  /** Legacy form. */
  filter?: TransactionFilter;
  verbose?: boolean;
  descendingOrder?: boolean;
}

export interface GetUpdateByIdRequest {
  updateId: string;
  updateFormat: UpdateFormat;
}
export interface GetUpdateByOffsetRequest {
  offset: number;
  updateFormat: UpdateFormat;
}
export interface GetUpdateResponse {
  update: Update;
}

// ---------------------------------------------------------------- completions

export interface Completion {
  commandId: string;
  status?: JsStatus;
  updateId?: string;
  userId: string;
  actAs: string[];
  submissionId?: string;
  deduplicationPeriod?: DeduplicationPeriod;
  traceContext?: TraceContext;
  offset: number;
  synchronizerTime: SynchronizerTime;
  paidTrafficCost?: number;
  /** Canton 3.6: the prepared-transaction hash an external submitter signed. */
  transactionHash?: string;
}

export interface CompletionStreamRequest {
  userId?: string;
  parties: string[];
  beginExclusive?: number;
}

/** The request of the GetCompletions stream (Canton 3.5.7+): no user, empty `parties` meaning all. */
export interface GetCompletionsRequest {
  parties?: string[];
  beginExclusive?: number;
}

export interface CompletionStreamResponse {
  completionResponse:
    | { Completion: { value: Completion } }
    | { OffsetCheckpoint: { value: OffsetCheckpoint } }
    | { Empty: Record<string, never> };
}

// ---------------------------------------------------------------- parties

export interface PartyDetails {
  party: string;
  isLocal?: boolean;
  localMetadata?: ObjectMeta;
  identityProviderId?: string;
}
export interface AllocatePartyRequest {
  partyIdHint?: string;
  localMetadata?: ObjectMeta;
  identityProviderId?: string;
  synchronizerId?: string;
  userId?: string;
}
export interface AllocatePartyResponse {
  partyDetails: PartyDetails;
}
export interface ListKnownPartiesRequest {
  pageSize?: number;
  pageToken?: string;
  identityProviderId?: string;
  filterParty?: string;
}
export interface ListKnownPartiesResponse {
  partyDetails: PartyDetails[];
  nextPageToken?: string;
}
export interface GetPartiesResponse {
  partyDetails: PartyDetails[];
}
export interface UpdatePartyDetailsRequest {
  partyDetails: PartyDetails;
  updateMask: FieldMask;
}
export interface UpdatePartyDetailsResponse {
  partyDetails: PartyDetails;
}
export interface GetParticipantIdResponse {
  participantId: string;
}

// ---------------------------------------------------------------- users and rights

export interface User {
  id: string;
  primaryParty?: string;
  isDeactivated?: boolean;
  metadata?: ObjectMeta;
  identityProviderId?: string;
  primaryPartyAuthentication?: boolean;
}

type Empty = Record<string, never>;
export type RightKind =
  | { CanActAs: { value: { party: string } } }
  | { CanReadAs: { value: { party: string } } }
  | { CanExecuteAs: { value: { party: string } } }
  | { CanReadAsAnyParty: { value: Empty } }
  | { CanExecuteAsAnyParty: { value: Empty } }
  | { CanActAsAnyParty: { value: Empty } }
  | { ParticipantAdmin: { value: Empty } }
  | { IdentityProviderAdmin: { value: Empty } }
  | { Empty: Empty };
export interface Right {
  kind?: RightKind;
}

export interface CreateUserRequest {
  user: User;
  rights?: Right[];
}
export interface CreateUserResponse {
  user: User;
}
export interface GetUserResponse {
  user: User;
}
export interface UpdateUserRequest {
  user: User;
  updateMask: FieldMask;
}
export interface UpdateUserResponse {
  user: User;
}
export interface ListUsersRequest {
  pageSize?: number;
  pageToken?: string;
  identityProviderId?: string;
}
export interface ListUsersResponse {
  users: User[];
  nextPageToken?: string;
}
export type DeleteUserResponse = Record<string, never>;
export interface GrantUserRightsRequest {
  userId: string;
  rights?: Right[];
  identityProviderId?: string;
}
export interface GrantUserRightsResponse {
  newlyGrantedRights: Right[];
}
export interface RevokeUserRightsRequest {
  userId: string;
  rights?: Right[];
  identityProviderId?: string;
}
export interface RevokeUserRightsResponse {
  newlyRevokedRights: Right[];
}
export interface ListUserRightsResponse {
  rights: Right[];
}

// ---------------------------------------------------------------- version

export interface FeaturesDescriptor {
  experimental: { staticTime?: { supported: boolean }; commandInspectionService?: { supported: boolean } };
  userManagement: { supported: boolean; maxRightsPerUser: number; maxUsersPageSize: number };
  partyManagement: { maxPartiesPageSize: number };
  offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: Duration };
  packageFeature: { maxVettedPackagesPageSize: number };
}
export interface GetLedgerApiVersionResponse {
  version: string;
  features: FeaturesDescriptor;
}

/** Rendered error body (the HTTP layer builds it from a LedgerError). */
export interface JsCantonError {
  code: string;
  cause: string;
  correlationId?: string | null;
  traceId?: string | null;
  context: Record<string, string>;
  resources?: [string, string][];
  errorCategory: number;
  grpcCodeValue?: number;
  retryInfo?: string | null;
  definiteAnswer?: boolean | null;
}
