/**
 * Whether a decoded JSON value holds more than `limit` values (objects, arrays and scalars; it
 * stops counting there). Validators switch to first-error mode past a limit: collecting every
 * error is quadratic in their number, and one systematic mistake in a long list makes thousands.
 */
export function moreValuesThan(value: unknown, limit: number): boolean {
  const pending: unknown[] = [value];
  let count = 0;
  while (pending.length > 0) {
    const v = pending.pop();
    if (++count > limit) return true;
    if (v === null || typeof v !== 'object') continue;
    const children = Array.isArray(v) ? (v as unknown[]) : Object.values(v);
    // Checked before spreading: a huge array would overflow the argument list.
    if (count + pending.length + children.length > limit) return true;
    pending.push(...children);
  }
  return false;
}
