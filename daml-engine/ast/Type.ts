/**
 * Daml-LF 2 types, with interning resolved (daml_lf2.proto `Type`, daml-lf-2.rst "Types").
 *
 * Types are needed at run time for `to_any` / `from_any`, `type_rep` and the type-directed
 * conversions of values to and from the JSON API; the evaluator otherwise ignores them.
 */

/** A fully qualified name: package id, dotted module name, dotted definition name. */
export interface QualifiedName {
  readonly packageId: string;
  readonly module: string;
  readonly name: string;
}

/** Builtin type constructors, named as in daml_lf2.proto's `BuiltinType`. */
export type BuiltinTypeName =
  | 'UNIT' | 'BOOL' | 'INT64' | 'DATE' | 'TIMESTAMP' | 'NUMERIC' | 'PARTY' | 'TEXT'
  | 'CONTRACT_ID' | 'OPTIONAL' | 'LIST' | 'GENMAP' | 'ANY' | 'ANY_EXCEPTION' | 'TYPE_REP'
  | 'ARROW' | 'UPDATE' | 'FAILURE_CATEGORY' | 'TEXTMAP' | 'BIGNUMERIC' | 'ROUNDING_MODE';

export type Kind =
  | { readonly kind: 'star' }
  | { readonly kind: 'nat' }
  | { readonly kind: 'arrow'; readonly params: readonly Kind[]; readonly result: Kind };

export type Type =
  /** A type variable applied to arguments (usually none). */
  | { readonly kind: 'var'; readonly name: string; readonly args: readonly Type[] }
  /** A user-defined type constructor applied to arguments. */
  | { readonly kind: 'con'; readonly tycon: QualifiedName; readonly args: readonly Type[] }
  /** A type synonym, fully applied (expanded by whoever needs the underlying type). */
  | { readonly kind: 'syn'; readonly tysyn: QualifiedName; readonly args: readonly Type[] }
  | { readonly kind: 'builtin'; readonly builtin: BuiltinTypeName; readonly args: readonly Type[] }
  | { readonly kind: 'forall'; readonly vars: readonly { readonly name: string; readonly kind: Kind }[]; readonly body: Type }
  | { readonly kind: 'struct'; readonly fields: readonly { readonly name: string; readonly type: Type }[] }
  /** A type-level natural: the scale of a `Numeric`, 0..37. */
  | { readonly kind: 'nat'; readonly value: number }
  /** `lhs rhs`: application of a type to one more argument. */
  | { readonly kind: 'app'; readonly lhs: Type; readonly rhs: Type };

/**
 * A type as its head and all the arguments it is applied to, whether the head carries them
 * (`con T [a]`) or `app` nodes do (`app(con T, a)`): the two spellings of one type agree.
 */
export function spineOf(t: Type): { readonly head: Type; readonly args: readonly Type[] } {
  const applied: Type[] = [];
  let head = t;
  while (head.kind === 'app') { applied.push(head.rhs); head = head.lhs; }
  applied.reverse();
  const own = head.kind === 'var' || head.kind === 'con' || head.kind === 'syn' || head.kind === 'builtin' ? head.args : [];
  return { head, args: own.length === 0 ? applied : applied.length === 0 ? own : [...own, ...applied] };
}
