import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import type { Result } from './result.js';
import { ok } from './result.js';
import { isValidPartyId } from './parties.js';
import type { Right } from './wire.js';

/** Canton's user id alphabet, at most 128 characters. */
const USER_ID = /^[a-zA-Z0-9@^$.!`\-#+'~_|:()]{1,128}$/;

export function isValidUserId(id: string): boolean {
  return USER_ID.test(id);
}

export const PARTICIPANT_ADMIN_USER = 'participant_admin';

/**
 * Rights are kept as canonical strings (`CanActAs:<party>`, `ParticipantAdmin`, ...) so sets of
 * them compare and deduplicate for free.
 */
export function rightToKey(right: Right): Result<string, LedgerError> {
  const kind = right.kind;
  if (kind === undefined || kind === null || typeof kind !== 'object') return fail('MISSING_FIELD', 'The submitted command is missing a mandatory field: kind');
  const keys = Object.keys(kind);
  if (keys.length !== 1) return fail('INVALID_ARGUMENT', 'A right must have exactly one kind');
  const k = keys[0] as string;
  switch (k) {
    case 'CanActAs':
    case 'CanReadAs':
    case 'CanExecuteAs': {
      const party = (kind as Record<string, { value?: { party?: unknown } }>)[k]?.value?.party;
      if (typeof party !== 'string') return fail('MISSING_FIELD', `The submitted command is missing a mandatory field: ${k}.party`);
      if (!isValidPartyId(party)) return fail('INVALID_ARGUMENT', `Invalid party id '${party}' in right ${k}`);
      return ok(`${k}:${party}`);
    }
    case 'CanReadAsAnyParty':
    case 'CanExecuteAsAnyParty':
    case 'CanActAsAnyParty':
    case 'ParticipantAdmin':
    case 'IdentityProviderAdmin':
      return ok(k);
    default:
      return fail('INVALID_ARGUMENT', `Unknown right kind '${k}'`);
  }
}

export function keyToRight(key: string): Right {
  const i = key.indexOf(':');
  if (i < 0) return { kind: { [key]: { value: {} } } as Right['kind'] };
  const k = key.slice(0, i);
  return { kind: { [k]: { value: { party: key.slice(i + 1) } } } as Right['kind'] };
}

export function rightsToKeys(rights: readonly Right[] | undefined): Result<string[], LedgerError> {
  const out: string[] = [];
  if (rights !== undefined && rights !== null && !Array.isArray(rights)) return fail('INVALID_ARGUMENT', 'rights must be a list');
  for (const r of rights ?? []) {
    if (typeof r !== 'object' || r === null) return fail('INVALID_ARGUMENT', 'each right must be an object {kind: ...}');
    const k = rightToKey(r);
    if (!k.ok) return k;
    if (!out.includes(k.value)) out.push(k.value);
  }
  return ok(out);
}
