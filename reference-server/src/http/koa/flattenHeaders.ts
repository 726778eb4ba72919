/** Node's lower-cased headers as single strings (repeated headers joined, as HTTP allows). */
export function flattenHeaders(headers: NodeJS.Dict<string | string[]>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name in headers) {
    const value = headers[name];
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
