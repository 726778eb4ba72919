import type { Fault } from '../mutantProxy.js';
import { updateIdsRewritten } from './otherUpdateIds.js';

/**
 * Update ids of another length: the 32 bytes of the reference's `1220<64 hex>` written in base64url
 * behind a tag, `u:<43 characters>` (45 in all, not 68), one to one; the other-update-ids
 * variant's `upd-<64 hex>` likewise as `v:<43 characters>`. An update id is a LedgerString the
 * server assigns (`[a-zA-Z0-9#:\-_/ ]`, at most 255 characters): its length is the server's too.
 */
const FORMS = [
  { long: /^1220([0-9a-f]{64})$/, prefix: '1220', tag: 'u:' },
  { long: /^upd-([0-9a-f]{64})$/, prefix: 'upd-', tag: 'v:' },
];
const SHORT = /^([uv]:)([A-Za-z0-9_-]{43})$/;

export const shortUpdateId = (id: string): string => {
  for (const f of FORMS) {
    const m = f.long.exec(id);
    if (m) return f.tag + Buffer.from(m[1]!, 'hex').toString('base64url');
  }
  return id;
};
export const longUpdateId = (id: string): string => {
  const m = SHORT.exec(id);
  const form = m ? FORMS.find((f) => f.tag === m[1]) : undefined;
  return m && form ? form.prefix + Buffer.from(m[2]!, 'base64url').toString('hex') : id;
};

export const shortUpdateIds: Fault = updateIdsRewritten(shortUpdateId, longUpdateId);
