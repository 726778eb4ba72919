import { describe, expect, it } from 'vitest';
import { damlValueDifference } from '../../conformance/src/checks/support/values.js';

/**
 * One Daml value as Splice's Scan writes it (ApiCodecCompressed over the codegen's record:
 * Numerics without trailing zeros, Instant.toString times, every None field null) and as Canton
 * 3.5's JSON Ledger API writes it (transcode's JsonCodec: Numerics at their scale, the fewest
 * fraction digits, a record's trailing None fields left out) is one value; a different value is not.
 */
describe('Daml values of two encoders compare as values', () => {
  const scan = { fee: '0.005', opensAt: '2026-12-02T14:45:56.470Z', cap: null, limits: { burst: '200000', ttl: null }, steps: [{ _1: '100.0', _2: '0.0' }] };
  const ledger = { fee: '0.0050000000', opensAt: '2026-12-02T14:45:56.47Z', limits: { burst: '200000' }, steps: [{ _1: '100.0000000000', _2: '0.0000000000' }] };

  it("Scan's payload equals the ledger's createArgument of the same contract", () => {
    expect(damlValueDifference(scan, ledger)).toBeUndefined();
  });

  it('a None field differs from a Some, wherever it is', () => {
    expect(damlValueDifference({ ...scan, cap: '0.2' }, ledger)).toBe('/cap');
    expect(damlValueDifference(scan, { ...ledger, limits: { burst: '200000', ttl: { microseconds: '1' } } })).toBe('/limits/ttl');
  });

  it("a list's null is an element (Optionals in a list), not an absent member", () => {
    expect(damlValueDifference({ xs: [null] }, { xs: [] })).toBe('/xs (length 1 vs 0)');
  });

  it('other numbers and times differ', () => {
    expect(damlValueDifference({ ...scan, fee: '0.0051' }, ledger)).toBe('/fee');
    expect(damlValueDifference(scan, { ...ledger, opensAt: '2026-12-02T14:45:56.471Z' })).toBe('/opensAt');
  });
});
