import { isObject } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { rewriteJsonBody } from './jsonWalk.js';

/**
 * A Scan that fills optional members the reference leaves out: the DSO info's `initial_round`
 * (the round the network bootstrapped from; optional in Splice's GetDsoInfoResponse, sent by a
 * Scan that knows it), on Scan and on the validator's scan proxy alike.
 */
const isDso = (url: string) => /\/v0\/(scan-proxy\/)?dso$/.test(url.split('?')[0]!);

export const newerScanMembers: Fault = {
  response: (req, res) =>
    res.status === 200 && isDso(req.url) ? rewriteJsonBody(res, (v) => (isObject(v) && v.initial_round === undefined ? { ...v, initial_round: '0' } : v)) : res,
};
