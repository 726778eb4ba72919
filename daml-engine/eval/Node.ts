/**
 * The evaluator's compile stage (Speedy's idea, daml-lf/speedy): between decode and evaluation,
 * every `Expr` the evaluator meets becomes one `Node`, a single class with a numeric opcode and
 * the same fields for every kind, so the machine's dispatch is a jump on a small integer and
 * every field read sees one object shape (the `Expr` union has one shape per kind, which makes
 * V8's property loads megamorphic).
 *
 * Compilation is lazy and never recursive: a node is compiled in place the first time the
 * machine looks at it (`compileNode`), its children being uncompiled nodes in turn, so a deep
 * expression costs no JS stack. Nodes are made per occurrence under a root (the evaluator keeps
 * one root per definition body and environment layout): the decoder shares interned expressions
 * between scopes, but a node sits in one scope, so a variable node can remember the depth of its
 * binder. A node is shared by every evaluator; what an evaluator resolves on it (a top-level
 * value, a builtin) is stored with that evaluator as owner.
 */
import type { CaseAlt, Expr } from '../ast/Expr.js';
import type { Value } from '../value/Value.js';
import { NIL, NONE } from '../value/Value.js';

/**
 * Opcodes. `Uncompiled` nodes are compiled on first sight. The evaluator's switches write these
 * values as literals with the name in a comment: under `isolatedModules` an enum stays an object whose
 * members are loaded at run time, and V8 turns only literal cases into a jump. Never renumber.
 */
export const enum Op {
  Uncompiled = 0,
  Var = 1,
  Val = 2,
  Builtin = 3,
  Lit = 4,
  RecCon = 5,
  RecProj = 6,
  RecUpd = 7,
  VariantCon = 8,
  EnumCon = 9,
  StructCon = 10,
  StructProj = 11,
  StructUpd = 12,
  App = 13,
  TyApp = 14,
  Abs = 15,
  TyAbs = 16,
  Case = 17,
  Let = 18,
  Nil = 19,
  Cons = 20,
  Update = 21,
  OptionalNone = 22,
  OptionalSome = 23,
  ToAny = 24,
  FromAny = 25,
  TypeRep = 26,
  ToAnyException = 27,
  FromAnyException = 28,
  Throw = 29,
  ToInterface = 30,
  FromInterface = 31,
  CallInterface = 32,
  SignatoryInterface = 33,
  ObserverInterface = 34,
  ViewInterface = 35,
  UnsafeFromInterface = 36,
  InterfaceTemplateTypeRep = 37,
  ToRequiredInterface = 38,
  FromRequiredInterface = 39,
  UnsafeFromRequiredInterface = 40,
  ChoiceController = 41,
  ChoiceObserver = 42,
  Experimental = 43,
}

/** Case alternative kinds (written as literals by the evaluator too: never renumber). */
export const enum AltKind {
  Default = 0,
  Variant = 1,
  Enum = 2,
  Unit = 3,
  True = 4,
  False = 5,
  Nil = 6,
  Cons = 7,
  None = 8,
  Some = 9,
}

/** A compiled case alternative: `con` the constructor, `x` / `y` its binders. */
export class Alt {
  constructor(
    readonly k: AltKind,
    readonly con: string,
    readonly x: string,
    readonly y: string,
    readonly body: Node,
  ) {}
}

/**
 * One expression node. Field use by opcode: `a` / `b` the first / second sub-expression,
 * `kids` the argument, item or binding expressions, `names` binder names (parameters, let
 * binders), `s` a variable, field or constructor name, `v` a value known at compile time or
 * cached (literals, enum constructors), `i` an index, rank or count (-1: not known yet), `x`
 * what the evaluator resolves later (definitions, builtins, record layouts) or the update.
 */
export class Node {
  op: Op = Op.Uncompiled;
  a: Node | null = null;
  b: Node | null = null;
  kids: Node[] | null = null;
  names: readonly string[] | null = null;
  s = '';
  v: Value | undefined = undefined;
  i = -1;
  x: unknown = undefined;
  alts: readonly Alt[] | null = null;
  constructor(readonly src: Expr) {}
}

/** A new, uncompiled node of `expr` (compiled when the machine first looks at it). */
export function nodeOf(expr: Expr): Node {
  return new Node(expr);
}

const kidsOf = (exprs: readonly Expr[]): Node[] => {
  const out = new Array<Node>(exprs.length);
  for (let i = 0; i < exprs.length; i++) out[i] = nodeOf(exprs[i]!);
  return out;
};

