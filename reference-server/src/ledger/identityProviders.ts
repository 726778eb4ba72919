import type { AdminStore, StoredIdentityProvider } from '../store/AdminStore.js';
import type { LedgerStore } from '../store/LedgerStore.js';
import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import { ok, type Result } from './result.js';
import { isPlainObject, show } from './values.js';

type R<T> = Result<T, LedgerError>;

/** Wire shape of an identity provider config (IdentityProviderConfig). */
export interface IdentityProviderConfig {
  identityProviderId: string;
  isDeactivated?: boolean;
  issuer: string;
  jwksUrl: string;
  audience?: string;
}

/** The participant's default limit on identity provider configs. */
export const MAX_IDENTITY_PROVIDER_CONFIGS = 16;

/** Canton's LedgerString alphabet for identity provider ids, at most 255 characters. */
const IDP_ID = /^[a-zA-Z0-9#:\-_ /]{1,255}$/;

export const configOf = (c: StoredIdentityProvider): IdentityProviderConfig => ({
  identityProviderId: c.identityProviderId,
  isDeactivated: c.isDeactivated,
  issuer: c.issuer,
  jwksUrl: c.jwksUrl,
  audience: c.audience,
});

const notFound = (operation: string, id: string) =>
  fail('IDP_CONFIG_NOT_FOUND', `${operation} failed for unknown identity provider id="${id}"`, {
    context: { identity_provider_id: id },
    resources: [['IDENTITY_PROVIDER_CONFIG', id]],
    definiteAnswer: true,
  });

function checkId(id: unknown, field: string): R<string> {
  if (id === undefined || id === null || id === '') return fail('MISSING_FIELD', `The submitted request is missing a mandatory field: ${field}`, { context: { field_name: field } });
  if (typeof id !== 'string' || !IDP_ID.test(id)) {
    return fail('INVALID_FIELD', `The submitted request has an invalid field: ${field}: '${show(id)}' is not a valid identity provider id`, { context: { field_name: field } });
  }
  return ok(id);
}

function checkUrl(v: unknown, field: string): R<string> {
  if (v === undefined || v === null || v === '') return fail('MISSING_FIELD', `The submitted request is missing a mandatory field: ${field}`, { context: { field_name: field } });
  let url: URL | undefined;
  try {
    url = typeof v === 'string' ? new URL(v) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    return fail('INVALID_FIELD', `The submitted request has an invalid field: ${field}: '${show(v)}' is not an http(s) URL`, { context: { field_name: field } });
  }
  return ok(v as string);
}

function checkText(v: unknown, field: string, required: boolean): R<string> {
  if (v === undefined || v === null || v === '') {
    return required ? fail('MISSING_FIELD', `The submitted request is missing a mandatory field: ${field}`, { context: { field_name: field } }) : ok('');
  }
  if (typeof v !== 'string') return fail('INVALID_FIELD', `The submitted request has an invalid field: ${field} must be a string`, { context: { field_name: field } });
  return ok(v);
}

function issuerTaken(admin: AdminStore, issuer: string, except: string | undefined): R<void> {
  const other = admin.identityProviders().find((c) => c.issuer === issuer && c.identityProviderId !== except);
  if (other) {
    return fail('IDP_CONFIG_ISSUER_ALREADY_EXISTS', `${except === undefined ? 'Creating' : 'Updating'} identity provider config failed, as identity provider with issuer "${issuer}" already exists`, {
      resources: [['IDENTITY_PROVIDER_CONFIG', issuer]],
      definiteAnswer: true,
    });
  }
  return ok(undefined);
}

export function createIdentityProvider(admin: AdminStore, req: { identityProviderConfig?: unknown }): R<{ identityProviderConfig: IdentityProviderConfig }> {
  const c = isPlainObject(req) ? req.identityProviderConfig : undefined;
  if (!isPlainObject(c)) return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: identity_provider_config', { context: { field_name: 'identity_provider_config' } });
  const id = checkId(c['identityProviderId'], 'identity_provider_id');
  if (!id.ok) return id;
  const issuer = checkText(c['issuer'], 'issuer', true);
  if (!issuer.ok) return issuer;
  const jwksUrl = checkUrl(c['jwksUrl'], 'jwks_url');
  if (!jwksUrl.ok) return jwksUrl;
  const audience = checkText(c['audience'], 'audience', false);
  if (!audience.ok) return audience;
  if (admin.identityProvider(id.value)) {
    return fail('IDP_CONFIG_ALREADY_EXISTS', `Creating identity provider config failed, as identity provider "${id.value}" already exists`, {
      resources: [['IDENTITY_PROVIDER_CONFIG', id.value]],
      definiteAnswer: true,
    });
  }
  const taken = issuerTaken(admin, issuer.value, undefined);
  if (!taken.ok) return taken;
  if (admin.identityProviders().length >= MAX_IDENTITY_PROVIDER_CONFIGS) {
    return fail('TOO_MANY_IDENTITY_PROVIDER_CONFIGS', 'Creating identity provider config failed.', { definiteAnswer: true });
  }
  const stored: StoredIdentityProvider = {
    identityProviderId: id.value,
    issuer: issuer.value,
    jwksUrl: jwksUrl.value,
    audience: audience.value,
    isDeactivated: c['isDeactivated'] === true,
  };
  admin.putIdentityProvider(stored);
  return ok({ identityProviderConfig: configOf(stored) });
}

export function getIdentityProvider(admin: AdminStore, rawId: string): R<{ identityProviderConfig: IdentityProviderConfig }> {
  const id = checkId(rawId, 'identity_provider_id');
  if (!id.ok) return id;
  const c = admin.identityProvider(id.value);
  return c ? ok({ identityProviderConfig: configOf(c) }) : notFound('Getting identity provider config', id.value);
}

export function listIdentityProviders(admin: AdminStore): { identityProviderConfigs: IdentityProviderConfig[] } {
  return { identityProviderConfigs: admin.identityProviders().map(configOf) };
}

/** The config whose issuer is `issuer` (issuers are unique among configs), for verifying its tokens. */
export function identityProviderOfIssuer(admin: AdminStore, issuer: string): IdentityProviderConfig | undefined {
  const found = admin.identityProviders().find((c) => c.issuer === issuer);
  return found === undefined ? undefined : configOf(found);
}

export function deleteIdentityProvider(admin: AdminStore, rawId: string): R<Record<string, never>> {
  const id = checkId(rawId, 'identity_provider_id');
  if (!id.ok) return id;
  return admin.deleteIdentityProvider(id.value) ? ok({}) : notFound('Deleting identity provider config', id.value);
}

type Modifiable = 'isDeactivated' | 'issuer' | 'jwksUrl' | 'audience';
/** Update mask paths in the protobuf (snake case) form and the JSON (camel case) form. */
const IDP_MASK_PATHS: Readonly<Record<string, Modifiable>> = {
  is_deactivated: 'isDeactivated',
  isDeactivated: 'isDeactivated',
  issuer: 'issuer',
  jwks_url: 'jwksUrl',
  jwksUrl: 'jwksUrl',
  audience: 'audience',
};

const invalidUpdate = (id: string, reason: string) =>
  fail('INVALID_IDENTITY_PROVIDER_UPDATE_REQUEST', `Update operation for identity provider config '${id}' failed due to: ${reason}`, {
    resources: [['IDENTITY_PROVIDER_CONFIG', id]],
  });

export function updateIdentityProvider(
  admin: AdminStore,
  pathId: string,
  req: { identityProviderConfig?: unknown; updateMask?: { paths?: unknown } },
): R<{ identityProviderConfig: IdentityProviderConfig }> {
  const c = isPlainObject(req) ? req.identityProviderConfig : undefined;
  if (!isPlainObject(c)) return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: identity_provider_config', { context: { field_name: 'identity_provider_config' } });
  const id = checkId(pathId, 'identity_provider_id');
  if (!id.ok) return id;
  if (c['identityProviderId'] !== undefined && c['identityProviderId'] !== id.value) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: identity_provider_config.identity_provider_id '${show(c['identityProviderId'])}' does not match the id in the path '${id.value}'`);
  }
  const paths = isPlainObject(req.updateMask) && Array.isArray(req.updateMask.paths) ? (req.updateMask.paths as unknown[]) : [];
  if (paths.length === 0) return invalidUpdate(id.value, 'The update mask contains no entries');
  const fields = new Set<Modifiable>();
  for (const p of paths) {
    const f = typeof p === 'string' && Object.hasOwn(IDP_MASK_PATHS, p) ? IDP_MASK_PATHS[p] : undefined;
    if (!f) return invalidUpdate(id.value, `The update path: '${show(p)}' points to an unknown field.`);
    fields.add(f);
  }
  const current = admin.identityProvider(id.value);
  if (!current) return notFound('Updating identity provider config', id.value);
  let next: StoredIdentityProvider = current;
  if (fields.has('issuer')) {
    const issuer = checkText(c['issuer'], 'issuer', true);
    if (!issuer.ok) return issuer;
    const taken = issuerTaken(admin, issuer.value, id.value);
    if (!taken.ok) return taken;
    next = { ...next, issuer: issuer.value };
  }
  if (fields.has('jwksUrl')) {
    const url = checkUrl(c['jwksUrl'], 'jwks_url');
    if (!url.ok) return url;
    next = { ...next, jwksUrl: url.value };
  }
  if (fields.has('audience')) {
    const audience = checkText(c['audience'], 'audience', false);
    if (!audience.ok) return audience;
    next = { ...next, audience: audience.value };
  }
  if (fields.has('isDeactivated')) next = { ...next, isDeactivated: c['isDeactivated'] === true };
  admin.putIdentityProvider(next);
  return ok({ identityProviderConfig: configOf(next) });
}

/** Is this identity provider id the default ("") or a configured one? */
export function identityProviderExists(admin: AdminStore, id: string): boolean {
  return id === '' || admin.identityProvider(id) !== undefined;
}

/** Moves a user from one identity provider to another (ParticipantAdmin only). */
export function updateUserIdentityProvider(
  admin: AdminStore,
  store: LedgerStore,
  pathUserId: string,
  req: { userId?: unknown; sourceIdentityProviderId?: unknown; targetIdentityProviderId?: unknown },
): R<Record<string, never>> {
  if (!isPlainObject(req)) return fail('INVALID_ARGUMENT', 'The request must be an object');
  if (req.userId !== undefined && req.userId !== pathUserId) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: user_id '${show(req.userId)}' does not match the user id in the path '${show(pathUserId)}'`);
  }
  const source = req.sourceIdentityProviderId ?? '';
  const target = req.targetIdentityProviderId ?? '';
  for (const [field, v] of [['source_identity_provider_id', source], ['target_identity_provider_id', target]] as const) {
    if (typeof v !== 'string') return fail('INVALID_FIELD', `The submitted request has an invalid field: ${field} must be a string`, { context: { field_name: field } });
    if (v !== '' && !IDP_ID.test(v)) return fail('INVALID_FIELD', `The submitted request has an invalid field: ${field}: '${show(v)}' is not a valid identity provider id`, { context: { field_name: field } });
    if (!identityProviderExists(admin, v)) return notFound('Updating user identity provider', v);
  }
  const user = store.user(pathUserId);
  // The participant looks the user up within its source identity provider: one elsewhere is not its to move.
  if (user && user.identityProviderId !== source) {
    return fail('PERMISSION_DENIED', `User ${user.id} belongs to another Identity Provider`, { context: { user_id: user.id } });
  }
  if (!user) {
    return fail('USER_NOT_FOUND', `updating user's identity provider failed for unknown user "${show(pathUserId, 128)}"`, {
      context: { user_id: show(pathUserId, 128) },
      resources: [['USER', show(pathUserId, 128)]],
    });
  }
  user.identityProviderId = target as string;
  user.resourceVersion++;
  store.putUser(user);
  return ok({});
}
