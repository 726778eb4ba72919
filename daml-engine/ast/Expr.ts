/**
 * Daml-LF 2 expressions and updates with interning resolved (daml_lf2.proto `Expr` / `Update`,
 * daml-lf-2.rst "Expressions"). One case per proto sum case.
 *
 * Immutable: the evaluator compiles them into its own nodes (eval/Node.ts) and keeps what it
 * resolves there.
 */
import type { BuiltinName } from '../builtins/Builtin.js';
import type { Value } from '../value/Value.js';
import type { Kind, QualifiedName, Type } from './Type.js';

/** A type constructor applied to its arguments (the proto's `Type.Con`). */
export interface TypeConApp {
  readonly tycon: QualifiedName;
  readonly args: readonly Type[];
}

export interface Binding {
  readonly name: string;
  readonly type: Type;
  readonly bound: Expr;
}

export interface FieldExpr {
  readonly field: string;
  readonly expr: Expr;
}

export type Expr =
  | { readonly kind: 'var'; readonly name: string }
  | { readonly kind: 'val'; readonly ref: QualifiedName }
  | { readonly kind: 'builtin'; readonly builtin: BuiltinName }
  /** `()`, `True`, `False` and literals: already values. */
  | { readonly kind: 'lit'; readonly value: Value }
  | { readonly kind: 'recCon'; readonly tycon: TypeConApp; readonly fields: readonly FieldExpr[] }
  | { readonly kind: 'recProj'; readonly tycon: TypeConApp; readonly field: string; readonly record: Expr }
  | { readonly kind: 'recUpd'; readonly tycon: TypeConApp; readonly field: string; readonly record: Expr; readonly update: Expr }
  | { readonly kind: 'variantCon'; readonly tycon: TypeConApp; readonly constructor: string; readonly arg: Expr }
  | { readonly kind: 'enumCon'; readonly tycon: QualifiedName; readonly constructor: string }
  | { readonly kind: 'structCon'; readonly fields: readonly FieldExpr[] }
  | { readonly kind: 'structProj'; readonly field: string; readonly struct: Expr }
  | { readonly kind: 'structUpd'; readonly field: string; readonly struct: Expr; readonly update: Expr }
  | { readonly kind: 'app'; readonly fun: Expr; readonly args: readonly Expr[] }
  | { readonly kind: 'tyApp'; readonly expr: Expr; readonly types: readonly Type[] }
  | { readonly kind: 'abs'; readonly params: readonly { readonly name: string; readonly type: Type }[]; readonly body: Expr }
  | { readonly kind: 'tyAbs'; readonly params: readonly { readonly name: string; readonly kind: Kind }[]; readonly body: Expr }
  | { readonly kind: 'case'; readonly scrut: Expr; readonly alts: readonly CaseAlt[] }
  | { readonly kind: 'let'; readonly bindings: readonly Binding[]; readonly body: Expr }
  | { readonly kind: 'nil'; readonly type: Type }
  | { readonly kind: 'cons'; readonly type: Type; readonly front: readonly Expr[]; readonly tail: Expr }
  | { readonly kind: 'update'; readonly update: Update }
  | { readonly kind: 'optionalNone'; readonly type: Type }
  | { readonly kind: 'optionalSome'; readonly type: Type; readonly value: Expr }
  | { readonly kind: 'toAny'; readonly type: Type; readonly expr: Expr }
  | { readonly kind: 'fromAny'; readonly type: Type; readonly expr: Expr }
  | { readonly kind: 'typeRep'; readonly type: Type }
  | { readonly kind: 'toAnyException'; readonly type: Type; readonly expr: Expr }
  | { readonly kind: 'fromAnyException'; readonly type: Type; readonly expr: Expr }
  | { readonly kind: 'throw'; readonly returnType: Type; readonly exceptionType: Type; readonly expr: Expr }
  | { readonly kind: 'toInterface'; readonly iface: QualifiedName; readonly template: QualifiedName; readonly expr: Expr }
  | { readonly kind: 'fromInterface'; readonly iface: QualifiedName; readonly template: QualifiedName; readonly expr: Expr }
  | { readonly kind: 'callInterface'; readonly iface: QualifiedName; readonly method: string; readonly expr: Expr }
  | { readonly kind: 'signatoryInterface'; readonly iface: QualifiedName; readonly expr: Expr }
  | { readonly kind: 'observerInterface'; readonly iface: QualifiedName; readonly expr: Expr }
  | { readonly kind: 'viewInterface'; readonly iface: QualifiedName; readonly expr: Expr }
  | { readonly kind: 'unsafeFromInterface'; readonly iface: QualifiedName; readonly template: QualifiedName; readonly cid: Expr; readonly expr: Expr }
  | { readonly kind: 'interfaceTemplateTypeRep'; readonly iface: QualifiedName; readonly expr: Expr }
  | { readonly kind: 'toRequiredInterface'; readonly required: QualifiedName; readonly requiring: QualifiedName; readonly expr: Expr }
  | { readonly kind: 'fromRequiredInterface'; readonly required: QualifiedName; readonly requiring: QualifiedName; readonly expr: Expr }
  | { readonly kind: 'unsafeFromRequiredInterface'; readonly required: QualifiedName; readonly requiring: QualifiedName; readonly cid: Expr; readonly expr: Expr }
  | { readonly kind: 'choiceController'; readonly template: QualifiedName; readonly choice: string; readonly contract: Expr; readonly arg: Expr }
  | { readonly kind: 'choiceObserver'; readonly template: QualifiedName; readonly choice: string; readonly contract: Expr; readonly arg: Expr }
  | { readonly kind: 'experimental'; readonly name: string; readonly type: Type };

