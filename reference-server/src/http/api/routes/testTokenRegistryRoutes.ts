import { testTokenRegistryOf, type TestTokenApi } from '../../../apps/splice/testTokens/TestTokenRegistry.js';
import { jsonResult } from '../ledgerResult.js';
import { defineRoute, type Route } from '../route.js';

/**
 * Group A: the registries of Splice's test tokens (splice-test-token-v1 and -v2, when their DARs
 * are loaded), one per instrument admin under `/registries/{registry}` (the admin's party id, or
 * its hint), each with the token standard's registry paths below it. Same operation ids as
 * Amulet's registry at the root: the same request documents validate their bodies.
 */
export const TEST_TOKEN_REGISTRY_PREFIX = '/registries/{registry}';

const at = (path: string) => `${TEST_TOKEN_REGISTRY_PREFIX}${path}`;
const suffix = (v: TestTokenApi) => v.toUpperCase();
const capital = (s: string) => `${s[0]!.toUpperCase()}${s.slice(1)}`;

const perVersion = (v: TestTokenApi): Route[] => [
  defineRoute<unknown>({
    method: 'POST',
    path: at(`/registry/transfer-instruction/${v}/transfer-factory`),
    operationId: `getTransferFactory${suffix(v)}`,
    group: 'A',
    body: 'json',
    handle: ({ params, body, services }) => jsonResult(testTokenRegistryOf(services.ledger).transferFactory(params['registry'] ?? '', v, body)),
  }),
  ...(['accept', 'reject', 'withdraw'] as const).map((choice) =>
    defineRoute<unknown>({
      method: 'POST',
      path: at(`/registry/transfer-instruction/${v}/{transferInstructionId}/choice-contexts/${choice}`),
      operationId: `getTransferInstruction${capital(choice)}Context${suffix(v)}`,
      group: 'A',
      body: 'json',
      handle: ({ params, body, services }) => jsonResult(testTokenRegistryOf(services.ledger).transferInstructionContext(params['registry'] ?? '', v, params['transferInstructionId'] ?? '', body)),
    }),
  ),
  defineRoute<unknown>({
    method: 'POST',
    path: at(`/registry/allocation-instruction/${v}/allocation-factory`),
    operationId: `getAllocationFactory${suffix(v)}`,
    group: 'A',
    body: 'json',
    handle: ({ params, body, services }) => jsonResult(testTokenRegistryOf(services.ledger).allocationFactory(params['registry'] ?? '', v, body)),
  }),
  ...([
    ...(v === 'v1' ? [['execute-transfer', 'getAllocationTransferContext'] as const] : []),
    ['withdraw', 'getAllocationWithdrawContext'] as const,
    ['cancel', 'getAllocationCancelContext'] as const,
  ]).map(([choice, operationId]) =>
    defineRoute<unknown>({
      method: 'POST',
      path: at(`/registry/allocations/${v}/{allocationId}/choice-contexts/${choice}`),
      operationId: `${operationId}${suffix(v)}`,
      group: 'A',
      body: 'json',
      handle: ({ params, body, services }) => jsonResult(testTokenRegistryOf(services.ledger).allocationContext(params['registry'] ?? '', v, params['allocationId'] ?? '', body)),
    }),
  ),
];

export const testTokenRegistryRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: at('/registry/metadata/v1/info'),
    operationId: 'getRegistryInfo',
    group: 'A',
    body: 'none',
    handle: ({ params, services }) => jsonResult(testTokenRegistryOf(services.ledger).info(params['registry'] ?? '')),
  }),
  defineRoute({
    method: 'GET',
    path: at('/registry/metadata/v1/instruments'),
    operationId: 'listInstruments',
    group: 'A',
    body: 'none',
    handle: ({ params, query, services }) => jsonResult(testTokenRegistryOf(services.ledger).listInstruments(params['registry'] ?? '', query)),
  }),
  defineRoute({
    method: 'GET',
    path: at('/registry/metadata/v1/instruments/{instrumentId}'),
    operationId: 'getInstrument',
    group: 'A',
    body: 'none',
    handle: ({ params, services }) => jsonResult(testTokenRegistryOf(services.ledger).instrument(params['registry'] ?? '', params['instrumentId'] ?? '')),
  }),
  ...perVersion('v1'),
  ...perVersion('v2'),
  defineRoute<unknown>({
    method: 'POST',
    path: at('/registry/allocation/v2/settlement-factory'),
    operationId: 'getSettlementFactoryV2',
    group: 'A',
    body: 'json',
    handle: ({ params, body, services }) => jsonResult(testTokenRegistryOf(services.ledger).settlementFactory(params['registry'] ?? '', body)),
  }),
];
