import { catalogue } from '../checks/catalogue.js';
import type { Group } from '../checks/types.js';
import type { PreflightVerdict } from '../report/model.js';
import type { Profile } from '../runner/profile.js';
import type { Unreachable } from '../runner/reachability.js';
import { DEFAULTS } from '../runner/runSuite.js';
import { selectChecks } from '../runner/select.js';
import { shardChecks, type Shard } from '../runner/shard.js';
import type { TokenProvider } from '../target/tokenProvider.js';
import type { CantonVersion } from '../schema/cantonVersions.js';
import { preflight, verdictOf } from './preflight.js';
import { preflightLine } from './renderPreflight.js';

/** The run flags the preflight reads. */
export interface RunSelection {
  readonly profile?: string;
  readonly only: readonly string[];
  readonly skip: readonly string[];
  readonly shard?: Shard;
  readonly timeoutMs?: number;
  readonly quiet: boolean;
  /** `--canton-version`: the line the target is judged by, whatever it reports. */
  readonly cantonVersion?: CantonVersion;
}

export type RunPreflight =
  | { readonly stopped: false; readonly verdict: PreflightVerdict }
  | { readonly stopped: true; readonly exitCode: 2; readonly verdict: PreflightVerdict }
  | { readonly stopped: true; readonly exitCode: 3; readonly verdict: PreflightVerdict; readonly down: Unreachable };

/**
 * `run`'s preflight: one line on the console (its problems on stderr when it stops the run), the
 * verdict for report.json, and whether the run may start. A chosen profile (or the in-process
 * reference's) is held to what it claims; the default profile claims nothing, so it never stops.
 */
export async function preflightOfRun(args: RunSelection, profile: Profile, inProcess: boolean, baseUrls: Partial<Record<Group, string>>, tokens: TokenProvider | undefined): Promise<RunPreflight> {
  const checks = shardChecks(selectChecks(catalogue(), args.only, args.skip), args.shard);
  const r = await preflight({
    baseUrls, profile, strict: args.profile !== undefined || inProcess, ...(tokens ? { tokens } : {}), checks, timeoutMs: args.timeoutMs ?? DEFAULTS.timeoutMs,
    ...(args.cantonVersion !== undefined ? { cantonVersion: args.cantonVersion } : {}),
  });
  const verdict = verdictOf(r);
  // A refused connection stopped the run just before; this is a target that answers no probe at all.
  if (r.status === 'unreachable' && r.unreachable !== undefined) {
    console.error(`canton-conformance run: target unreachable: ${r.unreachable.url}: ${r.unreachable.reason}`);
    return { stopped: true, exitCode: 3, verdict, down: r.unreachable };
  }
  if (r.status === 'misconfigured') {
    console.error(`canton-conformance run: ${preflightLine(r)}; the run does not start:`);
    for (const p of r.problems) console.error(`  - ${p}`);
    console.error('  (npx canton-conformance doctor with the same flags says more)');
    return { stopped: true, exitCode: 2, verdict };
  }
  if (!args.quiet) console.log(preflightLine(r));
  return { stopped: false, verdict };
}
