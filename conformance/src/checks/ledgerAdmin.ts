import { expectCantonError, expectRejected, expectStatus, isObject, objectBody } from './support/expect.js';
import { skipUnlessAdmin } from './support/packages.js';
import { LedgerOp, UPSTREAM_B } from './ledgerOps.js';
import type { Exchange } from '../target/exchange.js';
import { pageWalk } from './support/pageWalk.js';
import type { CheckContext, CheckDefinition } from './types.js';

const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });
const IDP = `${UPSTREAM_B}: IdentityProviderConfigService`;
const mask = (...paths: string[]) => ({ paths, unknownFields: { fields: {} } });

/** An identity provider config unique to this check; issuers must be unique too. */
const idpConfig = (id: string) => ({ identityProviderId: id, issuer: `https://${id}.conformance.invalid`, jwksUrl: `https://${id}.conformance.invalid/jwks.json`, audience: '' });
const idpIdOf = (ctx: CheckContext) => ctx.unique('cc-idp').replace(/[^a-zA-Z0-9_-]/g, '-');

async function createIdp(ctx: CheckContext, id: string): Promise<Exchange> {
  const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/idps', json: { identityProviderConfig: idpConfig(id) } });
  skipUnlessAdmin(ctx, e, 'POST /v2/idps');
  expectStatus(ctx, e, 200, 'creating an identity provider config');
  return e;
}

/**
 * Runs `body` with a fresh config, deleted afterwards whatever the outcome: a participant holds
 * only a few configs (Canton's default: 16), so a suite that left its own behind would fail with
 * TOO_MANY_IDENTITY_PROVIDER_CONFIGS from its third run on the same target.
 */
async function withIdp(ctx: CheckContext, body: (id: string, created: Exchange) => Promise<void>, cleanup?: () => Promise<unknown>): Promise<void> {
  const id = idpIdOf(ctx);
  const created = await createIdp(ctx, id);
  try {
    await body(id, created);
  } finally {
    await cleanup?.();
    await ctx.http.request('ledger', { method: 'DELETE', path: `/v2/idps/${id}` });
  }
}

/**
 * Cleanup of a user a check put in identity provider `idp` ('' if it never got there): back to
 * the default one first, where the JSON API's DELETE (which names none) finds it, then deleted.
 */
async function dropIdpUser(ctx: CheckContext, user: string, idp: string): Promise<void> {
  if (idp !== '') await ctx.http.request('ledger', { method: 'PATCH', path: `/v2/users/${user}/identity-provider-id`, json: { userId: user, sourceIdentityProviderId: idp, targetIdentityProviderId: '' } });
  await ctx.http.request('ledger', { method: 'DELETE', path: `/v2/users/${user}` });
}

const configIn = (ctx: CheckContext, e: Exchange, what: string): Record<string, unknown> => {
  const c = objectBody(ctx, e, what).identityProviderConfig;
  if (!isObject(c)) return ctx.fail(`${what}: no identityProviderConfig in the answer`, e);
  return c;
};