export type ExprKind = Expr['kind'];

export type CaseAlt =
  | { readonly kind: 'default'; readonly body: Expr }
  | { readonly kind: 'variant'; readonly tycon: QualifiedName; readonly constructor: string; readonly binder: string; readonly body: Expr }
  | { readonly kind: 'enum'; readonly tycon: QualifiedName; readonly constructor: string; readonly body: Expr }
  /** `()`, `True` or `False`. */
  | { readonly kind: 'builtinCon'; readonly con: 'unit' | 'false' | 'true'; readonly body: Expr }
  | { readonly kind: 'nil'; readonly body: Expr }
  | { readonly kind: 'cons'; readonly head: string; readonly tail: string; readonly body: Expr }
  | { readonly kind: 'optionalNone'; readonly body: Expr }
  | { readonly kind: 'optionalSome'; readonly binder: string; readonly body: Expr };

export type Update =
  | { readonly kind: 'pure'; readonly type: Type; readonly expr: Expr }
  | { readonly kind: 'block'; readonly bindings: readonly Binding[]; readonly body: Expr }
  | { readonly kind: 'create'; readonly template: QualifiedName; readonly expr: Expr }
  | { readonly kind: 'createInterface'; readonly iface: QualifiedName; readonly expr: Expr }
  | { readonly kind: 'exercise'; readonly template: QualifiedName; readonly choice: string; readonly cid: Expr; readonly arg: Expr }
  | { readonly kind: 'exerciseInterface'; readonly iface: QualifiedName; readonly choice: string; readonly cid: Expr; readonly arg: Expr; readonly guard: Expr | undefined }
  | { readonly kind: 'exerciseByKey'; readonly template: QualifiedName; readonly choice: string; readonly key: Expr; readonly arg: Expr }
  | { readonly kind: 'fetch'; readonly template: QualifiedName; readonly cid: Expr }
  | { readonly kind: 'fetchInterface'; readonly iface: QualifiedName; readonly cid: Expr }
  | { readonly kind: 'getTime' }
  | { readonly kind: 'lookupByKey'; readonly template: QualifiedName }
  | { readonly kind: 'fetchByKey'; readonly template: QualifiedName }
  | { readonly kind: 'queryNByKey'; readonly template: QualifiedName }
  | { readonly kind: 'embedExpr'; readonly type: Type; readonly expr: Expr }
  | { readonly kind: 'tryCatch'; readonly returnType: Type; readonly tryExpr: Expr; readonly binder: string; readonly catchExpr: Expr }
  | { readonly kind: 'ledgerTimeLt'; readonly expr: Expr };
