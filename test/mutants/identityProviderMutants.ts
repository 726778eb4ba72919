import type { Mutant } from './mutants.js';
import { jsonResponse, parse, pathOf, type Fault, type ProxyRequest, type Upstream } from './mutantProxy.js';
import { is, isObject, type Json } from './mutantKit.js';

/**
 * User management that ignores identity providers, as a server that keeps one flat user table
 * would: a user of a configured identity provider answers to requests that name none (the default
 * one's), and rights name parties nobody checked. The reference server answered so itself until
 * it scoped user management the way Canton's MatchIdentityProviderId does.
 */

const USER = /^\/v2\/users\/([^/]+)$/;

/** The identity provider `user` belongs to, found as a flat-table server would not need to: by asking each. */
async function homeOf(user: string, req: ProxyRequest, upstream: Upstream): Promise<string | undefined> {
  const listed = parse((await upstream.send({ ...req, method: 'GET', url: '/v2/idps', body: '' })).body);
  const configs = isObject(listed) && Array.isArray(listed.identityProviderConfigs) ? listed.identityProviderConfigs : [];
  for (const c of configs) {
    const id = isObject(c) && typeof c.identityProviderId === 'string' ? c.identityProviderId : undefined;
    if (id === undefined) continue;
    const got = await upstream.send({ ...req, method: 'GET', url: `/v2/users/${user}?identity-provider-id=${encodeURIComponent(id)}`, body: '' });
    if (got.status === 200) return id;
  }
  return undefined;
}

/** GET /v2/users/{id} naming no identity provider finds the user in any. */
function getIgnoresIdentityProvider(): Fault {
  return {
    request: async (req, upstream) => {
      const m = USER.exec(pathOf(req.url));
      if (req.method !== 'GET' || !m || req.url.includes('identity-provider-id=')) return req;
      const res = await upstream.send(req);
      if (res.status !== 403) return res;
      const home = await homeOf(m[1]!, req, upstream);
      return home === undefined ? res : upstream.send({ ...req, url: `/v2/users/${m[1]!}?identity-provider-id=${encodeURIComponent(home)}` });
    },
  };
}

/** DELETE /v2/users/{id} deletes the user whatever its identity provider. */
function deleteIgnoresIdentityProvider(): Fault {
  return {
    request: async (req, upstream) => {
      const m = USER.exec(pathOf(req.url));
      if (req.method !== 'DELETE' || !m) return req;
      const res = await upstream.send(req);
      if (res.status !== 403) return res;
      const home = await homeOf(m[1]!, req, upstream);
      if (home === undefined) return res;
      const json = { userId: decodeURIComponent(m[1]!), sourceIdentityProviderId: home, targetIdentityProviderId: '' };
      await upstream.send({ ...req, method: 'PATCH', url: `/v2/users/${m[1]!}/identity-provider-id`, body: JSON.stringify(json), headers: { ...req.headers, 'content-type': 'application/json' } });
      return upstream.send(req);
    },
  };
}

/** GET /v2/users lists the users of every identity provider (the ones created in a configured one are added to its last page). */
function listIgnoresIdentityProvider(): Fault {
  const elsewhere = new Map<string, Json>();
  return {
    request: async (req, upstream) => {
      const res = await upstream.send(req);
      const body = parse(req.body);
      if (is(req, 'POST', '/v2/users') && res.status === 200 && isObject(body) && isObject(body.user) && typeof body.user.identityProviderId === 'string' && body.user.identityProviderId !== '') {
        const made = parse(res.body);
        if (isObject(made) && isObject(made.user) && typeof made.user.id === 'string') elsewhere.set(made.user.id, made.user);
      }
      if (!is(req, 'GET', '/v2/users') || res.status !== 200) return res;
      const page = parse(res.body);
      if (!isObject(page) || !Array.isArray(page.users) || (typeof page.nextPageToken === 'string' && page.nextPageToken !== '')) return res;
      return jsonResponse(200, { ...page, users: [...page.users, ...elsewhere.values()] });
    },
  };
}

/** A right for a party nobody knows is granted as asked: the reply says so, whether or not it is kept. */
function rightsForUnknownParties(): Fault {
  return {
    request: async (req, upstream) => {
      const res = await upstream.send(req);
      if (res.status !== 400 || !/Provided parties have not been found/.test(res.body)) return res;
      const body = parse(req.body);
      if (is(req, 'POST', /^\/v2\/users\/[^/]+\/rights$/) && isObject(body)) return jsonResponse(200, { newlyGrantedRights: Array.isArray(body.rights) ? body.rights : [] });
      if (is(req, 'POST', '/v2/users') && isObject(body)) return upstream.send({ ...req, body: JSON.stringify({ ...body, rights: [] }) });
      return res;
    },
  };
}

export const IDENTITY_PROVIDER_MUTANTS: readonly Mutant[] = [
  {
    name: 'idp-get-user-ignores-identity-provider',
    description: 'GET /v2/users/{id} without identity-provider-id answers a user of a configured identity provider: a default-provider admin tool reads (and acts on) users it does not manage',
    caughtBy: 'ledger.users.identity-provider-scoped',
    fault: getIgnoresIdentityProvider(),
  },
  {
    name: 'idp-delete-user-ignores-identity-provider',
    description: "DELETE /v2/users/{id} deletes a user of a configured identity provider: an admin of the default one removes another provider's users",
    caughtBy: 'ledger.users.identity-provider-scoped',
    fault: deleteIgnoresIdentityProvider(),
  },
  {
    name: 'idp-list-users-every-identity-provider',
    description: "GET /v2/users lists the users of every identity provider, not the caller's: one tenant's users are shown to another's admin",
    caughtBy: 'ledger.users.identity-provider-scoped',
    fault: listIgnoresIdentityProvider(),
  },
  {
    name: 'rights-for-unknown-parties-granted',
    description: "rights for a party the participant does not know are granted (no party check): a typo in a party id becomes a right nobody can use, and Splice's retry on the participant's refusal never triggers",
    caughtBy: 'ledger.users.rights-unknown-party',
    fault: rightsForUnknownParties(),
  },
];
