/**
 * Node seeds and V1 contract ids (contract-id.rst "Node seeds", "Contract ID Scheme V1").
 *
 * Every derivation is an HMAC-SHA256 keyed by the parent seed over a message built as Daml's hash
 * builder builds it: a 32-bit int big-endian (4 bytes), a 64-bit long big-endian (8 bytes), a
 * string as its UTF-8 length (4 bytes) then its bytes, a set of strings as its size (4 bytes) then
 * its members sorted, each as a string.
 */
import { sortedUnique } from './partySets.js';
import { hmacSha256 } from './sha256.js';

/** A 32-byte seed or discriminator. */
export type Seed = Uint8Array;

/** Where messages are written (hashing is synchronous: one message at a time). */
let scratch = Buffer.allocUnsafe(256);

/**
 * One HMAC message, written into a single buffer: its size is known before any byte is written
 * (sizes first, then one allocation), as every seed of every node of every transaction pays it.
 */
class Message {
  private readonly ints: number[] = [];
  private readonly longs: bigint[] = [];
  private readonly strings: string[] = [];
  /** What to write, in order: 0 an int, 1 a long, 2 a string (each its next of `ints`, ...). */
  private readonly order: number[] = [];
  private size = 0;

  int(n: number): this {
    this.ints.push(n);
    this.order.push(0);
    this.size += 4;
    return this;
  }

  long(n: bigint): this {
    this.longs.push(n);
    this.order.push(1);
    this.size += 8;
    return this;
  }

  string(s: string): this {
    this.strings.push(s);
    this.order.push(2);
    this.size += 4 + Buffer.byteLength(s, 'utf8');
    return this;
  }

  stringSet(items: readonly string[]): this {
    // Sorted as Java sorts strings (UTF-16 code units).
    const sorted = sortedUnique(items);
    this.int(sorted.length);
    for (const s of sorted) this.string(s);
    return this;
  }

  hmac(key: Seed): Seed {
    if (scratch.length < this.size) scratch = Buffer.allocUnsafe(Math.max(this.size, 2 * scratch.length));
    const bytes = scratch;
    let at = 0;
    let i = 0;
    let l = 0;
    let s = 0;
    for (const what of this.order) {
      if (what === 0) {
        at = bytes.writeInt32BE(this.ints[i++]!, at);
      } else if (what === 1) {
        at = bytes.writeBigInt64BE(this.longs[l++]!, at);
      } else {
        const str = this.strings[s++]!;
        const written = bytes.write(str, at + 4, 'utf8');
        bytes.writeInt32BE(written, at);
        at += 4 + written;
      }
    }
    return hmacSha256(key, bytes, this.size);
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
export function deriveContractDiscriminator(nodeSeed: Seed, preparationTimeMicros: bigint, stakeholders: readonly string[]): Seed {
  return new Message().long(preparationTimeMicros).stringSet(stakeholders).hmac(nodeSeed);
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');

/** A V1 contract id in hex: the version prefix 0x00, the discriminator, then the suffix (0..94 bytes). */
export function contractIdV1(discriminator: Seed, suffix: Uint8Array = new Uint8Array(0)): string {
  if (discriminator.length !== 32) throw new RangeError(`a V1 discriminator has 32 bytes, not ${discriminator.length}`);
  if (suffix.length > 94) throw new RangeError(`a V1 suffix has at most 94 bytes, not ${suffix.length}`);
  return `00${hex(discriminator)}${hex(suffix)}`;
}
