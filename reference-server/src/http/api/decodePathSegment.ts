/**
 * Percent-decodes one path segment. A malformed escape is kept as it came (like @koa/router does),
 * so the lookup that follows answers "not found" instead of the server failing.
 */
export function decodePathSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
