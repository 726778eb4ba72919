import { authChecks } from './auth.js';
import { crossGroupChecks } from './crossGroup.js';
import { ledgerBasicChecks } from './ledgerBasics.js';
import { ledgerCommandChecks } from './ledgerCommands.js';
import { ledgerInteractiveChecks } from './ledgerInteractive.js';
import { ledgerNegativeChecks } from './ledgerNegative.js';
import { LedgerOp } from './ledgerOps.js';
import { ledgerReadChecks } from './ledgerReads.js';
import { LedgerReadOp } from './ledgerReadOps.js';
import { ledgerStateChecks } from './ledgerState.js';
import { ledgerUpdateChecks } from './ledgerUpdates.js';
import { registryChecks } from './registry.js';
import { scanChecks } from './scan.js';
import { schemaChecks } from './schema.js';
import { statefulChecks } from './stateful.js';
import type { CheckDefinition } from './types.js';

/** Operations the suite calls (also through helpers), so each gets a schema observer. */
const EXERCISED = new Set<string>([...Object.values(LedgerOp), ...Object.values(LedgerReadOp), 'getAllocationInstructionAcceptContext', 'lookupTransferPreapprovalByParty', 'getRewardAccountingEarliestAvailableRound', 'getRewardAccountingEarliestAvailableRoundLegacy', 'postV2UsersUser-idRights']);

let cached: readonly CheckDefinition[] | undefined;

/** Every check, in a stable order: behaviour per group, then cross-group and auth, then schema observers. */
export function catalogue(): readonly CheckDefinition[] {
  if (cached) return cached;
  const all = [
    ...registryChecks,
    ...ledgerBasicChecks,
    ...ledgerStateChecks,
    ...ledgerCommandChecks,
    ...ledgerUpdateChecks,
    ...ledgerReadChecks,
    ...ledgerNegativeChecks,
    ...ledgerInteractiveChecks,
    ...statefulChecks,
    ...scanChecks,
    ...crossGroupChecks,
    ...authChecks,
    ...schemaChecks(EXERCISED),
  ];
  const ids = new Set<string>();
  for (const c of all) {
    if (ids.has(c.id)) throw new Error(`duplicate check id ${c.id}`);
    ids.add(c.id);
  }
  return (cached = all);
}
