import { isValidPartyHint } from '../ledger/index.js';

const NAMESPACE = /^1220[0-9a-f]{64}$/;

/**
 * Why a string is not a party id (`hint::1220<64 hex>`), in words a caller can act on; undefined
 * when it is one. The apps answer 400 with this, as Splice does for an unparsable party.
 */
export function partyIdProblem(id: string): string | undefined {
  const shown = id.length > 120 ? `${id.slice(0, 117)}...` : id;
  const i = id.lastIndexOf('::');
  if (i < 0) return `Invalid party id '${shown}': missing '::' separator`;
  if (!isValidPartyHint(id.slice(0, i))) {
    return `Invalid party id '${shown}': the part before '::' must be 1-185 characters of [A-Za-z0-9_-] (single ':' allowed)`;
  }
  if (!NAMESPACE.test(id.slice(i + 2))) {
    return `Invalid party id '${shown}': the namespace after '::' must be '1220' followed by 64 lowercase hex digits`;
  }
  return undefined;
}
