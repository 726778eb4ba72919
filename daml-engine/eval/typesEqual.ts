/**
 * Equality of the ground types `to_any` / `from_any` and exceptions carry (daml-lf-2.rst: `from_any`
 * succeeds when the types are equal). Applications are compared in their flattened form, so
 * `T a b` as a constructor with arguments equals the same written with `app` nodes (LF 2.dev).
 */
import type { Type } from '../ast/Type.js';
import { spineOf } from '../ast/Type.js';

export function typesEqual(a: Type, b: Type): boolean {
  if (a === b) return true;
  const fa = spineOf(a);
  const fb = spineOf(b);
  if (fa.args.length !== fb.args.length) return false;
  for (let i = 0; i < fa.args.length; i++) if (!typesEqual(fa.args[i]!, fb.args[i]!)) return false;
  const x = fa.head;
  const y = fb.head;
  switch (x.kind) {
    case 'var': return y.kind === 'var' && x.name === y.name;
    case 'con': return y.kind === 'con' && x.tycon.packageId === y.tycon.packageId && x.tycon.module === y.tycon.module && x.tycon.name === y.tycon.name;
    case 'syn': return y.kind === 'syn' && x.tysyn.packageId === y.tysyn.packageId && x.tysyn.module === y.tysyn.module && x.tysyn.name === y.tysyn.name;
    case 'builtin': return y.kind === 'builtin' && x.builtin === y.builtin;
    case 'nat': return y.kind === 'nat' && x.value === y.value;
    case 'struct':
      return y.kind === 'struct' && x.fields.length === y.fields.length
        && x.fields.every((f, i) => f.name === y.fields[i]!.name && typesEqual(f.type, y.fields[i]!.type));
    case 'forall':
      // Binders compared by name: ground types in `to_any` do not quantify in practice.
      return y.kind === 'forall' && x.vars.length === y.vars.length
        && x.vars.every((v, i) => v.name === y.vars[i]!.name) && typesEqual(x.body, y.body);
    case 'app': return false;
  }
}
