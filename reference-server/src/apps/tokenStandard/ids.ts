/**
 * Package names and interface ids of the token standard (CIP-0056), in the package-name form
 * (`#package:Module:Entity`) wallets send. Module and entity names are upstream's.
 */
export const METADATA_V1_PACKAGE = 'splice-api-token-metadata-v1';
export const HOLDING_V1_PACKAGE = 'splice-api-token-holding-v1';
export const TRANSFER_INSTRUCTION_V1_PACKAGE = 'splice-api-token-transfer-instruction-v1';
export const ALLOCATION_V1_PACKAGE = 'splice-api-token-allocation-v1';
export const ALLOCATION_REQUEST_V1_PACKAGE = 'splice-api-token-allocation-request-v1';
export const ALLOCATION_INSTRUCTION_V1_PACKAGE = 'splice-api-token-allocation-instruction-v1';

export const ANY_CONTRACT_INTERFACE = `#${METADATA_V1_PACKAGE}:Splice.Api.Token.MetadataV1:AnyContract`;
export const HOLDING_V1_INTERFACE = `#${HOLDING_V1_PACKAGE}:Splice.Api.Token.HoldingV1:Holding`;
export const TRANSFER_FACTORY_V1_INTERFACE = `#${TRANSFER_INSTRUCTION_V1_PACKAGE}:Splice.Api.Token.TransferInstructionV1:TransferFactory`;
export const TRANSFER_INSTRUCTION_V1_INTERFACE = `#${TRANSFER_INSTRUCTION_V1_PACKAGE}:Splice.Api.Token.TransferInstructionV1:TransferInstruction`;
export const ALLOCATION_V1_INTERFACE = `#${ALLOCATION_V1_PACKAGE}:Splice.Api.Token.AllocationV1:Allocation`;
export const ALLOCATION_REQUEST_V1_INTERFACE = `#${ALLOCATION_REQUEST_V1_PACKAGE}:Splice.Api.Token.AllocationRequestV1:AllocationRequest`;
export const ALLOCATION_FACTORY_V1_INTERFACE = `#${ALLOCATION_INSTRUCTION_V1_PACKAGE}:Splice.Api.Token.AllocationInstructionV1:AllocationFactory`;
export const ALLOCATION_INSTRUCTION_V1_INTERFACE = `#${ALLOCATION_INSTRUCTION_V1_PACKAGE}:Splice.Api.Token.AllocationInstructionV1:AllocationInstruction`;

/** The API names a registry reports in `supportedApis` (metadata v1 `info`), with the minor version. */
export const TOKEN_STANDARD_V1_APIS = [
  METADATA_V1_PACKAGE,
  HOLDING_V1_PACKAGE,
  TRANSFER_INSTRUCTION_V1_PACKAGE,
  ALLOCATION_V1_PACKAGE,
  ALLOCATION_REQUEST_V1_PACKAGE,
  ALLOCATION_INSTRUCTION_V1_PACKAGE,
] as const;
