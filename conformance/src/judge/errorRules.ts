/**
 * Canton's error tables, for judging an error by rule: the gRPC code's HTTP status (the JSON
 * Ledger API's GrpcHttpErrorCodes), the retryable categories (base/errors ErrorCategory.scala) and
 * the category of codes whose category is fixed and definitive (the error catalogue).
 */
export const HTTP_OF_GRPC: Readonly<Record<number, number>> = {
  1: 499, 2: 500, 3: 400, 4: 504, 5: 404, 6: 409, 7: 403, 8: 429, 9: 400, 10: 409, 11: 400, 12: 501, 13: 500, 14: 503, 15: 500, 16: 401,
};

/** Categories whose errors may be retried (ErrorCategory.retryable). */
export const RETRYABLE_CATEGORIES: ReadonlySet<number> = new Set([1, 2, 3]);

/**
 * Codes whose category is fixed and definitive (the request will fail the same way again): a
 * retryable category on one of them tells a client to retry what cannot succeed.
 */
export const DEFINITIVE_CODES: Readonly<Record<string, number>> = {
  INVALID_ARGUMENT: 8, INVALID_FIELD: 8, MISSING_FIELD: 8, DUPLICATE_COMMAND: 10, CONTRACT_NOT_FOUND: 11, CONTRACT_NOT_ACTIVE: 11,
  UPDATE_NOT_FOUND: 11, USER_NOT_FOUND: 11, USER_ALREADY_EXISTS: 10, PARTY_NOT_FOUND: 11, PARTY_ALREADY_EXISTS: 10,
  TEMPLATES_OR_INTERFACES_NOT_FOUND: 11, PACKAGE_NOT_FOUND: 11, COMMAND_PREPROCESSING_FAILED: 8, DAML_AUTHORIZATION_ERROR: 8,
  OFFSET_AFTER_LEDGER_END: 12, IDP_CONFIG_NOT_FOUND: 11, IDP_CONFIG_ALREADY_EXISTS: 10, INVALID_SIGNATURE: 8, TEMPLATE_PRECONDITION_VIOLATED: 8,
};

/** Codes whose category the command picks at run time (Daml's failWithStatus): not one category per code. */
export const VARIABLE_CATEGORY_CODES: ReadonlySet<string> = new Set(['DAML_FAILURE', 'NA']);

/** Codes the JSON Ledger API answers with a status of its own: a list past http-list-max-elements-limit is 413. */
export const HTTP_OF_CODE: Readonly<Record<string, number>> = { LIST_TOO_LARGE: 413 };

/**
 * The resource an error of these codes names (its `resources`: [kind, value] pairs), as Canton's
 * error definitions declare it: UserManagementServiceErrors' UserNotFound and UserAlreadyExists
 * override `resources` with ErrorResource.User (asString "USER") -> the user id.
 */
export const RESOURCE_OF_CODE: Readonly<Record<string, string>> = { USER_NOT_FOUND: 'USER', USER_ALREADY_EXISTS: 'USER' };
