/**
 * Why an update breaks the ledger model (transaction.rst "Authorization", "Consistency";
 * daml-lf-2.rst "Update interpretation"). Names follow the Daml engine's interpretation errors
 * (`TemplatePreconditionViolated`, `ContractNotActive`, `FailedAuthorization.*`, ...).
 */
import type { QualifiedName } from '../ast/Type.js';
import type { Value } from '../value/Value.js';

export type LedgerFailure =
  /** The template's `ensure` evaluated to False. */
  | { readonly kind: 'templatePreconditionViolated'; readonly templateId: QualifiedName; readonly argument: Value }
  /** A contract must have at least one signatory. */
  | { readonly kind: 'noSignatories'; readonly templateId: QualifiedName; readonly nodeId: number }
  /** A choice must have at least one controller. */
  | { readonly kind: 'noControllers'; readonly templateId: QualifiedName; readonly choice: string; readonly nodeId: number }
  /** Signatories of a create that are not among the authorizers. */
  | { readonly kind: 'createMissingAuthorization'; readonly templateId: QualifiedName; readonly authorizers: readonly string[]; readonly requiredAuthorizers: readonly string[]; readonly nodeId: number; readonly atRoot: boolean }
  /** Controllers of an exercise that are not among the authorizers. */
  | { readonly kind: 'exerciseMissingAuthorization'; readonly templateId: QualifiedName; readonly choice: string; readonly authorizers: readonly string[]; readonly requiredAuthorizers: readonly string[]; readonly nodeId: number; readonly atRoot: boolean }
  /** A fetch with no stakeholder of the contract among the authorizers. */
  | { readonly kind: 'fetchMissingAuthorization'; readonly templateId: QualifiedName; readonly authorizers: readonly string[]; readonly stakeholders: readonly string[]; readonly nodeId: number; readonly atRoot: boolean }
  /**
   * The contract is not active: consumed by an exercise of this transaction (`consumedBy`, its
   * node id in allocation order), or created by it in a part that was rolled back (no `consumedBy`).
   */
  | { readonly kind: 'contractNotActive'; readonly contractId: string; readonly templateId: QualifiedName; readonly consumedBy?: number }
  /** Neither this transaction nor the caller knows the contract. */
  | { readonly kind: 'contractNotFound'; readonly contractId: string }
  /** The contract is of another template than the update names. */
  | { readonly kind: 'wronglyTypedContract'; readonly contractId: string; readonly expected: QualifiedName; readonly actual: QualifiedName }
  /**
   * Smart contract upgrades: the contract read by another version of its template gives other
   * signatories or stakeholders (sorted sets) than it was created with (Daml's Upgrade.ValidationFailed);
   * `observers` are the recomputed ones.
   */
  | { readonly kind: 'upgradeValidationFailed'; readonly contractId: string; readonly from: QualifiedName; readonly to: QualifiedName; readonly signatories: readonly string[]; readonly observers: readonly string[] }
  /** A downgrade would drop a field holding Some (Daml's Upgrade.DowngradeDropDefinedField). */
  | { readonly kind: 'downgradeDropDefinedField'; readonly contractId: string; readonly type: QualifiedName; readonly fieldIndex: number }
  /** The contract's value has no counterpart in the version reading it (Daml's Upgrade.DowngradeFailed). */
  | { readonly kind: 'downgradeFailed'; readonly contractId: string; readonly to: QualifiedName; readonly detail: string }
  /** The contract's template does not implement the interface the update names. */
  | { readonly kind: 'contractDoesNotImplementInterface'; readonly contractId: string; readonly interfaceId: QualifiedName; readonly templateId: QualifiedName }
  /** The guard of an `exercise_interface` returned False. */
  | { readonly kind: 'interfaceGuardFailed'; readonly contractId: string; readonly interfaceId: QualifiedName; readonly templateId: QualifiedName; readonly choice: string }
  /** An update form the engine does not run (contract keys, absent from LF 2.1). */
  | { readonly kind: 'unsupported'; readonly what: string };
