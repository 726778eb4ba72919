import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

/** An external party's key pair, made by node:crypto, with the public half as clients send it. */
export interface TestKey {
  readonly kind: 'ed25519' | 'p256';
  readonly privateKey: KeyObject;
  readonly publicKey: { format: string; keyData: string; keySpec: string };
  /** `1220` + SHA-256(purpose 12 || key bytes), as the participant names keys. */
  readonly fingerprint: string;
}

export function newKey(kind: 'ed25519' | 'p256', format: 'raw' | 'spki' = kind === 'ed25519' ? 'raw' : 'spki'): TestKey {
  const pair = kind === 'ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = pair.publicKey.export({ type: 'spki', format: 'der' });
  // The raw form: the 32-byte Ed25519 key, or the uncompressed P-256 point (both end the SPKI).
  const raw = kind === 'ed25519' ? spki.subarray(spki.length - 32) : spki.subarray(spki.length - 65);
  const bytes = format === 'raw' ? raw : spki;
  const purpose = Buffer.alloc(4);
  purpose.writeInt32BE(12);
  return {
    kind,
    privateKey: pair.privateKey,
    publicKey: {
      format: format === 'raw' ? 'CRYPTO_KEY_FORMAT_RAW' : 'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO',
      keyData: bytes.toString('base64'),
      keySpec: kind === 'ed25519' ? 'SIGNING_KEY_SPEC_EC_CURVE25519' : 'SIGNING_KEY_SPEC_EC_P256',
    },
    fingerprint: '1220' + createHash('sha256').update(purpose).update(bytes).digest('hex'),
  };
}

/** Signs a base64 hash as a wallet does: Ed25519 CONCAT, ECDSA-SHA256 DER. */
export function signHash(key: TestKey, hashBase64: string, overrides: Partial<{ format: string; signedBy: string; signingAlgorithmSpec: string }> = {}) {
  const message = Buffer.from(hashBase64, 'base64');
  const signature = key.kind === 'ed25519' ? sign(null, message, key.privateKey) : sign('sha256', message, { key: key.privateKey, dsaEncoding: 'der' });
  return {
    format: key.kind === 'ed25519' ? 'SIGNATURE_FORMAT_CONCAT' : 'SIGNATURE_FORMAT_DER',
    signature: signature.toString('base64'),
    signedBy: key.fingerprint,
    signingAlgorithmSpec: key.kind === 'ed25519' ? 'SIGNING_ALGORITHM_SPEC_ED25519' : 'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256',
    ...overrides,
  };
}
