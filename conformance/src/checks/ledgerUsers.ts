import fc from 'fast-check';
import { freshParty, readParty } from './support/ledger.js';
import { expectCantonError, expectStatus, isObject, jsonEqual, objectBody, type Json } from './support/expect.js';
import { forAll } from './support/property.js';
import { LedgerOp, SD_B, UPSTREAM_B } from './ledgerOps.js';
import type { Exchange } from '../target/exchange.js';
import { RESOURCE_OF_CODE } from '../judge/errorRules.js';
import { pageWalk } from './support/pageWalk.js';
import type { CheckContext, CheckDefinition } from './types.js';

/** An error's `resources` names what it is about, as Canton's definition of its code declares (RESOURCE_OF_CODE). */
function expectResource(ctx: CheckContext, e: Exchange, code: string, value: string): void {
  const kind = RESOURCE_OF_CODE[code];
  const body = objectBody(ctx, e, code);
  const resources = Array.isArray(body.resources) ? body.resources : [];
  const names = resources.some((r) => Array.isArray(r) && r[0] === kind && r[1] === value);
  if (!names) ctx.fail(`${code} must name its resource [${JSON.stringify(kind)}, ${JSON.stringify(value)}] in resources, answered ${JSON.stringify(body.resources)?.slice(0, 200)}`, e);
}

const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });
const UM = `${UPSTREAM_B}: UserManagementService`;

const userPath = (id: string) => `/v2/users/${encodeURIComponent(id)}`;
const rightsPath = (id: string) => `${userPath(id)}/rights`;

/** A right in its JSON form; `party` undefined for the participant-wide kinds. */
type RightKind = 'CanActAs' | 'CanReadAs' | 'CanExecuteAs' | 'CanReadAsAnyParty' | 'CanExecuteAsAnyParty' | 'ParticipantAdmin' | 'IdentityProviderAdmin';
const PARTY_RIGHTS: readonly RightKind[] = ['CanActAs', 'CanReadAs', 'CanExecuteAs'];
const GLOBAL_RIGHTS: readonly RightKind[] = ['CanReadAsAnyParty', 'CanExecuteAsAnyParty', 'IdentityProviderAdmin'];

export const rightJson = (kind: RightKind, party?: string): Json => ({ kind: { [kind]: { value: party === undefined ? {} : { party } } } });

/** `Kind` or `Kind:party`: the key of a right, for set comparisons. */
export function rightKey(r: unknown): string {
  const kind = isObject(r) && isObject(r.kind) ? r.kind : {};
  const [name] = Object.keys(kind);
  if (name === undefined) return '?';
  const v = isObject(kind[name]) ? (kind[name] as Json) : {};
  const inner = isObject(v.value) ? v.value : v;
  return typeof inner.party === 'string' ? `${name}:${inner.party}` : name;
}

function suiteUserId(ctx: CheckContext, prefix = 'cc-user'): string {
  return ctx.unique(prefix).replace(/[^a-z0-9_-]/g, '-');
}

async function createUser(ctx: CheckContext, id: string, primaryParty: string | undefined, rights: Json[]): Promise<Exchange> {
  const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/users', json: { user: { id, ...(primaryParty ? { primaryParty } : {}), isDeactivated: false, identityProviderId: '' }, rights } });
  expectStatus(ctx, e, 200, `creating user ${id}`);
  return e;
}

async function getUser(ctx: CheckContext, id: string): Promise<{ e: Exchange; user: Json }> {
  const e = await ctx.http.request('ledger', { method: 'GET', path: userPath(id) });
  expectStatus(ctx, e, 200, `GET /v2/users/${id}`);
  const user = objectBody(ctx, e, 'get user').user;
  if (!isObject(user)) return ctx.fail('GET /v2/users/{user-id} must answer {user: {...}}', e);
  return { e, user };
}

