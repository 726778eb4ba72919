/**
 * SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104) in JavaScript, for the short messages of node
 * seeds and contract ids: every create and exercise derives two or three, and through
 * `node:crypto` each pays for a native handle, a stream object and a Buffer, which costs more than
 * hashing the one or two 64-byte blocks such a message takes. Results are the standard ones
 * (`test/daml/sha256.test.ts` compares them with `node:crypto` over random keys and messages).
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** Scratch space, reused: hashing is synchronous and never re-entered. */
const W = new Int32Array(64);
const H = new Int32Array(8);
const BLOCK = new Uint8Array(64);
const PAD = new Uint8Array(64);
const INNER = new Uint8Array(32);

/** Absorbs the 64-byte block of `bytes` at `at` into the state `H`. */
function compress(bytes: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++) {
    const j = at + 4 * i;
    W[i] = (bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) | bytes[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const a = W[i - 15]!;
    const b = W[i - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = H[0]!; let b = H[1]!; let c = H[2]!; let d = H[3]!;
  let e = H[4]!; let f = H[5]!; let g = H[6]!; let h = H[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g; g = f; f = e; e = (d + t1) | 0;
    d = c; c = b; b = a; a = (t1 + t2) | 0;
  }
  H[0] = (H[0]! + a) | 0; H[1] = (H[1]! + b) | 0; H[2] = (H[2]! + c) | 0; H[3] = (H[3]! + d) | 0;
  H[4] = (H[4]! + e) | 0; H[5] = (H[5]! + f) | 0; H[6] = (H[6]! + g) | 0; H[7] = (H[7]! + h) | 0;
}

/**
 * Hashes `prefix` (0 or 64 bytes) then `message` into `out`: the state starts at the IV, the
 * prefix block (an HMAC pad) is absorbed first, and the length counts both.
 */
function digestInto(prefix: Uint8Array | undefined, message: Uint8Array, n: number, out: Uint8Array): void {
  H.set(IV);
  if (prefix) compress(prefix, 0);
  let at = 0;
  for (; n - at >= 64; at += 64) compress(message, at);
  const rest = n - at;
  BLOCK.fill(0);
  for (let i = 0; i < rest; i++) BLOCK[i] = message[at + i]!;
  BLOCK[rest] = 0x80;
  if (rest >= 56) {
    compress(BLOCK, 0);
    BLOCK.fill(0);
  }
  // The length in bits, big-endian in the last 8 bytes (messages here stay far below 2^53 bits).
  const bits = (n + (prefix ? 64 : 0)) * 8;
  const high = Math.floor(bits / 0x100000000);
  BLOCK[56] = high >>> 24; BLOCK[57] = high >>> 16; BLOCK[58] = high >>> 8; BLOCK[59] = high;
  BLOCK[60] = bits >>> 24; BLOCK[61] = bits >>> 16; BLOCK[62] = bits >>> 8; BLOCK[63] = bits;
  compress(BLOCK, 0);
  for (let i = 0; i < 8; i++) {
    const v = H[i]!;
    out[4 * i] = v >>> 24; out[4 * i + 1] = v >>> 16; out[4 * i + 2] = v >>> 8; out[4 * i + 3] = v;
  }
}

/** The SHA-256 digest of `message`. */
export function sha256(message: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  digestInto(undefined, message, message.length, out);
  return out;
}

/**
 * HMAC-SHA256 of the first `length` bytes of `message` under `key` (a key longer than a block is
 * hashed first, as RFC 2104 says).
 */
export function hmacSha256(key: Uint8Array, message: Uint8Array, length = message.length): Uint8Array {
  const k = key.length > 64 ? sha256(key) : key;
  const out = new Uint8Array(32);
  PAD.fill(0x36);
  for (let i = 0; i < k.length; i++) PAD[i] = PAD[i]! ^ k[i]!;
  digestInto(PAD, message, length, INNER);
  PAD.fill(0x5c);
  for (let i = 0; i < k.length; i++) PAD[i] = PAD[i]! ^ k[i]!;
  digestInto(PAD, INNER, 32, out);
  return out;
}
