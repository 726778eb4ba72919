import { SpecLoadError } from './SpecLoadError.js';

/** Documents fetched from http(s) URLs, by URL: `loadSpec` reads them from here (it is synchronous). */
const fetched = new Map<string, string>();

/** A `--spec` given as an http(s) URL (a participant's `/docs/openapi`, a published `openapi.yaml`). */
export function isSpecUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/**
 * Fetches the document behind an http(s) URL once per process, so `loadSpec(url)` can compile it.
 * Throws SpecLoadError when it cannot be had: unreachable, a non-2xx answer, an empty body, or no
 * answer within `timeoutMs`.
 */
export async function fetchSpec(url: string, timeoutMs: number): Promise<void> {
  if (fetched.has(url)) return;
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/yaml, application/json;q=0.9, */*;q=0.5' }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    // fetch says only "fetch failed"; the cause says what happened (connect ECONNREFUSED 127.0.0.1:80, getaddrinfo ENOTFOUND host).
    const why = err.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (err.cause?.message ?? err.cause?.code ?? err.message);
    throw new SpecLoadError(url, `cannot fetch: ${why}`);
  }
  const text = await res.text();
  if (!res.ok) throw new SpecLoadError(url, `cannot fetch: HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
  if (text.trim() === '') throw new SpecLoadError(url, 'cannot fetch: the answer is empty');
  fetched.set(url, text);
}

/** The text fetched for a URL; SpecLoadError when `fetchSpec` did not run for it first. */
export function fetchedSpecText(url: string): string {
  const text = fetched.get(url);
  if (text === undefined) throw new SpecLoadError(url, 'cannot read: a URL must be fetched first (fetchSpec)');
  return text;
}
