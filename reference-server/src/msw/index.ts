/**
 * `canton-conformance/msw`: stateful msw handlers over the reference server's ledger core, for
 * client teams' unit tests.
 */
export { createHandlers, DEFAULT_LEDGER_URL } from './createHandlers.js';
export type { CreateHandlersOptions, MockLedgerApi } from './createHandlers.js';
export type { CantonVersion } from '../http/api/cantonVersion.js';
export type { CreatedContract, NewContract, NewPreapproval, NewUser } from './ledgerSetup.js';
export type { AppWorld } from '../apps/world/seedAppWorld.js';
export { sandboxToken } from './sandboxToken.js';
export { LOCALNET_PORTS, localNetUrls, portsFrom, type LocalNetPorts } from '../localnet/localNetConfig.js';
export type { AppliedFixtures, FixtureFile } from '../ledger/fixtures/index.js';
export type { Ledger } from '../ledger/index.js';
