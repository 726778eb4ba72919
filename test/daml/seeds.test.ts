/** contract-id.rst: node seeds and V1 contract ids. */
import { createHmac } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import {
  contractIdV1, deriveContractDiscriminator, deriveNodeSeed, deriveTransactionSeed,
} from '../../daml-engine/update/seeds.js';

const seed = (byte: number): Uint8Array => new Uint8Array(32).fill(byte);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const hmac = (key: Uint8Array, message: string): string => createHmac('sha256', key).update(Buffer.from(message, 'hex')).digest('hex');

describe('node seeds and contract ids (contract-id.rst)', () => {
  it('lays out each HMAC message as the hash builder does (ints and longs big-endian, strings length-prefixed)', () => {
    // participant "p1" (length 2), preparation time 1 µs.
    expect(hex(deriveTransactionSeed(seed(1), 'p1', 1n))).toBe(hmac(seed(1), `00000002${'7031'}${'0000000000000001'}`));
    expect(hex(deriveNodeSeed(seed(2), 3))).toBe(hmac(seed(2), '00000003'));
    // Two stakeholders, sorted: "Alice" before "Bob", whatever order they come in.
    const message = `${'0000000000000064'}${'00000002'}${'00000005'}${Buffer.from('Alice').toString('hex')}${'00000003'}${Buffer.from('Bob').toString('hex')}`;
    expect(hex(deriveContractDiscriminator(seed(3), 100n, ['Bob', 'Alice']))).toBe(hmac(seed(3), message));
  });

  it('prefixes a string with its UTF-8 byte length, not its length in characters', () => {
    // "pé€" is 3 characters and 6 bytes (70, c3a9, e282ac).
    expect(hex(deriveTransactionSeed(seed(7), 'pé€', 2n))).toBe(hmac(seed(7), `00000006${'70c3a9e282ac'}${'0000000000000002'}`));
    const long = 'x'.repeat(200); // a message longer than one SHA-256 block
    expect(hex(deriveContractDiscriminator(seed(8), -1n, [long]))).toBe(hmac(seed(8), `${'ffffffffffffffff'}${'00000001'}${'000000c8'}${Buffer.from(long).toString('hex')}`));
  });

  it('a discriminator depends on the stakeholder set, not its order; seeds differ per child index', () => {
    const a = deriveContractDiscriminator(seed(4), 5n, ['Bob', 'Alice', 'Bob']);
    expect(hex(a)).toBe(hex(deriveContractDiscriminator(seed(4), 5n, ['Alice', 'Bob'])));
    expect(hex(a)).not.toBe(hex(deriveContractDiscriminator(seed(4), 6n, ['Alice', 'Bob'])));
    expect(hex(deriveNodeSeed(seed(5), 0))).not.toBe(hex(deriveNodeSeed(seed(5), 1)));
  });

  it('a V1 contract id is 00, the 32-byte discriminator, then the suffix', () => {
    const d = deriveContractDiscriminator(seed(6), 0n, ['Alice']);
    expect(contractIdV1(d)).toBe(`00${hex(d)}`);
    expect(contractIdV1(d, new Uint8Array([0xca, 0xfe]))).toBe(`00${hex(d)}cafe`);
    expect(() => contractIdV1(new Uint8Array(31))).toThrow(RangeError);
  });
});
