import type { RecordValue } from '../../../daml-engine/value/Value.js';
import { lfValueBytes } from '../ledger/engine/lfValueBytes.js';
import { identifierText, prettyDamlValue } from '../ledger/engine/prettyDamlValue.js';
import { ledgerError, type LedgerError } from '../ledger/errors.js';

/**
 * The refusal a participant gives when Daml code throws `exception` and nothing catches it:
 * UNHANDLED_EXCEPTION, the exception printed as the engine prints it, its type and value as
 * resources (cantonErrorOf gives the same for uploaded packages). Built-in templates keep no
 * exercise trace, so the lines naming the open exercises are not written.
 */
export function unhandledException(exception: RecordValue): LedgerError {
  const bytes = lfValueBytes(exception);
  return ledgerError('UNHANDLED_EXCEPTION', `Interpretation error: Error: Unhandled Daml exception: ${prettyDamlValue(exception, true)}`, {
    resources: bytes === undefined ? [] : [['EXCEPTION_TYPE', identifierText(exception.tycon)], ['EXCEPTION_VALUE', Buffer.from(bytes).toString('base64')]],
    definiteAnswer: false,
  });
}
