import type { Mutant } from './mutants.js';
import { parse, pathOf, type ProxyRequest } from './mutantProxy.js';

/** Faults of GetCompletions (POST and WebSocket /v2/commands/command-completions, Canton 3.5.7+). */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const PATH = '/v2/commands/command-completions';
const isGetCompletions = (req: ProxyRequest) => req.method === 'POST' && pathOf(req.url) === PATH;
const rewriteRequest = (req: ProxyRequest, f: (v: Json) => Json): ProxyRequest => {
  const v = parse(req.body);
  return isObject(v) ? { ...req, body: JSON.stringify(f(v)) } : req;
};
const namesNoParty = (req: ProxyRequest) => {
  const v = parse(req.body);
  return isObject(v) && (v.parties === undefined || (Array.isArray(v.parties) && v.parties.length === 0));
};
const later = (v: Json): Json => (typeof v.beginExclusive === 'number' ? { ...v, beginExclusive: v.beginExclusive + 1 } : v);

export const GET_COMPLETIONS_MUTANTS: readonly Mutant[] = [
  {
    name: 'command-completions-filters-by-user',
    description: 'GetCompletions filters by the userId it was never given, as the deprecated stream does: it answers checkpoints only',
    caughtBy: 'ledger.command-completions.by-party',
    fault: {
      response: (req, res) => {
        const v = parse(res.body);
        if (!isGetCompletions(req) || res.status !== 200 || !Array.isArray(v)) return res;
        return { ...res, body: JSON.stringify(v.filter((e) => !(isObject(e) && isObject(e.completionResponse) && 'Completion' in e.completionResponse))) };
      },
    },
  },
  {
    name: 'command-completions-clamps-begin',
    description: 'GetCompletions clamps a beginExclusive past the ledger end to the end instead of refusing it',
    caughtBy: 'ledger.command-completions.refusals',
    fault: { request: (req) => (isGetCompletions(req) ? rewriteRequest(req, (v) => (typeof v.beginExclusive === 'number' && v.beginExclusive > 100_000 ? { ...v, beginExclusive: 0 } : v)) : req) },
  },
  {
    name: 'command-completions-websocket-begin-off-by-one',
    description: 'the GetCompletions WebSocket starts one offset late (beginExclusive read as inclusive the other way)',
    caughtBy: 'ledger.command-completions.websocket',
    fault: {
      wsRequest: (req, frame) => {
        const v = parse(frame);
        return pathOf(req.url) === PATH && isObject(v) ? JSON.stringify(later(v)) : frame;
      },
    },
  },
  {
    name: 'command-completions-any-party-unchecked',
    description: 'GetCompletions serves every party to a user who may read as one party only (the empty-parties rule not applied)',
    caughtBy: 'ledger.auth.command-completions-all-parties-needs-any-party',
    fault: {
      response: (req, res) => (isGetCompletions(req) && res.status === 403 && namesNoParty(req) ? { ...res, status: 200, headers: { ...res.headers, 'content-type': 'application/json' }, body: '[]' } : res),
    },
    server: { http: {} },
  },
];
