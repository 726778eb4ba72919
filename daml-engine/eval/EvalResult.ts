/** What an evaluation returns: a value, or why there is none (as data, never a thrown error). */
import type { QualifiedName } from '../ast/Type.js';
import type { InterpretationTrace } from '../update/InterpretationTrace.js';
import type { LedgerFailure } from '../update/LedgerFailure.js';
import type { AnyExceptionValue, FailureCategory, Value } from '../value/Value.js';

/** The definition whose code was running: package, module and definition name. */
export type Definition = QualifiedName;

export type EvalError = EvalFailure & {
  /** Where the update engine was when it failed (set by `UpdateEngine.submit`, absent for a plain evaluation). */
  readonly trace?: InterpretationTrace;
};

type EvalFailure =
  /** A Daml exception nobody caught (`throw`, or an ArithmeticError from a builtin). */
  | { readonly kind: 'unhandledException'; readonly exception: AnyExceptionValue; readonly definition: Definition | undefined }
  /** `ERROR` (Daml's `error`): not catchable. */
  | { readonly kind: 'userError'; readonly message: string; readonly definition: Definition | undefined }
  | {
      readonly kind: 'failWithStatus'; readonly errorId: string; readonly category: FailureCategory;
      readonly message: string; readonly meta: readonly (readonly [string, string])[]; readonly definition: Definition | undefined;
    }
  /** The step budget ran out: a loop, or more work than the caller allowed. */
  | { readonly kind: 'budgetExceeded'; readonly steps: number; readonly definition: Definition | undefined; readonly message: string }
  /** The allocation budget ran out: the run built (or was about to build) more than the caller allowed. */
  | { readonly kind: 'allocationExceeded'; readonly allocated: number; readonly budget: number; readonly definition: Definition | undefined; readonly message: string }
  /** A value the run produced (a result, or one a transaction node carries) is nested deeper than Daml allows (100). */
  | { readonly kind: 'valueNesting'; readonly limit: number; readonly where: string; readonly definition: Definition | undefined; readonly message: string }
  /** The result or the transaction is larger than the caller allows. */
  | { readonly kind: 'sizeExceeded'; readonly bytes: number; readonly limit: number; readonly where: string; readonly definition: Definition | undefined; readonly message: string }
  /** A package, module or definition the code refers to is not available from the caller. */
  | {
      readonly kind: 'missingDefinition'; readonly message: string; readonly definition: Definition | undefined;
      /** When a whole package is missing: its id, and what was being looked up (`template pkg:M:T`, Daml's Reference). */
      readonly missingPackage?: { readonly packageId: string; readonly reference: string };
    }
  /** An update broke a rule of the ledger model (authorization, an inactive contract, a precondition). */
  | { readonly kind: 'ledger'; readonly failure: LedgerFailure; readonly message: string; readonly definition: Definition | undefined }
  /** Ill-typed code or a value of the wrong type: a bug in a package or in the engine. */
  | { readonly kind: 'crash'; readonly message: string; readonly definition: Definition | undefined };

export type EvalResult =
  | { readonly ok: true; readonly value: Value; readonly steps: number }
  | { readonly ok: false; readonly error: EvalError; readonly steps: number };

/** `Module:name` of a definition, with its package id, for messages. */
export function describeDefinition(d: Definition | undefined): string {
  return d ? `${d.module}:${d.name} (package ${d.packageId})` : 'an expression outside any definition';
}
