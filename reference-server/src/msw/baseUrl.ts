/**
 * A base URL as the handlers compare it: origin plus path prefix, without a trailing slash, so
 * `http://localhost:7575/` and `http://localhost:7575` are the same base and `/api/scan` stays a
 * prefix to strip.
 */
export interface BaseUrl {
  /** `http://host:port/prefix`, no trailing slash. */
  readonly href: string;
  readonly origin: string;
  /** The path prefix, `''` or `/api/scan`. */
  readonly prefix: string;
}

/** Parses a base URL given to `createHandlers`; anything but http(s) is a usage error. */
export function parseBaseUrl(name: string, value: string): BaseUrl {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`[canton-conformance] ${name} is not a URL: '${value}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`[canton-conformance] ${name} must be an http(s) URL, got '${value}'`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(`[canton-conformance] ${name} must not carry a query or fragment, got '${value}'`);
  }
  const prefix = url.pathname.replace(/\/+$/, '');
  return { href: url.origin + prefix, origin: url.origin, prefix };
}

/**
 * The request path below a base, or undefined when the URL is not under it. `url` is a request URL
 * as fetch normalised it (absolute, no default port).
 */
export function pathUnder(base: BaseUrl, url: string): string | undefined {
  if (!url.startsWith(base.href)) return undefined;
  const rest = url.slice(base.href.length);
  if (rest === '' || rest.startsWith('?') || rest.startsWith('#')) return '/';
  if (!rest.startsWith('/')) return undefined; // `http://host:75750` is not under `http://host:7575`
  const end = rest.search(/[?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}
