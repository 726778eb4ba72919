import { randomUUID } from 'node:crypto';
import { interactive } from './interactiveModule.js';
import type {
  JsExecuteSubmissionAndWaitForTransactionRequest,
  JsExecuteSubmissionRequest,
  JsPrepareSubmissionRequest,
} from '../../../ledger/interactive/index.js';
import type { Principal, RequiredAccess } from '../auth/types.js';
import { jsonResult } from '../ledgerResult.js';
import { defineRoute, type Route } from '../route.js';
import { readersOf } from './readersOf.js';

/** `userId` may be left out when the caller is a user: it then defaults to that user. */
function withCaller<T extends { userId?: string }>(body: T, principal: Principal): T {
  return body.userId === undefined && principal.kind === 'user' ? { ...body, userId: principal.userId } : body;
}

const asUser = (userId: string | undefined): RequiredAccess => (userId === undefined ? {} : { self: userId });

/** Preparing only reads: every actAs and readAs party needs read rights, nothing more. */
const prepareAccess = (body: JsPrepareSubmissionRequest): RequiredAccess => ({ readAs: [...(body.actAs ?? []), ...(body.readAs ?? [])], ...asUser(body.userId) });

/** Executing acts for the prepared transaction's actAs parties: CanExecuteAs (or CanActAs) each. */
const executeAccess = async (body: JsExecuteSubmissionRequest): Promise<RequiredAccess> => ({
  executeAs: (await interactive()).InteractiveSubmission.actAsOf(body.preparedTransaction),
  ...asUser(body.userId),
});

/** The interactive submission service: prepare a transaction for external signing, then execute it. */
export const interactiveRoutes: readonly Route[] = [
  defineRoute<JsPrepareSubmissionRequest>({
    method: 'POST',
    path: '/v2/interactive-submission/prepare',
    operationId: 'postV2Interactive-submissionPrepare',
    group: 'B',
    body: 'json',
    access: ({ body }) => prepareAccess(body),
    // Engine runs in slices (others are served meanwhile): the operation runs twice, with one UUID and time.
    handle: async ({ body, principal, services }) => {
      const fixed = { transactionUuid: randomUUID(), now: services.ledger.config.clock.now() };
      const { interactiveSubmissionOf } = await interactive();
      return jsonResult(await services.ledger.inEngineSlices(() => interactiveSubmissionOf(services.ledger).prepare(withCaller(body, principal), fixed)));
    },
  }),
  defineRoute<JsExecuteSubmissionRequest>({
    method: 'POST',
    path: '/v2/interactive-submission/execute',
    operationId: 'postV2Interactive-submissionExecute',
    group: 'B',
    body: 'json',
    access: ({ body }) => executeAccess(body),
    handle: async ({ body, principal, services }) => {
      const { interactiveSubmissionOf } = await interactive();
      return jsonResult(await services.ledger.inEngineSlices(() => interactiveSubmissionOf(services.ledger).execute(withCaller(body, principal))));
    },
  }),
  defineRoute<JsExecuteSubmissionRequest>({
    method: 'POST',
    path: '/v2/interactive-submission/executeAndWait',
    operationId: 'postV2Interactive-submissionExecuteandwait',
    group: 'B',
    body: 'json',
    access: ({ body }) => executeAccess(body),
    handle: async ({ body, principal, services }) => {
      const { interactiveSubmissionOf } = await interactive();
      return jsonResult(await services.ledger.inEngineSlices(() => interactiveSubmissionOf(services.ledger).executeAndWait(withCaller(body, principal))));
    },
  }),
  defineRoute<JsExecuteSubmissionAndWaitForTransactionRequest>({
    method: 'POST',
    path: '/v2/interactive-submission/executeAndWaitForTransaction',
    operationId: 'postV2Interactive-submissionExecuteandwaitfortransaction',
    group: 'B',
    body: 'json',
    // Plus reading as the parties the answer's format names.
    access: async ({ body }) => {
      const readers = readersOf(body.transactionFormat?.eventFormat);
      return { ...(await executeAccess(body)), ...readers };
    },
    handle: async ({ body, principal, services }) => {
      const { interactiveSubmissionOf } = await interactive();
      return jsonResult(await services.ledger.inEngineSlices(() => interactiveSubmissionOf(services.ledger).executeAndWaitForTransaction(withCaller(body, principal))));
    },
  }),
];
