import { describe, expect, it } from 'vitest';
import { createRouteMatcher } from './matchRoute.js';

const routes = [
  { method: 'GET', path: '/v2/parties/{party}', id: 'getParty' },
  { method: 'GET', path: '/v2/parties/participant-id', id: 'participantId' },
  { method: 'GET', path: '/v2/users/{user-id}', id: 'getUser' },
  { method: 'DELETE', path: '/v2/users/{user-id}', id: 'deleteUser' },
  { method: 'GET', path: '/v2/users/{user-id}/rights', id: 'listRights' },
  { method: 'GET', path: '/v2/version', id: 'version' },
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

  it('percent-decodes path parameters', () => {
    const m = match('GET', '/v2/parties/alice%3A%3A1220ab');
    expect(m).toEqual({ kind: 'match', route: routes[0], params: { party: 'alice::1220ab' } });
  });

  it('keeps a malformed escape as it came instead of failing', () => {
    const m = match('GET', '/v2/users/bad%E0%A4%A');
    expect(m.kind === 'match' && m.params['user-id']).toBe('bad%E0%A4%A');
  });

  it('tolerates duplicate and trailing slashes', () => {
    expect(idOf('GET', '//v2/version')).toBe('version');
    expect(idOf('GET', '/v2//users/bob/rights')).toBe('listRights');
    expect(idOf('GET', '/v2/version/')).toBe('version');
  });

  it('tells an unknown method on a known path from an unknown path', () => {
    expect(match('POST', '/v2/users/bob')).toEqual({ kind: 'method', allowed: ['GET', 'DELETE'] });
    expect(match('GET', '/v2/nothing')).toEqual({ kind: 'none' });
    expect(match('GET', '/v2/users/')).toEqual({ kind: 'none' });
  });

  it('answers HEAD with the GET route', () => {
    expect(idOf('HEAD', '/v2/version')).toBe('version');
  });

  it('refuses a table with the same operation twice', () => {
    expect(() => createRouteMatcher([routes[5]!, routes[5]!])).toThrow(/duplicate route GET \/v2\/version/);
  });
});
