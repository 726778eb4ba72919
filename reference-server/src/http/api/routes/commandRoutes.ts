import type { JsCommands, JsSubmitAndWaitForTransactionRequest } from '../../../ledger/wire.js';
import type { Principal } from '../auth/types.js';
import { jsonResult } from '../ledgerResult.js';
import { defineRoute, type Route } from '../route.js';

/** `userId` may be left out when the caller is a user: it then defaults to that user. */
function withCaller(commands: JsCommands, principal: Principal): JsCommands {
  return commands.userId === undefined && principal.kind === 'user' ? { ...commands, userId: principal.userId } : commands;
}

const submitterAccess = (commands: JsCommands) => ({ actAs: commands.actAs, readAs: commands.readAs ?? [] });

/** The command service: the three ways to submit (wait for the outcome, for the transaction, or not at all). */
export const commandRoutes: readonly Route[] = [
  defineRoute<JsCommands>({
    method: 'POST',
    path: '/v2/commands/submit-and-wait',
    operationId: 'postV2CommandsSubmit-and-wait',
    group: 'B',
    body: 'json',
    access: ({ body }) => submitterAccess(body),
    handle: ({ body, principal, services }) => jsonResult(services.ledger.submitAndWait(withCaller(body, principal))),
  }),
  defineRoute<JsSubmitAndWaitForTransactionRequest>({
    method: 'POST',
    path: '/v2/commands/submit-and-wait-for-transaction',
    operationId: 'postV2CommandsSubmit-and-wait-for-transaction',
    group: 'B',
    body: 'json',
    access: ({ body }) => submitterAccess(body.commands),
    handle: ({ body, principal, services }) =>
      jsonResult(services.ledger.submitAndWaitForTransaction({ ...body, commands: withCaller(body.commands, principal) })),
  }),
  defineRoute<JsCommands>({
    method: 'POST',
    path: '/v2/commands/async/submit',
    operationId: 'postV2CommandsAsyncSubmit',
    group: 'B',
    body: 'json',
    access: ({ body }) => submitterAccess(body),
    handle: ({ body, principal, services }) => jsonResult(services.ledger.submitAsync(withCaller(body, principal))),
  }),
];
