import type { Unreachable } from '../runner/reachability.js';
import { earlyReport, type RunIdentity } from './earlyReport.js';
import type { Report } from './model.js';

/** The report of a run whose target did not answer before any check (exit 3). */
export function unreachableReport(r: RunIdentity & { readonly down: Unreachable }): Report {
  const why = `target unreachable: ${r.down.url}: ${r.down.reason}`;
  return earlyReport(r, {
    unreachable: { url: r.down.url, reason: r.down.reason },
    // The preflight's first question got no answer: the same verdict `doctor` gives (exit 3).
    preflight: { status: 'unreachable', problems: [why] },
    warnings: [`${why}; no check ran`],
  });
}
