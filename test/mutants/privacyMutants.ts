import type { Mutant } from './mutants.js';
import type { Fault } from './mutantProxy.js';
import { parse } from './mutantProxy.js';
import { deep, everywhere, submittedCommands, type Json } from './mutantKit.js';

/**
 * What a reader who did not submit a transaction still learns of it. The reference server showed
 * every reader a transaction's command id until it followed Canton's `filteredCommandId`.
 */

/** Every transaction carries the command id it was submitted with, whoever reads it (learned from the submissions that cross the proxy). */
function commandIdsForEveryReader(): Fault {
  const commandOf = new Map<string, string>();
  const show = (o: Json): Json => {
    const id = typeof o.updateId === 'string' ? commandOf.get(o.updateId) : undefined;
    return id !== undefined && Array.isArray(o.events) && (o.commandId === undefined || o.commandId === '') ? { ...o, commandId: id } : o;
  };
  const shown = everywhere(show);
  return {
    ...shown,
    response(req, res) {
      const submitted = submittedCommands(req);
      if (submitted !== undefined && res.status === 200 && typeof submitted.commands.commandId === 'string') {
        deep(parse(res.body), (o) => {
          if (typeof o.updateId === 'string') commandOf.set(o.updateId, submitted.commands.commandId as string);
          return o;
        });
      }
      return shown.response!(req, res);
    },
  };
}

export const PRIVACY_MUTANTS: readonly Mutant[] = [
  {
    name: 'command-ids-for-every-reader',
    description: "a transaction shows its command id to every party that reads it, not only to its submitters: an observer learns the submitter's command ids (Canton: missing for everyone except the submitting party)",
    caughtBy: 'ledger.transactions.command-id-submitters-only',
    fault: () => commandIdsForEveryReader(),
  },
];
