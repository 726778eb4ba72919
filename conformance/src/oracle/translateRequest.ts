import type { RequestSpec } from '../target/exchange.js';
import type { Bijection } from './bijection.js';
import { EMBEDDED_ID, isIdentifier, isOffsetKey, isSerialKey, serialLineOf } from './fieldRules.js';

/** The request the reference twin receives, or why the scenario cannot be replayed there. */
export type Translation = { readonly ok: true; readonly spec: RequestSpec } | { readonly ok: false; readonly reason: string };

class Untranslatable extends Error {}

/**
 * Rewrites a request the check built from the target's answers into the same request for the
 * reference: every paired identifier and offset becomes the reference's. An identifier the target
 * answered but the reference never did is state the reference does not share: not replayable.
 * Anything else (names and ids the check generated) goes through unchanged.
 */
export function translateRequest(spec: RequestSpec, b: Bijection): Translation {
  try {
    // A query written into the path (`?parties=a&parties=b`: a key asked more than once) is
    // translated key by key, as `query` is, and kept in its order.
    const q = spec.path.indexOf('?');
    const segments = (q < 0 ? spec.path : spec.path.slice(0, q)).split('/');
    const pathOnly = segments
      .map((seg, i) => {
        if (seg === '') return seg;
        // `/v2/updates/transaction-tree-by-offset/186`: an offset in the path.
        if (/^\d+$/.test(seg) && /offset/i.test(segments[i - 1] ?? '')) return String(offset(Number(seg), b));
        let decoded: string;
        try {
          decoded = decodeURIComponent(seg);
        } catch {
          return seg;
        }
        const mapped = id('', decoded, b);
        return mapped === decoded ? seg : encodeURIComponent(mapped);
      })
      .join('/');
    const path = q < 0 ? pathOnly : `${pathOnly}?${translateQueryString(spec.path.slice(q + 1), b)}`;
    const query = spec.query === undefined ? undefined : Object.fromEntries(Object.entries(spec.query).map(([k, v]) => [k, scalar(k, v, b)]));
    let out: RequestSpec = { ...spec, path, ...(query ? { query } : {}) };
    if (spec.bytes === undefined && spec.body === undefined && spec.json !== undefined) out = { ...out, json: deep(spec.json, '', b) };
    else if (spec.bytes === undefined && spec.body !== undefined) {
      // A raw body is usually a malformed-input probe; a JSON one is rewritten like `json`.
      let parsed: unknown;
      try {
        parsed = JSON.parse(spec.body);
      } catch {
        parsed = undefined;
      }
      if (parsed !== undefined && typeof parsed === 'object' && parsed !== null) {
        const rewritten = JSON.stringify(deep(parsed, '', b));
        if (rewritten !== JSON.stringify(parsed)) out = { ...out, body: rewritten };
      }
    }
    return { ok: true, spec: out };
  } catch (e) {
    if (e instanceof Untranslatable) return { ok: false, reason: e.message };
    throw e;
  }
}

/** `a=1&b=x&b=y` with each value translated as a `query` entry of its key; keys and order kept. */
function translateQueryString(qs: string, b: Bijection): string {
  const out = new URLSearchParams();
  for (const [k, v] of new URLSearchParams(qs)) out.append(k, String(scalar(k, v, b)));
  return out.toString();
}

function scalar(key: string, v: string | number | boolean, b: Bijection): string | number | boolean {
  if (typeof v === 'number' && isOffsetKey(key)) return offset(v, b);
  if (typeof v === 'string' && isOffsetKey(key) && /^\d+$/.test(v)) return String(offset(Number(v), b));
  if (typeof v === 'string') return v.split(',').map((part) => id(key, part, b)).join(',');
  return v;
}

function offset(t: number, b: Bijection): number {
  if (b.isTargetOffsetState(t)) throw new Untranslatable(`the request names the target's offset ${t}, which the reference has no counterpart for`);
  return b.referenceOffset(t);
}

function id(key: string, v: string, b: Bijection): string {
  const mapped = b.reference(v);
  if (mapped !== undefined) return mapped;
  if (isIdentifier(key, v) && b.isTargetState(v)) throw new Untranslatable(`the request names the target's ${v}, which the reference has no counterpart for`);
  // Identifiers inside longer strings (a filter expression, a key) are rewritten in place.
  return v.replace(EMBEDDED_ID, (x) => b.reference(x) ?? x);
}

function deep(v: unknown, key: string, b: Bijection, inSerial = false, line = 'serial'): unknown {
  if (typeof v === 'string') return id(key, v, b);
  if (typeof v === 'number' && (inSerial || isSerialKey(key))) return serial(v, b, line);
  if (typeof v === 'number' && isOffsetKey(key)) return offset(v, b);
  if (Array.isArray(v)) return v.map((x) => deep(x, key, b, inSerial, line));
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    const here = serialLineOf(o, line);
    // A map keyed by identifiers (`filtersByParty`) names them in its keys: those translate too, or
    // the reference would be asked about the target's parties (and refuse, as it has no such party).
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [isIdentifier('', k) ? id('', k, b) : k, deep(x, k, b, inSerial || isSerialKey(k), here)]));
  }
  return v;
}

function serial(t: number, b: Bijection, line: string): number {
  if (b.isTargetOffsetState(t, line)) throw new Untranslatable(`the request names the target's topology serial ${t}, which the reference has no counterpart for`);
  return b.referenceOffset(t, line);
}
