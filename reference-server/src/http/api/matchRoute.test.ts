import { describe, expect, it } from 'vitest';
import { createRouteMatcher } from './matchRoute.js';
import { ledgerApiRoutes } from './routes/routeTable.js';
import { localNetRoutes } from '../../localnet/localNetRoutes.js';

const routes = [
  { method: 'GET', path: '/v2/parties/{party}', id: 'getParty' },
  { method: 'GET', path: '/v2/parties/participant-id', id: 'participantId' },
  { method: 'GET', path: '/v2/users/{user-id}', id: 'getUser' },
  { method: 'DELETE', path: '/v2/users/{user-id}', id: 'deleteUser' },
  { method: 'GET', path: '/v2/users/{user-id}/rights', id: 'listRights' },
  { method: 'GET', path: '/v2/version', id: 'version' },
  { method: 'GET', path: '/v2/a/{x}/c', id: 'paramThenLiteral' },
  { method: 'GET', path: '/v2/a/b/{y}', id: 'literalThenParam' },
  { method: 'POST', path: '/v2/a/{z}/d', id: 'otherName' },
  { method: 'POST', path: '/v2/a/{z}/d/e', id: 'deeper' },
];
const match = createRouteMatcher(routes);

const idOf = (method: string, path: string) => {
  const m = match(method, path);
  return m.kind === 'match' ? m.route.id : m.kind;
};

describe('createRouteMatcher', () => {
  it('prefers a static path over a template at the same depth', () => {
    expect(idOf('GET', '/v2/parties/participant-id')).toBe('participantId');
    expect(idOf('GET', '/v2/parties/alice::1220ab')).toBe('getParty');
  });

  it('prefers a literal segment over a parameter, and falls back to the parameter when the literal leads nowhere', () => {
    expect(idOf('GET', '/v2/a/b/q')).toBe('literalThenParam');
    expect(idOf('GET', '/v2/a/b/c')).toBe('literalThenParam');
    expect(match('GET', '/v2/a/q/c')).toMatchObject({ kind: 'match', params: { x: 'q' } });
    // `b` is a literal at that depth, but only the parameter branch continues with `d/e`.
    expect(match('POST', '/v2/a/b/d/e')).toMatchObject({ kind: 'match', params: { z: 'b' } });
    // Both branches fit `/v2/a/b/d`: the literal one decides, and takes no POST.
    expect(match('POST', '/v2/a/b/d')).toMatchObject({ kind: 'method', allowed: ['GET'] });
  });

  it('names each parameter as its own template does', () => {
    expect(match('GET', '/v2/a/k/c')).toMatchObject({ params: { x: 'k' } });
    expect(match('POST', '/v2/a/k/d')).toMatchObject({ params: { z: 'k' } });
  });

  it('percent-decodes path parameters', () => {
    const m = match('GET', '/v2/parties/alice%3A%3A1220ab');
    expect(m).toEqual({ kind: 'match', route: routes[0], params: { party: 'alice::1220ab' }, path: '/v2/parties/alice%3A%3A1220ab' });
  });

  it('keeps a malformed escape as it came instead of failing', () => {
    const m = match('GET', '/v2/users/bad%E0%A4%A');
    expect(m.kind === 'match' && m.params['user-id']).toBe('bad%E0%A4%A');
  });

  it('does not decode literal segments: an escaped letter is another path', () => {
    expect(idOf('GET', '/v2/versio%6E')).toBe('none');
  });

  it('tolerates duplicate and trailing slashes, and reports the path as routed', () => {
    expect(idOf('GET', '//v2/version')).toBe('version');
    expect(match('GET', '//v2/version').path).toBe('/v2/version');
    expect(idOf('GET', '/v2//users/bob/rights')).toBe('listRights');
    expect(idOf('GET', '/v2/version/')).toBe('version');
    expect(idOf('GET', '/v2/users/bob/')).toBe('getUser');
  });

  it('matches case-sensitively, as pekko-http and tapir compare segments', () => {
    expect(idOf('GET', '/V2/VERSION')).toBe('none');
    expect(idOf('GET', '/v2/Version')).toBe('none');
    expect(idOf('GET', '/v2/USERS/bob/rights')).toBe('none');
    expect(idOf('GET', '/v2/users/bob/Rights')).toBe('none');
    // Parameters keep their case.
    expect(match('GET', '/v2/users/Bob')).toMatchObject({ params: { 'user-id': 'Bob' } });
  });

  it('tells an unknown method on a known path from an unknown path', () => {
    expect(match('POST', '/v2/users/bob')).toEqual({ kind: 'method', allowed: ['GET', 'DELETE'], path: '/v2/users/bob' });
    expect(match('CONNECT', '/v2/version')).toMatchObject({ kind: 'method', allowed: ['GET'] });
    expect(match('GET', '/v2/nothing')).toEqual({ kind: 'none', path: '/v2/nothing' });
    expect(match('GET', '/v2/users/')).toMatchObject({ kind: 'none' });
    expect(match('GET', '')).toMatchObject({ kind: 'none' });
    expect(match('GET', 'v2/version')).toMatchObject({ kind: 'none' });
  });

  it('answers HEAD with the GET route', () => {
    expect(idOf('HEAD', '/v2/version')).toBe('version');
  });

  it('refuses a table with the same operation twice', () => {
    expect(() => createRouteMatcher([routes[5]!, routes[5]!])).toThrow(/duplicate route GET \/v2\/version/);
    expect(() => createRouteMatcher([routes[2]!, { ...routes[2]!, path: '/v2/users/{other}' }])).toThrow(/duplicate route GET/);
  });
});

/**
 * The rule before the trie: a path without parameters first, then the templates in table order,
 * the first template whose segments fit deciding. The trie must agree on every real table.
 */
function linearMatch(table: readonly { method: string; path: string }[], method: string, path: string): string {
  const found = table.filter((r) => r.path === path);
  if (found.length > 0) return found.find((r) => r.method === method)?.path ?? 'method';
  const parts = path.split('/');
  const fits = (template: string) => {
    const segments = template.split('/');
    return segments.length === parts.length && segments.every((s, i) => (s.startsWith('{') ? parts[i] !== '' : s === parts[i]));
  };
  const first = table.find((r) => r.path.includes('{') && fits(r.path));
  if (first === undefined) return 'none';
  return table.find((r) => r.path === first.path && r.method === method)?.path ?? 'method';
}

describe('the trie on the real tables', () => {
  const tables = { ledgerApiRoutes, ...localNetRoutes };
  for (const [name, table] of Object.entries(tables)) {
    it(`routes every path of ${name} as the table-order rule does`, () => {
      const matcher = createRouteMatcher(table);
      // Parameters filled with every literal segment of the table (the ambiguous cases) and a plain value.
      const literals = [...new Set(table.flatMap((r) => r.path.split('/').filter((s) => s !== '' && !s.startsWith('{'))))];
      let compared = 0;
      for (const route of table) {
        for (const value of ['x', ...literals]) {
          const path = route.path.replace(/\{[^}]+\}/g, value);
          for (const method of ['GET', 'POST', 'DELETE']) {
            const m = matcher(method, path);
            expect(m.kind === 'match' ? m.route.path : m.kind, `${method} ${path}`).toBe(linearMatch(table, method, path));
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(table.length);
    });
  }
});
