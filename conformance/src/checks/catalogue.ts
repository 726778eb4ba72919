import { authChecks } from './auth.js';
import { crossGroupChecks } from './crossGroup.js';
import { ledgerAdminChecks } from './ledgerAdmin.js';
import { ledgerBasicChecks } from './ledgerBasics.js';
import { ledgerClientWireChecks } from './ledgerClientWire.js';
import { ledgerCommandChecks } from './ledgerCommands.js';
import { ledgerInteractiveChecks } from './ledgerInteractive.js';
import { timeAndReplayChecks } from './timeAndReplay.js';
import { ledgerFilterChecks } from './ledgerFilters.js';
import { ledgerInteractiveEncodingChecks } from './ledgerInteractiveEncoding.js';
import { ledgerNegativeChecks } from './ledgerNegative.js';
import { ledgerRoutingChecks } from './ledgerRouting.js';
import { ledgerPartyChecks } from './ledgerParties.js';
import { ledgerPackageChecks } from './ledgerPackages.js';
import { ledgerOwnPackageChecks } from './ledgerOwnPackage.js';
import { ledgerReadChecks } from './ledgerReads.js';
import { ledgerTargetHistoryChecks } from './ledgerTargetHistory.js';
import { ledgerStateChecks } from './ledgerState.js';
import { ledgerStreamChecks } from './ledgerStreams.js';
import { ledgerGetCompletionsChecks } from './ledgerGetCompletions.js';
import { ledgerPreview36Checks } from './ledgerPreview36.js';
import { ledgerUpdateChecks } from './ledgerUpdates.js';
import { ledgerSynchronizerChecks } from './ledgerSynchronizers.js';
import { ledgerTransactionChecks } from './ledgerTransactions.js';
import { ledgerUserChecks } from './ledgerUsers.js';
import { registryChecks } from './registry.js';
import { registryContextChecks } from './registryContexts.js';
import { tokenRegistryChecks } from './tokenRegistry.js';
import { tokenRegistryOpChecks } from './tokenRegistryOps.js';
import { tokenRegistryV2Checks } from './tokenRegistryV2.js';
import { tokenRegistryBadInputChecks } from './tokenRegistryBadInput.js';
import { scanChecks } from './scan.js';
import { scanWalletChecks } from './scanWallet.js';
import { scanOpenBodiesChecks } from './scanOpenBodies.js';
import { schemaChecks } from './schema.js';
import { statefulChecks } from './stateful.js';
import type { CheckDefinition } from './types.js';
// Checks that judge meaning, not shape: token, Scan and ledger semantics and bounds.
import { tokenSemanticChecks } from './tokenSemantics.js';
import { scanSemanticChecks } from './scanSemantics.js';
import { ledgerBoundChecks } from './ledgerBounds.js';
import { ledgerMeaningChecks } from './ledgerMeaning.js';

let cached: readonly CheckDefinition[] | undefined;

/**
 * Behaviour checks, one array per file: add yours on a line of its own. Every operation of specs/
 * must be the operationId of at least one of them (test/conformance/coverage.test.ts).
 */
export function behaviourChecks(): readonly CheckDefinition[] {
  return [
    ...registryChecks,
    ...registryContextChecks,
    ...tokenRegistryChecks,
    ...tokenRegistryOpChecks,
    ...tokenRegistryV2Checks,
    ...tokenRegistryBadInputChecks,
    ...ledgerBasicChecks,
    ...ledgerStateChecks,
    ...ledgerCommandChecks,
    ...ledgerUpdateChecks,
    ...ledgerReadChecks,
    ...ledgerTargetHistoryChecks,
    ...ledgerNegativeChecks,
    ...ledgerInteractiveChecks,
    ...ledgerPartyChecks,
    ...ledgerUserChecks,
    ...ledgerTransactionChecks,
    ...ledgerFilterChecks,
    ...ledgerSynchronizerChecks,
    ...ledgerInteractiveEncodingChecks,
    ...ledgerPackageChecks,
    ...ledgerOwnPackageChecks,
    ...ledgerAdminChecks,
    ...ledgerClientWireChecks,
    ...statefulChecks,
    ...scanChecks,
    ...scanWalletChecks,
    ...scanOpenBodiesChecks,
    ...crossGroupChecks,
    ...authChecks,
    ...ledgerStreamChecks,
    ...ledgerGetCompletionsChecks,
    // Canton 3.6's additions (a snapshot document: they warn instead of failing).
    ...ledgerPreview36Checks,
    // Meaning, not shape.
    ...tokenSemanticChecks,
    ...scanSemanticChecks,
    ...ledgerBoundChecks,
    ...ledgerMeaningChecks,
    ...ledgerRoutingChecks,
    // Ledger time bounds, replayed signatures, strict registry timestamps (timeAndReplay.ts).
    ...timeAndReplayChecks,
  ];
}

/** Every check, in a stable order: behaviour per group, then cross-group and auth, then one schema observer per operation of specs/. */
export function catalogue(): readonly CheckDefinition[] {
  if (cached) return cached;
  const all = [...behaviourChecks(), ...schemaChecks()];
  const ids = new Set<string>();
  for (const c of all) {
    if (ids.has(c.id)) throw new Error(`duplicate check id ${c.id}`);
    ids.add(c.id);
  }
  return (cached = all);
}
