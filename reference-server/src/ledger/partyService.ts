import type { StoredParty } from '../store/records.js';
import type { LedgerContext } from './context.js';
import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import { checkAnnotationsSize, checkIdentityProvider, decodePageToken, encodePageToken, mergeAnnotations, pageSizeOf, validateAnnotations } from './pages.js';
import { isValidPartyHint, isValidPartyId, localPartyId } from './parties.js';
import type { Result } from './result.js';
import { ok } from './result.js';
import { identityProviderExists } from './identityProviders.js';
import { isPlainObject, show } from './values.js';
import type {
  AllocatePartyRequest,
  GetPartiesResponse,
  ListKnownPartiesRequest,
  ListKnownPartiesResponse,
  PartyDetails,
  UpdatePartyDetailsRequest,
  UpdatePartyDetailsResponse,
} from './wire.js';

export function partyDetailsOf(p: StoredParty): PartyDetails {
  return {
    party: p.party,
    isLocal: p.isLocal,
    localMetadata: { resourceVersion: String(p.resourceVersion), annotations: { ...p.annotations } },
    identityProviderId: p.identityProviderId,
  };
}

/** Checks an allocation and returns the party to add (the Ledger appends its topology update). */
export function prepareAllocation(ctx: LedgerContext, req: AllocatePartyRequest, randomHint: () => string): Result<StoredParty, LedgerError> {
  if (!isPlainObject(req)) return fail('INVALID_ARGUMENT', 'The request must be an object');
  const idp = checkIdentityProvider(req.identityProviderId, (i) => identityProviderExists(ctx.admin, i));
  if (!idp.ok) return idp;
  const hint = req.partyIdHint === undefined || req.partyIdHint === null || req.partyIdHint === '' ? randomHint() : req.partyIdHint;
  if (typeof hint !== 'string' || !isValidPartyHint(hint)) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: Party hint '${show(hint)}' must be 1-185 characters of [a-zA-Z0-9_-] (single ':' allowed)`, {
      context: { field_name: 'party_id_hint' },
    });
  }
  if (req.synchronizerId !== undefined && req.synchronizerId !== '' && !ctx.config.synchronizers.some((s) => s.id === req.synchronizerId)) {
    return fail('UNKNOWN_SYNCHRONIZER', `Synchronizer ${show(req.synchronizerId)} is not connected to this participant`);
  }
  const annotations = validateAnnotations((req.localMetadata as { annotations?: unknown } | undefined)?.annotations, 'local_metadata');
  if (!annotations.ok) return annotations;
  const party = localPartyId(hint, ctx.config.participantId);
  if (ctx.store.party(party)) return fail('PARTY_ALREADY_EXISTS', `Party ${party} already exists on this participant`, { context: { party } });
  return ok({ party: ctx.interner.string(party), isLocal: true, annotations: annotations.value, resourceVersion: 0, identityProviderId: idp.value });
}

export function listParties(ctx: LedgerContext, req: ListKnownPartiesRequest): Result<ListKnownPartiesResponse, LedgerError> {
  const idp = checkIdentityProvider(req.identityProviderId, (i) => identityProviderExists(ctx.admin, i));
  if (!idp.ok) return idp;
  const size = pageSizeOf(req.pageSize, ctx.config.maxPartiesPageSize);
  if (!size.ok) return size;
  const after = decodePageToken(req.pageToken);
  if (!after.ok) return after;
  if (req.filterParty !== undefined && req.filterParty !== null && typeof req.filterParty !== 'string') return fail('INVALID_ARGUMENT', 'filter-party must be a string');
  const needle = req.filterParty;
  // A configured identity provider lists only its own parties; the default one lists all.
  const idpId = idp.value;
  const filter =
    needle || idpId !== ''
      ? (p: StoredParty) => (!needle || p.party.includes(needle)) && (idpId === '' || p.identityProviderId === idpId)
      : undefined;
  const page = ctx.store.parties(after.value, size.value + 1, filter);
  const more = page.length > size.value;
  const shown = more ? page.slice(0, size.value) : page;
  return ok({
    partyDetails: shown.map(partyDetailsOf),
    nextPageToken: more ? encodePageToken((shown[shown.length - 1] as StoredParty).party) : '',
  });
}

export function getParties(ctx: LedgerContext, parties: readonly string[]): Result<GetPartiesResponse, LedgerError> {
  if (!Array.isArray(parties) || parties.length === 0) return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: parties');
  const out: PartyDetails[] = [];
  for (const id of parties) {
    if (typeof id !== 'string' || !isValidPartyId(id)) {
      return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: '${show(id)}' is not a valid party id`, { context: { party: show(id, 200) } });
    }
    const p = ctx.store.party(id);
    if (p) out.push(partyDetailsOf(p));
  }
  return ok({ partyDetails: out });
}

