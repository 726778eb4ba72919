import type { Ledger } from '../ledger/index.js';
import type { Right } from '../ledger/wire.js';
import { LOCALNET_USER, LOCALNET_VALIDATOR_PARTY_HINT } from './localNetConfig.js';
import { fundValidator } from './fundValidator.js';
import { registerPingTemplate } from './pingTemplate.js';
import { registerWalletTemplates } from './walletTemplates.js';
import { registerTradingAppTemplates } from './tradingAppTemplates.js';

/** The templates LocalNet has besides the apps': Canton's Ping and Splice's wallet proposal. Idempotent. */
export function declareLocalNetTemplates(ledger: Pick<Ledger, 'catalogue'>): void {
  registerPingTemplate(ledger.catalogue);
  registerWalletTemplates(ledger.catalogue);
  registerTradingAppTemplates(ledger.catalogue);
}

/**
 * What a freshly started LocalNet has on its app-user participant besides the apps' world: the
 * built-in Ping template, the validator's operator party, and `ledger-api-user`, the participant
 * admin that is also the validator's ledger API user (ParticipantAdmin, acting as the validator
 * party, which is its primary party); on Splice's own splice-amulet, the validator's starting
 * amulet (fundValidator). Idempotent: a ledger restored from a data directory keeps
 * what it has. Returns the validator party.
 */
export function seedLocalNet(ledger: Ledger): string {
  declareLocalNetTemplates(ledger);
  const existing = ledger.getUser(LOCALNET_USER);
  if (existing.ok && existing.value.user.primaryParty !== undefined && existing.value.user.primaryParty !== '') return existing.value.user.primaryParty;
  const allocated = ledger.allocateParty({ partyIdHint: LOCALNET_VALIDATOR_PARTY_HINT });
  if (!allocated.ok) throw new Error(`the validator party cannot be allocated: ${allocated.error.code}: ${allocated.error.cause}`);
  const party = allocated.value.partyDetails.party;
  const rights: Right[] = [{ kind: { ParticipantAdmin: { value: {} } } }, { kind: { CanActAs: { value: { party } } } }];
  const created = existing.ok
    ? ledger.grantUserRights(LOCALNET_USER, { userId: LOCALNET_USER, rights, identityProviderId: '' })
    : ledger.createUser({ user: { id: LOCALNET_USER, primaryParty: party, isDeactivated: false, identityProviderId: '' }, rights });
  if (!created.ok) throw new Error(`${LOCALNET_USER} cannot be set up: ${created.error.code}: ${created.error.cause}`);
  const funded = fundValidator(ledger, party);
  if (!funded.ok) throw new Error(`the validator's starting amulet cannot be tapped: ${funded.error.code}: ${funded.error.cause}`);
  return party;
}
