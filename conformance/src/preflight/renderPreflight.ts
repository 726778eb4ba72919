import { shellQuote } from '../target/curl.js';
import { rightJson, rightLabel } from './ledgerRights.js';
import type { PreflightResult } from './preflight.js';

const HEADLINE = { ready: 'READY', misconfigured: 'CANNOT BE CERTIFIED AS CONFIGURED', unreachable: 'UNREACHABLE' } as const;
const MAX_IDS = 4;
const MAX_SKIP_OPERATIONS = 30;

const ids = (list: readonly string[]) => `${list.slice(0, MAX_IDS).join(', ')}${list.length > MAX_IDS ? `, …and ${list.length - MAX_IDS} more` : ''}`;

/** The JSON API call an admin makes to grant the missing rights (one call for all). */
export function grantCommand(ledgerUrl: string, user: string, rights: readonly unknown[]): string {
  const body = JSON.stringify({ userId: user, rights, identityProviderId: '' });
  return `curl -X POST ${shellQuote(`${ledgerUrl}/v2/users/${encodeURIComponent(user)}/rights`)} -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' -d ${shellQuote(body)}`;
}

/** The selected checks of rules the target's Canton line lacks, and of groups the profile does not serve, when there are any: they do not apply. */
const notOnLineNote = (r: PreflightResult): string => {
  const notes = [
    ...(r.notOnLine === undefined ? [] : [`${r.notOnLine} more not on the target's Canton line`]),
    ...(r.notServed === undefined ? [] : [`${r.notServed} more of groups profile '${r.profile}' does not serve`]),
  ];
  return notes.length === 0 ? '' : ` (${notes.join('; ')})`;
};

/**
 * Ready only because no profile claims a group (the default), while no group answered as its API
 * nor asked for a token: a URL that is no Canton API at all (a web server, a wrong port).
 */
const answersAsNoApi = (r: PreflightResult): boolean =>
  r.status === 'ready' && r.kinds.length > 0 && r.kinds.every((k) => !k.ok && k.status !== 401 && k.status !== 403);
const NO_API = 'no group answers as its API: is this the JSON Ledger API, registry or Scan URL?';

/** One line for `run`'s console: the preflight in brief. */
export function preflightLine(r: PreflightResult): string {
  const parts = [`preflight: ${HEADLINE[r.status].toLowerCase()}${answersAsNoApi(r) ? ` (${NO_API})` : ''}`];
  if (r.cantonVersion !== undefined) parts.push(`Canton ${r.cantonVersion}`);
  if (r.auth.user !== undefined) parts.push(`user '${r.auth.user}'`);
  else if (r.auth.secured === false) parts.push('no auth');
  parts.push(`${r.willRun} of ${r.selected} selected checks can run${notOnLineNote(r)}`);
  return parts.join(' · ');
}

/** `doctor`'s human-readable answer: each question, then what to do. */
export function renderPreflight(r: PreflightResult): string {
  const out: string[] = [];
  out.push(`canton-conformance doctor: ${HEADLINE[r.status]} (exit ${r.exitCode})${answersAsNoApi(r) ? `, but ${NO_API} (see the notes)` : ''}`);
  out.push(`profile '${r.profile}' · ${Object.entries(r.targets).map(([g, u]) => `${g} ${u}`).join(' · ')}`);
  if (r.unreachable) {
    out.push('', `The target did not answer: ${r.unreachable.url}: ${r.unreachable.reason}.`, 'Start it (or fix its URL) and ask again.');
    return out.join('\n');
  }
  out.push('', 'Is the target the kind the profile says?');
  for (const k of r.kinds) out.push(`  ${k.ok ? 'yes' : 'NO '}  ${k.group.padEnd(8)} ${k.request}: ${k.detail}`);
  if (r.kinds.some((k) => k.group === 'ledger')) out.push('', `Canton version: ${r.cantonVersion ?? 'not reported'}`);
  out.push('', `Token: ${r.auth.detail}`);
  const ledger = r.targets.ledger;
  if (r.rights.held !== undefined && r.auth.user !== undefined) {
    out.push('', `Rights of user '${r.auth.user}': ${r.rights.held.length === 0 ? 'none' : r.rights.held.map(rightLabel).join(', ')}`);
    for (const n of r.rights.needed) {
      const ok = !r.rights.missing.includes(n);
      out.push(`  ${ok ? 'has    ' : 'MISSING'} ${rightLabel(n.right)}: ${n.checks.length} selected check(s) need it (${n.why}), e.g. ${ids(n.checks)}`);
    }
    if (r.rights.missing.length > 0 && ledger !== undefined) {
      out.push('', 'Grant the missing rights as a participant admin (JSON Ledger API), then ask again:');
      out.push(`  ${grantCommand(ledger, r.auth.user, r.rights.missing.map((m) => rightJson(m.right)))}`);
      // Leaving the checks out is the other way, when it names a few operations rather than most of the suite.
      const operations = [...new Set(r.rights.missing.flatMap((m) => m.operations))];
      if (operations.length <= MAX_SKIP_OPERATIONS) out.push('', 'Or leave out the checks that need them:', `  --skip ${shellQuote(operations.join(','))}`);
    }
  }
  out.push('', `Checks: ${r.selected} selected, ${r.willRun} can run, ${r.selected - r.willRun} will skip${notOnLineNote(r)}${r.skips.length > 0 ? ':' : ''}`);
  for (const s of r.skips) out.push(`  ${String(s.checks.length).padStart(4)}  ${s.reason}: ${ids(s.checks)}`);
  if (r.willRun > 0 && r.profileGaps.length > 0) out.push('', `Of the ${r.willRun} that can run, some skip while they run for what profile '${r.profile}' leaves out:`, ...r.profileGaps.map((g) => `  - ${g}`));
  if (r.willRun > 0) out.push('  (a check that can run may still skip when the target lacks data it needs; the run\'s report says why)');
  if (r.problems.length > 0) out.push('', 'Problems (the run would not start):', ...r.problems.map((p) => `  - ${p}`));
  if (r.notes.length > 0) out.push('', 'Notes:', ...r.notes.map((n) => `  - ${n}`));
  return out.join('\n');
}
