/**
 * Public API of the ledger core. The HTTP face, the msw adapter and the registry/Scan apps import
 * from here only.
 */
export { Ledger, createLedger } from './Ledger.js';
export type { Claim, Committed, CreateLedgerOptions, ReassignOptions, SubscribeOptions } from './Ledger.js';
export type { PreparedTransaction } from './interpret.js';
export { submissionClaims } from './userService.js';
export type { UserCaller } from './userService.js';
export type { LedgerConfig, LedgerOptions, SynchronizerConfig } from './config.js';
export { resolveConfig, defaultFeatures } from './config.js';
export type { Clock, SteppingClock } from './clock.js';
export { canStep, ManualClock, systemClock, toTimestamp } from './clock.js';
export type { StreamTimers } from './streamTimers.js';
export { ManualTimers, systemTimers } from './streamTimers.js';
export { isValidPartyId, isValidPartyHint, localPartyId, fingerprintOf } from './parties.js';
export { isValidUserId, PARTICIPANT_ADMIN_USER } from './users.js';
export { BUILT_IN_PACKAGE_VERSION, Catalogue, packageIdOf, parseIdentifier } from './templates/Catalogue.js';
export type { ChoiceDef, InterfaceDef, TemplateDef, IdentifierDef } from './templates/Catalogue.js';
export { SAMPLE_PACKAGE, ASSET_TEMPLATE, ACCOUNT_TEMPLATE, HOLDING_INTERFACE } from './templates/sampleTemplates.js';
export type {
  ChoiceBody,
  ChoiceContext,
  ChoiceSpec,
  ContractView,
  FieldType,
  InterfaceSpec,
  KeySpec,
  RecordType,
  TemplateSpec,
} from './templates/types.js';
export type { Result } from './result.js';
export { ok, err } from './result.js';
export type { LedgerError, ErrorCodeId, GrpcCodeName } from './errors.js';
export { ErrorCodes, ErrorCategory, GrpcCode, fail, ledgerError } from './errors.js';
export type * from './wire.js';
export { loadFixtures, parseFixtures, applyFixtures, loadWorld, defaultWorldPath, fixtureSchemaPath, formatFixtureError } from './fixtures/index.js';
export type { AppliedFixtures, FixtureError, FixtureFile } from './fixtures/index.js';
export type { LedgerStore, ActiveScope } from '../store/index.js';
export { MemoryStore } from '../store/index.js';
