import type { StoredUser } from '../store/records.js';
import type { LedgerContext } from './context.js';
import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import { checkAnnotationsSize, checkIdentityProvider, decodePageToken, encodePageToken, mergeAnnotations, pageSizeOf, validateAnnotations } from './pages.js';
import { isValidPartyId } from './parties.js';
import type { Result } from './result.js';
import { ok } from './result.js';
import { isValidUserId, keyToRight, rightsToKeys } from './users.js';
import { identityProviderExists } from './identityProviders.js';
import { isPlainObject, show } from './values.js';
import type * as W from './wire.js';

/** A claim the auth layer checks against the user's rights. */
export type Claim =
  | { readonly kind: 'actAs'; readonly party: string }
  | { readonly kind: 'readAs'; readonly party: string }
  | { readonly kind: 'executeAs'; readonly party: string }
  | { readonly kind: 'readAsAnyParty' }
  | { readonly kind: 'participantAdmin' }
  | { readonly kind: 'identityProviderAdmin' };

export function userOf(u: StoredUser): W.User {
  return {
    id: u.id,
    primaryParty: u.primaryParty ?? '',
    isDeactivated: u.isDeactivated,
    metadata: { resourceVersion: String(u.resourceVersion), annotations: { ...u.annotations } },
    identityProviderId: u.identityProviderId,
  };
}

function checkUserId(id: unknown, field = 'user_id'): Result<string, LedgerError> {
  if (id === undefined || id === null || id === '') return fail('MISSING_FIELD', `The submitted request is missing a mandatory field: ${field}`, { context: { field_name: field } });
  if (typeof id !== 'string' || !isValidUserId(id)) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: user id '${show(id)}' must be 1-128 characters of [a-zA-Z0-9@^$.!\`-#+'~_|:()]`, {
      context: { field_name: field },
    });
  }
  return ok(id);
}

/**
 * Who asks the user service, as Canton's claims say it: user management works within one identity
 * provider, chosen per request (MatchIdentityProviderId). `undefined` where the participant itself
 * asks (fixtures, LocalNet seeding, Daml Script's user commands): no identity provider applies.
 */
export interface UserCaller {
  /** Holds ParticipantAdmin, or the participant runs without auth (the wildcard claims). */
  readonly participantAdmin: boolean;
  /** The identity provider the caller's claims are confined to; undefined for the default one's users. */
  readonly identityProviderId: string | undefined;
}

/**
 * The identity provider a request works in. An empty id in the request means the caller's own
 * for an identity provider admin and the default one for a participant admin; a caller confined
 * to an identity provider may name no other (PERMISSION_DENIED). `undefined`: no caller, no scope.
 */
function scopeOf(caller: UserCaller | undefined, raw: unknown): Result<string | undefined, LedgerError> {
  if (caller === undefined) return ok(undefined);
  const empty = raw === undefined || raw === null || raw === '';
  const implied = empty ? (caller.participantAdmin ? '' : (caller.identityProviderId ?? '')) : raw;
  if (typeof implied !== 'string') {
    return fail('INVALID_FIELD', `The submitted request has an invalid field: identity_provider_id must be a string, not ${show(implied)}`, { context: { field_name: 'identity_provider_id' } });
  }
  if (caller.identityProviderId !== undefined && implied !== caller.identityProviderId) {
    return fail('PERMISSION_DENIED', `identity_provider_id from the request \`${implied}\` does not match the one provided in the authorization claims'.`);
  }
  return ok(implied);
}

/** The user, looked up within `scope`: a user of another identity provider is not the caller's to see or change. */
function findUser(ctx: LedgerContext, rawId: unknown, scope: string | undefined = undefined, operation = 'getting user'): Result<StoredUser, LedgerError> {
  const id = checkUserId(rawId);
  if (!id.ok) return id;
  const u = ctx.store.user(id.value);
  if (!u) return fail('USER_NOT_FOUND', `${operation} failed for unknown user "${id.value}"`, { context: { user_id: id.value }, resources: [['USER', id.value]] });
  if (scope !== undefined && u.identityProviderId !== scope) return belongsElsewhere(id.value);
  return ok(u);
}

const belongsElsewhere = (id: string) => fail('PERMISSION_DENIED', `User ${id} belongs to another Identity Provider`, { context: { user_id: id } });

/**
 * Rights name parties the participant knows, as a participant checks before it stores them
 * (verifyPartiesExistInIdp): a right for an unknown party is refused, never kept.
 */
