import { appsOf } from '../../../apps/index.js';
import type { InstructionChoice } from '../../../apps/index.js';
import { jsonResult } from '../ledgerResult.js';
import { defineRoute, type Route } from '../route.js';

const contextRoute = (choice: InstructionChoice, operationId: string): Route =>
  defineRoute<unknown>({
    method: 'POST',
    path: `/registry/allocation-instruction/v2/{allocationInstructionId}/choice-contexts/${choice}`,
    operationId,
    group: 'A',
    body: 'json',
    handle: ({ params, body, services }) => jsonResult(appsOf(services.ledger).registry.choiceContext(choice, params['allocationInstructionId'] ?? '', body)),
  });

/** Group A: the sample registry's allocation-instruction choice contexts (token standard v2). */
export const registryRoutes: readonly Route[] = [
  contextRoute('accept', 'getAllocationInstructionAcceptContext'),
  contextRoute('withdraw', 'getAllocationInstructionWithdrawContext'),
];
