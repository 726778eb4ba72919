import { err } from './result.js';

/**
 * The ledger's error catalogue: Canton error ids with their error category and gRPC code, as the
 * real participant reports them (Canton's ErrorCategory and error-code ids). HTTP status derives from the gRPC
 * code in exactly one place, the HTTP adapter's `httpStatusOf`, so core code never thinks in HTTP.
 */
export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;
export type GrpcCodeName = keyof typeof GrpcCode;

/** Canton's ErrorCategory ids (base/errors ErrorCategory.scala). */
export const ErrorCategory = {
  TransientServerFailure: 1,
  ContentionOnSharedResources: 2,
  DeadlineExceededRequestStateUnknown: 3,
  SystemInternalAssumptionViolated: 4,
  /** SecurityAlert / UnredactedSecurityAlert (the AlarmErrorCode category), sent as INVALID_ARGUMENT. */
  SecurityAlert: 5,
  AuthInterceptorInvalidAuthenticationCredentials: 6,
  InsufficientPermission: 7,
  InvalidIndependentOfSystemState: 8,
  InvalidGivenCurrentSystemStateOther: 9,
  InvalidGivenCurrentSystemStateResourceExists: 10,
  InvalidGivenCurrentSystemStateResourceMissing: 11,
  InvalidGivenCurrentSystemStateSeekAfterEnd: 12,
  InternalUnsupportedOperation: 14,
} as const;

const def = (category: number, grpc: GrpcCodeName) => ({ category, grpc });

