import { appsOf } from '../../../apps/index.js';
import type { AllocationChoiceName, InstructionChoice, InstructionChoiceName } from '../../../apps/index.js';
import type { LedgerError, Result } from '../../../ledger/index.js';
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
const sampleRegistryRoutes: readonly Route[] = [
  contextRoute('accept', 'getAllocationInstructionAcceptContext'),
  contextRoute('withdraw', 'getAllocationInstructionWithdrawContext'),
];

type Version = 'v1' | 'v2';
const suffix = (v: Version) => v.toUpperCase();
type Amulet = ReturnType<typeof appsOf>['amulet'];

/** Amulet's answer on a `v` path; on a v2 path, the 400 of an Amulet that implements only v1 first. */
const amuletResult = <T>(v: Version, amulet: Amulet, answer: () => Result<T, LedgerError>) => jsonResult<T>((v === 'v2' ? amulet.v2.unserved() : undefined) ?? answer());

const transferInstructionRoutes = (v: Version): Route[] => [
  defineRoute<unknown>({
    method: 'POST',
    path: `/registry/transfer-instruction/${v}/transfer-factory`,
    operationId: `getTransferFactory${suffix(v)}`,
    group: 'A',
    body: 'json',
    handle: ({ body, services }) => {
      const amulet = appsOf(services.ledger).amulet;
      return amuletResult(v, amulet, () => (v === 'v1' ? amulet.transferFactory(body) : amulet.v2.transferFactory(body)));
    },
  }),
  ...(['accept', 'reject', 'withdraw'] as const satisfies readonly InstructionChoiceName[]).map((choice) =>
    defineRoute<unknown>({
      method: 'POST',
      path: `/registry/transfer-instruction/${v}/{transferInstructionId}/choice-contexts/${choice}`,
      operationId: `getTransferInstruction${choice[0]!.toUpperCase()}${choice.slice(1)}Context${suffix(v)}`,
      group: 'A',
      body: 'json',
      handle: ({ params, body, services }) => {
        const amulet = appsOf(services.ledger).amulet;
        return amuletResult(v, amulet, () => amulet.transferInstructionContext(choice, params['transferInstructionId'] ?? '', body));
      },
    }),
  ),
];

const allocationContextRoute = (v: Version, choice: AllocationChoiceName, operationId: string): Route =>
  defineRoute<unknown>({
    method: 'POST',
    path: `/registry/allocations/${v}/{allocationId}/choice-contexts/${choice}`,
    operationId: `${operationId}${suffix(v)}`,
    group: 'A',
    body: 'json',
    handle: ({ params, body, services }) => {
      const amulet = appsOf(services.ledger).amulet;
      return amuletResult(v, amulet, () => amulet.allocationContext(choice, params['allocationId'] ?? '', body, v));
    },
  });

const allocationFactoryRoute = (v: Version): Route =>
  defineRoute<unknown>({
    method: 'POST',
    path: `/registry/allocation-instruction/${v}/allocation-factory`,
    operationId: `getAllocationFactory${suffix(v)}`,
    group: 'A',
    body: 'json',
    handle: ({ body, services }) => {
      const amulet = appsOf(services.ledger).amulet;
      return amuletResult(v, amulet, () => (v === 'v1' ? amulet.allocationFactory(body) : amulet.v2.allocationFactory(body)));
    },
  });

/** Group A: Amulet's registry (metadata v1, transfer instructions, allocations; v1 and v2 paths). */
const amuletRegistryRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/registry/metadata/v1/info',
    operationId: 'getRegistryInfo',
    group: 'A',
    body: 'none',
    handle: ({ services }) => jsonResult(appsOf(services.ledger).amulet.info()),
  }),
  defineRoute({
    method: 'GET',
    path: '/registry/metadata/v1/instruments',
    operationId: 'listInstruments',
    group: 'A',
    body: 'none',
    handle: ({ query, services }) => jsonResult(appsOf(services.ledger).amulet.listInstruments(query)),
  }),
  defineRoute({
    method: 'GET',
    path: '/registry/metadata/v1/instruments/{instrumentId}',
    operationId: 'getInstrument',
    group: 'A',
    body: 'none',
    handle: ({ params, services }) => jsonResult(appsOf(services.ledger).amulet.instrument(params['instrumentId'] ?? '')),
  }),
  ...transferInstructionRoutes('v1'),
  ...transferInstructionRoutes('v2'),
  allocationFactoryRoute('v1'),
  allocationFactoryRoute('v2'),
  allocationContextRoute('v1', 'execute-transfer', 'getAllocationTransferContext'),
  allocationContextRoute('v1', 'withdraw', 'getAllocationWithdrawContext'),
  allocationContextRoute('v1', 'cancel', 'getAllocationCancelContext'),
  allocationContextRoute('v2', 'withdraw', 'getAllocationWithdrawContext'),
  allocationContextRoute('v2', 'cancel', 'getAllocationCancelContext'),
  defineRoute<unknown>({
    method: 'POST',
    path: '/registry/allocation/v2/settlement-factory',
    operationId: 'getSettlementFactoryV2',
    group: 'A',
    body: 'json',
    handle: ({ body, services }) => {
      const amulet = appsOf(services.ledger).amulet;
      return amuletResult('v2', amulet, () => amulet.v2.settlementFactory(body));
    },
  }),
];

export const registryRoutes: readonly Route[] = [...sampleRegistryRoutes, ...amuletRegistryRoutes];
