/**
 * The JSON codec's view (`DataTypes`) of decoded packages: records, variants and enums with their
 * type parameters, and type synonyms, looked up by qualified name through the caller's packages.
 */
import type { Package } from '../ast/Package.js';
import type { QualifiedName } from '../ast/Type.js';
import type { DataTypeDef, DataTypes } from './DataTypes.js';

export function packageDataTypes(getPackage: (packageId: string) => Package | undefined): DataTypes {
  const cache = new Map<string, DataTypeDef | undefined>();
  // Type and value nodes share their (immutable) names: by identity first, no key string per lookup.
  const byName = new WeakMap<QualifiedName, DataTypeDef | undefined>();
  const moduleOf = (name: QualifiedName) => getPackage(name.packageId)?.modules.get(name.module);
  return {
    dataType(tycon) {
      if (byName.has(tycon)) return byName.get(tycon);
      const key = `${tycon.packageId}:${tycon.module}:${tycon.name}`;
      if (cache.has(key)) {
        const known = cache.get(key);
        byName.set(tycon, known);
        return known;
      }
      const dt = moduleOf(tycon)?.dataTypes.get(tycon.name);
      let def: DataTypeDef | undefined;
      if (dt) {
        const params = dt.params.map((p) => p.name);
        switch (dt.cons.kind) {
          case 'record': def = { kind: 'record', params, fields: dt.cons.fields }; break;
          case 'variant': def = { kind: 'variant', params, constructors: dt.cons.constructors }; break;
          case 'enum': def = { kind: 'enum', constructors: dt.cons.constructors }; break;
          case 'interface': def = undefined; break; // an interface has no serializable value of its own
        }
      }
      cache.set(key, def);
      byName.set(tycon, def);
      return def;
    },
    synonym(tysyn) {
      const syn = moduleOf(tysyn)?.synonyms.get(tysyn.name);
      return syn ? { params: syn.params.map((p) => p.name), type: syn.type } : undefined;
    },
  };
}