function checkRightParties(ctx: LedgerContext, rights: readonly string[], idp: string): Result<void, LedgerError> {
  const unknown = new Set<string>();
  for (const r of rights) {
    const m = /^Can(?:ActAs|ReadAs):(.*)$/s.exec(r);
    if (m && !ctx.store.party(m[1]!)) unknown.add(m[1]!);
  }
  if (unknown.size === 0) return ok(undefined);
  return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: Provided parties have not been found in identity_provider_id=\`${idp}\`: [${[...unknown].join(',')}].`);
}

function checkPrimaryParty(p: unknown): Result<string | undefined, LedgerError> {
  if (p === undefined || p === null || p === '') return ok(undefined);
  if (typeof p !== 'string' || !isValidPartyId(p)) return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: primary party '${show(p)}' is not a valid party id`);
  return ok(p);
}

const tooMany = (ctx: LedgerContext, id: string) =>
  fail('TOO_MANY_USER_RIGHTS', `User "${id}" would have more than ${ctx.config.maxRightsPerUser} rights`, { context: { user_id: id } });

export function createUser(ctx: LedgerContext, req: W.CreateUserRequest, caller?: UserCaller): Result<W.CreateUserResponse, LedgerError> {
  if (!isPlainObject(req) || !isPlainObject(req.user)) return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: user');
  // An identity provider admin's user lands in its own identity provider when the request names none.
  const scope = scopeOf(caller, req.user.identityProviderId);
  if (!scope.ok) return scope;
  const id = checkUserId(req.user.id, 'user.id');
  if (!id.ok) return id;
  const idp = checkIdentityProvider(scope.value ?? req.user.identityProviderId, (i) => identityProviderExists(ctx.admin, i));
  if (!idp.ok) return idp;
  const primary = checkPrimaryParty(req.user.primaryParty);
  if (!primary.ok) return primary;
  const annotations = validateAnnotations(req.user.metadata?.annotations, 'user.metadata');
  if (!annotations.ok) return annotations;
  const rights = rightsToKeys(req.rights);
  if (!rights.ok) return rights;
  if (rights.value.length > ctx.config.maxRightsPerUser) return tooMany(ctx, id.value);
  const parties = checkRightParties(ctx, rights.value, idp.value);
  if (!parties.ok) return parties;
  const existing = ctx.store.user(id.value);
  if (existing && existing.identityProviderId !== idp.value) return belongsElsewhere(id.value);
  if (existing) {
    return fail('USER_ALREADY_EXISTS', `creating user failed for existing user "${id.value}"`, { context: { user_id: id.value }, resources: [['USER', id.value]] });
  }
  const user: StoredUser = {
    id: id.value,
    primaryParty: primary.value,
    isDeactivated: req.user.isDeactivated === true,
    annotations: annotations.value,
    resourceVersion: 0,
    identityProviderId: idp.value,
    rights: new Set(rights.value),
  };
  ctx.store.putUser(user);
  return ok({ user: userOf(user) });
}

/** `identityProviderId`: the request's (the JSON API's `identity-provider-id` query parameter). */
export function getUser(ctx: LedgerContext, userId: string, identityProviderId?: string, caller?: UserCaller): Result<W.GetUserResponse, LedgerError> {
  const scope = scopeOf(caller, identityProviderId);
  if (!scope.ok) return scope;
  const u = findUser(ctx, userId, scope.value);
  return u.ok ? ok({ user: userOf(u.value) }) : u;
}

/** The users of the caller's identity provider (the JSON API names none: the default one for a participant admin). */
export function listUsers(ctx: LedgerContext, req: W.ListUsersRequest, caller?: UserCaller): Result<W.ListUsersResponse, LedgerError> {
  const scope = scopeOf(caller, req.identityProviderId);
  if (!scope.ok) return scope;
  const idp = checkIdentityProvider(scope.value ?? req.identityProviderId, (i) => identityProviderExists(ctx.admin, i));
  if (!idp.ok) return idp;
  // The user service's own wording for a negative page size.
  const size = pageSizeOf(req.pageSize, ctx.config.maxUsersPageSize, 'Max page size must be non-negative');
  if (!size.ok) return size;
  const after = decodePageToken(req.pageToken);
  if (!after.ok) return after;
  const page = ctx.store.users(after.value, size.value + 1, scope.value);
  const more = page.length > size.value;
  const shown = more ? page.slice(0, size.value) : page;
  return ok({ users: shown.map(userOf), nextPageToken: more ? encodePageToken((shown[shown.length - 1] as StoredUser).id) : '' });
}

const MASK_PATHS: Record<string, 'primaryParty' | 'isDeactivated' | 'metadata'> = {
  primary_party: 'primaryParty',
  primaryParty: 'primaryParty',
  is_deactivated: 'isDeactivated',
  isDeactivated: 'isDeactivated',
  metadata: 'metadata',
  'metadata.annotations': 'metadata',
};

export function updateUser(ctx: LedgerContext, userId: string, req: W.UpdateUserRequest, caller?: UserCaller): Result<W.UpdateUserResponse, LedgerError> {
  if (!isPlainObject(req) || !isPlainObject(req.user)) return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: user');
  if (req.user.id !== undefined && req.user.id !== userId) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: user.id '${show(req.user.id)}' does not match the user id in the path '${userId}'`);
  }
  const scope = scopeOf(caller, req.user.identityProviderId);
  if (!scope.ok) return scope;
  if (scope.value !== undefined) {
    const idp = checkIdentityProvider(scope.value, (i) => identityProviderExists(ctx.admin, i));
    if (!idp.ok) return idp;
  }
  const found = findUser(ctx, userId, scope.value, 'updating user');
  if (!found.ok) return found;
  const u = found.value;
  const paths = isPlainObject(req.updateMask) && Array.isArray(req.updateMask.paths) ? req.updateMask.paths : [];
  if (paths.length === 0) return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: the update mask is empty');
  const fields = new Set<'primaryParty' | 'isDeactivated' | 'metadata'>();
  for (const p of paths) {
    const f = typeof p === 'string' && Object.hasOwn(MASK_PATHS, p) ? MASK_PATHS[p] : undefined;
    if (!f) return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: the update mask contains the unknown or read-only path '${show(p)}'`);
    fields.add(f);
  }
  const rv = req.user.metadata?.resourceVersion;
  if (rv !== undefined && rv !== '' && rv !== String(u.resourceVersion)) {
    return fail('CONCURRENT_USER_UPDATE_DETECTED', `Update of user "${u.id}" failed: concurrent update detected (resource version ${rv} is stale)`, {
      context: { user_id: u.id },
    });
  }
  const primary = checkPrimaryParty(req.user.primaryParty);
  if (!primary.ok) return primary;
  const annotations = validateAnnotations(req.user.metadata?.annotations, 'user.metadata');
  if (!annotations.ok) return annotations;
  // Annotations merge; an empty value removes the key (as on a participant). The result must fit the limit too.
  const merged = fields.has('metadata') ? checkAnnotationsSize(mergeAnnotations(u.annotations, annotations.value), 'user.metadata.annotations') : undefined;
  if (merged !== undefined && !merged.ok) return merged;
  if (fields.has('primaryParty')) u.primaryParty = primary.value;
  if (fields.has('isDeactivated')) u.isDeactivated = req.user.isDeactivated === true;
  if (merged !== undefined) u.annotations = merged.value;
  u.resourceVersion++;
  ctx.store.putUser(u);
  return ok({ user: userOf(u) });
}

/** The JSON API's DELETE names no identity provider: a participant admin deletes the default one's users only. */
export function deleteUser(ctx: LedgerContext, userId: string, callerUserId: string | undefined, caller?: UserCaller): Result<W.DeleteUserResponse, LedgerError> {
  const scope = scopeOf(caller, '');
  if (!scope.ok) return scope;
  const id = checkUserId(userId);
  if (!id.ok) return id;
  if (callerUserId !== undefined && callerUserId === id.value) {
    return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: Requesting user cannot delete itself', { context: { user_id: id.value } });
  }
  const found = findUser(ctx, id.value, scope.value, 'deleting user');
  if (!found.ok) return found;
  ctx.store.deleteUser(id.value);
  return ok({});
}

/** What grant and revoke both start from: the user, and the rights of the request as keys. */
function rightsChange(ctx: LedgerContext, userId: string, req: W.GrantUserRightsRequest | W.RevokeUserRightsRequest, caller: UserCaller | undefined, operation: string) {
  const raw = isPlainObject(req) ? req.identityProviderId : undefined;
  const scope = scopeOf(caller, raw);
  if (!scope.ok) return scope;
  const idp = checkIdentityProvider(scope.value ?? raw, (i) => identityProviderExists(ctx.admin, i));
  if (!idp.ok) return idp;
  const rights = rightsToKeys(isPlainObject(req) ? req.rights : undefined);
  if (!rights.ok) return rights;
  const parties = checkRightParties(ctx, rights.value, idp.value);
  if (!parties.ok) return parties;
  const found = findUser(ctx, userId, scope.value, operation);
  if (!found.ok) return found;
  return ok({ user: found.value, rights: rights.value });
}

export function grantRights(ctx: LedgerContext, userId: string, req: W.GrantUserRightsRequest, caller?: UserCaller): Result<W.GrantUserRightsResponse, LedgerError> {
  const change = rightsChange(ctx, userId, req, caller, 'grant user rights');
  if (!change.ok) return change;
  const { user: u, rights } = change.value;
  const fresh = rights.filter((r) => !u.rights.has(r));
  if (u.rights.size + fresh.length > ctx.config.maxRightsPerUser) return tooMany(ctx, u.id);
  for (const r of fresh) u.rights.add(r);
  ctx.store.putUser(u);
  return ok({ newlyGrantedRights: fresh.map(keyToRight) });
}

export function revokeRights(ctx: LedgerContext, userId: string, req: W.RevokeUserRightsRequest, caller?: UserCaller): Result<W.RevokeUserRightsResponse, LedgerError> {
  const change = rightsChange(ctx, userId, req, caller, 'revoke user rights');
  if (!change.ok) return change;
  const { user: u, rights } = change.value;
  const gone = rights.filter((r) => u.rights.has(r));
  for (const r of gone) u.rights.delete(r);
  ctx.store.putUser(u);
  return ok({ newlyRevokedRights: gone.map(keyToRight) });
}

/** The JSON API's rights list names no identity provider either (as `deleteUser`). */
export function listRights(ctx: LedgerContext, userId: string, caller?: UserCaller): Result<W.ListUserRightsResponse, LedgerError> {
  const scope = scopeOf(caller, '');
  if (!scope.ok) return scope;
  const found = findUser(ctx, userId, scope.value, 'list user rights');
  return found.ok ? ok({ rights: [...found.value.rights].map(keyToRight) }) : found;
}

function holds(rights: ReadonlySet<string>, claim: Claim): boolean {
  switch (claim.kind) {
    case 'participantAdmin':
      return rights.has('ParticipantAdmin');
    case 'identityProviderAdmin':
      return rights.has('ParticipantAdmin') || rights.has('IdentityProviderAdmin');
    case 'actAs':
      return rights.has(`CanActAs:${claim.party}`) || rights.has('CanActAsAnyParty');
    case 'readAs':
      return (
        rights.has(`CanReadAs:${claim.party}`) ||
        rights.has(`CanActAs:${claim.party}`) ||
        rights.has('CanReadAsAnyParty') ||
        rights.has('CanActAsAnyParty')
      );
    case 'executeAs':
      return (
        rights.has(`CanExecuteAs:${claim.party}`) ||
        rights.has(`CanActAs:${claim.party}`) ||
        rights.has('CanExecuteAsAnyParty') ||
        rights.has('CanActAsAnyParty')
      );
    case 'readAsAnyParty':
      // Acting as any party includes reading as any party (Canton's ClaimActAsAnyParty).
      return rights.has('CanReadAsAnyParty') || rights.has('CanActAsAnyParty');
  }
}

const describe = (c: Claim) => ('party' in c ? `${c.kind} ${c.party}` : c.kind);

/** Does the user hold every claim? Unknown and deactivated users hold none. */
export function authorize(ctx: LedgerContext, userId: string, claims: readonly Claim[], identityProviderId?: string): Result<void, LedgerError> {
  const u = typeof userId === 'string' ? ctx.store.user(userId) : undefined;
  if (!u) return fail('PERMISSION_DENIED', `User "${show(userId, 128)}" is not known on this participant`, { context: { user_id: show(userId, 200) } });
  // The participant resolves a token's user within the identity provider that issued the token.
  if (identityProviderId !== undefined && u.identityProviderId !== identityProviderId) return belongsElsewhere(u.id);
  if (u.isDeactivated) return fail('PERMISSION_DENIED', `User "${u.id}" is deactivated`, { context: { user_id: u.id } });
  const missing = claims.filter((c) => !holds(u.rights, c));
  if (missing.length) {
    return fail('PERMISSION_DENIED', `User "${u.id}" lacks the rights for: ${missing.map(describe).join(', ')}`, { context: { user_id: u.id } });
  }
  return ok(undefined);
}

/** The claims a command submission needs: act as each actAs party, read as each readAs party. */
export function submissionClaims(commands: { actAs?: readonly string[]; readAs?: readonly string[] }): Claim[] {
  return [
    ...(commands.actAs ?? []).map((party): Claim => ({ kind: 'actAs', party })),
    ...(commands.readAs ?? []).map((party): Claim => ({ kind: 'readAs', party })),
  ];
}
