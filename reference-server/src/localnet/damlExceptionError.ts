import type { Value } from '../../../daml-engine/value/Value.js';
import { lfValueBytes } from '../ledger/engine/lfValueBytes.js';
import { identifierText, prettyDamlValue } from '../ledger/engine/prettyDamlValue.js';
import { ledgerError, type LedgerError } from '../ledger/errors.js';

/**
 * daml-prim's stable exception packages (the same ids in every Daml-LF 2 DAR): `assertMsg`
 * throws AssertionFailed, `error` (and `fromSomeNote`) GeneralError.
 */
const EXCEPTIONS = {
  AssertionFailed: '6da1f43a10a179524e840e7288b47bda213339b0552d92e87ae811e52f59fc0e',
  GeneralError: 'f181cd661f7af3a60bdaae4b0285a2a67beb55d6910fc8431dbae21a5825ec0f',
} as const;

/**
 * The refusal a participant gives when Daml code throws one of daml-prim's message exceptions
 * and nothing catches it: UNHANDLED_EXCEPTION, the exception printed as the engine prints it,
 * its type and value as resources (cantonErrorOf gives the same for uploaded packages). Built-in
 * templates keep no exercise trace, so the lines naming the open exercises are not written.
 */
export function unhandledDamlException(exception: keyof typeof EXCEPTIONS, message: string): LedgerError {
  const tycon = { packageId: EXCEPTIONS[exception], module: `DA.Exception.${exception}`, name: exception };
  const value: Value = { kind: 'record', tycon, fieldNames: ['message'], fields: [{ kind: 'text', value: message }] };
  const bytes = lfValueBytes(value);
  return ledgerError('UNHANDLED_EXCEPTION', `Interpretation error: Error: Unhandled Daml exception: ${prettyDamlValue(value, true)}`, {
    resources: bytes === undefined ? [] : [['EXCEPTION_TYPE', identifierText(tycon)], ['EXCEPTION_VALUE', Buffer.from(bytes).toString('base64')]],
    definiteAnswer: false,
  });
}
