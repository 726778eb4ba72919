import type {
  JsCommands,
  JsSubmitAndWaitForReassignmentRequest,
  JsSubmitAndWaitForTransactionRequest,
  ReassignmentCommands,
  SubmitReassignmentRequest,
} from '../../../ledger/wire.js';
import type { Principal, RequiredAccess } from '../auth/types.js';
import { jsonResult } from '../ledgerResult.js';
import { defineRoute, type Route } from '../route.js';
import { readersOf } from './readersOf.js';

/** `userId` may be left out when the caller is a user: it then defaults to that user. */
export function withCaller(commands: JsCommands, principal: Principal): JsCommands {
  return commands.userId === undefined && principal.kind === 'user' ? { ...commands, userId: principal.userId } : commands;
}

/** Act as every actAs party, read as every readAs party; a `userId` other than the caller's needs admin. */
export const submitterAccess = (commands: JsCommands): RequiredAccess => ({
  actAs: commands.actAs,
  readAs: commands.readAs ?? [],
  ...(commands.userId === undefined ? {} : { self: commands.userId }),
});

/** Plus reading as the parties the answer's transaction format names. */
function submitterAndReaderAccess(body: JsSubmitAndWaitForTransactionRequest): RequiredAccess {
  const submitter = submitterAccess(body.commands);
  const readers = readersOf(body.transactionFormat?.eventFormat);
  return { ...submitter, ...readers, readAs: [...(submitter.readAs ?? []), ...(readers.readAs ?? [])] };
}

/** Reassignments: `userId` defaults to the calling user, as for commands. */
function reassignmentWithCaller(commands: ReassignmentCommands, principal: Principal): ReassignmentCommands {
  return commands.userId === undefined && principal.kind === 'user' ? { ...commands, userId: principal.userId } : commands;
}

/** The submitter acts; a `userId` other than the caller's needs admin. */
const reassignmentAccess = (commands: ReassignmentCommands): RequiredAccess => ({
  actAs: [commands.submitter],
  ...(commands.userId === undefined ? {} : { self: commands.userId }),
});

/** The command service: the ways to submit commands (wait for the outcome, for the transaction, or not at all) and reassignments. */
export const commandRoutes: readonly Route[] = [
  defineRoute<JsCommands>({
    method: 'POST',
    path: '/v2/commands/submit-and-wait',
    operationId: 'postV2CommandsSubmit-and-wait',
    group: 'B',
    body: 'json',
    access: ({ body }) => submitterAccess(body),
    handle: async ({ body, principal, services }) => {
      const commands = withCaller(body, principal);
      // Engine work runs first, in slices that let other clients in; the commit stays synchronous.
      await services.ledger.preRunEngine(commands);
      return jsonResult(services.ledger.submitAndWait(commands));
    },
  }),
  defineRoute<JsSubmitAndWaitForTransactionRequest>({
    method: 'POST',
    path: '/v2/commands/submit-and-wait-for-transaction',
    operationId: 'postV2CommandsSubmit-and-wait-for-transaction',
    group: 'B',
    body: 'json',
    access: ({ body }) => submitterAndReaderAccess(body),
    handle: async ({ body, principal, services }) => {
      const commands = withCaller(body.commands, principal);
      // A copy only when the caller's user id was filled in (a copy behind a spread costs ~1 us a member on Node 20).
      const request = commands === body.commands ? body : { ...body, commands };
      if (request.commands !== undefined && request.commands !== null) await services.ledger.preRunEngine(request.commands);
      return jsonResult(services.ledger.submitAndWaitForTransaction(request));
    },
  }),
  defineRoute<JsCommands>({
    method: 'POST',
    path: '/v2/commands/async/submit',
    operationId: 'postV2CommandsAsyncSubmit',
    group: 'B',
    body: 'json',
    access: ({ body }) => submitterAccess(body),
    handle: async ({ body, principal, services }) => {
      const commands = withCaller(body, principal);
      await services.ledger.preRunEngine(commands);
      return jsonResult(services.ledger.submitAsync(commands));
    },
  }),
  defineRoute<JsSubmitAndWaitForReassignmentRequest>({
    method: 'POST',
    path: '/v2/commands/submit-and-wait-for-reassignment',
    operationId: 'postV2CommandsSubmit-and-wait-for-reassignment',
    group: 'B',
    body: 'json',
    access: ({ body }) => ({ ...reassignmentAccess(body.reassignmentCommands), ...readersOf(body.eventFormat) }),
    handle: ({ body, principal, services }) =>
      jsonResult(
        services.ledger.submitAndWaitForReassignment({ ...body, reassignmentCommands: reassignmentWithCaller(body.reassignmentCommands, principal) }),
      ),
  }),
  defineRoute<SubmitReassignmentRequest>({
    method: 'POST',
    path: '/v2/commands/async/submit-reassignment',
    operationId: 'postV2CommandsAsyncSubmit-reassignment',
    group: 'B',
    body: 'json',
    access: ({ body }) => reassignmentAccess(body.reassignmentCommands),
    handle: ({ body, principal, services }) =>
      jsonResult(services.ledger.submitReassignment({ reassignmentCommands: reassignmentWithCaller(body.reassignmentCommands, principal) })),
  }),
];
