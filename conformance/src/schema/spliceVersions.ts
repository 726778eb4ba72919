/**
 * Splice releases, as pure data both faces read: the reference's Scan says the release it emulates
 * (`GET /version`), the suite judges a Scan by the release it says. Nothing here may import either face.
 */

/** The release specs/scan.openapi.yaml follows (its `info.version`), which the reference's Scan reports. */
export const SPLICE_VERSION = '0.6.12';

/**
 * The `commit_ts` the reference reports beside it: the reference is built from no Splice commit,
 * so a fixed instant, in the form a Scan writes it (`2026-01-09T11:35:30Z`).
 */
export const SPLICE_COMMIT_TS = '2026-01-01T00:00:00Z';

/** The Splice releases that have a Scan operation: from `since`, through `last` when a later release removed it. */
export interface SpliceReleases {
  readonly since: string;
  readonly last?: string;
}

/**
 * The Scan operations (operationIds) not every Splice release has. The earliest complete round came
 * with 0.6.0 at `/v0/reward-accounting-process/...` (PR #4994); 0.6.5 moved it under `/v0/internal/`
 * (PR #5576), and releases since have no route at the old path (../shared/notes/api-semantics.md §2.1).
 */
export const SCAN_OPERATION_RELEASES: Readonly<Record<string, SpliceReleases>> = {
  getRewardAccountingEarliestAvailableRound: { since: '0.6.5' },
  getRewardAccountingEarliestAvailableRoundLegacy: { since: '0.6.0', last: '0.6.4' },
};
