import type { CheckDefinition } from '../checks/types.js';

/** A selection problem the user must fix (exit 2). */
export class SelectionError extends Error {
  override readonly name = 'SelectionError';
}

/** Splits `--only a,b --only c` style values into selectors. */
export function parseSelectors(values: readonly string[]): string[] {
  return values.flatMap((v) => v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
}

function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/**
 * Does a selector pick a check? A selector is a check id, a group (`registry`), a kind (`property`),
 * an operationId (`getLedgerEnd`), a level (`MUST`) or a glob over ids (`ledger.acs.*`).
 */
export function matches(selector: string, check: CheckDefinition): boolean {
  if (selector.includes('*') || selector.includes('?')) return globToRegExp(selector).test(check.id);
  return selector === check.id || selector === check.group || selector === check.kind || selector === check.operationId || selector === check.level;
}

/**
 * The checks a run executes: `only` (empty = all) minus `skip`, in catalogue order. A selector that
 * matches nothing in the whole catalogue is a usage error with a suggestion: a typo must not
 * silently select nothing (or skip nothing).
 */
export function selectChecks(all: readonly CheckDefinition[], only: readonly string[], skip: readonly string[]): CheckDefinition[] {
  for (const s of [...only, ...skip]) {
    if (!all.some((c) => matches(s, c))) {
      const hint = suggest(s, all);
      throw new SelectionError(`'${s}' matches no check${hint ? ` (did you mean '${hint}'?)` : ''}; \`canton-conformance list\` shows every id`);
    }
  }
  return all.filter((c) => (only.length === 0 || only.some((s) => matches(s, c))) && !skip.some((s) => matches(s, c)));
}

/**
 * A selector to use instead: the glob `s.*` when `s` is a prefix of ids (`ledger.acs` ->
 * `ledger.acs.*`), else the closest id, group, kind or operation by edit distance.
 */
export function suggest(s: string, all: readonly CheckDefinition[]): string | undefined {
  const prefix = s.replace(/\.+$/, '');
  if (prefix !== '' && all.some((c) => c.id.startsWith(`${prefix}.`))) return `${prefix}.*`;
  return closest(s, new Set(all.flatMap((c) => [c.id, c.group, c.kind, c.operationId])));
}

/** The name nearest to `s` by edit distance, when near enough to be a typo. */
export function closest(s: string, names: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const n of names) {
    const d = distance(s.toLowerCase(), n.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [n, d];
  }
  return bestDistance <= Math.max(2, Math.floor(s.length / 4)) ? best : undefined;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}
