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
 * between scopes, but a node sits in one scope (`scope`, see Env.ts), so a variable node is
 * resolved to its binder's group and slot once. A node is shared by every evaluator; what an
 * evaluator resolves on it (a top-level value, a builtin) is stored with that evaluator as owner.
 */
import type { CaseAlt, Expr, Update } from '../ast/Expr.js';
import type { Value } from '../value/Value.js';
import { NIL, NONE } from '../value/Value.js';
import { resolve, Scope } from './Env.js';

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

/** A compiled case alternative: `con` the constructor, `names` its binders (the group its body's environment gets, if any). */
export class Alt {
  constructor(
    readonly k: AltKind,
    readonly con: string,
    readonly names: readonly string[],
    readonly body: Node,
  ) {}
}

/**
 * One expression node. Field use by opcode: `a` / `b` the first / second sub-expression,
 * `kids` the argument, item or binding expressions, `names` binder names (parameters, let
 * binders), `s` a variable, field or constructor name, `v` a value known at compile time or
 * cached (literals, enum constructors), `i` an index, rank, count or a variable's slot (-1: not
 * known yet), `d` a variable's group depth, `x` what the evaluator resolves later (definitions,
 * builtins, record layouts), or the update.
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
  /** A variable's binder group, counted outwards from the innermost (-1: unbound); its slot is `i`. */
  d = 0;
  /** `scope`: the binder groups around this node, for resolving its variables when it is compiled. */
  constructor(readonly src: Expr, readonly scope: Scope | null) {}
}

/** A new, uncompiled node of `expr` under `scope` (compiled when the machine first looks at it). */
export function nodeOf(expr: Expr, scope: Scope | null): Node {
  return new Node(expr, scope);
}

const kidsOf = (exprs: readonly Expr[], scope: Scope | null): Node[] => {
  const out = new Array<Node>(exprs.length);
  for (let i = 0; i < exprs.length; i++) out[i] = nodeOf(exprs[i]!, scope);
  return out;
};

