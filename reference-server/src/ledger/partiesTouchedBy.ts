import type { LogEntry } from '../store/LogEntry.js';
import type { Touched } from './tail.js';

/**
 * Every party a committed entry may show to, over-approximated (waking a stream for nothing only
 * costs a look; missing one would stall it): the witnesses and stakeholders of a transaction's
 * nodes and its submitters, a reassigned contract's stakeholders and submitter, a rejection's
 * submitters. Topology events concern every stream that asks for them: 'all'.
 */
export function partiesTouchedBy(entry: LogEntry): Touched {
  switch (entry.kind) {
    case 'transaction': {
      const parties = new Set<string>(entry.submission?.actAs ?? []);
      for (const node of entry.nodes) {
        for (const p of node.witnesses) parties.add(p);
        for (const p of node.contract.stakeholders) parties.add(p);
        if (node.kind === 'exercise') for (const p of node.actingParties) parties.add(p);
      }
      return parties;
    }
    case 'reassignment':
      return [...entry.contract.stakeholders, entry.step.submitter, ...(entry.submission?.actAs ?? [])];
    case 'rejection':
      return entry.submission.actAs;
    case 'topology':
      return 'all';
  }
}
