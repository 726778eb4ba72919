import type { FieldType, RecordType } from '../../ledger/index.js';

/** Daml types of the token standard v1 in the catalogue's notation (upstream field names). */

/** Splice.Api.Token.MetadataV1.Metadata */
export const METADATA_T: FieldType = { record: { values: { textMap: 'Text' } } };
/** ChoiceContext: AnyValue is recursive, so values are read by the choices that use them. */
export const CHOICE_CONTEXT_T: FieldType = { record: { values: { textMap: 'Any' } } };
export const EXTRA_ARGS_T: FieldType = { record: { context: CHOICE_CONTEXT_T, meta: METADATA_T } };
export const INSTRUMENT_ID_T: FieldType = { record: { admin: 'Party', id: 'Text' } };
export const REL_TIME_T: FieldType = { record: { microseconds: 'Int64' } };
export const LOCK_T: FieldType = {
  record: { holders: { list: 'Party' }, expiresAt: { optional: 'Time' }, expiresAfter: { optional: REL_TIME_T }, context: { optional: 'Text' } },
};

/** Splice.Api.Token.TransferInstructionV1.Transfer's fields (v2's Transfer has the same, with accounts for parties). */
export const TRANSFER_FIELDS: RecordType = {
  sender: 'Party',
  receiver: 'Party',
  amount: 'Numeric',
  instrumentId: INSTRUMENT_ID_T,
  requestedAt: 'Time',
  executeBefore: 'Time',
  inputHoldingCids: { list: 'ContractId' },
  meta: METADATA_T,
};
/** Splice.Api.Token.TransferInstructionV1.Transfer */
export const TRANSFER_T: FieldType = { record: TRANSFER_FIELDS };

export const REFERENCE_T: FieldType = { record: { id: 'Text', cid: { optional: 'ContractId' } } };
export const SETTLEMENT_INFO_T: FieldType = {
  record: { executor: 'Party', settlementRef: REFERENCE_T, requestedAt: 'Time', allocateBefore: 'Time', settleBefore: 'Time', meta: METADATA_T },
};
export const TRANSFER_LEG_T: FieldType = { record: { sender: 'Party', receiver: 'Party', amount: 'Numeric', instrumentId: INSTRUMENT_ID_T, meta: METADATA_T } };
/** Splice.Api.Token.AllocationV1.AllocationSpecification */
export const ALLOCATION_SPEC_T: FieldType = { record: { settlement: SETTLEMENT_INFO_T, transferLegId: 'Text', transferLeg: TRANSFER_LEG_T } };

export const EXTRA_ARGS_ARG: FieldType = { record: { extraArgs: EXTRA_ARGS_T } };
