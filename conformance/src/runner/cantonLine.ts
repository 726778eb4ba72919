import { absentOperations, CANTON_VERSIONS, DEFAULT_CANTON_VERSION, type CantonVersion } from '../schema/cantonVersions.js';
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

/** Why a check cannot run on a line: its operation is not in that line's document; undefined when it can. */
export function absentOnLine(check: Pick<CheckDefinition, 'group' | 'operationId'>, line: CantonVersion): string | undefined {
  return check.group === 'ledger' && absentOperations(line).has(check.operationId) ? `Canton ${line} has no ${check.operationId}` : undefined;
}
