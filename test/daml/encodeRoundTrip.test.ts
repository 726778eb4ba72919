/**
 * The encoder is the decoder's inverse: every package of the reference DARs decodes, encodes and
 * decodes again to the same AST, and re-encoding that is byte-identical (the encoding is a
 * function of the AST). Byte identity with the compiler's own payloads is not expected: the AST
 * keeps no source locations or module feature flags, and interning order differs.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { Package } from '../../daml-engine/ast/Package.js';
import type { PackageCache } from '../../daml-engine/decode/decodeArchive.js';
import { decodeDar } from '../../daml-engine/decode/decodeDar.js';
import { decodePackage } from '../../daml-engine/decode/decodePackage.js';
import { encodePackage } from '../../daml-engine/encode/encodePackage.js';
import { astDiff } from './astDiff.js';
import { allDars, HAS_DARS } from './damlFixtures.js';

function roundTrip(pkg: Package): { back: Package; encoded: Uint8Array } {
  const encoded = encodePackage(pkg);
  return { back: decodePackage(encoded, pkg.id, pkg.lfVersion), encoded };
}

describe.skipIf(!HAS_DARS)('encoding every package of the reference DARs (needs ../shared/upstream/daml/dars)', () => {
  it('decode, encode, decode gives an equal AST, and encoding it again gives the same bytes', () => {
    const cache: PackageCache = new Map();
    const dars = allDars();
    for (const file of dars) {
      const decoded = decodeDar(readFileSync(file), cache);
      expect(decoded.ok, basename(file)).toBe(true);
    }
    expect(cache.size).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const pkg of cache.values()) {
      const { back, encoded } = roundTrip(pkg);
      const diff = astDiff(pkg, back);
      if (diff !== undefined) { failures.push(`${pkg.metadata?.name ?? pkg.id}: ${diff}`); continue; }
      const again = encodePackage(back);
      if (Buffer.compare(Buffer.from(again), Buffer.from(encoded)) !== 0) failures.push(`${pkg.metadata?.name ?? pkg.id}: re-encoding differs`);
    }
    expect(failures).toEqual([]);
  }, 600_000); // ~90 packages, 14 MB of payloads: seconds idle, far more on a loaded machine
});
