import { randomBytes } from 'node:crypto';
import { errorClassOf, GrpcCode, type LedgerError } from '../../../ledger/errors.js';

/** The Ledger API's error body (spec schema `JsCantonError`). */
export interface JsCantonError {
  readonly code: string;
  readonly cause: string;
  readonly correlationId: string | null;
  readonly traceId: string | null;
  readonly context: Readonly<Record<string, string>>;
  readonly resources: ReadonlyArray<readonly [string, string]>;
  readonly errorCategory: number;
  readonly grpcCodeValue: number;
  readonly retryInfo: string | null;
  readonly definiteAnswer: boolean | null;
}

export interface ErrorRenderContext {
  readonly participantId: string;
  /** Echoed as `correlationId` (the participant uses the submission id when it has one). */
  readonly correlationId?: string;
  /**
   * Told the real cause of a refusal the caller only sees redacted, with the trace id the caller
   * was given, so the operator's log says why (as a participant logs it).
   */
  readonly onRedacted?: (error: LedgerError, traceId: string) => void;
}

/**
 * Categories whose details a participant never shows to the caller (ErrorCategory.redactDetails):
 * internal assumptions violated, authentication, permission.
 */
const REDACTED_CATEGORIES = new Set([4, 6, 7]);

/**
 * The JSON API's retryInfo: the category's own retry duration (JsCantonError takes
 * `code.category.retryable`), Scala's FiniteDuration text; transient, contention and
 * deadline-exceeded categories retry after 1 second.
 */
const RETRY_INFO: Readonly<Record<number, string>> = { 1: '1 second', 2: '1 second', 3: '1 second' };

/**
 * Renders a ledger error as the participant does: the catalogue gives category and gRPC code, the
 * context repeats them with the participant name and trace id, and the optional members are
 * explicit nulls. Authentication and permission errors are redacted to a generic cause, as the
 * participant does; the details stay in the server log under the trace id.
 */
export function toJsCantonError(error: LedgerError, ctx: ErrorRenderContext): JsCantonError {
  const { category, grpc } = errorClassOf(error);
  const traceId = randomBytes(16).toString('hex');
  const correlationId = ctx.correlationId ?? null;
  if (REDACTED_CATEGORIES.has(category)) {
    ctx.onRedacted?.(error, traceId);
    return {
      code: 'NA',
      cause:
        'An error occurred. Please contact the operator and inquire about the request ' +
        `${correlationId ?? '<no-correlation-id>'} with tid ${traceId}`,
      correlationId,
      traceId,
      context: {},
      resources: [],
      errorCategory: -1,
      grpcCodeValue: GrpcCode[grpc],
      retryInfo: null,
      definiteAnswer: null,
    };
  }
  return {
    code: error.code,
    cause: error.cause,
    correlationId,
    traceId,
    context: {
      ...error.context,
      participant: ctx.participantId,
      category: String(category),
      definite_answer: String(error.definiteAnswer ?? false),
      tid: traceId,
    },
    resources: error.resources ?? [],
    errorCategory: category,
    grpcCodeValue: GrpcCode[grpc],
    retryInfo: RETRY_INFO[category] ?? null,
    definiteAnswer: error.definiteAnswer ?? null,
  };
}
