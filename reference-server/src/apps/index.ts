/**
 * The registry (group A) and Scan (group C) apps over the ledger core: their templates, the
 * indexes they keep from the ledger's commits, and the answers the HTTP routes render.
 */
export { createApps, appsOf } from './createApps.js';
export type { Apps, AppsOptions } from './createApps.js';
export { registerAppTemplates } from './registerAppTemplates.js';
export type { AppTemplates } from './registerAppTemplates.js';
export { RegistryApp } from './registry/RegistryApp.js';
export { ScanApp } from './scan/ScanApp.js';
export { AmuletRegistry } from './amulet/AmuletRegistry.js';
export type { AllocationChoiceName, FactoryWithChoiceContext, Instrument, InstructionChoiceName, RegistryInfo } from './amulet/AmuletRegistry.js';
export * from './tokenStandard/ids.js';
export * from './tokenStandard/idsV2.js';
export { AMULET_ALLOCATION_V2_TEMPLATE } from './amulet/amuletTokenTemplatesV2.js';
export { MAX_SETTLEMENT_LEGS } from './registry/settlementLegs.js';
export { AMULET_INSTRUMENT_ID, AMULET_RULES_KEY, OPEN_ROUND_KEY, TRANSFER_PREAPPROVAL_KEY } from './amulet/amuletContext.js';
export type { ScanOptions } from './scan/ScanApp.js';
export { ACCOUNT_MAP_KEY, REQUEST_META_KEY, TOKEN_RULES_KEY } from './registry/contextKeys.js';
export type { AnyValue, ChoiceContext, DisclosedContract, GetChoiceContextRequest, InstructionChoice } from './registry/types.js';
export type {
  ContractWithState,
  GetRewardAccountingEarliestAvailableRoundResponse,
  LookupTransferPreapprovalByPartyResponse,
  ScanContract,
} from './scan/types.js';
export * from './templateIds.js';