async function listRights(ctx: CheckContext, id: string): Promise<{ e: Exchange; keys: string[] }> {
  const e = await ctx.http.request('ledger', { method: 'GET', path: rightsPath(id) });
  expectStatus(ctx, e, 200, `GET /v2/users/${id}/rights`);
  // ListUserRightsResponse requires no member: a user without rights may be answered {}.
  const rights = objectBody(ctx, e, 'list rights').rights ?? [];
  if (!Array.isArray(rights)) return ctx.fail('GET /v2/users/{user-id}/rights must answer {rights: [...]} (rights a list)', e);
  return { e, keys: rights.map(rightKey).sort() };
}

async function changeRights(ctx: CheckContext, id: string, how: 'grant' | 'revoke', rights: Json[]): Promise<{ e: Exchange; changed: string[] }> {
  const e = await ctx.http.request('ledger', { method: how === 'grant' ? 'POST' : 'PATCH', path: rightsPath(id), json: { userId: id, rights, identityProviderId: '' } });
  expectStatus(ctx, e, 200, `${how === 'grant' ? 'granting' : 'revoking'} rights of ${id}`);
  const field = how === 'grant' ? 'newlyGrantedRights' : 'newlyRevokedRights';
  const list = objectBody(ctx, e, `${how} rights`)[field] ?? [];
  if (!Array.isArray(list)) return ctx.fail(`${field} must be a list`, e);
  return { e, changed: list.map(rightKey).sort() };
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export const ledgerUserChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.users.create-get-round-trip',
    title: 'A created user reads back with its id, primary party, rights, deactivation and annotations; creating it again is 409 USER_ALREADY_EXISTS',
    operationId: LedgerOp.createUser,
    level: 'MUST',
    kind: 'example',
    specRef: `${UM} CreateUser (is_deactivated, metadata.annotations), GetUser, ListUserRights; USER_ALREADY_EXISTS (HTTP 409)`,
    requires: { writes: true },
    async run(ctx) {
      const party = await freshParty(ctx, 'cc-userparty');
      const id = suiteUserId(ctx);
      const rights = [rightJson('CanActAs', party), rightJson('CanReadAs', party)];
      await createUser(ctx, id, party, rights);
      const { e, user } = await getUser(ctx, id);
      if (user.id !== id) ctx.fail(`GET answered user id ${JSON.stringify(user.id)}, created ${id}`, e);
      if (user.primaryParty !== party) ctx.fail(`GET answered primaryParty ${JSON.stringify(user.primaryParty)}, created with ${party}`, e);
      if (user.isDeactivated === true) ctx.fail('the user was created active but reads back deactivated', e);
      const listed = await listRights(ctx, id);
      const want = rights.map(rightKey).sort();
      if (!same(listed.keys, want)) ctx.fail(`rights read back as [${listed.keys.join(', ')}], created with [${want.join(', ')}]`, listed.e);
      const again = await ctx.http.request('ledger', { method: 'POST', path: '/v2/users', json: { user: { id, isDeactivated: false, identityProviderId: '' }, rights: [] } });
      expectStatus(ctx, again, 409, `creating user ${id} a second time`);
      expectCantonError(ctx, again, 'existing user', ['USER_ALREADY_EXISTS']);
      // A user created deactivated, with annotations: both are stored as given (an operator
      // provisions users off; applications keep their own data in the annotations).
      const off = `${id}-off`;
      const annotations = { 'cc-check': 'create-get-round-trip', 'cc-seed': String(ctx.seed) };
      const made = await ctx.http.request('ledger', { method: 'POST', path: '/v2/users', json: { user: { id: off, isDeactivated: true, identityProviderId: '', metadata: { resourceVersion: '', annotations } }, rights: [] } });
      expectStatus(ctx, made, 200, `creating user ${off} deactivated, with annotations`);
      const read = await getUser(ctx, off);
      if (read.user.isDeactivated !== true) ctx.fail(`user ${off} was created deactivated; GET answers isDeactivated ${JSON.stringify(read.user.isDeactivated)}`, read.e);
      const got = isObject(read.user.metadata) && isObject(read.user.metadata.annotations) ? read.user.metadata.annotations : {};
      if (!jsonEqual(got, annotations)) ctx.fail(`user ${off} was created with annotations ${JSON.stringify(annotations)}; GET answers ${JSON.stringify(got)}`, read.e);
    },
  }),
  check({
    id: 'ledger.users.get-unknown-404',
    title: 'GET /v2/users/{user-id} of a user that does not exist is 404 USER_NOT_FOUND, also asked with an empty identity-provider-id (the default one)',
    operationId: LedgerOp.getUser,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UM} GetUser (identity_provider_id: if not set, the default identity provider); ${UPSTREAM_B}: USER_NOT_FOUND (HTTP 404); Canton UserManagementServiceErrors.UserNotFound: resources ErrorResource.User ("USER") -> the user id`,
    async run(ctx) {
      const id = `cc-absent-${ctx.seed.toString(36)}-${ctx.unique('u').replace(/[^a-z0-9-]/g, '-')}`;
      const e = await ctx.http.request('ledger', { method: 'GET', path: userPath(id) });
      expectStatus(ctx, e, 404, `GET /v2/users/${id} (never created)`);
      expectCantonError(ctx, e, 'unknown user', ['USER_NOT_FOUND']);
      expectResource(ctx, e, 'USER_NOT_FOUND', id);
      // As wallet-sdk asks before creating a user: the default identity provider named by an empty id (proto3: empty is unset).
      const named = await ctx.http.request('ledger', { method: 'GET', path: userPath(id), query: { 'identity-provider-id': '' } });
      expectStatus(ctx, named, 404, `GET /v2/users/${id}?identity-provider-id= (the default identity provider, as wallet-sdk names it)`);
      expectCantonError(ctx, named, 'unknown user of the default identity provider', ['USER_NOT_FOUND']);
    },
  }),
  check({
    id: 'ledger.users.list-includes-created',
    title: 'GET /v2/users, page by page, lists a created user once, still once (deactivated) once deactivated, and no longer once deleted',
    operationId: LedgerOp.listUsers,
    level: 'MUST',
    kind: 'example',
    specRef: `${UM} ListUsers (pageSize, pageToken); DeleteUser`,
    requires: { writes: true },
    async run(ctx) {
      const id = suiteUserId(ctx);
      await createUser(ctx, id, undefined, []);
      // Up to 200 pages of 1,000: a participant with more users is not at fault; a user beyond
      // the pages read is then not judged (the check deletes it and skips).
      const count = async (): Promise<{ n: number; last: Exchange; listed?: Json }> => {
        const walk = await pageWalk(
          ctx,
          (token) => ctx.http.request('ledger', { method: 'GET', path: '/v2/users', query: { pageSize: 1000, ...(token ? { pageToken: token } : {}) } }),
          // ListUsersResponse requires no member: an empty page may leave `users` out.
          (b, e) => (b.users === undefined ? [] : Array.isArray(b.users) ? b.users : ctx.fail('GET /v2/users must answer {users: [...]} (users a list)', e)),
          { what: 'GET /v2/users', followEmpty: true },
        );
        const mine = walk.items.filter((u): u is Json => isObject(u) && u.id === id);
        if (mine.length === 0 && !walk.complete) {
          await ctx.http.request('ledger', { method: 'DELETE', path: userPath(id) });
          return ctx.skip(`GET /v2/users offered more pages after 200 pages of users, and ${id} was not among them: not judged`);
        }
        return { n: mine.length, last: walk.last, ...(mine[0] === undefined ? {} : { listed: mine[0] }) };
      };
      const before = await count();
      if (before.n !== 1) ctx.fail(`the pages of GET /v2/users list the new user ${id} ${before.n} time(s), expected once`, before.last);
      // A deactivated user still exists: admin tools list it to reactivate or delete it.
      const off = await ctx.http.request('ledger', { method: 'PATCH', path: userPath(id), json: { user: { id, isDeactivated: true, identityProviderId: '' }, updateMask: { paths: ['is_deactivated'], unknownFields: { fields: {} } } } });
      expectStatus(ctx, off, 200, `deactivating ${id}`);
      const deactivated = await count();
      if (deactivated.n !== 1) ctx.fail(`once deactivated, the pages of GET /v2/users list ${id} ${deactivated.n} time(s), expected once`, deactivated.last);
      else if (deactivated.listed?.isDeactivated !== true) ctx.fail(`once deactivated, GET /v2/users lists ${id} with isDeactivated ${JSON.stringify(deactivated.listed?.isDeactivated)}`, deactivated.last);
      // The lookup an admin tool makes before reactivating it says the same.
      const got = await ctx.http.request('ledger', { method: 'GET', path: userPath(id), operationId: LedgerOp.getUser });
      expectStatus(ctx, got, 200, `GET ${userPath(id)} once deactivated`);
      const user = objectBody(ctx, got, 'get user').user;
      if (!isObject(user) || user.isDeactivated !== true) ctx.fail(`once deactivated, GET ${userPath(id)} answers isDeactivated ${JSON.stringify(isObject(user) ? user.isDeactivated : undefined)}`, got);
      expectStatus(ctx, await ctx.http.request('ledger', { method: 'DELETE', path: userPath(id) }), 200, `deleting ${id}`);
      const after = await count();
      if (after.n !== 0) ctx.fail(`the deleted user ${id} is still listed`, after.last);
    },
  }),
  check({
    id: 'ledger.users.update-primary-party',
    title: 'PATCH /v2/users/{user-id} with update mask primary_party changes the primary party and nothing else',
    operationId: LedgerOp.updateUser,
    level: 'MUST',
    kind: 'example',
    specRef: `${UM} UpdateUser (update_mask paths)`,
    requires: { writes: true },
    async run(ctx) {
      const [a, b] = [await freshParty(ctx, 'cc-pp-a'), await freshParty(ctx, 'cc-pp-b')];
      const id = suiteUserId(ctx);
      await createUser(ctx, id, a, [rightJson('CanReadAs', a)]);
      const e = await ctx.http.request('ledger', { method: 'PATCH', path: userPath(id), json: { user: { id, primaryParty: b, isDeactivated: true, identityProviderId: '' }, updateMask: { paths: ['primary_party'], unknownFields: { fields: {} } } } });
      expectStatus(ctx, e, 200, `PATCH /v2/users/${id}`);
      const answered = objectBody(ctx, e, 'update user').user;
      if (!isObject(answered) || answered.primaryParty !== b) ctx.fail(`the update answered ${JSON.stringify(answered)?.slice(0, 200)}, not the user with primaryParty ${b}`, e);
      const { e: g, user } = await getUser(ctx, id);
      if (user.primaryParty !== b) ctx.fail(`after the update GET answers primaryParty ${JSON.stringify(user.primaryParty)}, expected ${b}`, g);
      if (user.isDeactivated === true) ctx.fail('isDeactivated changed although the update mask named only primary_party', g);
    },
  }),
  check({
    id: 'ledger.users.update-resource-version',
    title: "PATCH /v2/users/{user-id} with metadata.annotations sets them and bumps the user's resourceVersion; an update with the version it had before is 409 CONCURRENT_USER_UPDATE_DETECTED",
    operationId: LedgerOp.updateUser,
    level: 'MUST',
    kind: 'example',
    specRef: `${UM} UpdateUser (metadata.resource_version: optimistic concurrency control), CONCURRENT_USER_UPDATE_DETECTED (ABORTED, HTTP 409)`,
    requires: { writes: true },
    async run(ctx) {
      const id = suiteUserId(ctx);
      const made = await createUser(ctx, id, undefined, []);
      const created = objectBody(ctx, made, 'created user').user;
      const rv = isObject(created) && isObject(created.metadata) && typeof created.metadata.resourceVersion === 'string' ? created.metadata.resourceVersion : '';
      // Two admin tools editing one user: the second, holding the version it read, must not overwrite the first.
      const body = (version: string, value: string) => ({ user: { id, isDeactivated: false, identityProviderId: '', metadata: { resourceVersion: version, annotations: { 'cc-note': value } } }, updateMask: { paths: ['metadata.annotations'], unknownFields: { fields: {} } } });
      const first = await ctx.http.request('ledger', { method: 'PATCH', path: userPath(id), json: body(rv, 'first') });
      expectStatus(ctx, first, 200, `PATCH /v2/users/${id} with its resource version ${JSON.stringify(rv)}`);
      const answered = objectBody(ctx, first, 'updated user').user;
      const meta = isObject(answered) && isObject(answered.metadata) ? answered.metadata : {};
      if (!isObject(meta.annotations) || meta.annotations['cc-note'] !== 'first') ctx.fail(`the update answered annotations ${JSON.stringify(meta.annotations)}, without cc-note: first`, first);
      if (meta.resourceVersion === rv) ctx.fail(`the resource version stayed ${JSON.stringify(rv)} after an update`, first);
      const stale = await ctx.http.request('ledger', { method: 'PATCH', path: userPath(id), json: body(rv, 'second') });
      expectStatus(ctx, stale, 409, `an update of user ${id} with the stale resource version ${JSON.stringify(rv)}`);
      expectCantonError(ctx, stale, 'a stale resource version', ['CONCURRENT_USER_UPDATE_DETECTED']);
      const { e, user } = await getUser(ctx, id);
      const now = isObject(user.metadata) && isObject(user.metadata.annotations) ? user.metadata.annotations['cc-note'] : undefined;
      if (now !== 'first') ctx.fail(`after the refused stale update the user's cc-note reads ${JSON.stringify(now)}, not the first update's`, e);
    },
  }),
  check({
    id: 'ledger.users.rights-grant',
    title: 'Granting rights answers the newly granted ones only: granting the same rights again grants nothing',
    operationId: LedgerOp.grantRights,
    level: 'MUST',
    kind: 'example',
    specRef: `${UM} GrantUserRights (newly_granted_rights)`,
    requires: { writes: true },
    async run(ctx) {
      const party = await freshParty(ctx, 'cc-grant');
      const id = suiteUserId(ctx);
      await createUser(ctx, id, undefined, [rightJson('CanReadAs', party)]);
      const rights = [rightJson('CanReadAs', party), rightJson('CanActAs', party)];
      const first = await changeRights(ctx, id, 'grant', rights);
      if (!same(first.changed, [rightKey(rightJson('CanActAs', party))])) ctx.fail(`newlyGrantedRights is [${first.changed.join(', ')}]; only CanActAs was new`, first.e);
      const second = await changeRights(ctx, id, 'grant', rights);
      if (second.changed.length > 0) ctx.fail(`granting held rights again answered newlyGrantedRights [${second.changed.join(', ')}]`, second.e);
    },
  }),
  check({
    id: 'ledger.users.rights-unknown-party',
    title: 'A right for a party the participant does not know is refused (400 INVALID_ARGUMENT) and not stored, at creation and at grant',
    operationId: LedgerOp.grantRights,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UM} GrantUserRights, CreateUser: "Provided parties have not been found in identity_provider_id"`,
    requires: { writes: true },
    async run(ctx) {
      // Well formed, in a namespace of its own: no participant knows it.
      const ghost = `${suiteUserId(ctx, 'cc-ghost')}::1220${ctx.unique('ns').replace(/[^a-f0-9]/g, '').padEnd(64, '0').slice(0, 64)}`;
      const id = suiteUserId(ctx);
      const refused = await ctx.http.request('ledger', { method: 'POST', path: '/v2/users', operationId: LedgerOp.createUser, json: { user: { id, isDeactivated: false, identityProviderId: '' }, rights: [rightJson('CanActAs', ghost)] } });
      expectStatus(ctx, refused, 400, `creating user ${id} with CanActAs for the unknown party ${ghost}`);
      expectCantonError(ctx, refused, 'a right for an unknown party', ['INVALID_ARGUMENT']);
      expectStatus(ctx, await ctx.http.request('ledger', { method: 'GET', path: userPath(id), operationId: LedgerOp.getUser }), 404, `GET ${userPath(id)} after the refused creation`);
      await createUser(ctx, id, undefined, []);
      const grant = await ctx.http.request('ledger', { method: 'POST', path: rightsPath(id), json: { userId: id, rights: [rightJson('CanReadAs', ghost)], identityProviderId: '' } });
      expectStatus(ctx, grant, 400, `granting CanReadAs for the unknown party ${ghost}`);
      expectCantonError(ctx, grant, 'a right for an unknown party', ['INVALID_ARGUMENT']);
      const listed = await listRights(ctx, id);
      if (listed.keys.length > 0) ctx.fail(`after the refused grant ${id} holds [${listed.keys.join(', ')}]`, listed.e);
      await ctx.http.request('ledger', { method: 'DELETE', path: userPath(id) });
    },
  }),
  check({
    id: 'ledger.users.rights-list',
    title: 'GET /v2/users/{user-id}/rights lists exactly the rights granted and not revoked',
    operationId: LedgerOp.listRights,
    level: 'MUST',
    kind: 'example',
    specRef: `${UM} ListUserRights`,
    requires: { writes: true },
    async run(ctx) {
      const party = await freshParty(ctx, 'cc-list');
      const id = suiteUserId(ctx);
      await createUser(ctx, id, undefined, []);
      const granted = [rightJson('CanActAs', party), rightJson('CanExecuteAs', party), rightJson('CanReadAsAnyParty')];
      await changeRights(ctx, id, 'grant', granted);
      const listed = await listRights(ctx, id);
      const want = granted.map(rightKey).sort();
      if (!same(listed.keys, want)) ctx.fail(`rights listed [${listed.keys.join(', ')}], granted [${want.join(', ')}]`, listed.e);
    },
  }),
  check({
    id: 'ledger.users.rights-revoke',
    title: 'Revoking rights answers the ones actually revoked and they are gone from the list',
    operationId: LedgerOp.revokeRights,
    level: 'MUST',
    kind: 'example',
    specRef: `${UM} RevokeUserRights (newly_revoked_rights)`,
    requires: { writes: true },
    async run(ctx) {
      const party = await freshParty(ctx, 'cc-revoke');
      const id = suiteUserId(ctx);
      await createUser(ctx, id, undefined, [rightJson('CanActAs', party), rightJson('CanReadAs', party)]);
      const r = await changeRights(ctx, id, 'revoke', [rightJson('CanActAs', party), rightJson('CanExecuteAs', party)]);
      if (!same(r.changed, [rightKey(rightJson('CanActAs', party))])) ctx.fail(`newlyRevokedRights is [${r.changed.join(', ')}]; only CanActAs was held`, r.e);
      const listed = await listRights(ctx, id);
      if (!same(listed.keys, [rightKey(rightJson('CanReadAs', party))])) ctx.fail(`after revoking CanActAs the rights are [${listed.keys.join(', ')}]`, listed.e);
    },
  }),
  check({
    id: 'ledger.users.authenticated-user',
    title: "GET /v2/authenticated-user answers the token's user (secured), or a JsCantonError 4xx without a token's user",
    operationId: LedgerOp.authenticatedUser,
    level: 'MUST',
    kind: 'example',
    specRef: `${UM} GetUser with an empty user id (the authenticated user); ${SD_B}: Authentication`,
    async run(ctx) {
      const e = await ctx.http.request('ledger', { method: 'GET', path: '/v2/authenticated-user' });
      if (ctx.profile.auth?.required) {
        expectStatus(ctx, e, 200, 'GET /v2/authenticated-user');
        const user = objectBody(ctx, e, 'authenticated user').user;
        const expected = ctx.profile.auth.signing?.userId ?? ctx.profile.ledger?.userId;
        if (!isObject(user) || typeof user.id !== 'string') return ctx.fail('GET /v2/authenticated-user must answer {user: {id, ...}}', e);
        if (expected !== undefined && user.id !== expected) ctx.fail(`the authenticated user is ${user.id}, the token names ${expected}`, e);
        return;
      }
      // Unsecured: there is no token, hence no user; a participant refuses with a client error.
      const status = e.response?.status ?? 0;
      if (status === 200) {
        const user = objectBody(ctx, e, 'authenticated user').user;
        if (!isObject(user) || typeof user.id !== 'string') ctx.fail('a 200 from GET /v2/authenticated-user must carry {user: {id}}', e);
        return;
      }
      expectStatus(ctx, e, [400, 401, 404], 'GET /v2/authenticated-user without a token');
      expectCantonError(ctx, e, 'no authenticated user');
    },
  }),
  check({
    id: 'ledger.users.rights-model',
    title: 'Model-based run: random creates, deletes, grants and revokes of users and rights agree with a model of the user store',
    operationId: LedgerOp.grantRights,
    level: 'MUST',
    kind: 'stateful',
    specRef: `${UM}: CreateUser, DeleteUser, GrantUserRights, RevokeUserRights, ListUserRights, GetUser`,
    requires: { writes: true },
    async run(ctx) {
      const party = (await readParty(ctx)) ?? (await freshParty(ctx, 'cc-model'));
      await forAll(ctx, usersCommandsArb(party), async (cmds) => {
        const ids = [suiteUserId(ctx, 'cc-m0'), suiteUserId(ctx, 'cc-m1')];
        try {
          await fc.asyncModelRun(() => ({ model: { users: new Map<string, Set<string>>() } satisfies UsersModel, real: { ctx, ids } satisfies UsersReal }), cmds);
        } finally {
          for (const id of ids) await ctx.http.request('ledger', { method: 'DELETE', path: userPath(id) });
        }
      }, Math.max(5, Math.ceil(ctx.runs / 3)));
    },
  }),
];