/** Fills `n` from its source expression; its children stay uncompiled until they are looked at. */
export function compileNode(n: Node): void {
  const e = n.src;
  switch (e.kind) {
    case 'var': {
      const { depth, index } = resolve(n.scope, e.name);
      n.s = e.name;
      n.d = depth;
      n.i = index;
      n.op = Op.Var;
      return;
    }
    case 'val': n.op = Op.Val; return;
    case 'builtin': n.op = Op.Builtin; return;
    case 'lit': n.v = e.value; n.op = Op.Lit; return;
    case 'recCon': n.op = Op.RecCon; return; // its fields are ordered by the definition, on first run
    case 'recProj': n.s = e.field; n.a = nodeOf(e.record, n.scope); n.op = Op.RecProj; return;
    case 'recUpd': n.s = e.field; n.a = nodeOf(e.record, n.scope); n.b = nodeOf(e.update, n.scope); n.op = Op.RecUpd; return;
    case 'variantCon': n.s = e.constructor; n.a = nodeOf(e.arg, n.scope); n.op = Op.VariantCon; return;
    case 'enumCon': n.s = e.constructor; n.op = Op.EnumCon; return;
    case 'structCon': {
      // Struct values keep their fields sorted by name (daml-lf-2.rst, ValExpStructCon); fields
      // evaluate in the expression's order, `x[i]` being the sorted position of field i.
      const names = e.fields.map((f) => f.field).sort();
      n.names = names;
      n.kids = kidsOf(e.fields.map((f) => f.expr), n.scope);
      n.x = e.fields.map((f) => names.indexOf(f.field));
      n.op = Op.StructCon;
      return;
    }
    case 'structProj': n.s = e.field; n.a = nodeOf(e.struct, n.scope); n.op = Op.StructProj; return;
    case 'structUpd': n.s = e.field; n.a = nodeOf(e.struct, n.scope); n.b = nodeOf(e.update, n.scope); n.op = Op.StructUpd; return;
    case 'app': n.a = nodeOf(e.fun, n.scope); n.kids = kidsOf(e.args, n.scope); n.op = Op.App; return;
    case 'tyApp': n.a = nodeOf(e.expr, n.scope); n.i = e.types.length; n.op = Op.TyApp; return;
    case 'abs': {
      // The parameters are one binder group: a call binds them in one cell.
      const names = e.params.map((p) => p.name);
      n.names = names;
      n.a = nodeOf(e.body, new Scope(names, n.scope));
      n.op = Op.Abs;
      return;
    }
    case 'tyAbs': {
      // Only a `nat` parameter keeps the abstraction a value (ValExpTyAbsNat); others are erased.
      let pending = 0;
      for (let i = 0; i < e.params.length; i++) if (e.params[i]!.kind.kind === 'nat') pending = i + 1;
      n.i = pending;
      n.a = nodeOf(e.body, n.scope);
      n.op = Op.TyAbs;
      return;
    }
    case 'case': n.a = nodeOf(e.scrut, n.scope); n.alts = e.alts.map((alt) => compileAlt(alt, n.scope)); n.op = Op.Case; return;
    case 'let': {
      // The bindings are one group (one cell, made with the first value and filled in order):
      // binding i sees the ones before it, a group of their names; the body sees them all.
      const names = e.bindings.map((b) => b.name);
      const kids = new Array<Node>(names.length);
      for (let i = 0; i < names.length; i++) kids[i] = nodeOf(e.bindings[i]!.bound, i === 0 ? n.scope : new Scope(names.slice(0, i), n.scope));
      n.names = names;
      n.kids = kids;
      n.a = nodeOf(e.body, new Scope(names, n.scope));
      n.op = Op.Let;
      return;
    }
    case 'nil': n.v = NIL; n.op = Op.Nil; return;
    case 'cons': n.kids = kidsOf([...e.front, e.tail], n.scope); n.op = Op.Cons; return;
    case 'update': n.x = e.update; n.op = Op.Update; return;
    case 'optionalNone': n.v = NONE; n.op = Op.OptionalNone; return;
    case 'optionalSome': n.a = nodeOf(e.value, n.scope); n.op = Op.OptionalSome; return;
    case 'toAny': n.a = nodeOf(e.expr, n.scope); n.op = Op.ToAny; return;
    case 'fromAny': n.a = nodeOf(e.expr, n.scope); n.op = Op.FromAny; return;
    case 'typeRep': n.v = { kind: 'typeRep', type: e.type }; n.op = Op.TypeRep; return;
    case 'toAnyException': n.a = nodeOf(e.expr, n.scope); n.op = Op.ToAnyException; return;
    case 'fromAnyException': n.a = nodeOf(e.expr, n.scope); n.op = Op.FromAnyException; return;
    case 'throw': n.a = nodeOf(e.expr, n.scope); n.op = Op.Throw; return;
    case 'toInterface': n.a = nodeOf(e.expr, n.scope); n.op = Op.ToInterface; return;
    case 'fromInterface': n.a = nodeOf(e.expr, n.scope); n.op = Op.FromInterface; return;
    case 'callInterface': n.s = e.method; n.a = nodeOf(e.expr, n.scope); n.op = Op.CallInterface; return;
    case 'signatoryInterface': n.a = nodeOf(e.expr, n.scope); n.op = Op.SignatoryInterface; return;
    case 'observerInterface': n.a = nodeOf(e.expr, n.scope); n.op = Op.ObserverInterface; return;
    case 'viewInterface': n.a = nodeOf(e.expr, n.scope); n.op = Op.ViewInterface; return;
    case 'unsafeFromInterface': n.a = nodeOf(e.cid, n.scope); n.b = nodeOf(e.expr, n.scope); n.op = Op.UnsafeFromInterface; return;
    case 'interfaceTemplateTypeRep': n.a = nodeOf(e.expr, n.scope); n.op = Op.InterfaceTemplateTypeRep; return;
    case 'toRequiredInterface': n.a = nodeOf(e.expr, n.scope); n.op = Op.ToRequiredInterface; return;
    case 'fromRequiredInterface': n.a = nodeOf(e.expr, n.scope); n.op = Op.FromRequiredInterface; return;
    case 'unsafeFromRequiredInterface': n.a = nodeOf(e.cid, n.scope); n.b = nodeOf(e.expr, n.scope); n.op = Op.UnsafeFromRequiredInterface; return;
    case 'choiceController': n.s = e.choice; n.a = nodeOf(e.contract, n.scope); n.b = nodeOf(e.arg, n.scope); n.op = Op.ChoiceController; return;
    case 'choiceObserver': n.s = e.choice; n.a = nodeOf(e.contract, n.scope); n.b = nodeOf(e.arg, n.scope); n.op = Op.ChoiceObserver; return;
    case 'experimental': n.s = e.name; n.op = Op.Experimental; return;
  }
}

