/** Our SHA-256 and HMAC-SHA256 give node:crypto's digests, at every block boundary and key size. */
import { createHash, createHmac } from 'node:crypto';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { hmacSha256, sha256 } from '../../daml-engine/update/sha256.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const bytes = (max: number) => fc.uint8Array({ maxLength: max });

describe('sha256 / hmacSha256', () => {
  it('the FIPS 180-4 examples', () => {
    expect(hex(sha256(new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(sha256(Buffer.from('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256(Buffer.from('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it('every message length from 0 to 200 bytes (the padding block boundaries at 55, 56, 63, 64)', () => {
    for (let n = 0; n <= 200; n++) {
      const m = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 255);
      expect(hex(sha256(m))).toBe(createHash('sha256').update(m).digest('hex'));
      expect(hex(hmacSha256(m.subarray(0, 32), m))).toBe(createHmac('sha256', m.subarray(0, 32)).update(m).digest('hex'));
    }
  });

  it('any key (empty, short, a block, longer than a block) and message', () => {
    fc.assert(fc.property(bytes(150), bytes(300), (key, message) => {
      expect(hex(hmacSha256(key, message))).toBe(createHmac('sha256', key).update(message).digest('hex'));
      expect(hex(sha256(message))).toBe(createHash('sha256').update(message).digest('hex'));
    }), { numRuns: 300 });
  });
});