// ---------------------------------------------------------------- the user-store model

interface UsersModel {
  /** Existing users (by slot) and their rights' keys. */
  readonly users: Map<string, Set<string>>;
}
interface UsersReal {
  readonly ctx: CheckContext;
  /** The real user ids behind slots 0 and 1 (fresh per run). */
  readonly ids: readonly string[];
}

type UserCommand = fc.AsyncCommand<UsersModel, UsersReal>;

class CreateUserCmd implements UserCommand {
  constructor(readonly slot: number) {}
  check = () => true;
  async run(m: UsersModel, r: UsersReal) {
    const id = r.ids[this.slot]!;
    const e = await r.ctx.http.request('ledger', { method: 'POST', path: '/v2/users', json: { user: { id, isDeactivated: false, identityProviderId: '' }, rights: [] } });
    expectStatus(r.ctx, e, m.users.has(id) ? 409 : 200, `model: creating user slot ${this.slot} (${m.users.has(id) ? 'exists' : 'new'})`);
    if (!m.users.has(id)) m.users.set(id, new Set());
  }
  toString = () => `CreateUser(${this.slot})`;
}

class DeleteUserCmd implements UserCommand {
  constructor(readonly slot: number) {}
  check = () => true;
  async run(m: UsersModel, r: UsersReal) {
    const id = r.ids[this.slot]!;
    const e = await r.ctx.http.request('ledger', { method: 'DELETE', path: userPath(id) });
    expectStatus(r.ctx, e, m.users.has(id) ? 200 : 404, `model: deleting user slot ${this.slot} (${m.users.has(id) ? 'exists' : 'absent'})`);
    m.users.delete(id);
  }
  toString = () => `DeleteUser(${this.slot})`;
}

