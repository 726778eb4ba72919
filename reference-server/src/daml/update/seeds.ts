/**
 * Node seeds and V1 contract ids (contract-id.rst), with the byte layout of Daml's hash builder:
 * HMAC-SHA256 keyed by the parent seed; strings as a 32-bit big-endian length and their UTF-8
 * bytes, integers as 32-bit and times as 64-bit big-endian, sets sorted and preceded by their
 * size. The same seeds and preparation time give the same ids, as validation requires.
 */
import { createHmac } from 'node:crypto';

/** A 32-byte seed or discriminator. */
export type Seed = Uint8Array;

/** Appends fields in the hash builder's encoding. */
class HmacInput {
  private readonly parts: Buffer[] = [];

  int(n: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32BE(n);
    this.parts.push(b);
    return this;
  }

  long(n: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigInt64BE(n);
    this.parts.push(b);
    return this;
  }

  string(s: string): this {
    const bytes = Buffer.from(s, 'utf8');
    this.int(bytes.length);
    this.parts.push(bytes);
    return this;
  }

  stringSet(set: Iterable<string>): this {
    const sorted = [...new Set(set)].sort();
    this.int(sorted.length);
    for (const s of sorted) this.string(s);
    return this;
  }

  hmac(key: Seed): Seed {
    return new Uint8Array(createHmac('sha256', key).update(Buffer.concat(this.parts)).digest());
  }
}

/** The transaction seed: HMAC(submissionSeed, participantId ∥ preparationTime). */
export function deriveTransactionSeed(submissionSeed: Seed, participantId: string, preparationTimeMicros: bigint): Seed {
  return new HmacInput().string(participantId).long(preparationTimeMicros).hmac(submissionSeed);
}

/** The seed of the `index`th root node (parent: the transaction seed) or child (parent: the exercise's seed). */
export function deriveNodeSeed(parent: Seed, index: number): Seed {
  return new HmacInput().int(index).hmac(parent);
}

/** A created contract's discriminator: HMAC(nodeSeed, preparationTime ∥ stakeholders). */
export function deriveContractDiscriminator(nodeSeed: Seed, preparationTimeMicros: bigint, stakeholders: Iterable<string>): Seed {
  return new HmacInput().long(preparationTimeMicros).stringSet(stakeholders).hmac(nodeSeed);
}

/** A local (not yet suffixed) V1 contract id: version byte 0x00 and the discriminator, in hex. */
export function localContractIdV1(discriminator: Seed): string {
  return `00${Buffer.from(discriminator).toString('hex')}`;
}

export const toHex = (seed: Seed): string => Buffer.from(seed).toString('hex');
