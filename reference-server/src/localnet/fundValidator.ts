import { appsOf } from '../apps/index.js';
import type { Ledger, LedgerError, Result } from '../ledger/index.js';
import { fail, ok, PARTICIPANT_ADMIN_USER } from '../ledger/index.js';
import { usableOpenRound } from './ValidatorAutomation.js';

/**
 * What the validator holds on a new LocalNet built on Splice's own splice-amulet: a validator
 * that has run a while holds amulet (its faucet rewards), and Splice's
 * `AmuletRules_CreateTransferPreapproval` charges the provider the preapproval fee from it when
 * the validator's automation accepts a proposal (the ports charge nothing, so their validator
 * needs none). Given by the real `AmuletRules_DevNet_Tap` in the round open now.
 */
export const VALIDATOR_STARTING_AMULET = '1000.0';

/** Taps VALIDATOR_STARTING_AMULET for `validatorParty` on the real Amulet; the ports' world is left as it is. */
export function fundValidator(ledger: Ledger, validatorParty: string): Result<void, LedgerError> {
  const apps = appsOf(ledger);
  if (!('engine' in apps.templates.amuletRules)) return ok(undefined);
  const rules = apps.scan.amuletRulesProxy();
  if (!rules.ok) return rules;
  const round = usableOpenRound(apps.scan.openAndIssuingRoundsProxy(), ledger.config.clock.now());
  if (round === undefined) return fail('CONTRACT_NOT_FOUND', 'no open mining round to tap the validator its starting amulet in');
  const contract = rules.value.amulet_rules.contract;
  const dso = (contract.payload as { dso: string }).dso;
  const tapped = ledger.submitAndWait({
    userId: PARTICIPANT_ADMIN_USER,
    commandId: `localnet-validator-starting-amulet`,
    actAs: [validatorParty, dso],
    commands: [{ ExerciseCommand: { templateId: contract.template_id, contractId: contract.contract_id, choice: 'AmuletRules_DevNet_Tap', choiceArgument: { receiver: validatorParty, amount: VALIDATOR_STARTING_AMULET, openRound: round.contract.contract_id } } }],
  });
  return tapped.ok ? ok(undefined) : tapped;
}