class ChangeRightsCmd implements UserCommand {
  constructor(
    readonly how: 'grant' | 'revoke',
    readonly slot: number,
    readonly rights: readonly Json[],
  ) {}
  check = () => true;
  async run(m: UsersModel, r: UsersReal) {
    const id = r.ids[this.slot]!;
    const e = await r.ctx.http.request('ledger', { method: this.how === 'grant' ? 'POST' : 'PATCH', path: rightsPath(id), json: { userId: id, rights: this.rights, identityProviderId: '' } });
    const held = m.users.get(id);
    if (!held) {
      expectStatus(r.ctx, e, 404, `model: ${this.how} on absent user slot ${this.slot}`);
      return;
    }
    expectStatus(r.ctx, e, 200, `model: ${this.how} on user slot ${this.slot}`);
    const keys = [...new Set(this.rights.map(rightKey))];
    const want = (this.how === 'grant' ? keys.filter((k) => !held.has(k)) : keys.filter((k) => held.has(k))).sort();
    const field = this.how === 'grant' ? 'newlyGrantedRights' : 'newlyRevokedRights';
    const got = ((objectBody(r.ctx, e, this.how)[field] ?? []) as unknown[]).map(rightKey).sort();
    if (!same(got, want)) r.ctx.fail(`model divergence: ${field} [${got.join(', ')}], the model expects [${want.join(', ')}]`, e);
    for (const k of keys) if (this.how === 'grant') held.add(k);
    else held.delete(k);
  }
  toString = () => `${this.how === 'grant' ? 'Grant' : 'Revoke'}(${this.slot}, ${this.rights.map(rightKey).join('+')})`;
}