/** Fills `n` from its source expression; its children stay uncompiled until they are looked at. */
export function compileNode(n: Node): void {
  const e = n.src;
  switch (e.kind) {
    case 'var': n.s = e.name; n.op = Op.Var; return;
    case 'val': n.op = Op.Val; return;
    case 'builtin': n.op = Op.Builtin; return;
    case 'lit': n.v = e.value; n.op = Op.Lit; return;
    case 'recCon': n.op = Op.RecCon; return; // its fields are ordered by the definition, on first run
    case 'recProj': n.s = e.field; n.a = nodeOf(e.record); n.op = Op.RecProj; return;
    case 'recUpd': n.s = e.field; n.a = nodeOf(e.record); n.b = nodeOf(e.update); n.op = Op.RecUpd; return;
    case 'variantCon': n.s = e.constructor; n.a = nodeOf(e.arg); n.op = Op.VariantCon; return;
    case 'enumCon': n.s = e.constructor; n.op = Op.EnumCon; return;
    case 'structCon': {
      // Struct values keep their fields sorted by name (daml-lf-2.rst, ValExpStructCon); fields
      // evaluate in the expression's order, `x[i]` being the sorted position of field i.
      const names = e.fields.map((f) => f.field).sort();
      n.names = names;
      n.kids = kidsOf(e.fields.map((f) => f.expr));
      n.x = e.fields.map((f) => names.indexOf(f.field));
      n.op = Op.StructCon;
      return;
    }
    case 'structProj': n.s = e.field; n.a = nodeOf(e.struct); n.op = Op.StructProj; return;
    case 'structUpd': n.s = e.field; n.a = nodeOf(e.struct); n.b = nodeOf(e.update); n.op = Op.StructUpd; return;
    case 'app': n.a = nodeOf(e.fun); n.kids = kidsOf(e.args); n.op = Op.App; return;
    case 'tyApp': n.a = nodeOf(e.expr); n.i = e.types.length; n.op = Op.TyApp; return;
    case 'abs': n.names = e.params.map((p) => p.name); n.a = nodeOf(e.body); n.op = Op.Abs; return;
    case 'tyAbs': {
      // Only a `nat` parameter keeps the abstraction a value (ValExpTyAbsNat); others are erased.
      let pending = 0;
      for (let i = 0; i < e.params.length; i++) if (e.params[i]!.kind.kind === 'nat') pending = i + 1;
      n.i = pending;
      n.a = nodeOf(e.body);
      n.op = Op.TyAbs;
      return;
    }
    case 'case': n.a = nodeOf(e.scrut); n.alts = e.alts.map(compileAlt); n.op = Op.Case; return;
    case 'let':
      n.names = e.bindings.map((b) => b.name);
      n.kids = kidsOf(e.bindings.map((b) => b.bound));
      n.a = nodeOf(e.body);
      n.op = Op.Let;
      return;
    case 'nil': n.v = NIL; n.op = Op.Nil; return;
    case 'cons': n.kids = kidsOf([...e.front, e.tail]); n.op = Op.Cons; return;
    case 'update': n.x = e.update; n.op = Op.Update; return;
    case 'optionalNone': n.v = NONE; n.op = Op.OptionalNone; return;
    case 'optionalSome': n.a = nodeOf(e.value); n.op = Op.OptionalSome; return;
    case 'toAny': n.a = nodeOf(e.expr); n.op = Op.ToAny; return;
    case 'fromAny': n.a = nodeOf(e.expr); n.op = Op.FromAny; return;
    case 'typeRep': n.v = { kind: 'typeRep', type: e.type }; n.op = Op.TypeRep; return;
    case 'toAnyException': n.a = nodeOf(e.expr); n.op = Op.ToAnyException; return;
    case 'fromAnyException': n.a = nodeOf(e.expr); n.op = Op.FromAnyException; return;
    case 'throw': n.a = nodeOf(e.expr); n.op = Op.Throw; return;
    case 'toInterface': n.a = nodeOf(e.expr); n.op = Op.ToInterface; return;
    case 'fromInterface': n.a = nodeOf(e.expr); n.op = Op.FromInterface; return;
    case 'callInterface': n.s = e.method; n.a = nodeOf(e.expr); n.op = Op.CallInterface; return;
    case 'signatoryInterface': n.a = nodeOf(e.expr); n.op = Op.SignatoryInterface; return;
    case 'observerInterface': n.a = nodeOf(e.expr); n.op = Op.ObserverInterface; return;
    case 'viewInterface': n.a = nodeOf(e.expr); n.op = Op.ViewInterface; return;
    case 'unsafeFromInterface': n.a = nodeOf(e.cid); n.b = nodeOf(e.expr); n.op = Op.UnsafeFromInterface; return;
    case 'interfaceTemplateTypeRep': n.a = nodeOf(e.expr); n.op = Op.InterfaceTemplateTypeRep; return;
    case 'toRequiredInterface': n.a = nodeOf(e.expr); n.op = Op.ToRequiredInterface; return;
    case 'fromRequiredInterface': n.a = nodeOf(e.expr); n.op = Op.FromRequiredInterface; return;
    case 'unsafeFromRequiredInterface': n.a = nodeOf(e.cid); n.b = nodeOf(e.expr); n.op = Op.UnsafeFromRequiredInterface; return;
    case 'choiceController': n.s = e.choice; n.a = nodeOf(e.contract); n.b = nodeOf(e.arg); n.op = Op.ChoiceController; return;
    case 'choiceObserver': n.s = e.choice; n.a = nodeOf(e.contract); n.b = nodeOf(e.arg); n.op = Op.ChoiceObserver; return;
    case 'experimental': n.s = e.name; n.op = Op.Experimental; return;
  }
}

function compileAlt(alt: CaseAlt): Alt {
  const body = nodeOf(alt.body);
  switch (alt.kind) {
    case 'default': return new Alt(AltKind.Default, '', '', '', body);
    case 'variant': return new Alt(AltKind.Variant, alt.constructor, alt.binder, '', body);
    case 'enum': return new Alt(AltKind.Enum, alt.constructor, '', '', body);
    case 'builtinCon': return new Alt(alt.con === 'unit' ? AltKind.Unit : alt.con === 'true' ? AltKind.True : AltKind.False, '', '', '', body);
    case 'nil': return new Alt(AltKind.Nil, '', '', '', body);
    case 'cons': return new Alt(AltKind.Cons, '', alt.head, alt.tail, body);
    case 'optionalNone': return new Alt(AltKind.None, '', '', '', body);
    case 'optionalSome': return new Alt(AltKind.Some, '', alt.binder, '', body);
  }
}
