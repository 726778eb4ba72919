import type { Catalogue, TemplateDef } from '../ledger/index.js';
import { registerTokenTemplates } from './registry/tokenTemplates.js';
import { registerAmuletTemplates } from './scan/amuletTemplates.js';
import {
  ACCOUNT_MAP_TEMPLATE,
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
}

/**
 * Adds the apps' templates (Splice Amulet preapprovals and rounds, the sample registry and the
 * allocation-instruction interface) to a ledger's catalogue. Idempotent, so the server, the msw
 * handlers and a fixtures loader may all call it; call it before loading contracts of these
 * templates.
 */
export function registerAppTemplates(target: Catalogue | { readonly catalogue: Catalogue }): AppTemplates {
  const catalogue = 'catalogue' in target ? target.catalogue : target;
  if (!catalogue.resolve(TRANSFER_PREAPPROVAL_TEMPLATE).ok) registerAmuletTemplates(catalogue);
  if (!catalogue.resolve(TOKEN_RULES_TEMPLATE).ok) registerTokenTemplates(catalogue);
  const def = (id: string) => unwrapRegistration(catalogue.resolveTemplate(id));
  return {
    transferPreapproval: def(TRANSFER_PREAPPROVAL_TEMPLATE),
    openMiningRound: def(OPEN_MINING_ROUND_TEMPLATE),
    closedMiningRound: def(CLOSED_MINING_ROUND_TEMPLATE),
    tokenRules: def(TOKEN_RULES_TEMPLATE),
    accountMap: def(ACCOUNT_MAP_TEMPLATE),
    allocationInstruction: def(TOKEN_ALLOCATION_INSTRUCTION_TEMPLATE),
  };
}
