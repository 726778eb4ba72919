import { toTimestamp } from './clock.js';
import { ledgerError, type LedgerError } from './errors.js';

/**
 * How far a transaction's ledger time may lie from its record time, either way: Canton's dynamic
 * synchronizer parameter `ledgerTimeRecordTimeTolerance` (default 60 s). Confirming participants
 * refuse a transaction outside it, so a client cannot date a transaction into the future (a
 * deadline passed early) or the past (a deadline not yet passed).
 */
export const LEDGER_TIME_RECORD_TIME_TOLERANCE_MS = 60_000;

/** A duration as Java's `Duration.toString` prints it (`PT1M`, `PT1.5S`), the form Canton's messages show. */
function javaDuration(ms: number): string {
  if (ms % 60_000 === 0 && ms > 0) return ms % 3_600_000 === 0 ? `PT${ms / 3_600_000}H` : `PT${ms / 60_000}M`;
  return `PT${ms / 1000}S`;
}

/**
 * The confirmers' time check (Canton's `TimeValidator`): undefined when the ledger time lies
 * within the tolerance of the record time, else the rejection the submitter's completion carries.
 */
export function ledgerTimeOutOfBound(ledgerTime: number, recordTime: number, toleranceMs = LEDGER_TIME_RECORD_TIME_TOLERANCE_MS): LedgerError | undefined {
  if (Math.abs(ledgerTime - recordTime) <= toleranceMs) return undefined;
  const lt = toTimestamp(ledgerTime);
  const rt = toTimestamp(recordTime);
  return ledgerError(
    'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND',
    `Rejected transaction as delta of the ledger time and the record time exceed the time tolerance ledgerTime=${lt}, recordTime=${rt}, maxDelta=${javaDuration(toleranceMs)}`,
    { context: { ledger_time: lt, record_time: rt } },
  );
}
