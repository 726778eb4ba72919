import type { Group } from '../checks/types.js';
import { transportErrorOf } from '../target/transportError.js';

/**
 * Can the suite reach each base URL at all? Any HTTP answer counts (even 404 or 500). A target is
 * unreachable (exit 3) when no HTTP exchange can happen: a refused connection, an unknown host, a
 * URL fetch will not use, a TLS handshake that fails (http:// served where https:// was given, a
 * certificate not trusted), or a connection accepted that sends no answer within the run's
 * timeout. A target that answers this probe but hangs or breaks on other requests is reachable:
 * those checks end as `error` with evidence.
 */
export interface Unreachable {
  readonly url: string;
  readonly reason: string;
}

/** TLS failures as Node reports them (on `cause.code`): every request to the URL would fail the same way. */
const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|EPROTO$|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_(VERIFY|GET)_)/;

export async function unreachable(baseUrls: Readonly<Partial<Record<Group, string>>>, timeoutMs: number): Promise<Unreachable | undefined> {
  const urls = [...new Set(Object.values(baseUrls))];
  for (const url of urls) {
    const controller = new AbortController();
    let timedOut = false;
    // The bound every check's request has: a target that cannot answer this within it answers no check.
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const res = await fetch(url, { method: 'GET', signal: controller.signal, redirect: 'manual' });
      await res.body?.cancel().catch(() => undefined);
    } catch (e) {
      const down = reasonOf(url, e, timedOut, timeoutMs);
      if (down !== undefined) return { url, reason: down };
    } finally {
      clearTimeout(timer);
    }
  }
  return undefined;
}

function reasonOf(url: string, e: unknown, timedOut: boolean, timeoutMs: number): string | undefined {
  if (timedOut) return `the target accepted the connection but sent no HTTP answer to GET ${url} within ${timeoutMs} ms (--timeout)`;
  const t = transportErrorOf(e, false, timeoutMs);
  if (t.kind === 'refused' || t.kind === 'dns') return t.message;
  const code = (e as { cause?: { code?: unknown } }).cause?.code;
  if (typeof code === 'string' && TLS_CODE.test(code)) {
    const hint = /WRONG_VERSION_NUMBER|EPROTO/.test(code)
      ? 'the target does not speak TLS on this port: is it http://, not https://?'
      : 'the target\'s certificate is not trusted here: NODE_EXTRA_CA_CERTS=<ca.pem> adds the CA that signed it';
    return `TLS handshake failed (${code}): ${hint}`;
  }
  if (t.kind === 'other' && /bad port/i.test(t.message)) {
    return `${t.message}: fetch refuses this port (one of the Fetch standard's "bad ports", such as 9, 25 or 6000); serve the target on another port`;
  }
  if (t.kind === 'other' && /invalid url|unsupported protocol|ERR_INVALID_URL/i.test(t.message)) return t.message;
  return undefined;
}
