/**
 * Expression and update constructors for building packages by hand: plain `ast/Expr.ts` values,
 * so a test can write any expression the decoder can represent (ill-typed ones included) and mix
 * these helpers with raw `Expr` objects freely.
 */
import type { BuiltinName } from '../builtins/Builtin.js';
import type { Binding, CaseAlt, Expr, TypeConApp, Update } from '../ast/Expr.js';
import type { QualifiedName, Type } from '../ast/Type.js';
import { parseNumericLiteral } from '../decode/decodePackage.js';
import { FALSE, TRUE, UNIT } from '../value/Value.js';
import { STAR } from './T.js';

/** A type constructor with no arguments, or one already applied. */
export type TyconLike = QualifiedName | TypeConApp;

const app = (tycon: TyconLike): TypeConApp => ('tycon' in tycon ? tycon : { tycon, args: [] });
const upd = (update: Update): Expr => ({ kind: 'update', update });
/** `[name, type, bound]`: one `let` or update-block binding. */
export type BindingSpec = readonly [name: string, type: Type, bound: Expr];
const binding = ([name, type, bound]: BindingSpec): Binding => ({ name, type, bound });

export const E = {
  var: (name: string): Expr => ({ kind: 'var', name }),
  /** A top-level value of this or another package. */
  val: (ref: QualifiedName): Expr => ({ kind: 'val', ref }),
  builtin: (builtin: BuiltinName): Expr => ({ kind: 'builtin', builtin }),
  /** A builtin function applied to its type arguments (if any) and arguments. */
  call: (builtin: BuiltinName, types: readonly Type[], ...args: Expr[]): Expr => {
    const fun: Expr = types.length > 0 ? { kind: 'tyApp', expr: { kind: 'builtin', builtin }, types } : { kind: 'builtin', builtin };
    return args.length > 0 ? { kind: 'app', fun, args } : fun;
  },
  app: (fun: Expr, ...args: Expr[]): Expr => ({ kind: 'app', fun, args }),
  tyApp: (expr: Expr, ...types: Type[]): Expr => ({ kind: 'tyApp', expr, types }),
  /** `\(x : t) (y : u) -> body`. */
  lam: (params: readonly (readonly [name: string, type: Type])[], body: Expr): Expr =>
    ({ kind: 'abs', params: params.map(([name, type]) => ({ name, type })), body }),
  tyLam: (params: readonly string[], body: Expr): Expr => ({ kind: 'tyAbs', params: params.map((name) => ({ name, kind: STAR })), body }),

  unit: { kind: 'lit', value: UNIT } as Expr,
  true: { kind: 'lit', value: TRUE } as Expr,
  false: { kind: 'lit', value: FALSE } as Expr,
  bool: (b: boolean): Expr => ({ kind: 'lit', value: b ? TRUE : FALSE }),
  int64: (n: bigint | number): Expr => ({ kind: 'lit', value: { kind: 'int64', value: BigInt(n) } }),
  text: (value: string): Expr => ({ kind: 'lit', value: { kind: 'text', value } }),
  /** A Numeric literal in its text form; the scale is the number of decimals (`'1.5000000000'`). */
  numeric: (textForm: string): Expr => ({ kind: 'lit', value: parseNumericLiteral(textForm) }),
  /** Days since 1970-01-01. */
  date: (days: number): Expr => ({ kind: 'lit', value: { kind: 'date', days } }),
  /** Microseconds since the epoch. */
  timestamp: (micros: bigint): Expr => ({ kind: 'lit', value: { kind: 'timestamp', micros } }),

  nil: (type: Type): Expr => ({ kind: 'nil', type }),
  /** A list literal; empty gives `Nil`. */
  list: (type: Type, items: readonly Expr[]): Expr =>
    (items.length === 0 ? { kind: 'nil', type } : { kind: 'cons', type, front: items, tail: { kind: 'nil', type } }),
  cons: (type: Type, front: readonly Expr[], tail: Expr): Expr => ({ kind: 'cons', type, front, tail }),
  none: (type: Type): Expr => ({ kind: 'optionalNone', type }),
  some: (type: Type, value: Expr): Expr => ({ kind: 'optionalSome', type, value }),

  /** A record value, fields in the definition's order. */
  record: (tycon: TyconLike, fields: Readonly<Record<string, Expr>>): Expr =>
    ({ kind: 'recCon', tycon: app(tycon), fields: Object.entries(fields).map(([field, expr]) => ({ field, expr })) }),
  field: (tycon: TyconLike, field: string, record: Expr): Expr => ({ kind: 'recProj', tycon: app(tycon), field, record }),
  setField: (tycon: TyconLike, field: string, record: Expr, update: Expr): Expr => ({ kind: 'recUpd', tycon: app(tycon), field, record, update }),
  variant: (tycon: TyconLike, constructor: string, arg: Expr): Expr => ({ kind: 'variantCon', tycon: app(tycon), constructor, arg }),
  enum: (tycon: QualifiedName, constructor: string): Expr => ({ kind: 'enumCon', tycon, constructor }),
  struct: (fields: Readonly<Record<string, Expr>>): Expr => ({ kind: 'structCon', fields: Object.entries(fields).map(([field, expr]) => ({ field, expr })) }),
  structField: (field: string, struct: Expr): Expr => ({ kind: 'structProj', field, struct }),

  let: (bindings: readonly BindingSpec[], body: Expr): Expr => ({ kind: 'let', bindings: bindings.map(binding), body }),
  case: (scrut: Expr, alts: readonly CaseAlt[]): Expr => ({ kind: 'case', scrut, alts }),
  /** `if c then a else b`, as the compiler writes it: a case on the builtin Bool constructors. */
  if: (cond: Expr, then: Expr, otherwise: Expr): Expr =>
    ({ kind: 'case', scrut: cond, alts: [{ kind: 'builtinCon', con: 'true', body: then }, { kind: 'builtinCon', con: 'false', body: otherwise }] }),
  /** `error @t "message"`. */
  error: (type: Type, message: string): Expr =>
    ({ kind: 'app', fun: { kind: 'tyApp', expr: { kind: 'builtin', builtin: 'ERROR' }, types: [type] }, args: [{ kind: 'lit', value: { kind: 'text', value: message } }] }),
  throw: (returnType: Type, exceptionType: Type, expr: Expr): Expr => ({ kind: 'throw', returnType, exceptionType, expr }),
  toAnyException: (type: Type, expr: Expr): Expr => ({ kind: 'toAnyException', type, expr }),
  fromAnyException: (type: Type, expr: Expr): Expr => ({ kind: 'fromAnyException', type, expr }),

  toInterface: (iface: QualifiedName, template: QualifiedName, expr: Expr): Expr => ({ kind: 'toInterface', iface, template, expr }),
  fromInterface: (iface: QualifiedName, template: QualifiedName, expr: Expr): Expr => ({ kind: 'fromInterface', iface, template, expr }),
  viewInterface: (iface: QualifiedName, expr: Expr): Expr => ({ kind: 'viewInterface', iface, expr }),
  callInterface: (iface: QualifiedName, method: string, expr: Expr): Expr => ({ kind: 'callInterface', iface, method, expr }),

  // ---- updates (each an `Update`-typed expression) ----
  pure: (type: Type, expr: Expr): Expr => upd({ kind: 'pure', type, expr }),
  /** `do x <- u1; y <- u2; body`: bindings bind the results of updates. */
  block: (bindings: readonly BindingSpec[], body: Expr): Expr => upd({ kind: 'block', bindings: bindings.map(binding), body }),
  create: (template: QualifiedName, arg: Expr): Expr => upd({ kind: 'create', template, expr: arg }),
  exercise: (template: QualifiedName, choice: string, cid: Expr, arg: Expr): Expr => upd({ kind: 'exercise', template, choice, cid, arg }),
  fetch: (template: QualifiedName, cid: Expr): Expr => upd({ kind: 'fetch', template, cid }),
  exerciseInterface: (iface: QualifiedName, choice: string, cid: Expr, arg: Expr): Expr =>
    upd({ kind: 'exerciseInterface', iface, choice, cid, arg, guard: undefined }),
  fetchInterface: (iface: QualifiedName, cid: Expr): Expr => upd({ kind: 'fetchInterface', iface, cid }),
  getTime: upd({ kind: 'getTime' }),
  /** An update computed by an expression (`Update t`). */
  embed: (type: Type, expr: Expr): Expr => upd({ kind: 'embedExpr', type, expr }),
  tryCatch: (returnType: Type, tryExpr: Expr, binder: string, catchExpr: Expr): Expr =>
    upd({ kind: 'tryCatch', returnType, tryExpr, binder, catchExpr }),
} as const;

/** Case alternatives. */
export const Alt = {
  default: (body: Expr): CaseAlt => ({ kind: 'default', body }),
  true: (body: Expr): CaseAlt => ({ kind: 'builtinCon', con: 'true', body }),
  false: (body: Expr): CaseAlt => ({ kind: 'builtinCon', con: 'false', body }),
  unit: (body: Expr): CaseAlt => ({ kind: 'builtinCon', con: 'unit', body }),
  nil: (body: Expr): CaseAlt => ({ kind: 'nil', body }),
  cons: (head: string, tail: string, body: Expr): CaseAlt => ({ kind: 'cons', head, tail, body }),
  none: (body: Expr): CaseAlt => ({ kind: 'optionalNone', body }),
  some: (binder: string, body: Expr): CaseAlt => ({ kind: 'optionalSome', binder, body }),
  variant: (tycon: QualifiedName, constructor: string, binder: string, body: Expr): CaseAlt => ({ kind: 'variant', tycon, constructor, binder, body }),
  enum: (tycon: QualifiedName, constructor: string, body: Expr): CaseAlt => ({ kind: 'enum', tycon, constructor, body }),
} as const;
