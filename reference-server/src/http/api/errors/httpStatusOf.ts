import type { GrpcCodeName } from '../../../ledger/errors.js';

/** gRPC code -> HTTP status: Canton's GrpcHttpErrorCodes table, the JSON Ledger API's mapping (group B). */
export function httpStatusOf(grpc: GrpcCodeName): number {
  switch (grpc) {
    case 'OK':
      return 200;
    case 'INVALID_ARGUMENT':
    case 'FAILED_PRECONDITION':
    case 'OUT_OF_RANGE':
      return 400;
    case 'UNAUTHENTICATED':
      return 401;
    case 'PERMISSION_DENIED':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'ABORTED':
    case 'ALREADY_EXISTS':
      return 409;
    case 'RESOURCE_EXHAUSTED':
      return 429;
    case 'CANCELLED':
      return 499;
    case 'UNIMPLEMENTED':
      return 501;
    case 'UNAVAILABLE':
      return 503;
    case 'DEADLINE_EXCEEDED':
      return 504;
    case 'DATA_LOSS':
    case 'UNKNOWN':
    case 'INTERNAL':
      return 500;
  }
}
