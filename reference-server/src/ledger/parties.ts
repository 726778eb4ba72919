import { createHash } from 'node:crypto';

/**
 * Party ids are `hint::namespace`, the namespace a SHA-256 multihash (`1220` + 64 hex). Local
 * parties live in the participant's namespace, as on a real participant; external parties in the
 * namespace of their own key.
 */
const HINT = /^[A-Za-z0-9_-]+(?::[A-Za-z0-9_-]+)*$/;
const NAMESPACE = /^1220[0-9a-f]{64}$/;
const MAX_HINT = 185;

export function isValidPartyHint(hint: string): boolean {
  return hint.length > 0 && hint.length <= MAX_HINT && HINT.test(hint) && !hint.includes('::');
}

export function isValidPartyId(id: string): boolean {
  const i = id.lastIndexOf('::');
  if (i <= 0) return false;
  return isValidPartyHint(id.slice(0, i)) && NAMESPACE.test(id.slice(i + 2));
}

/** The namespace fingerprint of a participant id, or one derived from it when it has none. */
export function namespaceOf(participantId: string): string {
  const i = participantId.lastIndexOf('::');
  const ns = i >= 0 ? participantId.slice(i + 2) : '';
  return NAMESPACE.test(ns) ? ns : '1220' + createHash('sha256').update(participantId).digest('hex');
}

export function localPartyId(hint: string, participantId: string): string {
  return `${hint}::${namespaceOf(participantId)}`;
}

/**
 * Fingerprint of a public key as Canton computes it: SHA-256 over the hash purpose (12, public
 * key fingerprint, as 4 bytes big-endian) and the key bytes, as a multihash.
 */
export function fingerprintOf(publicKey: Uint8Array): string {
  const purpose = Buffer.alloc(4);
  purpose.writeInt32BE(12);
  return '1220' + createHash('sha256').update(purpose).update(publicKey).digest('hex');
}
