import { createHash } from 'node:crypto';

/**
 * Hash purposes: a 4-byte big-endian tag hashed in front of the content, so a signature over one
 * kind of hash can never be replayed as another kind (the participant's scheme; the numbers are
 * ours, except the key fingerprint's 12, which `fingerprintOf` uses).
 */
export const HashPurpose = {
  TopologyTransaction: 11,
  PreparedTransaction: 48,
  MultiTopologyTransaction: 55,
} as const;

/** SHA-256 over purpose and parts, as a multihash: 0x12 (sha2-256), 0x20 (32 bytes), digest. */
export function multihash(purpose: number, ...parts: readonly Uint8Array[]): Buffer {
  const tag = Buffer.alloc(4);
  tag.writeInt32BE(purpose);
  const h = createHash('sha256').update(tag);
  for (const p of parts) h.update(p);
  return Buffer.concat([Buffer.of(0x12, 0x20), h.digest()]);
}
