import type { CheckDefinition } from '../checks/types.js';
import type { CheckResult } from '../report/model.js';
import { loadSpec } from '../schema/index.js';
import type { Exchange } from '../target/exchange.js';

const MIN_SAMPLE = 8;

/**
 * Run-level warnings that keep a pass honest. Only exchanges of checks that expect success count
 * (negative, property and auth checks provoke 4xx on purpose).
 */
export function runWarnings(checks: readonly CheckDefinition[], results: readonly CheckResult[], exchanges: readonly Exchange[]): string[] {
  const kindOf = new Map(checks.map((c) => [c.id, c.kind]));
  const hopeful = exchanges.filter((e) => e.response && ['example', 'cross-group', 'stateful'].includes(kindOf.get(e.checkId) ?? ''));
  const out: string[] = [];
  if (hopeful.length >= MIN_SAMPLE) {
    const share = (p: (s: number) => boolean) => hopeful.filter((e) => p(e.response!.status)).length / hopeful.length;
    const auth = share((s) => s === 401 || s === 403);
    const missing = share((s) => s === 404);
    if (auth > 0.5) out.push(`${Math.round(auth * 100)}% of the responses to requests expected to succeed were 401/403: the token (--token, --token-file or the profile's tokenCommand) is probably wrong for this target, and most checks could not see its behaviour.`);
    if (missing > 0.5) out.push(`${Math.round(missing * 100)}% of the responses to requests expected to succeed were 404: does the profile name ids that exist on this target, and are the base URLs (--ledger-url, --registry-url, --scan-url) right?`);
  }
  const ran = results.filter((r) => r.status !== 'skip');
  if (results.length > 0 && ran.length === 0) out.push('Every selected check was skipped: nothing about the target was verified. See each check for the reason (usually the profile).');
  for (const g of new Set(results.map((r) => r.group))) {
    const mine = results.filter((r) => r.group === g && r.kind !== 'schema');
    // A group the profile says the target does not serve is expected to skip whole: no warning.
    if (mine.length >= 3 && mine.every((r) => r.status === 'skip') && !mine.every((r) => r.notServed !== undefined) && ran.length > 0) out.push(`Every ${g} check was skipped (${mine[0]!.message ?? 'see the checks'}).`);
  }
  const transport = exchanges.filter((e) => e.error).length;
  if (transport > 0) out.push(`${transport} request(s) got no complete response (timeouts, resets); see the checks with status error.`);
  return out;
}

/**
 * What a pass against another document (--spec) leaves out: the documented quirks of that document
 * the validation tolerated (conformance/src/schema/specQuirks.ts), each with where and why.
 */
export function toleranceWarnings(specFiles: readonly string[]): string[] {
  return specFiles.flatMap((file) => {
    const spec = loadSpec(file);
    return spec.tolerated.map((q) => `--spec ${file}: tolerated the document's quirk ${q.id} (${q.places.length} place(s), e.g. ${q.places.slice(0, 2).join(', ')}): ${q.reason}.`);
  });
}

/**
 * A `--spec` document of another Canton line than the one the target is judged by (its
 * `info.version`): the schema observers validate against it, so what the lines add or drop shows
 * as schema failures of a conformant target. Said once per document.
 */
export function specLineWarnings(specFiles: readonly string[], line: string | undefined): string[] {
  if (line === undefined) return [];
  return specFiles.flatMap((file) => {
    const info = loadSpec(file).document.info;
    const version = typeof info === 'object' && info !== null ? (info as { version?: unknown }).version : undefined;
    const m = typeof version === 'string' ? /^(\d+\.\d+)\./.exec(version) : null;
    if (m === null || !m[1]!.startsWith('3.') || m[1] === line) return [];
    return [`--spec ${file} describes Canton ${m[1]} (info.version ${String(version)}), but the target is judged as Canton ${line}: responses are validated against ${m[1]}'s document, so fields the lines add or drop fail the schema checks; give the document of the target's line`];
  });
}

