import type { StoredParty } from '../store/records.js';
import type { LedgerContext } from './context.js';
import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import { checkAnnotationsSize, checkIdentityProvider, decodePageToken, encodePageToken, mergeAnnotations, pageSizeOf, validateAnnotations } from './pages.js';
import { isValidPartyHint, isValidPartyId, localPartyId } from './parties.js';
import type { Result } from './result.js';
import { ok } from './result.js';
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
  const idp = checkIdentityProvider(req.identityProviderId);
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
  return ok({ party: ctx.interner.string(party), isLocal: true, annotations: annotations.value, resourceVersion: 0, identityProviderId: '' });
}

export function listParties(ctx: LedgerContext, req: ListKnownPartiesRequest): Result<ListKnownPartiesResponse, LedgerError> {
  const idp = checkIdentityProvider(req.identityProviderId);
  if (!idp.ok) return idp;
  const size = pageSizeOf(req.pageSize, ctx.config.maxPartiesPageSize);
  if (!size.ok) return size;
  const after = decodePageToken(req.pageToken);
  if (!after.ok) return after;
  if (req.filterParty !== undefined && req.filterParty !== null && typeof req.filterParty !== 'string') return fail('INVALID_ARGUMENT', 'filter-party must be a string');
  const needle = req.filterParty;
  const filter = needle ? (p: StoredParty) => p.party.includes(needle) : undefined;
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

export function updatePartyDetails(ctx: LedgerContext, req: UpdatePartyDetailsRequest): Result<UpdatePartyDetailsResponse, LedgerError> {
  if (!isPlainObject(req) || !isPlainObject(req.partyDetails)) return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: party_details');
  const id = req.partyDetails.party;
  if (typeof id !== 'string' || !isValidPartyId(id)) return fail('INVALID_ARGUMENT', 'party_details.party must be a valid party id');
  const p = ctx.store.party(id);
  if (!p) return fail('PARTY_NOT_FOUND', `Party ${id} is not known on this participant`, { context: { party: id } });
  const paths = req.updateMask?.paths ?? [];
  if (paths.length === 0) return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: the update mask is empty');
  const meta = req.partyDetails.localMetadata;
  for (const path of paths) {
    if (!['local_metadata', 'localMetadata', 'local_metadata.annotations', 'localMetadata.annotations'].includes(path)) {
      return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: update path '${path}' cannot be updated`);
    }
  }
  if (meta?.resourceVersion && meta.resourceVersion !== String(p.resourceVersion)) {
    return fail('CONCURRENT_USER_UPDATE_DETECTED', `Concurrent update of party ${id} detected (resource version ${meta.resourceVersion} is stale)`);
  }
  const annotations = validateAnnotations(meta?.annotations, 'local_metadata');
  if (!annotations.ok) return annotations;
  const merged = checkAnnotationsSize(mergeAnnotations(p.annotations, annotations.value), 'local_metadata.annotations');
  if (!merged.ok) return merged;
  p.annotations = merged.value;
  p.resourceVersion++;
  ctx.store.putParty(p);
  return ok({ partyDetails: partyDetailsOf(p) });
}