class ListRightsCmd implements UserCommand {
  constructor(readonly slot: number) {}
  check = () => true;
  async run(m: UsersModel, r: UsersReal) {
    const id = r.ids[this.slot]!;
    const held = m.users.get(id);
    const e = await r.ctx.http.request('ledger', { method: 'GET', path: rightsPath(id) });
    if (!held) {
      expectStatus(r.ctx, e, 404, `model: listing rights of absent user slot ${this.slot}`);
      return;
    }
    expectStatus(r.ctx, e, 200, `model: listing rights of user slot ${this.slot}`);
    const got = ((objectBody(r.ctx, e, 'rights').rights ?? []) as unknown[]).map(rightKey).sort();
    const want = [...held].sort();
    if (!same(got, want)) r.ctx.fail(`model divergence: user slot ${this.slot} has rights [${got.join(', ')}], the model expects [${want.join(', ')}]`, e);
  }
  toString = () => `ListRights(${this.slot})`;
}

function usersCommandsArb(party: string): fc.Arbitrary<Iterable<UserCommand>> {
  const slot = fc.integer({ min: 0, max: 1 });
  const right = fc.oneof(fc.constantFrom(...PARTY_RIGHTS).map((k) => rightJson(k, party)), fc.constantFrom(...GLOBAL_RIGHTS).map((k) => rightJson(k)));
  const rights = fc.array(right, { minLength: 1, maxLength: 3 });
  return fc.commands(
    [
      slot.map((s) => new CreateUserCmd(s)),
      slot.map((s) => new CreateUserCmd(s)),
      slot.map((s) => new DeleteUserCmd(s)),
      fc.tuple(slot, rights).map(([s, r]) => new ChangeRightsCmd('grant', s, r)),
      fc.tuple(slot, rights).map(([s, r]) => new ChangeRightsCmd('grant', s, r)),
      fc.tuple(slot, rights).map(([s, r]) => new ChangeRightsCmd('revoke', s, r)),
      slot.map((s) => new ListRightsCmd(s)),
      slot.map((s) => new ListRightsCmd(s)),
    ],
    { maxCommands: 12 },
  );
}
