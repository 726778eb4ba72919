import type { Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { rewriteFrame, rewriteJsonBody } from './jsonWalk.js';
import { deep } from '../mutantKit.js';

/** JSON members in another order (reversed) in every answer and frame: object members are unordered (RFC 8259). */
const reversed = (o: Json): Json => Object.fromEntries(Object.entries(o).reverse());
const reorder = (v: unknown) => deep(v, reversed);

export const reorderedKeys: Fault = {
  response: (_req, res) => rewriteJsonBody(res, reorder),
  wsResponse: (_req, frame) => [rewriteFrame(frame, reorder)],
};