export const ledgerAdminChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.idp.create-get',
    title: 'POST /v2/idps creates a config that GET /v2/idps/{id} returns as created (a deactivated one deactivated); a second create of the id is 409',
    operationId: LedgerOp.createIdp,
    level: 'MUST',
    kind: 'example',
    specRef: `${IDP}: CreateIdentityProviderConfig, IDP_CONFIG_ALREADY_EXISTS`,
    requires: { writes: true },
    async run(ctx) {
      await withIdp(ctx, async (id, e) => {
        const created = configIn(ctx, e, 'create');
        for (const k of ['identityProviderId', 'issuer', 'jwksUrl'] as const) if (created[k] !== idpConfig(id)[k]) ctx.fail(`the created config's ${k} is ${String(created[k])}`);
        const again = await ctx.http.request('ledger', { method: 'POST', path: '/v2/idps', json: { identityProviderConfig: idpConfig(id) } });
        expectStatus(ctx, again, 409, 'creating the same identity provider id twice');
        expectCantonError(ctx, again, 'a duplicate identity provider', ['IDP_CONFIG_ALREADY_EXISTS']);
        // A config created deactivated stays so: its tokens must not be accepted until an admin enables it.
        const off = `${id}-off`;
        try {
          const made = await ctx.http.request('ledger', { method: 'POST', path: '/v2/idps', json: { identityProviderConfig: { ...idpConfig(off), isDeactivated: true } } });
          expectStatus(ctx, made, 200, 'creating an identity provider config deactivated');
          const read = await ctx.http.request('ledger', { method: 'GET', path: `/v2/idps/${off}` });
          expectStatus(ctx, read, 200, 'reading the deactivated identity provider config');
          if (configIn(ctx, read, 'get').isDeactivated !== true) ctx.fail(`identity provider ${off} was created deactivated; GET answers isDeactivated ${JSON.stringify(configIn(ctx, read, 'get').isDeactivated)}`, read);
        } finally {
          await ctx.http.request('ledger', { method: 'DELETE', path: `/v2/idps/${off}` });
        }
      });
    },
  }),
  check({
    id: 'ledger.idp.get',
    title: 'GET /v2/idps/{id} returns a created config and answers an unknown id with 404 IDP_CONFIG_NOT_FOUND',
    operationId: LedgerOp.getIdp,
    level: 'MUST',
    kind: 'example',
    specRef: `${IDP}: GetIdentityProviderConfig`,
    requires: { writes: true },
    async run(ctx) {
      await withIdp(ctx, async (id) => {
        const e = await ctx.http.request('ledger', { method: 'GET', path: `/v2/idps/${id}` });
        expectStatus(ctx, e, 200, 'reading a created identity provider config');
        const got = configIn(ctx, e, 'get');
        if (got.identityProviderId !== id || got.issuer !== idpConfig(id).issuer) ctx.fail(`GET /v2/idps/${id} answered another config (${String(got.identityProviderId)}, ${String(got.issuer)})`, e);
        const unknown = await ctx.http.request('ledger', { method: 'GET', path: `/v2/idps/${idpIdOf(ctx)}-unknown` });
        expectStatus(ctx, unknown, 404, 'reading an unknown identity provider config');
        expectCantonError(ctx, unknown, 'an unknown identity provider', ['IDP_CONFIG_NOT_FOUND']);
      });
    },
  }),
  check({
    id: 'ledger.idp.list',
    title: 'GET /v2/idps lists every config, a just-created one included',
    operationId: LedgerOp.listIdps,
    level: 'MUST',
    kind: 'example',
    specRef: `${IDP}: ListIdentityProviderConfigs`,
    requires: { writes: true },
    async run(ctx) {
      await withIdp(ctx, async (id) => {
        const e = await ctx.http.request('ledger', { method: 'GET', path: '/v2/idps' });
        expectStatus(ctx, e, 200, 'GET /v2/idps');
        const list = objectBody(ctx, e, 'identity provider configs').identityProviderConfigs;
        if (!Array.isArray(list) || !list.some((c) => isObject(c) && c.identityProviderId === id)) ctx.fail(`the created config ${id} is not listed`, e);
      });
    },
  }),
  check({
    id: 'ledger.idp.update-mask',
    title: 'PATCH /v2/idps/{id} changes only the masked fields and refuses an unknown mask path with 400',
    operationId: LedgerOp.updateIdp,
    level: 'MUST',
    kind: 'example',
    specRef: `${IDP}: UpdateIdentityProviderConfig (update mask), INVALID_IDENTITY_PROVIDER_UPDATE_REQUEST`,
    requires: { writes: true },
    async run(ctx) {
      await withIdp(ctx, async (id) => {
        const changed = { ...idpConfig(id), isDeactivated: true, audience: 'cc-not-masked' };
        const e = await ctx.http.request('ledger', { method: 'PATCH', path: `/v2/idps/${id}`, json: { identityProviderConfig: changed, updateMask: mask('is_deactivated') } });
        expectStatus(ctx, e, 200, 'deactivating an identity provider config');
        const got = configIn(ctx, await ctx.http.request('ledger', { method: 'GET', path: `/v2/idps/${id}` }), 'get after update');
        if (got.isDeactivated !== true) ctx.fail('the masked field is_deactivated did not change', e);
        if ((got.audience ?? '') !== '') ctx.fail(`audience changed to ${String(got.audience)} although the mask did not name it`, e);
        const bad = await ctx.http.request('ledger', { method: 'PATCH', path: `/v2/idps/${id}`, json: { identityProviderConfig: idpConfig(id), updateMask: mask('cc_no_such_field') } });
        expectRejected(ctx, bad, 400, 'an update mask with an unknown path');
      });
    },
  }),
  check({
    id: 'ledger.idp.delete',
    title: 'DELETE /v2/idps/{id} removes the config (then 404), and a second delete is 404',
    operationId: LedgerOp.deleteIdp,
    level: 'MUST',
    kind: 'example',
    specRef: `${IDP}: DeleteIdentityProviderConfig`,
    requires: { writes: true },
    async run(ctx) {
      const id = idpIdOf(ctx);
      await createIdp(ctx, id);
      const e = await ctx.http.request('ledger', { method: 'DELETE', path: `/v2/idps/${id}` });
      expectStatus(ctx, e, 200, 'deleting an identity provider config');
      const gone = await ctx.http.request('ledger', { method: 'GET', path: `/v2/idps/${id}` });
      expectStatus(ctx, gone, 404, 'reading a deleted identity provider config');
      const again = await ctx.http.request('ledger', { method: 'DELETE', path: `/v2/idps/${id}` });
      expectStatus(ctx, again, 404, 'deleting it again');
    },
  }),
  check({
    id: 'ledger.users.identity-provider-move',
    title: 'PATCH /v2/users/{id}/identity-provider-id moves a user; the user then reports the new identity provider',
    operationId: LedgerOp.moveUserIdp,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: UserManagementService UpdateUserIdentityProviderId`,
    requires: { writes: true },
    async run(ctx) {
      const user = ctx.unique('cc-idp-user').replace(/[^a-zA-Z0-9_-]/g, '-');
      let target = '';
      await withIdp(
        ctx,
        async (idp) => {
          target = idp;
          expectStatus(ctx, await ctx.http.request('ledger', { method: 'POST', path: '/v2/users', json: { user: { id: user } } }), 200, 'creating a user');
          const e = await ctx.http.request('ledger', {
            method: 'PATCH',
            path: `/v2/users/${user}/identity-provider-id`,
            json: { userId: user, sourceIdentityProviderId: '', targetIdentityProviderId: idp },
          });
          expectStatus(ctx, e, 200, 'moving the user');
          const got = await ctx.http.request('ledger', { method: 'GET', path: `/v2/users/${user}`, query: { 'identity-provider-id': idp } });
          expectStatus(ctx, got, 200, 'reading the moved user');
          const u = objectBody(ctx, got, 'user').user;
          if (!isObject(u) || u.identityProviderId !== idp) ctx.fail(`the moved user reports identity provider ${JSON.stringify(isObject(u) ? u.identityProviderId : u)}, expected ${idp}`, got);
        },
        () => dropIdpUser(ctx, user, target),
      );
    },
  }),
  check({
    id: 'ledger.users.identity-provider-scoped',
    title: "A user of a configured identity provider is not the default one's: GET /v2/users leaves it out; GET, its rights and DELETE without its identity provider are refused (403); GET naming it answers it",
    operationId: LedgerOp.getUser,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: UserManagementService, identity_provider_id ("If not set, assume the user is managed by the default identity provider"); UserManagementStore: a user of another identity provider is PERMISSION_DENIED`,
    requires: { writes: true },
    async run(ctx) {
      const user = ctx.unique('cc-idp-scoped').replace(/[^a-zA-Z0-9_-]/g, '-');
      let home = '';
      await withIdp(
        ctx,
        async (idp) => {
          const created = await ctx.http.request('ledger', { method: 'POST', path: '/v2/users', json: { user: { id: user, identityProviderId: idp } } });
          // A caller confined to an identity provider of its own may not manage another's users.
          skipUnlessAdmin(ctx, created, `creating a user in identity provider ${idp}`);
          expectStatus(ctx, created, 200, `creating user ${user} in identity provider ${idp}`);
          home = idp;
          const named = await ctx.http.request('ledger', { method: 'GET', path: `/v2/users/${user}`, query: { 'identity-provider-id': idp } });
          expectStatus(ctx, named, 200, `GET /v2/users/${user} naming its identity provider`);
          // The JSON API names no identity provider on these: the caller's, the default one for a participant admin.
          expectStatus(ctx, await ctx.http.request('ledger', { method: 'GET', path: `/v2/users/${user}` }), 403, `GET /v2/users/${user} without its identity provider ${idp}`);
          expectStatus(ctx, await ctx.http.request('ledger', { method: 'GET', path: `/v2/users/${user}/rights`, operationId: LedgerOp.listRights }), 403, `GET /v2/users/${user}/rights (the default identity provider's)`);
          expectStatus(ctx, await ctx.http.request('ledger', { method: 'DELETE', path: `/v2/users/${user}`, operationId: LedgerOp.deleteUser }), 403, `DELETE /v2/users/${user} (the default identity provider's)`);
          const still = await ctx.http.request('ledger', { method: 'GET', path: `/v2/users/${user}`, query: { 'identity-provider-id': idp } });
          expectStatus(ctx, still, 200, `GET /v2/users/${user} after the refused DELETE`);
          // Up to 200 pages of 1,000 (a participant with more users is judged on the pages read).
          await pageWalk(
            ctx,
            (token) => ctx.http.request('ledger', { method: 'GET', path: '/v2/users', query: { pageSize: 1000, ...(token ? { pageToken: token } : {}) }, operationId: LedgerOp.listUsers }),
            (b) => (Array.isArray(b.users) ? b.users : []),
            {
              what: 'GET /v2/users',
              followEmpty: true,
              onPage: (_b, page, e) => {
                if (page.some((u) => isObject(u) && u.id === user)) ctx.fail(`GET /v2/users (the default identity provider's users) lists ${user}, a user of identity provider ${idp}`, e);
              },
            },
          );
        },
        () => dropIdpUser(ctx, user, home),
      );
    },
  }),
  check({
    id: 'ledger.parties.update-resource-version',
    title: 'PATCH /v2/parties/{party} updates annotations and bumps resourceVersion; a stale version is 409, an unknown mask path 400',
    operationId: LedgerOp.updateParty,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: PartyManagementService UpdatePartyDetails, CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED`,
    requires: { writes: true },
    async run(ctx) {
      const alloc = await ctx.http.request('ledger', { method: 'POST', path: '/v2/parties', json: { partyIdHint: ctx.unique('cc-meta').replace(/[^a-zA-Z0-9_-]/g, '-') } });
      skipUnlessAdmin(ctx, alloc, 'POST /v2/parties');
      expectStatus(ctx, alloc, 200, 'allocating a party');
      const details = objectBody(ctx, alloc, 'party').partyDetails;
      if (!isObject(details) || typeof details.party !== 'string') return ctx.fail('no partyDetails.party', alloc);
      const party = details.party;
      const rv = isObject(details.localMetadata) && typeof details.localMetadata.resourceVersion === 'string' ? details.localMetadata.resourceVersion : '';
      const path = `/v2/parties/${encodeURIComponent(party)}`;
      const body = (version: string, value: string) => ({ partyDetails: { party, localMetadata: { resourceVersion: version, annotations: { 'cc-note': value } } }, updateMask: mask('local_metadata.annotations') });
      // Non-ASCII on purpose: JSON is UTF-8 (RFC 8259), and a server that decodes bodies as Latin-1 stores it double-encoded.
      const note = 'one: Zürich, 東京 ✓';
      const first = await ctx.http.request('ledger', { method: 'PATCH', path, json: body(rv, note) });
      expectStatus(ctx, first, 200, 'updating party annotations');
      const meta = objectBody(ctx, first, 'updated party').partyDetails;
      const after = isObject(meta) && isObject(meta.localMetadata) ? meta.localMetadata : {};
      if (!isObject(after.annotations) || after.annotations['cc-note'] !== note) ctx.fail(`the annotation was not set to ${JSON.stringify(note)}: it reads ${JSON.stringify(isObject(after.annotations) ? after.annotations['cc-note'] : undefined)}`, first);
      if (after.resourceVersion === rv) ctx.fail(`the resource version stayed ${rv} after an update`, first);
      const stale = await ctx.http.request('ledger', { method: 'PATCH', path, json: body(rv, 'two') });
      expectStatus(ctx, stale, 409, `an update with the stale resource version ${rv}`);
      expectCantonError(ctx, stale, 'a stale resource version');
      const unknown = await ctx.http.request('ledger', { method: 'PATCH', path, json: { partyDetails: { party }, updateMask: mask('cc_no_such_field') } });
      expectRejected(ctx, unknown, 400, 'an update mask with an unknown path');
    },
  }),
];
