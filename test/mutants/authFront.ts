import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { jsonResponse, pathOf, type Fault, type ProxyRequest, type ProxyResponse } from './mutantProxy.js';

/** The user the secured bed knows but grants nothing (the suite's 403 check uses it). */
export const NO_RIGHTS_USER = 'cc-no-rights';

const refusal = (status: 401 | 403, code: string, category: number, grpc: number): ProxyResponse =>
  jsonResponse(status, { code, cause: 'An error occurred. Please contact the operator and inquire about the request', context: {}, errorCategory: category, grpcCodeValue: grpc, correlationId: null, traceId: null, resources: [] });

const PUBLIC = /^\/(docs\/|livez$|readyz$|$)/;

/** One way a participant's token check can be wrong (the secured mutants). */
export type AuthFlaw =
  | 'ignores-expiry'
  | 'accepts-missing-token'
  | 'accepts-malformed-token'
  | 'skips-signature'
  | 'accepts-alg-none'
  | 'ignores-scope'
  | 'ignores-rights'
  | 'websocket-unchecked'
  | 'websocket-ignores-expiry'
  | 'rights-on-reads-only';

/**
 * A JWT front for the mutant bed's secured runs: HS256 tokens with the `daml_ledger_api` scope,
 * checked like a participant does (signature, expiry, scope, the no-rights user's rights), before
 * the unsecured reference server. `flaw` breaks exactly one of those rules.
 */
export function authFront(secret: string, o: { flaw?: AuthFlaw } = {}): Fault {
  const key = new TextEncoder().encode(secret);
  const flaw = o.flaw;
  const unauthenticated = () => refusal(401, 'UNAUTHENTICATED', 6, 16);
  /** The claims a flawed check lets through without verifying them (undefined: verify). */
  const unverified = (token: string): { sub?: unknown; scope?: unknown } | undefined => {
    try {
      const alg = decodeProtectedHeader(token).alg;
      if (flaw === 'skips-signature' || (flaw === 'accepts-alg-none' && alg === 'none')) return decodeJwt(token);
    } catch {
      return flaw === 'accepts-malformed-token' ? { sub: 'participant_admin', scope: 'daml_ledger_api' } : undefined;
    }
    return undefined;
  };
  const verify = async (token: string | undefined, websocket = false, write = false): Promise<ProxyResponse | { sub: string }> => {
    const lenient = flaw === 'ignores-expiry' || (websocket && flaw === 'websocket-ignores-expiry');
    if (!token) return flaw === 'accepts-missing-token' ? { sub: 'participant_admin' } : unauthenticated();
    try {
      const payload = unverified(token) ?? (await jwtVerify(token, key, { algorithms: ['HS256'], ...(lenient ? { clockTolerance: 10 * 365 * 24 * 3600 } : {}) })).payload;
      const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
      if (!scopes.includes('daml_ledger_api') && flaw !== 'ignores-scope') return unauthenticated();
      if (payload.sub === NO_RIGHTS_USER && flaw !== 'ignores-rights' && !(write && flaw === 'rights-on-reads-only')) return refusal(403, 'PERMISSION_DENIED', 7, 7);
      return { sub: String(payload.sub ?? '') };
    } catch {
      return unauthenticated();
    }
  };
  return {
    async request(req: ProxyRequest) {
      if (PUBLIC.test(pathOf(req.url))) return req;
      const header = req.headers.authorization;
      const verdict = await verify(typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : undefined, false, req.method === 'POST' && pathOf(req.url).startsWith('/v2/commands/'));
      if ('status' in verdict) return verdict;
      const { authorization: _dropped, ...headers } = req.headers;
      // The server behind runs unsecured and knows no token: the front answers for the token's user.
      if (req.method === 'GET' && pathOf(req.url) === '/v2/authenticated-user') return { ...req, url: `/v2/users/${encodeURIComponent(verdict.sub)}`, headers };
      return { ...req, headers };
    },
    async upgrade(req: ProxyRequest) {
      if (flaw === 'websocket-unchecked') return undefined;
      const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
      const token = offered.find((p) => p.startsWith('jwt.token.'))?.slice('jwt.token.'.length);
      return 'status' in (await verify(token, true)) ? 401 : undefined;
    },
  };
}

/** Applies `outer` around `inner`: requests pass outer first, responses inner first. */
export function compose(outer: Fault, inner: Fault): Fault {
  return {
    async request(req, upstream) {
      const a = outer.request ? await outer.request(req, upstream) : req;
      if ('status' in a) return a;
      return inner.request ? inner.request(a, upstream) : a;
    },
    response(req, res) {
      const a = inner.response ? inner.response(req, res) : res;
      return outer.response ? outer.response(req, a) : a;
    },
    async upgrade(req) {
      return (await outer.upgrade?.(req)) ?? (await inner.upgrade?.(req));
    },
  };
}
