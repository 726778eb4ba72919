import { describe, expect, it } from 'vitest';
import { offsetOf } from '../../conformance/src/checks/support/ledger.js';
import { errorMetadataProblem, treeProblem } from '../../conformance/src/checks/ledgerMeaning.js';

/** The pure rules behind the meaning checks, on hand-made answers (the mutant bed proves the checks). */
const ex = (nodeId: number, last: number) => ({ kind: 'ExercisedEvent', nodeId, last });
const cr = (nodeId: number) => ({ kind: 'CreatedEvent', nodeId });

describe('treeProblem: node ids and lastDescendantNodeId describe the tree', () => {
  it('accepts one root over nested subtrees, in pre-order', () => {
    // 0: exercise { 1: create, 2: exercise { 3: create }, 4: create }
    expect(treeProblem([ex(0, 4), cr(1), ex(2, 3), cr(3), cr(4)], 1)).toBeUndefined();
    // Node ids may have gaps where the reader sees no event.
    expect(treeProblem([ex(0, 9), cr(3), cr(9)], 1)).toBeUndefined();
  });

  it('counts consequences left outside their exercise as extra roots', () => {
    expect(treeProblem([ex(0, 0), cr(1), cr(2)], 1)).toMatch(/3 root node/);
  });

  it('refuses subtrees that overlap without nesting, bounds below the node, and ids out of order', () => {
    expect(treeProblem([ex(0, 3), ex(1, 5), cr(2)], 1)).toMatch(/subtrees must nest/);
    expect(treeProblem([ex(2, 1)], 1)).toMatch(/no smaller than its node id/);
    expect(treeProblem([ex(0, 2), cr(2), cr(1)], 1)).toMatch(/do not increase/);
    expect(treeProblem([{ kind: 'CreatedEvent', nodeId: '1' }], 1)).toMatch(/not an integer/);
  });
});

describe("errorMetadataProblem: Canton's error catalogue", () => {
  it('accepts the categories with their gRPC codes and HTTP statuses', () => {
    expect(errorMetadataProblem(404, { code: 'USER_NOT_FOUND', errorCategory: 11, grpcCodeValue: 5 })).toBeUndefined();
    expect(errorMetadataProblem(409, { code: 'DUPLICATE_COMMAND', errorCategory: 10, grpcCodeValue: 6 })).toBeUndefined();
    expect(errorMetadataProblem(400, { code: 'OFFSET_AFTER_LEDGER_END', errorCategory: 12, grpcCodeValue: 11 })).toBeUndefined();
    expect(errorMetadataProblem(401, { code: 'UNAUTHENTICATED', errorCategory: 6 })).toBeUndefined();
    // The mediator's replay alarm: UnredactedSecurityAlert (5), INVALID_ARGUMENT, HTTP 400.
    expect(errorMetadataProblem(400, { code: 'DUPLICATE_CONFIRMATION_REQUEST_UUID', errorCategory: 5, grpcCodeValue: 3 })).toBeUndefined();
    // A legacy gRPC error: no category, its code decides the status.
    expect(errorMetadataProblem(503, { code: 'UNAVAILABLE', errorCategory: -1, grpcCodeValue: 14 })).toBeUndefined();
  });

  it('names each disagreement', () => {
    expect(errorMetadataProblem(404, { code: 'USER_NOT_FOUND', errorCategory: 9, grpcCodeValue: 5 })).toMatch(/errorCategory 9 goes with gRPC code 9/);
    expect(errorMetadataProblem(400, { code: 'USER_NOT_FOUND', errorCategory: 11 })).toMatch(/sent as HTTP 404, not 400/);
    expect(errorMetadataProblem(400, { code: 'DUPLICATE_COMMAND', errorCategory: 8 })).toMatch(/DUPLICATE_COMMAND is an error of category 10/);
    expect(errorMetadataProblem(500, { code: 'DUPLICATE_CONFIRMATION_REQUEST_UUID', errorCategory: 5, grpcCodeValue: 2 })).toMatch(/errorCategory 5 goes with gRPC code 3/);
    expect(errorMetadataProblem(409, { code: 'DUPLICATE_CONFIRMATION_REQUEST_UUID', errorCategory: 10, grpcCodeValue: 6 })).toMatch(/is an error of category 5/);
    expect(errorMetadataProblem(400, { code: 'X', errorCategory: 42 })).toMatch(/not one of Canton's categories/);
    expect(errorMetadataProblem(500, { code: 'X', errorCategory: -1 })).toMatch(/needs the grpcCodeValue/);
  });
});

describe('offsetOf: any update or completion element', () => {
  it('reads transactions, checkpoints and completions, wrapped in value or not', () => {
    expect(offsetOf({ update: { Transaction: { value: { offset: 7 } } } })).toBe(7);
    expect(offsetOf({ update: { OffsetCheckpoint: { value: { offset: 8, synchronizerTimes: [] } } } })).toBe(8);
    expect(offsetOf({ completionResponse: { Completion: { value: { offset: 9 } } } })).toBe(9);
    expect(offsetOf({ update: { Reassignment: { offset: 10 } } })).toBe(10);
    expect(offsetOf({ something: 1 })).toBeUndefined();
  });
});
