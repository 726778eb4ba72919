import { createPublicKey, ECDH, verify, type KeyObject } from 'node:crypto';
import { fail, type LedgerError } from '../errors.js';
import { fingerprintOf } from '../parties.js';
import { ok, type Result } from '../result.js';
import type { Signature, SigningPublicKey } from './wire.js';

/** The key algorithms an external party may hold, and the signature schemes that go with them. */
export type KeyAlgorithm = 'ed25519' | 'ecdsa-p256';

/** A public key an external party registered, ready to verify with. */
export interface PartyKey {
  readonly algorithm: KeyAlgorithm;
  /** `1220…`: SHA-256 multihash over the key bytes as registered, what `signedBy` names. */
  readonly fingerprint: string;
  readonly key: KeyObject;
  /** As registered (stored on the party). */
  readonly registered: SigningPublicKey;
}

const RAW = 'CRYPTO_KEY_FORMAT_RAW';
const SPKI = ['CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO', 'CRYPTO_KEY_FORMAT_DER'];
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const invalidKey = (why: string) => fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: public_key: ${why}`, { context: { field_name: 'public_key' } });

/**
 * Reads a public key in the forms clients send: Ed25519 (`SIGNING_KEY_SPEC_EC_CURVE25519`) as 32
 * raw bytes or SPKI DER; ECDSA P-256 (`SIGNING_KEY_SPEC_EC_P256`) as SPKI DER or a raw SEC1 point.
 */
export function partyKeyOf(publicKey: SigningPublicKey): Result<PartyKey, LedgerError> {
  if (publicKey === null || typeof publicKey !== 'object') return invalidKey('missing');
  const { format, keyData, keySpec } = publicKey;
  if (typeof keyData !== 'string' || keyData === '' || !BASE64.test(keyData)) return invalidKey('keyData must be non-empty base64');
  const bytes = Buffer.from(keyData, 'base64');
  let algorithm: KeyAlgorithm;
  if (keySpec === 'SIGNING_KEY_SPEC_EC_CURVE25519') algorithm = 'ed25519';
  else if (keySpec === 'SIGNING_KEY_SPEC_EC_P256') algorithm = 'ecdsa-p256';
  else return invalidKey(`unsupported keySpec '${String(keySpec).slice(0, 60)}' (supported: SIGNING_KEY_SPEC_EC_CURVE25519, SIGNING_KEY_SPEC_EC_P256)`);

  let key: KeyObject;
  try {
    if (format === RAW) {
      if (algorithm === 'ed25519') {
        if (bytes.length !== 32) return invalidKey(`a raw Ed25519 key has 32 bytes, got ${bytes.length}`);
        key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: bytes.toString('base64url') }, format: 'jwk' });
      } else {
        // A SEC1 point, compressed (33 bytes) or not (65 bytes).
        const point = ECDH.convertKey(bytes, 'prime256v1', undefined, undefined, 'uncompressed') as Buffer;
        key = createPublicKey({
          key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
          format: 'jwk',
        });
      }
    } else if (SPKI.includes(format)) {
      key = createPublicKey({ key: bytes, format: 'der', type: 'spki' });
    } else {
      return invalidKey(`unsupported format '${String(format).slice(0, 60)}' (supported: ${RAW}, ${SPKI[0]})`);
    }
  } catch {
    return invalidKey(`keyData is not a valid ${keySpec} public key in ${format}`);
  }
  const matches =
    algorithm === 'ed25519' ? key.asymmetricKeyType === 'ed25519' : key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  if (!matches) return invalidKey(`keyData holds a ${key.asymmetricKeyType ?? 'different'} key, not ${keySpec}`);
  return ok({ algorithm, fingerprint: fingerprintOf(bytes), key, registered: { format, keyData, keySpec } });
}

/**
 * Checks one signature over `message` (a hash the party was given) against the party's key.
 * Ed25519 takes `SIGNATURE_FORMAT_CONCAT` or `_RAW` with `SIGNING_ALGORITHM_SPEC_ED25519`; ECDSA
 * takes `SIGNATURE_FORMAT_DER` with `SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256`. Answers why not, or
 * undefined when the signature is good.
 */
export function signatureProblem(key: PartyKey, message: Uint8Array, signature: Signature, party: string): string | undefined {
  if (signature === null || typeof signature !== 'object') return 'not a signature object';
  if (signature.signedBy !== key.fingerprint) return `Signing key ${String(signature.signedBy).slice(0, 80)} is not a valid key for ${party}`;
  if (typeof signature.signature !== 'string' || !BASE64.test(signature.signature)) return 'the signature is not base64';
  const bytes = Buffer.from(signature.signature, 'base64');
  try {
    if (key.algorithm === 'ed25519') {
      if (signature.signingAlgorithmSpec !== 'SIGNING_ALGORITHM_SPEC_ED25519') return `an Ed25519 key cannot verify ${signature.signingAlgorithmSpec}`;
      if (signature.format !== 'SIGNATURE_FORMAT_CONCAT' && signature.format !== 'SIGNATURE_FORMAT_RAW') return `Ed25519 signatures come as CONCAT or RAW, not ${signature.format}`;
      if (bytes.length !== 64) return `an Ed25519 signature has 64 bytes, got ${bytes.length}`;
      return verify(null, message, key.key, bytes) ? undefined : 'the signature does not verify';
    }
    if (signature.signingAlgorithmSpec !== 'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256') return `a P-256 key cannot verify ${signature.signingAlgorithmSpec}`;
    if (signature.format !== 'SIGNATURE_FORMAT_DER') return `ECDSA signatures come DER-encoded, not ${signature.format}`;
    return verify('sha256', message, { key: key.key, dsaEncoding: 'der' }, bytes) ? undefined : 'the signature does not verify';
  } catch {
    return 'the signature is malformed';
  }
}
