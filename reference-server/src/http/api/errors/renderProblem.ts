import { errorClassOf, ledgerError, type LedgerError } from '../../../ledger/errors.js';
import { jsonResponse, textResponse } from '../apiResponse.js';
import type { ApiResponse, Problem, RouteGroup } from '../types.js';
import { httpStatusOf } from './httpStatusOf.js';
import { spliceStatusOf } from './spliceStatusOf.js';
import { toJsCantonError, type ErrorRenderContext, type JsCantonError } from './toJsCantonError.js';

/**
 * The one place where a refusal becomes a response. Group B answers like a participant
 * (JsCantonError, decode failures as text/plain); groups A and C answer like a Splice app
 * (`{"error": "..."}`, Splice's status table).
 */
export function renderProblem(problem: Problem, group: RouteGroup, ctx: ErrorRenderContext): ApiResponse {
  if (group === 'B') return renderLedgerApiProblem(problem, ctx);
  return renderSpliceProblem(problem, ctx);
}

function renderLedgerApiProblem(problem: Problem, ctx: ErrorRenderContext): ApiResponse {
  switch (problem.kind) {
    case 'decode':
      return textResponse(problem.message, 'text/plain; charset=UTF-8', 400);
    case 'ledger':
      return jsonResponse(toJsCantonError(problem.error, ctx), httpStatusOf(errorClassOf(problem.error).grpc));
    default: {
      const { status, error } = transportError(problem);
      return jsonResponse(toJsCantonError(error, ctx), status);
    }
  }
}

/**
 * A refusal as the one message a WebSocket client reads: always a JsCantonError (there is no
 * status line, and no text/plain, on that transport).
 */
export function problemMessage(problem: Problem, ctx: ErrorRenderContext): JsCantonError {
  switch (problem.kind) {
    case 'ledger':
      return toJsCantonError(problem.error, ctx);
    case 'decode':
      return toJsCantonError(ledgerError('INVALID_ARGUMENT', problem.message), ctx);
    default:
      return toJsCantonError(transportError(problem).error, ctx);
  }
}

function renderSpliceProblem(problem: Problem, ctx: ErrorRenderContext): ApiResponse {
  switch (problem.kind) {
    case 'decode':
      return jsonResponse({ error: problem.message }, 400);
    case 'ledger': {
      const cause = spliceCause(problem.error);
      // Splice's body carries no trace id; the log line stands alone.
      if (cause !== problem.error.cause) ctx.onRedacted?.(problem.error, '-');
      return jsonResponse({ error: cause }, spliceStatusOf(problem.error));
    }
    default: {
      const { status, error } = transportError(problem);
      return jsonResponse({ error: error.cause }, status);
    }
  }
}

/**
 * What a Splice app says about a refusal. Authentication and permission refusals are redacted,
 * as the Ledger API redacts them: the reason (an unknown user, a bad signature) stays in the log.
 */
function spliceCause(error: LedgerError): string {
  switch (errorClassOf(error).grpc) {
    case 'UNAUTHENTICATED':
      return 'The request could not be authenticated';
    case 'PERMISSION_DENIED':
      return 'The request is not authorized';
    default:
      return error.cause;
  }
}

/** Problems of the transport rather than the ledger, with the status HTTP gives them. */
function transportError(problem: Exclude<Problem, { kind: 'decode' } | { kind: 'ledger' }>): {
  status: number;
  error: LedgerError;
} {
  switch (problem.kind) {
    case 'body-too-large':
      return {
        status: 413,
        error: ledgerError('REQUEST_TOO_LARGE', `The request body exceeds the limit of ${problem.limit} bytes`),
      };
    case 'list-too-large':
      return {
        status: 413,
        error: ledgerError(
          'LIST_TOO_LARGE',
          `The number of elements in the result exceeds the limit of ${problem.limit} (http-list-max-elements-limit); ` +
            'use the limit query parameter or the WebSocket endpoint',
        ),
      };
    case 'no-route':
      return problem.allowed === undefined
        ? { status: 404, error: ledgerError('ENDPOINT_NOT_FOUND', `No endpoint ${problem.method} ${problem.path}`) }
        : {
            status: 405,
            error: ledgerError(
              'METHOD_NOT_ALLOWED',
              `${problem.method} is not supported on ${problem.path}; supported: ${problem.allowed.join(', ')}`,
            ),
          };
    case 'internal':
      return { status: 500, error: ledgerError('INTERNAL_ERROR', 'An internal error occurred') };
  }
}
