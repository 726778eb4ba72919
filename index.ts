// Public entry of the package ("."): the building blocks behind the CLI, for programmatic use.
// The msw face has its own entry, `canton-conformance/msw`.
export { main } from './conformance/src/cli/main.js';
export { ExitCode } from './conformance/src/cli/exitCodes.js';
// Node only: remembered package checks, for `createHandlers({ passedChecks })` in test files.
export { defaultPassedChecks, passedChecksIn } from './reference-server/src/ledger/packages/passedChecksIn.js';
// The reference server and its ledger core in code (README "Resource limits", "Start the reference server"):
// what `serve` starts, and the in-memory ledger behind it and behind the msw handlers.
export { startReferenceServer } from './reference-server/src/startReferenceServer.js';
export type { StartOptions, StartedServer } from './reference-server/src/startReferenceServer.js';
export { createLedger, Ledger } from './reference-server/src/ledger/index.js';
export type { CreateLedgerOptions, LedgerOptions } from './reference-server/src/ledger/index.js';
