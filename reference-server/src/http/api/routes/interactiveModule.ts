import type * as InteractiveModule from '../../../ledger/interactive/index.js';

let loading: Promise<typeof InteractiveModule> | undefined;

/**
 * The interactive submission module, loaded when a request first needs it: it and the Canton
 * protobuf messages it encodes with are some fifty modules and 0.1 s of CPU that no start-up needs.
 */
export function interactive(): Promise<typeof InteractiveModule> {
  return (loading ??= import('../../../ledger/interactive/index.js'));
}
