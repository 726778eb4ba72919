/**
 * Where an update was when it failed: the exercises it was running and the command it came from.
 * The Daml engine keeps the same (Speedy `transactionTrace`) and Canton prints it under an
 * unhandled exception and in a `failWithStatus` error's `exercise_trace` context.
 */
import type { QualifiedName } from '../ast/Type.js';

/** An exercise being run: its template (its interface when exercised through one). */
export interface TraceExercise {
  readonly templateId: QualifiedName;
  readonly choice: string;
  readonly contractId: string;
  /** The exercise's node id in the engine's allocation order. */
  readonly nodeId: number;
}

/** The command being interpreted, as the engine's trace names it. */
export type TraceCommand =
  | { readonly kind: 'create'; readonly templateId: QualifiedName }
  | { readonly kind: 'exercise'; readonly templateId: QualifiedName; readonly choice: string; readonly contractId: string }
  | { readonly kind: 'exerciseInterface'; readonly interfaceId: QualifiedName; readonly choice: string; readonly contractId: string }
  | { readonly kind: 'createAndExercise'; readonly templateId: QualifiedName; readonly choice: string };

export interface InterpretationTrace {
  /** Innermost first. */
  readonly exercises: readonly TraceExercise[];
  readonly command: TraceCommand | undefined;
}
