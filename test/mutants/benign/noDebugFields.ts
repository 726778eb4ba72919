import { deep, type Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { rewriteJsonBody } from './jsonWalk.js';

/**
 * A registry that never sends the optional `debug*` fields of disclosed contracts
 * (`debugPackageName`, `debugPayload`, `debugCreatedAt`: "trust the provider" data the token
 * standard's DisclosedContract declares optional), whatever `excludeDebugFields` says.
 */
const withoutDebug = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith('debug')));

export const noDebugFields: Fault = {
  response: (req, res) => (/^\/+registry\//.test(req.url) ? rewriteJsonBody(res, (v) => deep(v, withoutDebug)) : res),
};
