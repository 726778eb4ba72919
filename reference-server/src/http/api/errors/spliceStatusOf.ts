import { errorClassOf, type ErrorCodeId, type LedgerError } from '../../../ledger/errors.js';

/** FAILED_PRECONDITION errors Splice apps answer with 409 rather than 400 (a conflict with ledger state). */
const CONFLICTS: ReadonlySet<ErrorCodeId> = new Set<ErrorCodeId>(['CONTRACT_IN_FLIGHT', 'DAML_INTERPRETATION_ERROR', 'UNKNOWN_SYNCHRONIZER']);

/**
 * Ledger error -> HTTP status as Splice apps (registry, scan) map it; it differs from the
 * participant's table (ABORTED is 429 here, unknown codes are 500).
 */
export function spliceStatusOf(error: LedgerError): number {
  const { grpc } = errorClassOf(error);
  switch (grpc) {
    case 'NOT_FOUND':
      return 404;
    case 'ALREADY_EXISTS':
      return 409;
    case 'ABORTED':
      return 429;
    case 'UNAVAILABLE':
      return 503;
    case 'FAILED_PRECONDITION':
      return CONFLICTS.has(error.code) ? 409 : 400;
    case 'INVALID_ARGUMENT':
    case 'UNIMPLEMENTED':
      return 400;
    case 'UNAUTHENTICATED':
      return 401;
    case 'PERMISSION_DENIED':
      return 403;
    default:
      return 500;
  }
}
