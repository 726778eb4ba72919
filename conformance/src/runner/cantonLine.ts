import { absentOperations, CANTON_VERSIONS, DEFAULT_CANTON_VERSION, SNAPSHOT_LINES, type CantonVersion } from '../schema/cantonVersions.js';
import type { CheckResult } from '../report/model.js';
import type { CheckDefinition } from '../checks/types.js';

/** The Canton line a run judges the target by, and how it was chosen (report.json `canton`). */
export interface CantonLine {
  readonly line: CantonVersion;
  /** `flag`: `--canton-version`; `target`: the version the preflight read; `default`: neither said a known line. */
  readonly from: 'flag' | 'target' | 'default';
  /** The version the target reported (GET /v2/version), when it did. */
  readonly reported?: string;
  /** Why the line is not simply the reported one (newer than any known line, unparsable, not reported). */
  readonly warning?: string;
}

const NEWEST = CANTON_VERSIONS[CANTON_VERSIONS.length - 1]!;
const numeric = (line: string): [number, number] => line.split('.').map(Number) as [number, number];

/**
 * The line a run judges by, shared by `run` and its preflight: none for a target without a ledger
 * (no Canton version to judge, and no warning about it) unless `--canton-version` names one.
 */
export function judgedLine(servesLedger: boolean, reported: string | undefined, flag?: CantonVersion): CantonLine | undefined {
  return servesLedger || flag !== undefined ? cantonLineOf(reported, flag) : undefined;
}

/**
 * `--canton-version` wins; otherwise the reported version's major.minor picks the line. A version
 * newer than every known line is judged by the newest (a vendor certifying a 3.7 participant wants
 * the closest rules, not a refusal); an older or unparsable one by the default, each with a warning.
 */
export function cantonLineOf(reported: string | undefined, flag?: CantonVersion): CantonLine {
  const known = reported === undefined ? {} : { reported };
  if (flag !== undefined) return { line: flag, from: 'flag', ...known };
  if (reported === undefined) return { line: DEFAULT_CANTON_VERSION, from: 'default', warning: `the target reported no Canton version; judged by Canton ${DEFAULT_CANTON_VERSION}` };
  const m = /^(\d+)\.(\d+)(?:\.\d+)?(?:[-+].*)?$/.exec(reported.trim());
  if (!m) return { line: DEFAULT_CANTON_VERSION, from: 'default', ...known, warning: `the target reports Canton version '${reported}', which names no release; judged by Canton ${DEFAULT_CANTON_VERSION}` };
  const major = Number(m[1]);
  const minor = Number(m[2]);
  const line = `${major}.${minor}`;
  if ((CANTON_VERSIONS as readonly string[]).includes(line)) return { line: line as CantonVersion, from: 'target', ...known };
  const [nMajor, nMinor] = numeric(NEWEST);
  if (major > nMajor || (major === nMajor && minor > nMinor)) {
    return { line: NEWEST, from: 'target', ...known, warning: `the target reports Canton ${reported}, newer than any line the suite knows; judged by Canton ${NEWEST}` };
  }
  return { line: CANTON_VERSIONS[0], from: 'target', ...known, warning: `the target reports Canton ${reported}, older than any line the suite knows; judged by Canton ${CANTON_VERSIONS[0]}` };
}

/** Why a check cannot run on a line: its operation, or its rule, is not in that line's document; undefined when it can. */
export function absentOnLine(check: Pick<CheckDefinition, 'group' | 'operationId' | 'lines'>, line: CantonVersion): string | undefined {
  if (check.group === 'ledger' && absentOperations(line).has(check.operationId)) return `Canton ${line} has no ${check.operationId}`;
  if (check.lines !== undefined && !check.lines.includes(line)) return `Canton ${line}'s document has no such rule (only Canton ${check.lines.join(', ')})`;
  return undefined;
}

/** The lines a check's rule is on: its own list, else every line whose document has its operation. */
const linesOf = (check: Pick<CheckDefinition, 'group' | 'operationId' | 'lines'>): readonly CantonVersion[] =>
  check.lines ?? CANTON_VERSIONS.filter((v) => check.group !== 'ledger' || !absentOperations(v).has(check.operationId));

/**
 * Is the check's rule only in snapshot documents (3.6's, main's 3.6.0-SNAPSHOT), the line judged
 * being one? Such a rule may still change before a release: breaking it warns instead of failing.
 */
export function snapshotRule(check: Pick<CheckDefinition, 'group' | 'operationId' | 'lines'>, line: CantonVersion): boolean {
  const lines = linesOf(check);
  return SNAPSHOT_LINES.has(line) && lines.length > 0 && lines.every((v) => SNAPSHOT_LINES.has(v));
}

/** A failed check of a snapshot-only rule, as a warning naming why. */
export function asSnapshotWarning(result: CheckResult, line: CantonVersion): CheckResult {
  if (result.status !== 'fail') return result;
  return { ...result, status: 'warn', message: `Canton ${line}'s document is a snapshot of main, not a release line, so this rule warns instead of failing: ${result.message ?? 'the rule is broken'}` };
}
