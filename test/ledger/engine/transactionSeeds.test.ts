import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { transactionSeedBase, transactionSeedOf } from '../../../reference-server/src/ledger/interpret.js';
import { createLedger } from '../../../reference-server/src/ledger/index.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('engine transaction seeds: fresh for every transaction the ledger seeds itself', () => {
  const base = transactionSeedBase('participant1::1220' + 'ab'.repeat(32));

  it('32 bytes, the base untouched, and no two nonces give one seed', () => {
    const before = hex(base);
    fc.assert(fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), fc.nat({ max: Number.MAX_SAFE_INTEGER }), (a, b) => {
      const [x, y] = [transactionSeedOf(base, a), transactionSeedOf(base, b)];
      expect(x.length).toBe(32);
      expect(hex(x) === hex(y)).toBe(a === b);
    }), { numRuns: 2_000, seed: 7 });
    // Nonces that differ only in their high bytes.
    expect(hex(transactionSeedOf(base, 2 ** 40))).not.toBe(hex(transactionSeedOf(base, 2 ** 32)));
    expect(hex(base)).toBe(before);
  });

  it('participants have their own bases', () => {
    expect(hex(transactionSeedBase('p1::1220' + '00'.repeat(32)))).not.toBe(hex(transactionSeedBase('p2::1220' + '00'.repeat(32))));
  });

  it('a ledger never hands out one seed twice', () => {
    const ledger = createLedger();
    const seen = new Set<string>();
    for (let i = 0; i < 1_000; i++) seen.add(hex(ledger.nextTransactionSeed()));
    expect(seen.size).toBe(1_000);
  });
});
