import { isObject } from '../mutantKit.js';
import { parse, pathOf, type Fault } from '../mutantProxy.js';

/** The integer members of ledger requests (offsets, page sizes) this variant reads as circe does. */
const INTEGER_MEMBERS = new Set(['activeAtOffset', 'beginExclusive', 'endInclusive', 'beginOffsetExclusive', 'endOffsetInclusive', 'maxPageSize', 'pageSize']);
/** A JSON number, which circe's JsonNumber.fromString parses. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** What circe's Decoder[Long] makes of a string: the integer it writes (10.0 and 1e2 included), else nothing. */
function asLong(s: string): number | undefined {
  if (!JSON_NUMBER.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * A participant that reads an integer member written as a JSON string holding a number, as Canton
 * 3.5 does: its request codecs are circe's, whose Decoder[Long] and Decoder[Int] accept
 * `"activeAtOffset": "12"` (and "12.0", "1.2e1") as 12. The rewrite writes such members of ledger
 * requests as numbers, so the reference answers what the participant answers; a string that is not
 * a number stays refused.
 */
export const numericStrings: Fault = {
  request(req) {
    if (req.method !== 'POST' || !pathOf(req.url).startsWith('/v2/')) return req;
    const body = parse(req.body);
    if (!isObject(body)) return req;
    let changed = false;
    const out = Object.fromEntries(
      Object.entries(body).map(([k, v]) => {
        const n = INTEGER_MEMBERS.has(k) && typeof v === 'string' ? asLong(v) : undefined;
        if (n === undefined) return [k, v];
        changed = true;
        return [k, n];
      }),
    );
    return changed ? { ...req, body: JSON.stringify(out) } : req;
  },
};
