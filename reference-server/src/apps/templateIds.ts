/**
 * Template and interface ids of the apps, in the package-name form (`#package:Module:Entity`) a
 * JSON API client can send. Module and entity names follow upstream Splice where the contract is
 * an upstream one; the sample registry's own templates live in our sample-token package.
 */

/** Splice's Amulet package: preapprovals and mining rounds, which Scan indexes. */
export const AMULET_PACKAGE = 'splice-amulet';
export const AMULET_RULES_TEMPLATE = `#${AMULET_PACKAGE}:Splice.AmuletRules:AmuletRules`;
export const TRANSFER_PREAPPROVAL_TEMPLATE = `#${AMULET_PACKAGE}:Splice.AmuletRules:TransferPreapproval`;
export const OPEN_MINING_ROUND_TEMPLATE = `#${AMULET_PACKAGE}:Splice.Round:OpenMiningRound`;
export const SUMMARIZING_MINING_ROUND_TEMPLATE = `#${AMULET_PACKAGE}:Splice.Round:SummarizingMiningRound`;
export const ISSUING_MINING_ROUND_TEMPLATE = `#${AMULET_PACKAGE}:Splice.Round:IssuingMiningRound`;
export const CLOSED_MINING_ROUND_TEMPLATE = `#${AMULET_PACKAGE}:Splice.Round:ClosedMiningRound`;

/** The token-standard interface wallets exercise accept and withdraw through. */
export const ALLOCATION_INSTRUCTION_PACKAGE = 'splice-api-token-allocation-instruction-v2';
export const ALLOCATION_INSTRUCTION_INTERFACE = `#${ALLOCATION_INSTRUCTION_PACKAGE}:Splice.Api.Token.AllocationInstructionV2:AllocationInstruction`;

/** The sample registry (group A): one token admin, its rules, account maps, instructions. */
export const SAMPLE_TOKEN_PACKAGE = 'canton-conformance-sample-token';
export const TOKEN_RULES_TEMPLATE = `#${SAMPLE_TOKEN_PACKAGE}:Sample.Token.Rules:TokenRules`;
export const ACCOUNT_MAP_TEMPLATE = `#${SAMPLE_TOKEN_PACKAGE}:Sample.Token.Accounts:AccountMap`;
export const TOKEN_ALLOCATION_INSTRUCTION_TEMPLATE = `#${SAMPLE_TOKEN_PACKAGE}:Sample.Token.AllocationInstruction:TokenAllocationInstruction`;
export const TOKEN_ALLOCATION_TEMPLATE = `#${SAMPLE_TOKEN_PACKAGE}:Sample.Token.Allocation:TokenAllocation`;

/** Amulet as a token-standard registry: holdings, the factory, instructions and allocations. */
export const AMULET_TEMPLATE = `#${AMULET_PACKAGE}:Splice.Amulet:Amulet`;
export const LOCKED_AMULET_TEMPLATE = `#${AMULET_PACKAGE}:Splice.Amulet:LockedAmulet`;
export const FEATURED_APP_RIGHT_TEMPLATE = `#${AMULET_PACKAGE}:Splice.Amulet:FeaturedAppRight`;
export const MEMBER_TRAFFIC_TEMPLATE = `#${AMULET_PACKAGE}:Splice.DecentralizedSynchronizer:MemberTraffic`;
export const EXTERNAL_PARTY_AMULET_RULES_TEMPLATE = `#${AMULET_PACKAGE}:Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules`;
export const AMULET_TRANSFER_INSTRUCTION_TEMPLATE = `#${AMULET_PACKAGE}:Splice.AmuletTransferInstruction:AmuletTransferInstruction`;
export const AMULET_ALLOCATION_TEMPLATE = `#${AMULET_PACKAGE}:Splice.AmuletAllocation:AmuletAllocation`;
/** The DSO's governance contract Scan's /v0/dso reports. */
export const DSO_RULES_TEMPLATE = '#splice-dso-governance:Splice.DsoRules:DsoRules';
/** A trading venue's request for allocations (an app-side AllocationRequest). */
export const TRADE_ALLOCATION_REQUEST_TEMPLATE = '#canton-conformance-sample-trading:Sample.Trading:TradeAllocationRequest';
