import { SCAN_OPERATION_RELEASES, type SpliceReleases } from '../../schema/spliceVersions.js';
import { jsonOf, type Exchange } from '../../target/exchange.js';
import { CheckNotOnRelease, TransportFailure } from '../outcomes.js';
import type { CheckContext } from '../types.js';

/** `3.5.4-SNAPSHOT` -> [3, 5, 4]; undefined when the version says nothing comparable. */
export function releaseOf(version: unknown): readonly [number, number, number] | undefined {
  const m = typeof version === 'string' ? /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(version) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

const before = (a: readonly number[], b: readonly number[]) => {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
};

/**
 * Skips, saying why, when the target reports (GET /v2/version) a Canton release older than the one
 * that added `what`: a 3.5.4 participant is not failed for lacking what 3.5.7 added, and the gate
 * does not count the skip (`CheckNotOnRelease`). A target that reports nothing comparable is
 * judged as the newest.
 */
export async function needsCanton(ctx: CheckContext, since: string, what: string): Promise<void> {
  const reported = versionIn(await ctx.http.request('ledger', { method: 'GET', path: '/v2/version' }));
  if (releasePredates(reported, since)) throw new CheckNotOnRelease(`the target reports Canton ${String(reported)}; ${what} came with Canton ${since}`);
}

/**
 * The version the target reported on the last `GET /v2/version` a check of the run already made
 * (observers make no requests of their own); undefined when none did.
 */
export function reportedInRun(seen: readonly Exchange[]): string | undefined {
  for (let i = seen.length - 1; i >= 0; i--) {
    const e = seen[i]!;
    const version = e.group === 'ledger' && e.request.method === 'GET' && e.path === '/v2/version' ? versionIn(e) : undefined;
    if (version !== undefined) return version;
  }
  return undefined;
}

/** The `version` member of a 200 answer (the ledger's `/v2/version`, Splice's `/version` alike); undefined otherwise. */
function versionIn(e: Exchange): string | undefined {
  if (e.response?.status !== 200) return undefined;
  const body = jsonOf(e);
  const version = body.ok && typeof body.value === 'object' && body.value !== null ? (body.value as { version?: unknown }).version : undefined;
  return typeof version === 'string' ? version : undefined;
}

/** Does a target reporting `reported` predate the release `since`? False when either says nothing comparable. */
export function releasePredates(reported: unknown, since: string): boolean {
  const target = releaseOf(reported);
  const required = releaseOf(since);
  return target !== undefined && required !== undefined && before(target, required);
}

/**
 * The Splice release a run judged the Scan by: `--splice-version` (`flag`), else the release the
 * Scan said on the run's last `GET /version` (`target`); nothing when neither (judged as the newest).
 */
export function spliceJudged(pinned: string | undefined, exchanges: readonly Exchange[]): { splice?: { readonly release: string; readonly from: 'flag' | 'target' } } {
  if (pinned !== undefined) return { splice: { release: pinned, from: 'flag' } };
  const said = spliceReportedInRun(exchanges);
  return said === undefined ? {} : { splice: { release: said, from: 'target' } };
}

/** `GET /version` below the Scan's base URL: Splice's common `Version`, `{version, commit_ts}`. */
export const SCAN_VERSION_PATH = '/version';

const isScanVersionRead = (e: Exchange): boolean => e.group === 'scan' && e.request.method === 'GET' && e.path === SCAN_VERSION_PATH && e.response !== undefined;

/**
 * The Splice release the Scan reported on the last `GET /version` a check of the run made
 * (observers make no requests of their own); undefined when none did, or it said none.
 */
export function spliceReportedInRun(seen: readonly Exchange[]): string | undefined {
  for (let i = seen.length - 1; i >= 0; i--) if (isScanVersionRead(seen[i]!)) return versionIn(seen[i]!);
  return undefined;
}

/**
 * The Splice release the Scan says (`GET /version`), read once a run: a Scan without it (404), or
 * whose answer names no release, is judged as the newest, as one of the release our spec follows.
 */
export function spliceRelease(ctx: CheckContext): Promise<string | undefined> {
  if (ctx.spliceVersion !== undefined) return Promise.resolve(ctx.spliceVersion);
  return ctx.shared('scan-splice-release', async () => {
    const earlier = ctx.seen.findLast(isScanVersionRead);
    if (earlier !== undefined) return versionIn(earlier);
    try {
      return versionIn(await ctx.http.request('scan', { method: 'GET', path: SCAN_VERSION_PATH, operationId: 'getVersion' }));
    } catch (e) {
      // No answer is no release said (judged as the newest); the checks' own requests meet the failure.
      if (e instanceof TransportFailure) return undefined;
      throw e;
    }
  });
}

/** Why a Scan reporting `reported` has no `operationId` (it came later, or a later release removed it); undefined when it has it. */
export function spliceLacks(reported: string | undefined, operationId: string, releases: Readonly<Record<string, SpliceReleases>> = SCAN_OPERATION_RELEASES): string | undefined {
  const r = releases[operationId];
  if (r === undefined || reported === undefined) return undefined;
  if (releasePredates(reported, r.since)) return `the Scan reports Splice ${reported}; ${operationId} came with Splice ${r.since}`;
  if (r.last !== undefined && releasePredates(r.last, reported)) return `the Scan reports Splice ${reported}; Splice ${r.last} was the last release with ${operationId}`;
  return undefined;
}

/** Skips, as a rule the Scan's release lacks (`CheckNotOnRelease`, which the gate does not count), when the Scan's release has no `operationId`. */
export async function needsSplice(ctx: CheckContext, operationId: string, what = ''): Promise<void> {
  const reported = await spliceRelease(ctx);
  const why = spliceLacks(reported, operationId);
  if (why !== undefined) throw new CheckNotOnRelease(`${why}${what === '' ? '' : `: ${what}`}`, `Splice ${reported!}`);
}
