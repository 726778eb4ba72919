import type { CheckDefinition } from '../checks/types.js';
import type { Profile } from '../runner/profile.js';
import { accessOf } from './ledgerAccess.js';

/** A user right as the JSON Ledger API writes it (`{"kind": {"CanActAs": {"value": {"party": P}}}}`). */
export type Right =
  | { readonly kind: 'ParticipantAdmin' }
  | { readonly kind: 'IdentityProviderAdmin' }
  | { readonly kind: 'CanReadAsAnyParty' }
  | { readonly kind: 'CanExecuteAsAnyParty' }
  | { readonly kind: 'CanActAs'; readonly party: string }
  | { readonly kind: 'CanReadAs'; readonly party: string }
  | { readonly kind: 'CanExecuteAs'; readonly party: string };

/** A right the selected checks need, the checks that need it, and why. */
export interface NeededRight {
  readonly right: Right;
  readonly why: string;
  readonly checks: readonly string[];
  /** The operations of those checks: what `--skip` takes to leave them out instead. */
  readonly operations: readonly string[];
}

export function rightLabel(r: Right): string {
  return 'party' in r ? `${r.kind} ${r.party}` : r.kind;
}

/** The right as the JSON API's `rights` entry (for the grant call). */
export function rightJson(r: Right): unknown {
  return { kind: { [r.kind]: { value: 'party' in r ? { party: r.party } : {} } } };
}

/** Reads the rights of `GET /v2/users/{id}/rights`; entries of kinds it does not know are left out. */
export function parseRights(body: unknown): Right[] {
  const list = (body as { rights?: unknown }).rights;
  if (!Array.isArray(list)) return [];
  const out: Right[] = [];
  for (const entry of list) {
    const kind = (entry as { kind?: unknown }).kind;
    if (kind === null || typeof kind !== 'object') continue;
    for (const [name, v] of Object.entries(kind as Record<string, unknown>)) {
      const party = ((v as { value?: { party?: unknown } } | null)?.value?.party);
      if (name === 'ParticipantAdmin' || name === 'IdentityProviderAdmin' || name === 'CanReadAsAnyParty' || name === 'CanExecuteAsAnyParty') out.push({ kind: name });
      else if ((name === 'CanActAs' || name === 'CanReadAs' || name === 'CanExecuteAs') && typeof party === 'string') out.push({ kind: name, party });
    }
  }
  return out;
}

/** Does a set of rights grant this one (CanActAs implies reading and executing as the party; ...AnyParty covers every party)? */
export function holds(held: readonly Right[], need: Right): boolean {
  const has = (kind: Right['kind'], party?: string) => held.some((r) => r.kind === kind && (party === undefined || ('party' in r && r.party === party)));
  switch (need.kind) {
    case 'ParticipantAdmin':
      return has('ParticipantAdmin');
    case 'IdentityProviderAdmin':
      return has('ParticipantAdmin') || has('IdentityProviderAdmin');
    case 'CanReadAsAnyParty':
      return has('CanReadAsAnyParty');
    case 'CanExecuteAsAnyParty':
      return has('CanExecuteAsAnyParty');
    case 'CanActAs':
      return has('CanActAs', need.party);
    case 'CanReadAs':
      return has('CanActAs', need.party) || has('CanReadAs', need.party) || has('CanReadAsAnyParty');
    case 'CanExecuteAs':
      return has('CanActAs', need.party) || has('CanExecuteAs', need.party) || has('CanExecuteAsAnyParty');
  }
}

/**
 * The rights the run's user needs for these checks (those that will run: ledger checks the
 * profile does not skip). The party the suite acts and reads as comes from the profile: with
 * `allocateParties` the suite allocates its own and grants itself rights over it, which takes
 * an admin right; otherwise `ledger.party`; a read-only run without a party reads for any party.
 */
export function neededRights(checks: readonly CheckDefinition[], profile: Profile): NeededRight[] {
  const byKey = new Map<string, { right: Right; whys: Set<string>; checks: Set<string>; operations: Set<string> }>();
  const need = (right: Right, why: string, check: CheckDefinition) => {
    const key = rightLabel(right);
    const entry = byKey.get(key) ?? { right, whys: new Set<string>(), checks: new Set<string>(), operations: new Set<string>() };
    entry.whys.add(why);
    entry.checks.add(check.id);
    entry.operations.add(check.operationId);
    byKey.set(key, entry);
  };
  const ledger = profile.ledger;
  const allocates = profile.writes && ledger?.allocateParties === true;
  for (const c of checks) {
    if (c.group !== 'ledger') continue;
    const access = accessOf(c.operationId);
    if (access === 'participant-admin') need({ kind: 'ParticipantAdmin' }, 'packages, vetting and identity provider configs are the participant admin\'s', c);
    else if (access === 'admin') need({ kind: 'ParticipantAdmin' }, 'party and user management (IdentityProviderAdmin covers its own provider\'s only)', c);
    const acts = access === 'submit' || c.requires?.writes === true;
    const reads = access === 'read';
    if (!acts && !reads) continue;
    if (allocates) need({ kind: 'ParticipantAdmin' }, 'the profile allocates the suite\'s own party (ledger.allocateParties) and grants the run\'s user rights over it', c);
    else if (ledger?.party !== undefined) need(acts && profile.writes ? { kind: 'CanActAs', party: ledger.party } : { kind: 'CanReadAs', party: ledger.party }, acts ? 'the suite submits as the profile\'s party (ledger.party)' : 'the suite reads as the profile\'s party (ledger.party)', c);
    else if (reads) need({ kind: 'CanReadAsAnyParty' }, 'the profile names no party (ledger.party), so the suite reads for any party', c);
  }
  // CanActAs implies CanReadAs of the same party: one right to hold (and grant), with both needs.
  for (const [key, e] of byKey) {
    const acts = e.right.kind === 'CanReadAs' ? byKey.get(`CanActAs ${e.right.party}`) : undefined;
    if (acts === undefined) continue;
    e.whys.forEach((w) => acts.whys.add(w));
    e.checks.forEach((c) => acts.checks.add(c));
    e.operations.forEach((o) => acts.operations.add(o));
    byKey.delete(key);
  }
  return [...byKey.values()].map((e) => ({ right: e.right, why: [...e.whys].join('; '), checks: [...e.checks], operations: [...e.operations] }));
}
