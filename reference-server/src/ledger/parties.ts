import { createHash } from 'node:crypto';

/**
 * Party ids are `hint::namespace`, the namespace a SHA-256 multihash (`1220` + 64 hex). Local
 * parties live in the participant's namespace, as on a real participant; external parties in the
 * namespace of their own key.
 */
// A hint is /^[A-Za-z0-9_-]+(?::[A-Za-z0-9_-]+)*$/ of at most MAX_HINT characters (checked by hand below).
const NAMESPACE = /^1220[0-9a-f]{64}$/;
const MAX_HINT = 185;

export function isValidPartyHint(hint: string): boolean {
  return isHintAt(hint, 0, hint.length);
}

/**
 * The hint's pattern above (a `:` begins a segment of one or more characters), on `s[from, to)`,
 * by character codes: every command checks each of its parties, and every answer its filter's,
 * so no slices and no regular expressions (the same verdicts: `test/ledger/parties.test.ts`).
 */
function isHintAt(s: string, from: number, to: number): boolean {
  const n = to - from;
  if (n <= 0 || n > MAX_HINT) return false;
  let colon = true; // at the start as after a ':', a segment character must come next
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 58) { // ':'
      if (colon) return false;
      colon = true;
    } else if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45) {
      colon = false;
    } else {
      return false;
    }
  }
  return !colon;
}

/** `NAMESPACE` on `s` from `from` to its end. */
function isNamespaceAt(s: string, from: number): boolean {
  if (s.length - from !== 68 || s.charCodeAt(from) !== 49 || s.charCodeAt(from + 1) !== 50 || s.charCodeAt(from + 2) !== 50 || s.charCodeAt(from + 3) !== 48) return false;
  for (let i = from + 4; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

export function isValidPartyId(id: string): boolean {
  const i = id.lastIndexOf('::');
  if (i <= 0) return false;
  return isHintAt(id, 0, i) && isNamespaceAt(id, i + 2);
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
