/**
 * Whether a decoded JSON value holds more than `limit` values (objects, arrays and scalars; it
 * stops counting there). Validators switch to first-error mode past a limit: collecting every
 * error is quadratic in their number, and one systematic mistake in a long list makes thousands.
 */
export function moreValuesThan(value: unknown, limit: number): boolean {
  // Scalars are counted where they are met; only objects and arrays wait on the stack (every
  // request body is counted, so no array per object and no spread of its values).
  const pending: object[] = [];
  let count = 1;
  if (count > limit) return true;
  if (value !== null && typeof value === 'object') pending.push(value);
  while (pending.length > 0) {
    const v = pending.pop() as object;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        if (++count > limit) return true;
        const child: unknown = v[i];
        if (child !== null && typeof child === 'object') pending.push(child);
      }
    } else {
      for (const key of Object.keys(v)) {
        if (++count > limit) return true;
        const child: unknown = (v as Record<string, unknown>)[key];
        if (child !== null && typeof child === 'object') pending.push(child);
      }
    }
  }
  return false;
}
