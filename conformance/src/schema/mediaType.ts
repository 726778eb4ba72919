/** 'application/json; charset=utf-8' -> 'application/json'. */
export function normalizeMediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** The declared media-type key that covers a concrete one: exact, then `type/*`, then `*\/*`. */
export function pickMediaType<V>(declared: ReadonlyMap<string, V>, contentType: string): string | undefined {
  const mt = normalizeMediaType(contentType);
  if (declared.has(mt)) return mt;
  const wildcard = mt.split('/')[0] + '/*';
  if (declared.has(wildcard)) return wildcard;
  return declared.has('*/*') ? '*/*' : undefined;
}

/** Whether a body of this media type is JSON (`application/json`, `application/problem+json`, ...). */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}
