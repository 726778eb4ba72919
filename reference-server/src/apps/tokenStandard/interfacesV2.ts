import type { DamlRecord, DamlValue } from '../../ledger/index.js';
import {
  ALLOCATION_FACTORY_V2_INTERFACE,
  ALLOCATION_REQUEST_V2_INTERFACE,
  ALLOCATION_V2_INTERFACE,
  HOLDING_V2_INTERFACE,
  SETTLEMENT_FACTORY_V2_INTERFACE,
  TRANSFER_FACTORY_V2_INTERFACE,
  TRANSFER_INSTRUCTION_V2_INTERFACE,
} from './idsV2.js';
import type { InterfaceChoice } from './TokenStandardInterfaces.js';
import { EXTRA_ARGS_T } from './types.js';
import { ACTORS_ARG, ACTORS_EXTRA_ARGS_ARG, ACTORS_T, ALLOCATION_SPEC_V2_T, FINALIZED_ALLOCATION_T, SETTLEMENT_INFO_V2_T, TRANSFER_LEG_SIDE_T, TRANSFER_LEG_V2_T, TRANSFER_V2_T } from './typesV2.js';

const record = (v: DamlValue | undefined): DamlRecord => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as DamlRecord) : {});
const parties = (v: DamlValue | undefined): string[] => (Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : []);
/** Every v2 choice is controlled by its `actors` argument; implementations check who they are. */
const actors = (_view: DamlRecord, arg: DamlRecord) => parties(arg.actors);

/** The parties of an account (owner and provider, when set). */
export const accountParties = (account: DamlValue | undefined): string[] =>
  [record(account).owner, record(account).provider].filter((p): p is string => typeof p === 'string');

/**
 * The v2 interfaces (all choices nonconsuming, controlled by `actors`), as Splice declares them.
 * SettlementFactory_SettleBatch has the public-asset observers: every account party of the legs.
 */
export const INTERFACES_V2: Readonly<Record<string, Readonly<Record<string, InterfaceChoice>>>> = {
  [HOLDING_V2_INTERFACE]: {},
  [TRANSFER_FACTORY_V2_INTERFACE]: {
    TransferFactory_Transfer: { consuming: false, argument: { record: { transfer: TRANSFER_V2_T, actors: ACTORS_T, extraArgs: EXTRA_ARGS_T } }, controllers: actors },
    TransferFactory_PublicFetch: { consuming: false, argument: ACTORS_ARG, controllers: actors },
  },
  [TRANSFER_INSTRUCTION_V2_INTERFACE]: {
    TransferInstruction_Accept: { consuming: false, argument: ACTORS_EXTRA_ARGS_ARG, controllers: actors },
    TransferInstruction_Reject: { consuming: false, argument: ACTORS_EXTRA_ARGS_ARG, controllers: actors },
    TransferInstruction_Withdraw: { consuming: false, argument: ACTORS_EXTRA_ARGS_ARG, controllers: actors },
  },
  [ALLOCATION_FACTORY_V2_INTERFACE]: {
    AllocationFactory_Allocate: {
      consuming: false,
      argument: { record: { settlement: SETTLEMENT_INFO_V2_T, allocation: ALLOCATION_SPEC_V2_T, requestedAt: 'Time', inputHoldingCids: { list: 'ContractId' }, extraArgs: EXTRA_ARGS_T, actors: ACTORS_T } },
      controllers: actors,
    },
    AllocationFactory_PublicFetch: { consuming: false, argument: ACTORS_ARG, controllers: actors },
  },
  [ALLOCATION_V2_INTERFACE]: {
    Allocation_Settle: {
      consuming: false,
      argument: { record: { actors: ACTORS_T, extraTransferLegSides: { list: TRANSFER_LEG_SIDE_T }, nextIterationFunding: { optional: { textMap: 'Numeric' } }, extraArgs: EXTRA_ARGS_T } },
      controllers: actors,
    },
    Allocation_Cancel: { consuming: false, argument: ACTORS_EXTRA_ARGS_ARG, controllers: actors },
    Allocation_Withdraw: { consuming: false, argument: ACTORS_EXTRA_ARGS_ARG, controllers: actors },
  },
  [SETTLEMENT_FACTORY_V2_INTERFACE]: {
    SettlementFactory_SettleBatch: {
      consuming: false,
      argument: {
        record: {
          settlement: SETTLEMENT_INFO_V2_T,
          transferLegs: { list: TRANSFER_LEG_V2_T },
          allocations: { list: FINALIZED_ALLOCATION_T },
          actors: ACTORS_T,
          extraArgs: EXTRA_ARGS_T,
        },
      },
      controllers: actors,
      observers: (_view, arg) => (Array.isArray(arg.transferLegs) ? arg.transferLegs : []).flatMap((l) => [...accountParties(record(l).sender), ...accountParties(record(l).receiver)]),
    },
    SettlementFactory_PublicFetch: { consuming: false, argument: ACTORS_ARG, controllers: actors },
  },
  [ALLOCATION_REQUEST_V2_INTERFACE]: {
    AllocationRequest_Accept: { consuming: false, argument: ACTORS_EXTRA_ARGS_ARG, controllers: actors },
    AllocationRequest_Reject: { consuming: false, argument: ACTORS_EXTRA_ARGS_ARG, controllers: actors },
    AllocationRequest_Withdraw: { consuming: false, argument: ACTORS_EXTRA_ARGS_ARG, controllers: actors },
  },
};
