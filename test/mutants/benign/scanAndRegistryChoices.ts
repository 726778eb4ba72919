import { isObject, type Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { rewriteJsonBody } from './jsonWalk.js';

/**
 * Scan and a registry making choices of their own: the rounds' suggested cache lifetime
 * (`time_to_live_in_microseconds`) half the reference's (a shorter TTL still expires before any
 * round not yet shown opens, which is all the field asks), and every choice context with one more
 * entry (a newer Splice's Scan adds entries its choices read, as `external-party-config-state`
 * came; the choices look their entries up by name and ignore others).
 */
const isScanRounds = (url: string) => /\/v0\/(scan-proxy\/)?open-and-issuing-mining-rounds$/.test(url.split('?')[0]!);

function withEntry(v: unknown): unknown {
  if (!isObject(v)) return v;
  const ctx = isObject(v.choiceContextData) ? v : isObject(v.choiceContext) && isObject(v.choiceContext.choiceContextData) ? v.choiceContext : undefined;
  if (!ctx || !isObject(ctx.choiceContextData) || !isObject(ctx.choiceContextData.values)) return v;
  const data = ctx.choiceContextData as Json;
  const patched = { ...ctx, choiceContextData: { ...data, values: { ...(data.values as Json), 'vendor-context-version': { tag: 'AV_Text', value: '2' } } } };
  return ctx === v ? patched : { ...v, choiceContext: patched };
}

export const scanAndRegistryChoices: Fault = {
  response(req, res) {
    if (res.status !== 200) return res;
    if (isScanRounds(req.url)) return rewriteJsonBody(res, (v) => (isObject(v) && typeof v.time_to_live_in_microseconds === 'number' ? { ...v, time_to_live_in_microseconds: Math.max(1, Math.floor(v.time_to_live_in_microseconds / 2)) } : v));
    if (/^\/+registry\//.test(req.url)) return rewriteJsonBody(res, withEntry);
    return res;
  },
};