const NO_NAMES: readonly string[] = [];
const NO_KIDS: Node[] = [];

/**
 * The sub-expressions of the `update` node `n`, as nodes under its scope, made once (in `kids`)
 * when the update engine first runs it: the machine only suspends an update with its
 * environment, whose layout is `n.scope`, so the engine evaluates these nodes in it without a
 * root look-up per run (Speedy compiles updates with the rest). In the update's order:
 * `pure`, `embedExpr`, `create`, `createInterface`, `ledgerTimeLt`: [expr]; `fetch`,
 * `fetchInterface`: [cid]; `exercise`: [cid, arg]; `exerciseInterface`: [cid, arg, guard?];
 * `block`: [bound₀, …, body], binding i under a group per binding before it, whose names the
 * engine's cell for it takes (`kids[i + 1].scope.names`); `tryCatch`: [try, catch under the binder].
 */
export function updateKids(n: Node): Node[] {
  if (n.kids !== null) return n.kids;
  const u = n.x as Update;
  const scope = n.scope;
  let kids: Node[];
  switch (u.kind) {
    case 'pure': case 'embedExpr': case 'create': case 'createInterface': case 'ledgerTimeLt': kids = [nodeOf(u.expr, scope)]; break;
    case 'fetch': case 'fetchInterface': kids = [nodeOf(u.cid, scope)]; break;
    case 'exercise': kids = [nodeOf(u.cid, scope), nodeOf(u.arg, scope)]; break;
    case 'exerciseInterface':
      kids = u.guard === undefined ? [nodeOf(u.cid, scope), nodeOf(u.arg, scope)] : [nodeOf(u.cid, scope), nodeOf(u.arg, scope), nodeOf(u.guard, scope)];
      break;
    case 'block': {
      kids = new Array<Node>(u.bindings.length + 1);
      let inner = scope;
      for (let i = 0; i < u.bindings.length; i++) {
        const binding = u.bindings[i]!;
        kids[i] = nodeOf(binding.bound, inner);
        inner = new Scope([binding.name], inner);
      }
      kids[u.bindings.length] = nodeOf(u.body, inner);
      break;
    }
    case 'tryCatch': kids = [nodeOf(u.tryExpr, scope), nodeOf(u.catchExpr, new Scope([u.binder], scope))]; break;
    case 'getTime': case 'exerciseByKey': case 'lookupByKey': case 'fetchByKey': case 'queryNByKey': kids = NO_KIDS; break;
  }
  n.kids = kids;
  return kids;
}

/** A compiled `update` node of `update` in the empty environment: a command the caller submits. */
export function updateNode(update: Update): Node {
  const n = nodeOf({ kind: 'update', update }, null);
  compileNode(n);
  return n;
}

function compileAlt(alt: CaseAlt, scope: Scope | null): Alt {
  const bound = (names: readonly string[]) => nodeOf(alt.body, new Scope(names, scope));
  switch (alt.kind) {
    case 'default': return new Alt(AltKind.Default, '', NO_NAMES, nodeOf(alt.body, scope));
    case 'variant': { const names = [alt.binder]; return new Alt(AltKind.Variant, alt.constructor, names, bound(names)); }
    case 'enum': return new Alt(AltKind.Enum, alt.constructor, NO_NAMES, nodeOf(alt.body, scope));
    case 'builtinCon': return new Alt(alt.con === 'unit' ? AltKind.Unit : alt.con === 'true' ? AltKind.True : AltKind.False, '', NO_NAMES, nodeOf(alt.body, scope));
    case 'nil': return new Alt(AltKind.Nil, '', NO_NAMES, nodeOf(alt.body, scope));
    // Head and tail are one group (slots 0 and 1): the tail was bound last, so it shadows an equal name.
    case 'cons': { const names = [alt.head, alt.tail]; return new Alt(AltKind.Cons, '', names, bound(names)); }
    case 'optionalNone': return new Alt(AltKind.None, '', NO_NAMES, nodeOf(alt.body, scope));
    case 'optionalSome': { const names = [alt.binder]; return new Alt(AltKind.Some, '', names, bound(names)); }
  }
}
