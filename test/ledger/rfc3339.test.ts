import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toTimestamp } from '../../reference-server/src/ledger/clock.js';
import { microsOfTimestamp, parseRfc3339, timestampOfMicros } from '../../reference-server/src/ledger/rfc3339.js';
import { normalizeValue } from '../../reference-server/src/ledger/values.js';
import { createAsset, nextCommandId, refused, world } from './helpers.js';

describe('RFC 3339 timestamps', () => {
  it.each([
    ['2025-01-01T00:00:00Z', Date.UTC(2025, 0, 1)],
    ['2025-01-01t00:00:00.123456789z', Date.UTC(2025, 0, 1) + 123],
    ['2025-06-30T23:59:59+02:00', Date.UTC(2025, 5, 30, 21, 59, 59)],
    ['0001-01-01T00:00:00Z', -62135596800000],
    ['9999-12-31T23:59:59.999Z', 253402300799999],
  ])('reads %s', (text, ms) => {
    expect(parseRfc3339(text)).toBe(ms);
  });

  it.each([
    '+275760-09-13T00:00:00.000Z',
    '-000001-01-01T00:00:00Z',
    '2025-01-01',
    '2025-01-01T00:00:00',
    '2025-02-30T00:00:00Z',
    '2025-13-01T00:00:00Z',
    '2025-01-01 00:00:00Z',
    'Wed, 01 Jan 2025 00:00:00 GMT',
    '0000-12-31T23:59:59Z',
  ])('refuses %s, which Date.parse would accept or roll over', (text) => {
    expect(parseRfc3339(text)).toBeUndefined();
  });

  it('keeps microseconds exactly, and writes only instants it can read back', () => {
    expect(microsOfTimestamp('1970-01-01T00:00:00.000001Z')).toBe(1n);
    expect(microsOfTimestamp('1969-12-31T23:59:59.999999Z')).toBe(-1n);
    expect(timestampOfMicros(-1n)).toBe('1969-12-31T23:59:59.999999Z');
    expect(timestampOfMicros(8_640_000_000_000_000_000n)).toBeUndefined();
  });

  it('is what Daml Time values, and minLedgerTimeAbs of a submission, must be', () => {
    expect(normalizeValue('Time', '+275760-09-13T00:00:00.000Z', 't', (p) => p).ok).toBe(false);
    expect(normalizeValue('Time', '2025-01-01T00:00:00Z', 't', (p) => p).ok).toBe(true);
    const { ledger, alice } = world();
    for (const minLedgerTimeAbs of ['+275760-09-13T00:00:00.000Z', '2025-01-01']) {
      const e = refused(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [createAsset(alice, alice)], minLedgerTimeAbs }), 'INVALID_FIELD');
      expect(e.cause).toMatch(/RFC 3339/);
    }
    const rel = refused(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [createAsset(alice, alice)], minLedgerTimeRel: { seconds: 1e13, nanos: 0 } }), 'INVALID_FIELD');
    expect(rel.cause).toMatch(/9999/);
  });
});

describe('toTimestamp', () => {
  // It remembers the last two instants it formatted: any sequence, repeats and alternations included, prints each as Canton does.
  it('prints every instant of a random sequence as toISOString with microseconds', () => {
    const instant = fc.integer({ min: -62135596800000, max: 253402300799999 });
    fc.assert(fc.property(fc.array(fc.oneof(instant, fc.constantFrom(0, 1, 1735689600000, 1735689600001)), { maxLength: 40 }), (instants) => {
      for (const ms of instants) expect(toTimestamp(ms)).toBe(`${new Date(ms).toISOString().slice(0, 23)}000Z`);
    }), { numRuns: 500, seed: 34 });
  });
});
