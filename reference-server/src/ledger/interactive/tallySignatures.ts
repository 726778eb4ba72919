import type { Signature } from './wire.js';

/**
 * Signatures verified per signing key at most: a key counts once, so past a few attempts more
 * signatures by it cannot change the outcome, only cost a verification each (a 4 MiB request
 * holds some 15,000 of them).
 */
export const MAX_VERIFIED_PER_KEY = 4;

export interface Tally {
  /** Distinct keys with a valid signature. */
  readonly validKeys: number;
  /** Signatures that did not count: by another key, malformed, not verifying, or past the bound. */
  readonly invalid: number;
}

/**
 * Counts the keys of `keys` (fingerprints) that signed, until `threshold` of them have: a
 * signature by any other key is discarded without a verification, and at most
 * MAX_VERIFIED_PER_KEY signatures are verified per key, so the work is bounded by the party's
 * keys, not by the size of the request.
 */
export function tallySignatures(signatures: readonly unknown[], keys: ReadonlySet<string>, threshold: number, verify: (signature: Signature) => boolean): Tally {
  const valid = new Set<string>();
  const attempts = new Map<string, number>();
  let invalid = 0;
  for (const s of signatures) {
    if (valid.size >= threshold) break;
    const signedBy = s !== null && typeof s === 'object' ? (s as { signedBy?: unknown }).signedBy : undefined;
    if (typeof signedBy !== 'string' || !keys.has(signedBy)) {
      invalid++;
      continue;
    }
    if (valid.has(signedBy)) continue;
    const tried = attempts.get(signedBy) ?? 0;
    if (tried >= MAX_VERIFIED_PER_KEY) {
      invalid++;
      continue;
    }
    attempts.set(signedBy, tried + 1);
    if (verify(s as Signature)) valid.add(signedBy);
    else invalid++;
  }
  return { validKeys: valid.size, invalid };
}
