import type { RecordedRequest } from './exchange.js';

/** POSIX shell single-quoting: safe for any byte sequence the target or a generator produced. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A curl command that replays the request; tokens stay as `$TOKEN` so the line is safe to publish. */
export function curlOf(req: RecordedRequest): string {
  const parts = ['curl', '-sS', '-i', '-X', req.method, shellQuote(req.url)];
  for (const [name, value] of Object.entries(req.headers)) {
    // `$TOKEN` must expand, so that header is double-quoted.
    parts.push('-H', value.includes('$TOKEN') ? `"${name}: ${value}"` : shellQuote(`${name}: ${value}`));
  }
  if (req.body !== undefined) parts.push('--data-binary', shellQuote(req.body));
  // Binary bodies travel base64-encoded in the report; bash decodes them back for curl.
  else if (req.bodyBase64 !== undefined) parts.push('--data-binary', `@<(echo ${shellQuote(req.bodyBase64)} | base64 -d)`);
  return parts.join(' ');
}
