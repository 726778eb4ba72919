/**
 * Package names and interface ids of the token standard v2 (CIP-0112), in the package-name form
 * wallets send. Module, entity, field and choice names follow Splice's Daml at
 * canton-network/splice commit 0fc887f48156d65ba1b922a96691b52ddf0b943d (AllocationV2 with the
 * SettlementFactory); the shapes are those of the released 1.0.0 packages splice-amulet 0.1.22
 * implements (the settlement beside the allocation specification, not inside it).
 * The v2 AllocationInstruction interface itself is registered by the sample registry
 * (registry/tokenTemplates.ts) with the same choices; only the factory is added here.
 */
import { ALLOCATION_INSTRUCTION_PACKAGE } from '../templateIds.js';

export const HOLDING_V2_PACKAGE = 'splice-api-token-holding-v2';
export const TRANSFER_INSTRUCTION_V2_PACKAGE = 'splice-api-token-transfer-instruction-v2';
export const ALLOCATION_INSTRUCTION_V2_PACKAGE = ALLOCATION_INSTRUCTION_PACKAGE;
export const ALLOCATION_V2_PACKAGE = 'splice-api-token-allocation-v2';
export const ALLOCATION_REQUEST_V2_PACKAGE = 'splice-api-token-allocation-request-v2';

export const HOLDING_V2_INTERFACE = `#${HOLDING_V2_PACKAGE}:Splice.Api.Token.HoldingV2:Holding`;
export const TRANSFER_FACTORY_V2_INTERFACE = `#${TRANSFER_INSTRUCTION_V2_PACKAGE}:Splice.Api.Token.TransferInstructionV2:TransferFactory`;
export const TRANSFER_INSTRUCTION_V2_INTERFACE = `#${TRANSFER_INSTRUCTION_V2_PACKAGE}:Splice.Api.Token.TransferInstructionV2:TransferInstruction`;
export const ALLOCATION_FACTORY_V2_INTERFACE = `#${ALLOCATION_INSTRUCTION_V2_PACKAGE}:Splice.Api.Token.AllocationInstructionV2:AllocationFactory`;
export const ALLOCATION_V2_INTERFACE = `#${ALLOCATION_V2_PACKAGE}:Splice.Api.Token.AllocationV2:Allocation`;
export const SETTLEMENT_FACTORY_V2_INTERFACE = `#${ALLOCATION_V2_PACKAGE}:Splice.Api.Token.AllocationV2:SettlementFactory`;
/** Apps' requests for allocations (no Amulet template implements it; app templates may). */
export const ALLOCATION_REQUEST_V2_INTERFACE = `#${ALLOCATION_REQUEST_V2_PACKAGE}:Splice.Api.Token.AllocationRequestV2:AllocationRequest`;
