import { isObject, type Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { rewriteJsonBody } from './jsonWalk.js';

/**
 * A registry whose instruments fill the optional metadata otherwise (token-metadata-v1's
 * Instrument): no `totalSupply` and `totalSupplyAsOf` (optional: a registry need not track its
 * supply), `paused: false` written out (its default), and the account input fields left out, as
 * Splice's Scan does (absent means none, like the reference's `accountInputFieldsToShow: []`).
 */
function instrument(o: Json): Json {
  const { totalSupply: _s, totalSupplyAsOf: _a, accountInputFieldsToShow: _f, showAccountInputFields: _d, ...rest } = o;
  return { ...rest, paused: false };
}
const isInstrument = (v: unknown): v is Json => isObject(v) && typeof v.id === 'string' && typeof v.symbol === 'string' && isObject(v.supportedApis);

export const otherInstrumentMetadata: Fault = {
  response(req, res) {
    if (!/^\/+registry\/metadata\/v1\/instruments/.test(req.url) || res.status !== 200) return res;
    return rewriteJsonBody(res, (v) => {
      if (isInstrument(v)) return instrument(v);
      if (isObject(v) && Array.isArray(v.instruments)) return { ...v, instruments: v.instruments.map((i) => (isInstrument(i) ? instrument(i) : i)) };
      return v;
    });
  },
};
