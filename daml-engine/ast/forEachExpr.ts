/**
 * Visits every expression node of a package (values, templates, choices, interface instances,
 * exceptions), iteratively: expressions nest deeper than a safe JS recursion.
 */
import type { Expr, Update } from './Expr.js';
import type { Package } from './Package.js';

function children(e: Expr, out: Expr[]): void {
  switch (e.kind) {
    case 'var': case 'val': case 'builtin': case 'lit': case 'enumCon': case 'nil': case 'optionalNone':
    case 'typeRep': case 'experimental':
      return;
    case 'recCon': case 'structCon': for (const f of e.fields) out.push(f.expr); return;
    case 'recProj': out.push(e.record); return;
    case 'recUpd': out.push(e.record, e.update); return;
    case 'variantCon': out.push(e.arg); return;
    case 'structProj': out.push(e.struct); return;
    case 'structUpd': out.push(e.struct, e.update); return;
    case 'app': out.push(e.fun, ...e.args); return;
    case 'tyApp': case 'toAny': case 'fromAny': case 'toAnyException': case 'fromAnyException': case 'throw':
    case 'toInterface': case 'fromInterface': case 'callInterface': case 'signatoryInterface': case 'observerInterface':
    case 'viewInterface': case 'interfaceTemplateTypeRep': case 'toRequiredInterface': case 'fromRequiredInterface':
      out.push(e.expr); return;
    case 'abs': case 'tyAbs': out.push(e.body); return;
    case 'case': out.push(e.scrut, ...e.alts.map((a) => a.body)); return;
    case 'let': out.push(...e.bindings.map((b) => b.bound), e.body); return;
    case 'cons': out.push(...e.front, e.tail); return;
    case 'optionalSome': out.push(e.value); return;
    case 'unsafeFromInterface': case 'unsafeFromRequiredInterface': out.push(e.cid, e.expr); return;
    case 'choiceController': case 'choiceObserver': out.push(e.contract, e.arg); return;
    case 'update': updateChildren(e.update, out); return;
  }
}

function updateChildren(u: Update, out: Expr[]): void {
  switch (u.kind) {
    case 'pure': case 'embedExpr': case 'create': case 'createInterface': case 'ledgerTimeLt': out.push(u.expr); return;
    case 'block': out.push(...u.bindings.map((b) => b.bound), u.body); return;
    case 'exercise': out.push(u.cid, u.arg); return;
    case 'exerciseInterface': out.push(u.cid, u.arg, ...(u.guard ? [u.guard] : [])); return;
    case 'exerciseByKey': out.push(u.key, u.arg); return;
    case 'fetch': case 'fetchInterface': out.push(u.cid); return;
    case 'tryCatch': out.push(u.tryExpr, u.catchExpr); return;
    case 'getTime': case 'lookupByKey': case 'fetchByKey': case 'queryNByKey': return;
  }
}

/** Calls `visit` on every expression node of `pkg` (forcing lazily decoded value bodies). */
export function forEachExpr(pkg: Package, visit: (e: Expr) => void): void {
  const stack: Expr[] = [];
  for (const module of pkg.modules.values()) {
    for (const value of module.values.values()) stack.push(value.expr);
    for (const exception of module.exceptions.values()) stack.push(exception.message);
    for (const iface of module.interfaces.values()) {
      for (const choice of iface.choices.values()) stack.push(choice.controllers, choice.update, ...(choice.observers ? [choice.observers] : []));
    }
    for (const template of module.templates.values()) {
      stack.push(template.precondition, template.signatories, template.observers);
      for (const choice of template.choices.values()) {
        stack.push(choice.controllers, choice.update, ...(choice.observers ? [choice.observers] : []), ...(choice.authorizers ? [choice.authorizers] : []));
      }
      for (const instance of template.implements.values()) stack.push(instance.view, ...instance.methods.values());
    }
  }
  while (stack.length > 0) {
    const e = stack.pop()!;
    visit(e);
    if (e.kind !== 'update') children(e, stack);
    else updateChildren(e.update, stack);
  }
}
