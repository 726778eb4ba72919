import { isObject, type Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { rewriteJsonBody } from './jsonWalk.js';

/**
 * A registry's own off-ledger metadata, as Splice's Amulet registry answers it: instrument
 * `Amulet` named "Canton Coin" with symbol "CC" (the reference repeats the id), and more APIs in
 * `supportedApis` than the reference lists (a registry also serving, say, the featured-app API).
 * token-metadata-v1.yaml: `name` and `symbol` are display strings of the admin's choosing,
 * `supportedApis` a map of API name to version ("the APIs supported by this registry"), open to
 * names the client does not know. The instrument id, decimals and admin stay.
 */
const isMetadata = (url: string) => /^\/+registry\/metadata\/v1\//.test(url);
const MORE_APIS = { 'splice-api-featured-app-v1': 1, 'vendor-api-statements-v1': 1 };

function instrument(o: Json): Json {
  return {
    ...o,
    ...(o.id === 'Amulet' ? { name: 'Canton Coin', symbol: 'CC' } : {}),
    ...(isObject(o.supportedApis) ? { supportedApis: { ...o.supportedApis, ...MORE_APIS } } : {}),
  };
}

export const registryMetadataChoices: Fault = {
  response(req, res) {
    if (res.status !== 200 || !isMetadata(req.url)) return res;
    return rewriteJsonBody(res, (v) => {
      if (!isObject(v)) return v;
      if (Array.isArray(v.instruments)) return { ...v, instruments: v.instruments.map((i) => (isObject(i) ? instrument(i) : i)) };
      if (typeof v.id === 'string' && typeof v.decimals === 'number') return instrument(v);
      if (typeof v.adminId === 'string' && isObject(v.supportedApis)) return { ...v, supportedApis: { ...v.supportedApis, ...MORE_APIS } };
      return v;
    });
  },
};
