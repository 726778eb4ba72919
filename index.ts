// Public entry of the package ("."): the building blocks behind the CLI, for programmatic use.
// The msw face has its own entry, `canton-conformance/msw`.
export { main } from './conformance/src/cli/main.js';
export { ExitCode } from './conformance/src/cli/exitCodes.js';
// Node only: remembered package checks, for `createHandlers({ passedChecks })` in test files.
export { defaultPassedChecks, passedChecksIn } from './reference-server/src/ledger/packages/passedChecksIn.js';
