import type { JsCommands } from '../../../ledger/wire.js';
import { jsonResult } from '../ledgerResult.js';
import { defineRoute, type Route } from '../route.js';
import { submitterAccess, withCaller } from './commandRoutes.js';

/** The deprecated submission that answers the transaction tree (ledger effects of actAs and readAs). */
export const transactionTreeCommandRoutes: readonly Route[] = [
  defineRoute<JsCommands>({
    method: 'POST',
    path: '/v2/commands/submit-and-wait-for-transaction-tree',
    operationId: 'postV2CommandsSubmit-and-wait-for-transaction-tree',
    group: 'B',
    body: 'json',
    access: ({ body }) => submitterAccess(body),
    handle: ({ body, principal, services }) => jsonResult(services.ledger.submitAndWaitForTransactionTree(withCaller(body, principal))),
  }),
];
