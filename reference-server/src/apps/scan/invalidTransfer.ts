import type { RecordValue, Value } from '../../../../daml-engine/value/Value.js';
import type { LedgerError } from '../../ledger/index.js';
import { unhandledException } from '../unhandledException.js';

/** The reasons of Splice.AmuletRules:InvalidTransferReason the ports give, with their constructor's rank in Splice's declaration. */
export type InvalidTransferReason =
  | { readonly reason: 'ITR_InsufficientFunds'; /** Numeric 10, scaled. */ readonly missingAmount: bigint }
  | { readonly reason: 'ITR_InsufficientTopupAmount'; readonly requestedTopupAmount: bigint; readonly minTopupAmount: bigint };

/**
 * Splice's `InvalidTransfer` exception, thrown by AmuletRules' transfers and traffic purchases,
 * as the real splice-amulet's refusal reads (UNHANDLED_EXCEPTION naming the reason and its
 * fields), typed in the ports' splice-amulet package `packageId`.
 */
export function invalidTransfer(packageId: string, r: InvalidTransferReason): LedgerError {
  const at = (name: string) => ({ packageId, module: 'Splice.AmuletRules', name });
  const payload = (fields: Record<string, Value>): RecordValue => ({ kind: 'record', tycon: at(`InvalidTransferReason.${r.reason}`), fieldNames: Object.keys(fields), fields: Object.values(fields) });
  const value =
    r.reason === 'ITR_InsufficientFunds'
      ? { rank: 0, payload: payload({ missingAmount: { kind: 'numeric', scale: 10, unscaled: r.missingAmount } }) }
      : { rank: 2, payload: payload({ requestedTopupAmount: { kind: 'int64', value: r.requestedTopupAmount }, minTopupAmount: { kind: 'int64', value: r.minTopupAmount } }) };
  return unhandledException({
    kind: 'record',
    tycon: at('InvalidTransfer'),
    fieldNames: ['reason'],
    fields: [{ kind: 'variant', tycon: at('InvalidTransferReason'), constructor: r.reason, rank: value.rank, value: value.payload }],
  });
}
