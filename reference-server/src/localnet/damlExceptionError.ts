import type { Value } from '../../../daml-engine/value/Value.js';
import { unhandledException } from '../apps/unhandledException.js';
import type { LedgerError } from '../ledger/errors.js';

/**
 * daml-prim's stable exception packages (the same ids in every Daml-LF 2 DAR): `assertMsg`
 * throws AssertionFailed, `error` (and `fromSomeNote`) GeneralError.
 */
const EXCEPTIONS = {
  AssertionFailed: '6da1f43a10a179524e840e7288b47bda213339b0552d92e87ae811e52f59fc0e',
  GeneralError: 'f181cd661f7af3a60bdaae4b0285a2a67beb55d6910fc8431dbae21a5825ec0f',
} as const;

/** One of daml-prim's message exceptions thrown and not caught (see unhandledException). */
export function unhandledDamlException(exception: keyof typeof EXCEPTIONS, message: string): LedgerError {
  const tycon = { packageId: EXCEPTIONS[exception], module: `DA.Exception.${exception}`, name: exception };
  const value: Value = { kind: 'record', tycon, fieldNames: ['message'], fields: [{ kind: 'text', value: message }] };
  return unhandledException(value);
}
