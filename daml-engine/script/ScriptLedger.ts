/**
 * What a Daml Script runner needs from a ledger, in engine values (never JSON). Every answer is
 * asynchronous (a participant answers over HTTP); the in-memory ledgers answer at once. The in-memory
 * implementation (`InMemoryScriptLedger`) runs commands on the update engine; the reference's
 * ledger core implements it too (`ledger/engine/CoreScriptLedger.ts`), so a script does what the
 * JSON API would see.
 *
 * Time is static: the ledger's clock moves only by `setTime` (daml-script `setTime` / `passTime`).
 */
import type { QualifiedName } from '../ast/Type.js';
import type { EvalError } from '../eval/EvalResult.js';
import type { RecordValue, Value } from '../value/Value.js';

/** One command of a submission (daml-script `Command`; contract keys are not part of LF 2.1). */
export type ScriptCommand =
  | { readonly kind: 'create'; readonly templateId: QualifiedName; readonly argument: RecordValue }
  /** `templateId` names a template, or an interface for an interface choice. */
  | { readonly kind: 'exercise'; readonly templateId: QualifiedName; readonly contractId: string; readonly choice: string; readonly argument: Value }
  | { readonly kind: 'createAndExercise'; readonly templateId: QualifiedName; readonly argument: RecordValue; readonly choice: string; readonly choiceArgument: Value };

/** What a command returned: a created contract id, or an exercise result. */
export type ScriptCommandResult =
  | { readonly kind: 'create'; readonly contractId: string }
  | { readonly kind: 'exercise'; readonly result: Value };

/** A contract the submitters may use without seeing it (explicit disclosure). */
export interface ScriptDisclosure {
  readonly templateId: QualifiedName;
  readonly contractId: string;
  /** The opaque blob `queryContractId_` returned for the contract. */
  readonly blob: string;
}

export interface ScriptSubmission {
  readonly actAs: readonly string[];
  readonly readAs: readonly string[];
  readonly disclosures: readonly ScriptDisclosure[];
  readonly commands: readonly ScriptCommand[];
}

/** A committed transaction's tree, in the order Canton numbers its nodes. */
export type ScriptTreeEvent =
  | { readonly kind: 'created'; readonly contractId: string; readonly templateId: QualifiedName; readonly argument: RecordValue }
  | {
      readonly kind: 'exercised'; readonly contractId: string; readonly templateId: QualifiedName;
      /** The interface of a choice exercised through an interface. */
      readonly interfaceId: QualifiedName | undefined;
      readonly choice: string; readonly argument: Value; readonly children: readonly ScriptTreeEvent[];
    };

/**
 * A participant's refusal that is no engine failure (an unknown party, an invalid disclosed
 * contract, a ledger time out of bounds): its Canton error code id and message.
 */
export interface ScriptLedgerRefusalError {
  readonly kind: 'refused';
  readonly code: string;
  readonly message: string;
}

export type ScriptSubmitResult =
  | { readonly ok: true; readonly results: readonly ScriptCommandResult[]; readonly tree: readonly ScriptTreeEvent[] }
  /** The engine's failure as data (a ledger-model failure, an unhandled exception, ...), or the participant's refusal. */
  | { readonly ok: false; readonly error: EvalError | ScriptLedgerRefusalError };

/**
 * Thrown by a ledger that refuses a question outright, as a participant's gRPC error ends a
 * daml-script run (setting static time backwards, a user the participant will not create): the
 * runner ends the script with the message, which names the Canton error.
 */
export class ScriptLedgerRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptLedgerRefusal';
  }
}

export interface ScriptActiveContract {
  readonly contractId: string;
  readonly templateId: QualifiedName;
  readonly argument: RecordValue;
}

export interface ScriptPartyDetails {
  readonly party: string;
  readonly isLocal: boolean;
  /** The display name it was allocated with (daml-script 3.2's `PartyDetails.displayName`). */
  readonly displayName?: string;
}

/** A user right by its daml-script constructor name (`CanActAs`, `CanReadAs`, `ParticipantAdmin`, ...). */
export interface ScriptUserRight {
  readonly right: string;
  readonly party?: string;
}

export interface ScriptUser {
  readonly userId: string;
  readonly primaryParty: string | undefined;
}

export type AllocateResult = { readonly ok: true; readonly party: string } | { readonly ok: false; readonly message: string };

export interface ScriptLedger {
  /**
   * Allocates a party from a (possibly empty) hint, as the participant's party management does.
   * `displayName` (daml-script 3.2) names the party where there is no hint on a ledger that
   * names parties itself (the IDE ledger's `name`, `name1`, ...); a participant keeps it only as
   * the party's display name.
   */
  allocateParty(hint: string, displayName?: string): Promise<AllocateResult>;
  listKnownParties(): Promise<readonly ScriptPartyDetails[]>;
  /** The static ledger time, microseconds since the epoch. */
  getTime(): Promise<bigint>;
  /** May reject with `ScriptLedgerRefusal` (a participant does not set time backwards). */
  setTime(micros: bigint): Promise<void>;
  submit(submission: ScriptSubmission): Promise<ScriptSubmitResult>;
  /** Active contracts of `templateId` a stakeholder among `parties` sees, in creation order. */
  query(parties: readonly string[], templateId: QualifiedName): Promise<readonly ScriptActiveContract[]>;
  /** One active contract a stakeholder among `parties` sees, with its disclosure blob. */
  queryContractId(parties: readonly string[], contractId: string): Promise<(ScriptActiveContract & { readonly blob: string }) | undefined>;
  /** False when the user exists already. User management may throw `ScriptLedgerRefusal` for any other refusal. */
  createUser(user: ScriptUser, rights: readonly ScriptUserRight[]): Promise<boolean>;
  getUser(userId: string): Promise<ScriptUser | undefined>;
  /** False when there is no such user. */
  deleteUser(userId: string): Promise<boolean>;
  /** Every user, by id. */
  listAllUsers(): Promise<readonly ScriptUser[]>;
  /** The rights newly granted; undefined when there is no such user. */
  grantUserRights(userId: string, rights: readonly ScriptUserRight[]): Promise<readonly ScriptUserRight[] | undefined>;
  /** The rights revoked (those the user had); undefined when there is no such user. */
  revokeUserRights(userId: string, rights: readonly ScriptUserRight[]): Promise<readonly ScriptUserRight[] | undefined>;
  listUserRights(userId: string): Promise<readonly ScriptUserRight[] | undefined>;
  /** Active contracts implementing `interfaceId` that `parties` see, with their views (undefined: the view failed). */
  queryInterface(parties: readonly string[], interfaceId: QualifiedName): Promise<readonly { readonly contractId: string; readonly view: Value | undefined }[]>;
}
