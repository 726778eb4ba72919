/**
 * One canonical text for a JSON value: object keys sorted, no whitespace, absent (undefined)
 * members left out as JSON does. Equal content, equal text, equal hash.
 */
export function canonicalText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalText(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalText(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
