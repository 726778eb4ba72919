import { randomUUID } from 'node:crypto';
import { appsOf } from '../apps/index.js';
import { timeMicros } from '../apps/time.js';
import type { Ledger } from '../ledger/index.js';
import type { DamlRecord, DisclosedContract } from '../ledger/wire.js';
import type { ContractWithState } from '../apps/scan/types.js';
import type { LogEntry } from '../store/LogEntry.js';
import { LOCALNET_USER } from './localNetConfig.js';
import { WALLET_PACKAGE } from './walletTemplates.js';

/** How long a preapproval the validator accepts lasts (Splice's validator default: 90 days). */
const PREAPPROVAL_LIFETIME_MS = 90 * 24 * 3600 * 1000;
const PROPOSAL = 'Splice.Wallet.TransferPreapproval:TransferPreapprovalProposal';

/**
 * What LocalNet's validator app does on its own that the wallet guide relies on: it accepts the
 * transfer preapproval proposals that name it as provider (the receiver signs the proposal, the
 * validator pays and co-signs with the DSO). Runs right after the commit that created the
 * proposal, as the validator's user, on whichever TransferPreapprovalProposal the ledger has:
 * the built-in port's, or splice-wallet's own (`--splice-dars` with LocalNet's splice-wallet),
 * whose `TransferPreapprovalProposal_Accept` takes Splice's PaymentTransferContext (AmuletRules
 * and the latest usable open round, disclosed: the DSO's contracts) and the validator's amulets
 * as inputs, which pay the preapproval fee. (Splice's validator exercises the same choice through
 * its WalletAppInstall's batch, `CO_AcceptTransferPreapprovalProposal`; this world has no wallet
 * install, so the validator exercises it directly.) Returns a detach function.
 */
export function attachValidatorAutomation(ledger: Ledger, validatorParty: string, log: { warn(message: string): void }): () => void {
  const accept = (contractId: string, templateId: string, real: boolean) => {
    const scan = appsOf(ledger).scan;
    const rules = scan.amuletRulesProxy();
    if (!rules.ok) return log.warn(`validator automation: no AmuletRules to accept ${contractId}: ${rules.error.cause}`);
    const synchronizerId = rules.value.amulet_rules.domain_id ?? ledger.config.synchronizers[0].id;
    const disclose = (c: ContractWithState): DisclosedContract => ({ templateId: c.contract.template_id, contractId: c.contract.contract_id, createdEventBlob: c.contract.created_event_blob, synchronizerId });
    const rulesCid = rules.value.amulet_rules.contract.contract_id;
    // AmuletRules is the DSO's: the validator sees it only as a disclosed contract, as upstream.
    const disclosed = [disclose(rules.value.amulet_rules)];
    let openMiningRound: string | null = null;
    let inputs: DamlRecord[] = [];
    if (real) {
      const round = usableOpenRound(scan.openAndIssuingRoundsProxy(), ledger.config.clock.now());
      if (round === undefined) return log.warn(`validator automation: no open mining round to accept ${contractId}`);
      openMiningRound = round.contract.contract_id;
      disclosed.push(disclose(round));
      inputs = validatorAmulets(ledger, validatorParty).map((cid) => ({ tag: 'InputAmulet', value: cid }));
    }
    const done = ledger.submitAndWait({
      commands: [
        {
          ExerciseCommand: {
            templateId,
            contractId,
            choice: 'TransferPreapprovalProposal_Accept',
            choiceArgument: { context: { amuletRules: rulesCid, context: { openMiningRound, issuingMiningRounds: [], validatorRights: [], featuredAppRight: null } }, inputs, expiresAt: new Date(ledger.config.clock.now() + PREAPPROVAL_LIFETIME_MS).toISOString() },
          },
        },
      ],
      commandId: `validator-accept-preapproval-${randomUUID()}`,
      userId: LOCALNET_USER,
      actAs: [validatorParty],
      readAs: [],
      disclosedContracts: disclosed,
    });
    if (!done.ok) log.warn(`validator automation: accepting the preapproval proposal ${contractId} failed: ${done.error.code}: ${done.error.cause}`);
  };
  return ledger.onCommit((entry: LogEntry) => {
    if (entry.kind !== 'transaction') return;
    for (const node of entry.nodes) {
      if (node.kind !== 'create' || node.transient) continue;
      const c = node.contract;
      if (c.template.packageName !== WALLET_PACKAGE || c.template.qualifiedName !== PROPOSAL || c.argument.provider !== validatorParty) continue;
      // After the commit that created it has finished, before the client's next request.
      queueMicrotask(() => accept(c.contractId, c.template.id, 'engine' in c.template));
    }
  });
}

/** Splice's lookupLatestUsableOpenMiningRound: the highest open round that has opened by `nowMs`. */
export function usableOpenRound(rounds: ReturnType<ReturnType<typeof appsOf>['scan']['openAndIssuingRoundsProxy']>, nowMs: number): ContractWithState | undefined {
  if (!rounds.ok) return undefined;
  const now = BigInt(nowMs) * 1000n;
  const payload = (c: ContractWithState) => c.contract.payload as { opensAt?: string; round?: { number?: string } };
  const opened = rounds.value.open_mining_rounds.filter((c) => (timeMicros(payload(c).opensAt ?? '') ?? now + 1n) <= now);
  return opened.sort((a, b) => Number(BigInt(payload(a).round?.number ?? '0') - BigInt(payload(b).round?.number ?? '0'))).at(-1);
}

/** The validator's unlocked amulets (the inputs its wallet pays with), on the loaded Amulet. */
function validatorAmulets(ledger: Ledger, validatorParty: string): string[] {
  const template = appsOf(ledger).templates.amulet;
  return ledger.store.activeSnapshot({ kind: 'template', template }).filter((c) => c.argument.owner === validatorParty).map((c) => c.contractId);
}
