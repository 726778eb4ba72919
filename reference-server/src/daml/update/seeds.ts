/**
 * Node seeds and V1 contract ids (contract-id.rst "Node seeds", "Contract ID Scheme V1").
 *
 * Every derivation is an HMAC-SHA256 keyed by the parent seed over a message built as Daml's hash
 * builder builds it: a 32-bit int big-endian (4 bytes), a 64-bit long big-endian (8 bytes), a
 * string as its UTF-8 length (4 bytes) then its bytes, a set of strings as its size (4 bytes) then
 * its members sorted, each as a string.
 */
import { createHmac } from 'node:crypto';

/** A 32-byte seed or discriminator. */
export type Seed = Uint8Array;

class Message {
  private readonly parts: Uint8Array[] = [];

  int(n: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, n, false);
    this.parts.push(b);
    return this;
  }

  long(n: bigint): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigInt64(0, n, false);
    this.parts.push(b);
    return this;
  }

  string(s: string): this {
    const bytes = new TextEncoder().encode(s);
    this.int(bytes.length);
    this.parts.push(bytes);
    return this;
  }

  stringSet(items: Iterable<string>): this {
    // Sorted as Java sorts strings (UTF-16 code units), which JS's default sort matches.
    const sorted = [...new Set(items)].sort();
    this.int(sorted.length);
    for (const s of sorted) this.string(s);
    return this;
  }

  hmac(key: Seed): Seed {
    const mac = createHmac('sha256', key);
    for (const part of this.parts) mac.update(part);
    return new Uint8Array(mac.digest());
  }
}

/** The transaction seed from the submission seed, the participant id and the preparation time. */
export function deriveTransactionSeed(submissionSeed: Seed, participantId: string, preparationTimeMicros: bigint): Seed {
  return new Message().string(participantId).long(preparationTimeMicros).hmac(submissionSeed);
}

/** The seed of child `index` (0-based) of an exercise node, or of root node `index` of a transaction. */
export function deriveNodeSeed(parent: Seed, index: number): Seed {
  return new Message().int(index).hmac(parent);
}

/** The 32-byte discriminator of a contract created at a node with `nodeSeed`. */
export function deriveContractDiscriminator(nodeSeed: Seed, preparationTimeMicros: bigint, stakeholders: Iterable<string>): Seed {
  return new Message().long(preparationTimeMicros).stringSet(stakeholders).hmac(nodeSeed);
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** A V1 contract id in hex: the version prefix 0x00, the discriminator, then the suffix (0..94 bytes). */
export function contractIdV1(discriminator: Seed, suffix: Uint8Array = new Uint8Array(0)): string {
  if (discriminator.length !== 32) throw new RangeError(`a V1 discriminator has 32 bytes, not ${discriminator.length}`);
  if (suffix.length > 94) throw new RangeError(`a V1 suffix has at most 94 bytes, not ${suffix.length}`);
  return `00${hex(discriminator)}${hex(suffix)}`;
}
