/** RFC 6901 escaping of one reference token. */
export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Builds a JSON pointer from tokens: ['paths', '/v2/version'] -> '/paths/~1v2~1version'. */
export function toPointer(tokens: readonly string[]): string {
  return tokens.map((t) => '/' + escapeToken(t)).join('');
}

/** The value at a JSON pointer ('' is the whole document); undefined when any step is missing. */
export function resolvePointer(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  let at: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[unescapeToken(raw)];
  }
  return at;
}
