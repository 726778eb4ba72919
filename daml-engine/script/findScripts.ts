/**
 * The scripts of a package, as `daml test` finds them: top-level values whose type is
 * daml-script's `Script a` (functions returning a Script are not tests). Names starting with `$`
 * are the compiler's own (specialisations, workers), never written by a user.
 */
import type { Package } from '../ast/Package.js';
import type { QualifiedName } from '../ast/Type.js';
import { LOW_LEVEL_MODULE } from './ScriptRunner.js';

export function findScripts(pkg: Package): QualifiedName[] {
  const out: QualifiedName[] = [];
  for (const [module, m] of pkg.modules) {
    for (const [name, def] of m.values) {
      if (name.startsWith('$')) continue;
      const t = def.type;
      if (t.kind === 'con' && t.tycon.module === LOW_LEVEL_MODULE && t.tycon.name === 'Script') out.push({ packageId: pkg.id, module, name });
    }
  }
  return out.sort((a, b) => (a.module === b.module ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.module < b.module ? -1 : 1));
}

/** `Module:name` of a script. */
export const scriptName = (q: QualifiedName): string => `${q.module}:${q.name}`;
