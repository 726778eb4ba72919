import type { LedgerError } from '../errors.js';
import type { Result } from '../result.js';
import type { DamlRecord, DamlValue } from '../wire.js';

/**
 * The Daml-LF types a template field may have. Primitives are strings; compound types are
 * single-key objects so that fixture files can write them in plain JSON.
 */
export type FieldType =
  | 'Party'
  | 'Text'
  | 'Int64'
  | 'Numeric'
  | 'Bool'
  | 'Time'
  | 'Date'
  | 'ContractId'
  | 'Unit'
  /** Any JSON value, unchecked: for payloads a template does not care to describe. */
  | 'Any'
  | { readonly list: FieldType }
  | { readonly optional: FieldType }
  | { readonly textMap: FieldType }
  | { readonly record: RecordType }
  | { readonly variant: Readonly<Record<string, FieldType>> }
  | { readonly enum: readonly string[] };

export type RecordType = Readonly<Record<string, FieldType>>;

/** What a choice body, a controller function or an interface view sees of a contract. */
export interface ContractView {
  readonly contractId: string;
  readonly templateId: string;
  readonly packageName: string;
  readonly argument: DamlRecord;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
  readonly createdAt: number;
  readonly synchronizerId: string;
}

/** Operations a TypeScript choice body may perform; each is checked like a command would be. */
export interface ChoiceContext {
  /**
   * Ledger time of the transaction, ms. Reading it is Daml's `getTime`: the transaction then
   * depends on its ledger time, and interactive submission pins it (read it only where the choice does).
   */
  readonly now: number;
  /** Parties authorizing actions inside this choice: the controllers plus the signatories. */
  readonly authorizers: readonly string[];
  create(templateId: string, argument: DamlRecord): Result<string, LedgerError>;
  /**
   * Exercises `choice` on a contract; with `interfaceId` (either id form) the choice is the
   * interface's, as Daml's `exercise` on an interface contract id dispatches it.
   */
  exercise(contractId: string, choice: string, argument: DamlValue, interfaceId?: string): Result<DamlValue, LedgerError>;
  fetch(contractId: string): Result<ContractView, LedgerError>;
  archive(contractId: string): Result<void, LedgerError>;
  /** A user-level failure (Daml `abort`/`assert`), answered as DAML_FAILURE. */
  fail(message: string): LedgerError;
}

export type ChoiceBody = (ctx: ChoiceContext, self: ContractView, argument: DamlValue) => Result<DamlValue, LedgerError>;

export interface ChoiceSpec {
  readonly consuming: boolean;
  /** Type of the choice argument; default: a record with no fields. */
  readonly argument?: FieldType;
  /** Parties that must authorize the exercise. */
  readonly controllers: (self: ContractView, argument: DamlValue) => readonly string[];
  /** Parties informed of the exercise besides stakeholders and actors. */
  readonly observers?: (self: ContractView, argument: DamlValue) => readonly string[];
  /** Effects; default: none, returning Unit (`{}`). */
  readonly body?: ChoiceBody;
}

export interface KeySpec {
  readonly type: FieldType;
  readonly of: (argument: DamlRecord) => DamlValue;
  readonly maintainers: (key: DamlValue) => readonly string[];
}

export interface TemplateSpec {
  readonly packageName: string;
  /** Default: derived from package name and version. */
  readonly packageId?: string;
  readonly packageVersion?: string;
  readonly module: string;
  readonly entity: string;
  readonly fields: RecordType;
  /** Names of fields holding a party or a list of parties, or a function of the argument. */
  readonly signatories: readonly string[] | ((argument: DamlRecord) => readonly string[]);
  readonly observers?: readonly string[] | ((argument: DamlRecord) => readonly string[]);
  readonly key?: KeySpec;
  /** Precondition (Daml `ensure`): a message when the argument is refused. */
  readonly ensure?: (argument: DamlRecord) => string | undefined;
  /** `Archive` is added to every template; do not declare it. */
  readonly choices?: Readonly<Record<string, ChoiceSpec>>;
  /** Interfaces implemented, by interface id (`#pkg:Mod:Entity` or `pkgId:Mod:Entity`), with the view. */
  readonly implements?: Readonly<Record<string, { readonly view: (self: ContractView) => DamlValue }>>;
}

export interface InterfaceSpec {
  readonly packageName: string;
  readonly packageId?: string;
  readonly packageVersion?: string;
  readonly module: string;
  readonly entity: string;
  /** Interface choices; bodies receive the implementing contract. */
  readonly choices?: Readonly<Record<string, ChoiceSpec>>;
}
