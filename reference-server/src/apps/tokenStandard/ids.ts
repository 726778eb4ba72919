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

/**
 * `supportedApis` of metadata v1 `info`, as Splice's Scan answers it for the registry as a
 * whole: the metadata API only. What each instrument supports is on the instrument.
 */
export const REGISTRY_INFO_APIS: Readonly<Record<string, number>> = { [METADATA_V1_PACKAGE]: 1 };

/**
 * Amulet's `supportedApis` in the v1 APIs, as Splice's Scan lists them (API name to minor
 * version): the registry-side APIs. No allocation-request API (an API used by apps, not
 * registries) and no burn-mint API (Amulet does not use it).
 */
export const AMULET_V1_APIS: Readonly<Record<string, number>> = {
  [METADATA_V1_PACKAGE]: 1,
  [HOLDING_V1_PACKAGE]: 1,
  [TRANSFER_INSTRUCTION_V1_PACKAGE]: 1,
  [ALLOCATION_V1_PACKAGE]: 1,
  [ALLOCATION_INSTRUCTION_V1_PACKAGE]: 1,
};
