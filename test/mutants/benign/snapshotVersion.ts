import type { Fault } from '../mutantProxy.js';
import { versionAnswered } from './otherPatchVersion.js';

/**
 * A participant built between patch releases: `/v2/version` answers `3.5.11-SNAPSHOT` (Canton's
 * builds from a release branch carry the next patch with -SNAPSHOT, as main's documents carry
 * 3.6.0-SNAPSHOT, wire-shapes.md §2.0), and `/docs/*` the same `info.version`. The client only
 * checks the 3.5 prefix (wire-shapes.md §3).
 */
export const SNAPSHOT = '3.5.11-SNAPSHOT';

export const snapshotVersion: Fault = versionAnswered(SNAPSHOT);
