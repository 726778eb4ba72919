import { randomUUID } from 'node:crypto';
import { appsOf } from '../apps/index.js';
import type { Ledger } from '../ledger/index.js';
import type { LogEntry } from '../store/LogEntry.js';
import { LOCALNET_USER } from './localNetConfig.js';
import { TRANSFER_PREAPPROVAL_PROPOSAL_TEMPLATE, WALLET_PACKAGE } from './walletTemplates.js';

/** How long a preapproval the validator accepts lasts (Splice's validator default: 90 days). */
const PREAPPROVAL_LIFETIME_MS = 90 * 24 * 3600 * 1000;

/**
 * What LocalNet's validator app does on its own that the wallet guide relies on: it accepts the
 * transfer preapproval proposals that name it as provider (the receiver signs the proposal, the
 * validator pays and co-signs with the DSO). Runs right after the commit that created the
 * proposal, as the validator's user. Returns a detach function.
 */
export function attachValidatorAutomation(ledger: Ledger, validatorParty: string, log: { warn(message: string): void }): () => void {
  const accept = (contractId: string, templateId: string) => {
    const rules = appsOf(ledger).scan.amuletRulesProxy();
    if (!rules.ok) return log.warn(`validator automation: no AmuletRules to accept ${contractId}: ${rules.error.cause}`);
    const rulesContract = rules.value.amulet_rules.contract;
    const rulesCid = rulesContract.contract_id;
    // AmuletRules is the DSO's: the validator sees it only as a disclosed contract, as upstream.
    const disclosed = { templateId: rulesContract.template_id, contractId: rulesCid, createdEventBlob: rulesContract.created_event_blob, synchronizerId: rules.value.amulet_rules.domain_id ?? ledger.config.synchronizers[0].id };
    const done = ledger.submitAndWait({
      commands: [
        {
          ExerciseCommand: {
            templateId,
            contractId,
            choice: 'TransferPreapprovalProposal_Accept',
            choiceArgument: { context: { amuletRules: rulesCid, context: { openMiningRound: null, issuingMiningRounds: [], validatorRights: [], featuredAppRight: null } }, inputs: [], expiresAt: new Date(ledger.config.clock.now() + PREAPPROVAL_LIFETIME_MS).toISOString() },
          },
        },
      ],
      commandId: `validator-accept-preapproval-${randomUUID()}`,
      userId: LOCALNET_USER,
      actAs: [validatorParty],
      readAs: [],
      disclosedContracts: [disclosed],
    });
    if (!done.ok) log.warn(`validator automation: accepting the preapproval proposal ${contractId} failed: ${done.error.code}: ${done.error.cause}`);
  };
  return ledger.onCommit((entry: LogEntry) => {
    if (entry.kind !== 'transaction') return;
    for (const node of entry.nodes) {
      if (node.kind !== 'create' || node.transient) continue;
      const c = node.contract;
      if (c.template.packageName !== WALLET_PACKAGE || c.template.qualifiedName !== 'Splice.Wallet.TransferPreapproval:TransferPreapprovalProposal' || c.argument.provider !== validatorParty) continue;
      // After the commit that created it has finished, before the client's next request.
      queueMicrotask(() => accept(c.contractId, TRANSFER_PREAPPROVAL_PROPOSAL_TEMPLATE));
    }
  });
}
