import type { Catalogue, TemplateDef } from '../ledger/index.js';
import { registerAmuletTokenTemplates } from './amulet/amuletTokenTemplates.js';
import { registerTokenTemplates } from './registry/tokenTemplates.js';
import { registerAmuletTemplates } from './scan/amuletTemplates.js';
import { TokenStandardInterfaces } from './tokenStandard/TokenStandardInterfaces.js';
import {
  ACCOUNT_MAP_TEMPLATE,
  AMULET_ALLOCATION_TEMPLATE,
  AMULET_RULES_TEMPLATE,
  AMULET_TEMPLATE,
  AMULET_TRANSFER_INSTRUCTION_TEMPLATE,
  DSO_RULES_TEMPLATE,
  EXTERNAL_PARTY_AMULET_RULES_TEMPLATE,
  FEATURED_APP_RIGHT_TEMPLATE,
  MEMBER_TRAFFIC_TEMPLATE,
  ISSUING_MINING_ROUND_TEMPLATE,
  LOCKED_AMULET_TEMPLATE,
  SUMMARIZING_MINING_ROUND_TEMPLATE,
  TRADE_ALLOCATION_REQUEST_TEMPLATE,
  CLOSED_MINING_ROUND_TEMPLATE,
  OPEN_MINING_ROUND_TEMPLATE,
  TOKEN_ALLOCATION_INSTRUCTION_TEMPLATE,
  TOKEN_RULES_TEMPLATE,
  TRANSFER_PREAPPROVAL_TEMPLATE,
} from './templateIds.js';
import { unwrapRegistration } from './unwrapRegistration.js';

/** The templates the registry and Scan index, resolved in one catalogue. */
export interface AppTemplates {
  readonly transferPreapproval: TemplateDef;
  readonly openMiningRound: TemplateDef;
  readonly closedMiningRound: TemplateDef;
  readonly tokenRules: TemplateDef;
  readonly accountMap: TemplateDef;
  readonly allocationInstruction: TemplateDef;
  readonly amuletRules: TemplateDef;
  readonly summarizingMiningRound: TemplateDef;
  readonly issuingMiningRound: TemplateDef;
  readonly amulet: TemplateDef;
  readonly lockedAmulet: TemplateDef;
  readonly featuredAppRight: TemplateDef;
  readonly memberTraffic: TemplateDef;
  readonly externalPartyAmuletRules: TemplateDef;
  readonly amuletTransferInstruction: TemplateDef;
  readonly amuletAllocation: TemplateDef;
  readonly dsoRules: TemplateDef;
  readonly tradeAllocationRequest: TemplateDef;
}

/** The token standard's interfaces per catalogue (registered once, with the templates). */
const tokenStandards = new WeakMap<Catalogue, TokenStandardInterfaces>();

/** The token standard's interfaces of a catalogue, registering the apps' templates first if needed (for templates that implement them). */
export function tokenStandardOf(catalogue: Catalogue): TokenStandardInterfaces {
  registerAppTemplates(catalogue);
  const ts = tokenStandards.get(catalogue);
  if (ts === undefined) throw new Error('the token standard interfaces were registered without their record');
  return ts;
}

/**
 * Adds the apps' templates (Splice Amulet preapprovals and rounds, the sample registry and the
 * allocation-instruction interface) to a ledger's catalogue. Idempotent, so the server, the msw
 * handlers and a fixtures loader may all call it; call it before loading contracts of these
 * templates.
 */
export function registerAppTemplates(target: Catalogue | { readonly catalogue: Catalogue }): AppTemplates {
  const catalogue = 'catalogue' in target ? target.catalogue : target;
  // Declared, not merely resolvable: an uploaded splice-amulet (a restored ledger's) resolves these ids too.
  if (!catalogue.declares(TRANSFER_PREAPPROVAL_TEMPLATE)) registerAmuletTemplates(catalogue);
  if (!catalogue.declares(TOKEN_RULES_TEMPLATE)) registerTokenTemplates(catalogue);
  if (!catalogue.declares(AMULET_TEMPLATE)) {
    const ts = new TokenStandardInterfaces(catalogue);
    tokenStandards.set(catalogue, ts);
    registerAmuletTokenTemplates(catalogue, ts);
  }
  // The declared port, also where its package name was yielded to Splice's uploaded package.
  const def = (id: string) => {
    const declared = catalogue.declared(id);
    return declared?.kind === 'template' ? declared : unwrapRegistration(catalogue.resolveTemplate(id));
  };
  return {
    transferPreapproval: def(TRANSFER_PREAPPROVAL_TEMPLATE),
    openMiningRound: def(OPEN_MINING_ROUND_TEMPLATE),
    closedMiningRound: def(CLOSED_MINING_ROUND_TEMPLATE),
    tokenRules: def(TOKEN_RULES_TEMPLATE),
    accountMap: def(ACCOUNT_MAP_TEMPLATE),
    allocationInstruction: def(TOKEN_ALLOCATION_INSTRUCTION_TEMPLATE),
    amuletRules: def(AMULET_RULES_TEMPLATE),
    summarizingMiningRound: def(SUMMARIZING_MINING_ROUND_TEMPLATE),
    issuingMiningRound: def(ISSUING_MINING_ROUND_TEMPLATE),
    amulet: def(AMULET_TEMPLATE),
    lockedAmulet: def(LOCKED_AMULET_TEMPLATE),
    featuredAppRight: def(FEATURED_APP_RIGHT_TEMPLATE),
    memberTraffic: def(MEMBER_TRAFFIC_TEMPLATE),
    externalPartyAmuletRules: def(EXTERNAL_PARTY_AMULET_RULES_TEMPLATE),
    amuletTransferInstruction: def(AMULET_TRANSFER_INSTRUCTION_TEMPLATE),
    amuletAllocation: def(AMULET_ALLOCATION_TEMPLATE),
    dsoRules: def(DSO_RULES_TEMPLATE),
    tradeAllocationRequest: def(TRADE_ALLOCATION_REQUEST_TEMPLATE),
  };
}
