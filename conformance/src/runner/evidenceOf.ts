import type { Exchange } from '../target/exchange.js';
import { EVIDENCE_BODY_CHARS, type Evidence } from '../report/model.js';

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);

/** Report evidence of an exchange: bodies clipped so one noisy target cannot bloat the report. */
export function evidenceOf(e: Exchange): Evidence {
  const r = e.response;
  return {
    request: { ...e.request, ...(e.request.body === undefined ? {} : { body: clip(e.request.body, EVIDENCE_BODY_CHARS) }) },
    curl: e.curl.length > EVIDENCE_BODY_CHARS * 2 ? `${e.curl.slice(0, EVIDENCE_BODY_CHARS * 2)} …(clipped)` : e.curl,
    ...(r
      ? {
          response: {
            status: r.status,
            headers: r.headers,
            contentType: r.contentType,
            body: clip(r.text, EVIDENCE_BODY_CHARS),
            truncated: r.truncated || r.text.length > EVIDENCE_BODY_CHARS,
          },
        }
      : {}),
    ...(e.error ? { error: e.error } : {}),
    durationMs: e.durationMs,
  };
}
