import type { FieldType } from '../../ledger/index.js';
import { EXTRA_ARGS_T, METADATA_T, TRANSFER_FIELDS } from './types.js';

/** Daml types of the token standard v2 in the catalogue's notation (upstream field names). */

/** Splice.Api.Token.HoldingV2.Account: `owner` None is reserved for the admin's special accounts. */
export const ACCOUNT_T: FieldType = { record: { owner: { optional: 'Party' }, provider: { optional: 'Party' }, id: 'Text' } };

/** Splice.Api.Token.TransferInstructionV2.Transfer */
export const TRANSFER_V2_T: FieldType = { record: { ...TRANSFER_FIELDS, sender: ACCOUNT_T, receiver: ACCOUNT_T } };

/** Splice.Api.Token.AllocationV2.SettlementInfo */
export const SETTLEMENT_INFO_V2_T: FieldType = { record: { executors: { list: 'Party' }, id: 'Text', cid: { optional: 'ContractId' }, meta: METADATA_T } };
/** Splice.Api.Token.AllocationV2.TransferLeg (the instrument id is the admin's text id). */
export const TRANSFER_LEG_V2_T: FieldType = {
  record: { transferLegId: 'Text', sender: ACCOUNT_T, receiver: ACCOUNT_T, amount: 'Numeric', instrumentId: 'Text', meta: METADATA_T },
};
/** Splice.Api.Token.AllocationV2.TransferLegSide */
export const TRANSFER_LEG_SIDE_T: FieldType = {
  record: { transferLegId: 'Text', side: { enum: ['SenderSide', 'ReceiverSide'] }, otherside: ACCOUNT_T, amount: 'Numeric', instrumentId: 'Text', meta: METADATA_T },
};
const FUNDING_T: FieldType = { optional: { textMap: 'Numeric' } };
/** Splice.Api.Token.AllocationV2.AllocationSpecification (the settlement is not in it: choices and views carry it beside). */
export const ALLOCATION_SPEC_V2_T: FieldType = {
  record: {
    admin: 'Party',
    authorizer: ACCOUNT_T,
    transferLegSides: { list: TRANSFER_LEG_SIDE_T },
    settlementDeadline: { optional: 'Time' },
    nextIterationFunding: FUNDING_T,
    committed: 'Bool',
    meta: METADATA_T,
  },
};
/** Splice.Api.Token.AllocationV2.FinalizedAllocation */
export const FINALIZED_ALLOCATION_T: FieldType = {
  record: { allocationCid: 'ContractId', extraTransferLegSides: { list: TRANSFER_LEG_SIDE_T }, nextIterationFunding: FUNDING_T },
};

export const ACTORS_T: FieldType = { list: 'Party' };
export const ACTORS_ARG: FieldType = { record: { actors: ACTORS_T } };
export const ACTORS_EXTRA_ARGS_ARG: FieldType = { record: { actors: ACTORS_T, extraArgs: EXTRA_ARGS_T } };