/** Error ids the reference server can answer with. Extend here, never inline. */
export const ErrorCodes = {
  INVALID_ARGUMENT: def(8, 'INVALID_ARGUMENT'),
  INVALID_FIELD: def(8, 'INVALID_ARGUMENT'),
  MISSING_FIELD: def(8, 'INVALID_ARGUMENT'),
  INVALID_DEDUPLICATION_PERIOD: def(9, 'FAILED_PRECONDITION'),
  DUPLICATE_COMMAND: def(10, 'ALREADY_EXISTS'),
  SUBMISSION_ALREADY_IN_FLIGHT: def(2, 'ABORTED'),
  CONTRACT_NOT_FOUND: def(11, 'NOT_FOUND'),
  CONTRACT_EVENTS_NOT_FOUND: def(11, 'NOT_FOUND'),
  CONTRACT_PAYLOAD_NOT_FOUND: def(11, 'NOT_FOUND'),
  CONTRACT_NOT_ACTIVE: def(11, 'NOT_FOUND'),
  TEMPLATES_OR_INTERFACES_NOT_FOUND: def(11, 'NOT_FOUND'),
  PACKAGE_NOT_FOUND: def(11, 'NOT_FOUND'),
  PACKAGE_NAMES_NOT_FOUND: def(11, 'NOT_FOUND'),
  CONTRACT_KEY_NOT_FOUND: def(11, 'NOT_FOUND'),
  UPDATE_NOT_FOUND: def(11, 'NOT_FOUND'),
  // Canton 3.6's GetCompletionByHash finding nothing the caller may see.
  COMPLETION_NOT_FOUND: def(11, 'NOT_FOUND'),
  CONCURRENT_USER_UPDATE_DETECTED: def(2, 'ABORTED'),
  UNKNOWN_CONTRACT_SYNCHRONIZERS: def(9, 'FAILED_PRECONDITION'),
  NO_SYNCHRONIZER_FOR_SUBMISSION: def(9, 'FAILED_PRECONDITION'),
  REASSIGNMENT_NOT_FOUND: def(11, 'NOT_FOUND'),
  USER_NOT_FOUND: def(11, 'NOT_FOUND'),
  USER_ALREADY_EXISTS: def(10, 'ALREADY_EXISTS'),
  TOO_MANY_USER_RIGHTS: def(9, 'FAILED_PRECONDITION'),
  PARTY_NOT_FOUND: def(11, 'NOT_FOUND'),
  PARTY_ALREADY_EXISTS: def(10, 'ALREADY_EXISTS'),
  PARTY_NOT_KNOWN_ON_LEDGER: def(9, 'FAILED_PRECONDITION'),
  // Canton 3.5 CommandExecutionErrors.Interpreter.AuthorizationError: InvalidIndependentOfSystemState.
  DAML_AUTHORIZATION_ERROR: def(8, 'INVALID_ARGUMENT'),
  // failWithStatus: the category is the Daml code's (LedgerError.errorClass); 9 when it gives none.
  DAML_FAILURE: def(9, 'FAILED_PRECONDITION'),
  DAML_INTERPRETATION_ERROR: def(9, 'FAILED_PRECONDITION'),
  COMMAND_PREPROCESSING_FAILED: def(8, 'INVALID_ARGUMENT'),
  DISCLOSED_CONTRACT_INVALID: def(8, 'INVALID_ARGUMENT'),
  // Canton's CommandExecution errors (InvalidIndependentOfSystemState): used disclosed contracts naming other synchronizers.
  DISCLOSED_CONTRACTS_SYNCHRONIZER_ID_MISMATCH: def(8, 'INVALID_ARGUMENT'),
  PRESCRIBED_SYNCHRONIZER_ID_MISMATCH: def(8, 'INVALID_ARGUMENT'),
  CONTRACT_KEY_NOT_SUPPORTED: def(8, 'INVALID_ARGUMENT'),
  OFFSET_AFTER_LEDGER_END: def(12, 'OUT_OF_RANGE'),
  OFFSET_OUT_OF_RANGE: def(9, 'FAILED_PRECONDITION'),
  PARTICIPANT_PRUNED_DATA_ACCESSED: def(9, 'FAILED_PRECONDITION'),
  UNKNOWN_SYNCHRONIZER: def(9, 'FAILED_PRECONDITION'),
  CONTRACT_IN_FLIGHT: def(9, 'FAILED_PRECONDITION'),
  INVALID_SIGNATURE: def(8, 'INVALID_ARGUMENT'),
  MISSING_SIGNATURE: def(8, 'INVALID_ARGUMENT'),
  PREPARED_TRANSACTION_INVALID: def(8, 'INVALID_ARGUMENT'),
  // Interactive submission refused at execution (missing or invalid signatures, altered transaction).
  FAILED_TO_EXECUTE_TRANSACTION: def(8, 'INVALID_ARGUMENT'),
  EXTERNAL_PARTY_KEY_NOT_FOUND: def(11, 'NOT_FOUND'),
  UNAUTHENTICATED: def(6, 'UNAUTHENTICATED'),
  // A request that needs a user and carries none (no token on a participant without auth): 400, as Canton.
  INVALID_TOKEN: def(8, 'INVALID_ARGUMENT'),
  PERMISSION_DENIED: def(7, 'PERMISSION_DENIED'),
  LIST_TOO_LARGE: def(1, 'RESOURCE_EXHAUSTED'),
  // A stream ended because its user's rights changed (or it was deleted or deactivated): retry at once.
  STALE_STREAM_AUTHORIZATION: def(2, 'ABORTED'),
  // More concurrent streams than the limit (the participant's rate-limiting refusal).
  MAXIMUM_NUMBER_OF_STREAMS: def(2, 'ABORTED'),
  UNIMPLEMENTED: def(14, 'UNIMPLEMENTED'),
  INTERNAL_ERROR: def(4, 'INTERNAL'),
  // Package management and vetting (Canton's PackageServiceErrors and CantonPackageServiceError).
  INVALID_DAR: def(8, 'INVALID_ARGUMENT'),
  // A DAR that inflates past the bound (PackageServiceErrors.Reading.ZipBomb).
  ZIP_BOMB: def(8, 'INVALID_ARGUMENT'),
  // A DALF the Daml-LF decoder cannot read (Reading.ParseError).
  DAR_PARSE_ERROR: def(8, 'INVALID_ARGUMENT'),
  // A package that fails Daml-LF validation (Validation.ValidationError).
  DAR_VALIDATION_ERROR: def(8, 'INVALID_ARGUMENT'),
  // A package referencing a package neither in the DAR nor known (Validation.SelfConsistency).
  DAR_NOT_SELF_CONSISTENT: def(8, 'INVALID_ARGUMENT'),
  // Two packages of one name and version (Canton's TopologyManagerError.UpgradeVersion: InvalidIndependentOfSystemState).
  KNOWN_PACKAGE_VERSION: def(8, 'INVALID_ARGUMENT'),
  // A vetted package that does not upgrade the one before it in its lineage (ParticipantTopologyManagerError.Upgradeability).
  NOT_VALID_UPGRADE_PACKAGE: def(8, 'INVALID_ARGUMENT'),
  // A daml-prim or daml-stdlib that is not a utility package (UpgradeDamlPrimIsNotAUtilityPackage).
  DAML_PRIM_NOT_UTILITY_PACKAGE: def(8, 'INVALID_ARGUMENT'),
  PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER: def(9, 'FAILED_PRECONDITION'),
  PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER: def(9, 'FAILED_PRECONDITION'),
  UNRESOLVED_VETTING_REFERENCE: def(11, 'NOT_FOUND'),
  AMBIGUOUS_VETTING_REFERENCE: def(9, 'FAILED_PRECONDITION'),
  TOPOLOGY_SERIAL_MISMATCH: def(9, 'FAILED_PRECONDITION'),
  PACKAGE_SELECTION_FAILED: def(9, 'FAILED_PRECONDITION'),
  // Interpretation failures of the Daml engine (Canton's CommandExecutionErrors.Interpreter and
  // TimeExceeded, LedgerApiErrors.InternalError), as ledger/engine/cantonErrorOf.ts maps them.
  UNHANDLED_EXCEPTION: def(9, 'FAILED_PRECONDITION'),
  INTERPRETATION_USER_ERROR: def(9, 'FAILED_PRECONDITION'),
  TEMPLATE_PRECONDITION_VIOLATED: def(8, 'INVALID_ARGUMENT'),
  WRONGLY_TYPED_CONTRACT: def(9, 'FAILED_PRECONDITION'),
  // Smart contract upgrades (CommandExecutionErrors.Interpreter.UpgradeError: InvalidGivenCurrentSystemStateOther).
  INTERPRETATION_UPGRADE_ERROR_VALIDATION_FAILED: def(9, 'FAILED_PRECONDITION'),
  INTERPRETATION_UPGRADE_ERROR_DOWNGRADE_DROP_DEFINED_FIELD: def(9, 'FAILED_PRECONDITION'),
  INTERPRETATION_UPGRADE_ERROR_DOWNGRADE_FAILED: def(9, 'FAILED_PRECONDITION'),
  CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE: def(8, 'INVALID_ARGUMENT'),
  INTERPRETATION_DEV_ERROR: def(9, 'FAILED_PRECONDITION'),
  INTERPRETATION_TIME_EXCEEDED: def(2, 'ABORTED'),
  // Canton's CommandExecutionErrors.Interpreter.ValueNesting: a value nested deeper than 100.
  VALUE_NESTING: def(8, 'INVALID_ARGUMENT'),
  // This server's own resource limits where Canton has no error (README "Resource limits"): in the
  // category Canton gives its resource limits (INTERPRETATION_TIME_EXCEEDED, HEAP_MEMORY_OVER_LIMIT).
  INTERPRETATION_ALLOCATION_EXCEEDED: def(2, 'ABORTED'),
  TRANSACTION_SIZE_EXCEEDED: def(2, 'ABORTED'),
  LEDGER_API_INTERNAL_ERROR: def(4, 'INTERNAL'),
  // Identity provider configs and party details (IdentityProviderConfigServiceErrorGroup, PartyManagement).
  IDP_CONFIG_NOT_FOUND: def(11, 'NOT_FOUND'),
  IDP_CONFIG_ALREADY_EXISTS: def(10, 'ALREADY_EXISTS'),
  IDP_CONFIG_ISSUER_ALREADY_EXISTS: def(10, 'ALREADY_EXISTS'),
  TOO_MANY_IDENTITY_PROVIDER_CONFIGS: def(9, 'FAILED_PRECONDITION'),
  INVALID_IDENTITY_PROVIDER_UPDATE_REQUEST: def(8, 'INVALID_ARGUMENT'),
  INVALID_PARTY_DETAILS_UPDATE_REQUEST: def(8, 'INVALID_ARGUMENT'),
  CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED: def(2, 'ABORTED'),
  // Time and replay refusals of the synchronizer (Canton's LocalRejectError.TimeRejects and MediatorError).
  LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND: def(2, 'ABORTED'),
  // An AlarmErrorCode with redactDetails = false: UnredactedSecurityAlert, category 5, INVALID_ARGUMENT.
  DUPLICATE_CONFIRMATION_REQUEST_UUID: def(5, 'INVALID_ARGUMENT'),
  // Refusals of the registry (group A) and Scan (group C) apps; they answer `{"error": cause}`.
  ALLOCATION_INSTRUCTION_NOT_FOUND: def(11, 'NOT_FOUND'),
  TRANSFER_PREAPPROVAL_NOT_FOUND: def(11, 'NOT_FOUND'),
  REWARD_ACCOUNTING_NOT_ENABLED: def(11, 'NOT_FOUND'),
  REWARD_ACCOUNTING_NO_DATA: def(11, 'NOT_FOUND'),
  TRANSFER_INSTRUCTION_NOT_FOUND: def(11, 'NOT_FOUND'),
  ALLOCATION_NOT_FOUND: def(11, 'NOT_FOUND'),
  INSTRUMENT_NOT_FOUND: def(11, 'NOT_FOUND'),
  REGISTRY_NOT_FOUND: def(11, 'NOT_FOUND'),
  // Transport-level refusals of the HTTP face (it answers them with 404/405/413 whatever the code maps to).
  ENDPOINT_NOT_FOUND: def(11, 'NOT_FOUND'),
  METHOD_NOT_ALLOWED: def(8, 'INVALID_ARGUMENT'),
  REQUEST_TOO_LARGE: def(8, 'INVALID_ARGUMENT'),
} as const satisfies Record<string, { category: number; grpc: GrpcCodeName }>;
export type ErrorCodeId = keyof typeof ErrorCodes;

