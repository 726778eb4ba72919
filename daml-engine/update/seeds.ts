/**
 * Node seeds and V1 contract ids (contract-id.rst "Node seeds", "Contract ID Scheme V1").
 *
 * Every derivation is an HMAC-SHA256 keyed by the parent seed over a message built as Daml's hash
 * builder builds it: a 32-bit int big-endian (4 bytes), a 64-bit long big-endian (8 bytes), a
 * string as its UTF-8 length (4 bytes) then its bytes, a set of strings as its size (4 bytes) then
 * its members sorted, each as a string.
 */
import { sortedSet } from './partySets.js';
import { hmacSha256 } from './sha256.js';

/** A 32-byte seed or discriminator. */
export type Seed = Uint8Array;

/**
 * Where messages are written, each straight into one buffer at its known size (every seed of
 * every node of every transaction pays for this): hashing is synchronous, one message at a time.
 */
let scratch = Buffer.allocUnsafe(256);
let view = new DataView(scratch.buffer, scratch.byteOffset, scratch.length);

function room(size: number): Buffer {
  if (scratch.length < size) {
    scratch = Buffer.allocUnsafe(Math.max(size, 2 * scratch.length));
    view = new DataView(scratch.buffer, scratch.byteOffset, scratch.length);
  }
  return scratch;
}

/** Writes `s` as its UTF-8 length then its bytes at `at`; where the next item goes. */
function writeString(bytes: Buffer, s: string, at: number): number {
  const written = bytes.write(s, at + 4, 'utf8');
  view.setInt32(at, written);
  return at + 4 + written;
}

/** The transaction seed from the submission seed, the participant id and the preparation time. */
export function deriveTransactionSeed(submissionSeed: Seed, participantId: string, preparationTimeMicros: bigint): Seed {
  const size = 4 + Buffer.byteLength(participantId, 'utf8') + 8;
  const bytes = room(size);
  const at = writeString(bytes, participantId, 0);
  view.setBigInt64(at, preparationTimeMicros);
  return hmacSha256(submissionSeed, bytes, size);
}

/** The seed of child `index` (0-based) of an exercise node, or of root node `index` of a transaction. */
export function deriveNodeSeed(parent: Seed, index: number): Seed {
  const bytes = room(4);
  view.setInt32(0, index);
  return hmacSha256(parent, bytes, 4);
}

/** The 32-byte discriminator of a contract created at a node with `nodeSeed`. */
export function deriveContractDiscriminator(nodeSeed: Seed, preparationTimeMicros: bigint, stakeholders: readonly string[]): Seed {
  // Sorted as Java sorts strings (UTF-16 code units); the engine's sets arrive sorted already.
  const sorted = sortedSet(stakeholders);
  let size = 8 + 4;
  for (const s of sorted) size += 4 + Buffer.byteLength(s, 'utf8');
  const bytes = room(size);
  view.setBigInt64(0, preparationTimeMicros);
  view.setInt32(8, sorted.length);
  let at = 12;
  for (const s of sorted) at = writeString(bytes, s, at);
  return hmacSha256(nodeSeed, bytes, size);
}

/**
 * A node seed derived when first read (contract-id.rst's derivation, deferred). A create reads
 * its seed at once, for its contract id; an exercise's seed is read only by the creates below it
 * and by a prepared transaction's node seeds, so an exercise that creates nothing (an archive, a
 * read-only choice) never pays for its HMAC.
 */
export class LazySeed {
  #bytes: Seed | undefined;
  #hex: string | undefined;
  /** Dropped once derived: a derived seed keeps no chain of ancestors alive. */
  #parent: LazySeed | Seed | undefined;
  readonly #index: number;

  constructor(parent: LazySeed | Seed, index: number) {
    this.#parent = parent;
    this.#index = index;
  }

  get bytes(): Seed {
    if (this.#bytes !== undefined) return this.#bytes;
    // Iteratively, from the nearest derived ancestor down: exercises nest as deep as Daml recursion does.
    const chain: LazySeed[] = [this];
    let at: LazySeed | Seed = this.#parent!;
    while (at instanceof LazySeed && at.#bytes === undefined) {
      chain.push(at);
      at = at.#parent!;
    }
    let bytes: Seed = at instanceof LazySeed ? at.#bytes! : at;
    for (let i = chain.length - 1; i >= 0; i--) {
      const s = chain[i]!;
      bytes = s.#bytes = deriveNodeSeed(bytes, s.#index);
      s.#parent = undefined;
    }
    return bytes;
  }

  get hex(): string {
    return (this.#hex ??= hex(this.bytes));
  }
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');

/** A V1 contract id in hex: the version prefix 0x00, the discriminator, then the suffix (0..94 bytes). */
export function contractIdV1(discriminator: Seed, suffix?: Uint8Array): string {
  if (discriminator.length !== 32) throw new RangeError(`a V1 discriminator has 32 bytes, not ${discriminator.length}`);
  if (suffix === undefined || suffix.length === 0) return `00${hex(discriminator)}`;
  if (suffix.length > 94) throw new RangeError(`a V1 suffix has at most 94 bytes, not ${suffix.length}`);
  return `00${hex(discriminator)}${hex(suffix)}`;
}