/** Update mask paths of PartyDetails, in protobuf (snake case) and JSON (camel case) form. */
const PARTY_MASK_PATHS: Readonly<Record<string, 'annotations' | 'resourceVersion' | 'party' | 'isLocal' | 'identityProviderId'>> = {
  local_metadata: 'annotations',
  localMetadata: 'annotations',
  'local_metadata.annotations': 'annotations',
  'localMetadata.annotations': 'annotations',
  'local_metadata.resource_version': 'resourceVersion',
  'localMetadata.resourceVersion': 'resourceVersion',
  party: 'party',
  is_local: 'isLocal',
  isLocal: 'isLocal',
  identity_provider_id: 'identityProviderId',
  identityProviderId: 'identityProviderId',
};

/**
 * Updates a party's participant-local metadata, as the participant checks it: the mask must name
 * at least one known path; read-only fields may be named only with their current value; a stale
 * resource version is a concurrent update. `callerIdentityProvider` scopes an identity provider
 * admin to its own parties (undefined: participant admin).
 */
export function updatePartyDetails(
  ctx: LedgerContext,
  pathParty: string,
  req: UpdatePartyDetailsRequest,
  callerIdentityProvider?: string,
): Result<UpdatePartyDetailsResponse, LedgerError> {
  if (!isPlainObject(req) || !isPlainObject(req.partyDetails)) {
    return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: party_details', { context: { field_name: 'party_details' } });
  }
  const details = req.partyDetails;
  const id = details.party === undefined || details.party === '' ? pathParty : details.party;
  if (id !== pathParty) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: party_details.party '${show(id)}' does not match the party in the path '${show(pathParty)}'`);
  }
  if (typeof id !== 'string' || !isValidPartyId(id)) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: '${show(id)}' is not a valid party id`, { context: { field_name: 'party' } });
  }
  const invalid = (reason: string) =>
    fail('INVALID_PARTY_DETAILS_UPDATE_REQUEST', `Update operation for party '${id}' failed due to: ${reason}`, { resources: [['PARTY', id]] });
  const paths: unknown[] = isPlainObject(req.updateMask) && Array.isArray(req.updateMask.paths) ? req.updateMask.paths : [];
  if (paths.length === 0) return invalid('The update mask contains no entries');
  const fields = new Set<string>();
  for (const p of paths) {
    const f = typeof p === 'string' && Object.hasOwn(PARTY_MASK_PATHS, p) ? PARTY_MASK_PATHS[p] : undefined;
    if (!f) return invalid(`The update path: '${show(p)}' points to an unknown field.`);
    fields.add(f);
  }
  const meta = details.localMetadata;
  const rv = meta?.resourceVersion;
  if (rv !== undefined && rv !== '' && (typeof rv !== 'string' || !/^\d{1,18}$/.test(rv))) {
    return fail('INVALID_FIELD', `The submitted request has an invalid field: party_details.local_metadata.resource_version: Invalid resource version '${show(rv)}'`, {
      context: { field_name: 'party_details.local_metadata.resource_version' },
    });
  }
  const annotations = validateAnnotations(meta?.annotations, 'local_metadata');
  if (!annotations.ok) return annotations;
  const p = ctx.store.party(id);
  // An identity provider admin sees only its own parties: others are "not found" to it.
  if (!p || (callerIdentityProvider !== undefined && p.identityProviderId !== callerIdentityProvider)) {
    return fail('PARTY_NOT_FOUND', `Updating party failed for unknown party '${id}'`, { context: { party: id }, resources: [['PARTY', id]] });
  }
  if (fields.has('isLocal') && details.isLocal !== undefined && details.isLocal !== p.isLocal) {
    return invalid("Update request attempted to modify not-modifiable 'is_local' attribute");
  }
  if (fields.has('identityProviderId') && (details.identityProviderId ?? '') !== p.identityProviderId) {
    return invalid("Update request attempted to modify not-modifiable 'identity_provider_id' attribute");
  }
  if (rv !== undefined && rv !== '' && rv !== String(p.resourceVersion)) {
    return fail('CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED', `Update operation for party '${id}' failed due to a concurrent update to the same party`, {
      resources: [['PARTY', id]],
    });
  }
  if (fields.has('annotations')) {
    // Annotations merge; an empty value removes the key (as on a participant), within the size limit.
    const merged = checkAnnotationsSize(mergeAnnotations(p.annotations, annotations.value), 'local_metadata.annotations');
    if (!merged.ok) return merged;
    p.annotations = merged.value;
    p.resourceVersion++;
    ctx.store.putParty(p);
  }
  return ok({ partyDetails: partyDetailsOf(p) });
}
