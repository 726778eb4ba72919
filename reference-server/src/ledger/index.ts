/**
 * Public API of the ledger core. The HTTP face, the msw adapter and the registry/Scan apps import
 * from here only.
 */
export { Ledger, createLedger } from './Ledger.js';
export type { Claim, SubscribeOptions } from './Ledger.js';
export type { LedgerConfig, LedgerOptions, SynchronizerConfig } from './config.js';
export { resolveConfig } from './config.js';
export type { Clock } from './clock.js';
export { ManualClock, systemClock, toTimestamp } from './clock.js';
export { Catalogue, packageIdOf, parseIdentifier } from './templates/Catalogue.js';
export type { ChoiceDef, InterfaceDef, TemplateDef, IdentifierDef } from './templates/Catalogue.js';
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
export { ErrorCodes, ErrorCategory, GrpcCode, fail, ledgerError, httpStatusOf } from './errors.js';
export type * from './wire.js';