/** An error's category and gRPC code. */
export interface ErrorClass {
  readonly category: number;
  readonly grpc: GrpcCodeName;
}

/** Canton's ErrorCategory -> gRPC code (base/errors ErrorCategory.scala), for categories chosen at run time. */
export const GRPC_OF_CATEGORY: Readonly<Record<number, GrpcCodeName>> = {
  1: 'UNAVAILABLE',
  2: 'ABORTED',
  3: 'DEADLINE_EXCEEDED',
  4: 'INTERNAL',
  5: 'INVALID_ARGUMENT',
  6: 'UNAUTHENTICATED',
  7: 'PERMISSION_DENIED',
  8: 'INVALID_ARGUMENT',
  9: 'FAILED_PRECONDITION',
  10: 'ALREADY_EXISTS',
  11: 'NOT_FOUND',
  12: 'OUT_OF_RANGE',
  14: 'UNIMPLEMENTED',
};

/** A refused ledger operation, before rendering. */
export interface LedgerError {
  readonly code: ErrorCodeId;
  readonly cause: string;
  /**
   * The category and gRPC code when this error's are not its code's: Daml's `failWithStatus`
   * picks them (DAML_FAILURE with category 8 is INVALID_ARGUMENT).
   */
  readonly errorClass?: ErrorClass;
  readonly context?: Readonly<Record<string, string>>;
  readonly resources?: ReadonlyArray<readonly [string, string]>;
  readonly definiteAnswer?: boolean;
}

/** The category and gRPC code an error is rendered with. */
export function errorClassOf(error: LedgerError): ErrorClass {
  return error.errorClass ?? ErrorCodes[error.code];
}

export const ledgerError = (
  code: ErrorCodeId,
  cause: string,
  extra: Omit<LedgerError, 'code' | 'cause'> = {},
): LedgerError => ({ code, cause, ...extra });

/** Shorthand for the failing branch of a Result<T, LedgerError>. */
export const fail = (code: ErrorCodeId, cause: string, extra: Omit<LedgerError, 'code' | 'cause'> = {}) =>
  err(ledgerError(code, cause, extra));
