import { describe, expect, it } from 'vitest';
import { ErrorCodes, GrpcCode, type GrpcCodeName } from '../../../ledger/errors.js';
import { httpStatusOf } from './httpStatusOf.js';

describe('httpStatusOf: the JSON Ledger API status of a gRPC code', () => {
  // Canton's GrpcHttpErrorCodes table (the JSON Ledger API v2 error mapping).
  const table: Record<GrpcCodeName, number> = {
    OK: 200,
    INVALID_ARGUMENT: 400,
    FAILED_PRECONDITION: 400,
    OUT_OF_RANGE: 400,
    UNAUTHENTICATED: 401,
    PERMISSION_DENIED: 403,
    NOT_FOUND: 404,
    ABORTED: 409,
    ALREADY_EXISTS: 409,
    RESOURCE_EXHAUSTED: 429,
    CANCELLED: 499,
    DATA_LOSS: 500,
    UNKNOWN: 500,
    INTERNAL: 500,
    UNIMPLEMENTED: 501,
    UNAVAILABLE: 503,
    DEADLINE_EXCEEDED: 504,
  };

  it.each(Object.keys(GrpcCode) as GrpcCodeName[])('%s', (code) => {
    expect(httpStatusOf(code)).toBe(table[code]);
  });

  it('gives the statuses the issue names for the codes clients meet most', () => {
    const statusOf = (id: keyof typeof ErrorCodes) => httpStatusOf(ErrorCodes[id].grpc);
    expect(statusOf('DUPLICATE_COMMAND')).toBe(409);
    expect(statusOf('SUBMISSION_ALREADY_IN_FLIGHT')).toBe(409);
    expect(statusOf('USER_NOT_FOUND')).toBe(404);
    expect(statusOf('CONTRACT_NOT_FOUND')).toBe(404);
    expect(statusOf('OFFSET_AFTER_LEDGER_END')).toBe(400);
    expect(statusOf('PARTICIPANT_PRUNED_DATA_ACCESSED')).toBe(400);
    expect(statusOf('INVALID_DEDUPLICATION_PERIOD')).toBe(400);
  });
});
