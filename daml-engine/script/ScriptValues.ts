/**
 * Reading and building the values the Daml Script library and the runner exchange: records and
 * variants of daml-script's types (`Question`, `Submission`, `SubmitError`, ...) and of daml-prim's
 * `DA.Types` (`Either`, tuples) and `DA.Internal.Any` (`AnyTemplate`, `TemplateTypeRep`).
 *
 * Types are looked up by name in the packages the script runs with, so the runner works with the
 * daml-script and stdlib versions the DAR carries.
 */
import type { DefDataType, Package } from '../ast/Package.js';
import type { QualifiedName, Type } from '../ast/Type.js';
import type { ListValue, RecordValue, Value, VariantValue } from '../value/Value.js';
import { NONE, UNIT, listOf, some } from '../value/Value.js';

/** A value of an unexpected shape where the runner reads the script library's values. */
export class ShapeError extends Error {}

export function field(v: Value, name: string): Value {
  if (v.kind !== 'record') throw new ShapeError(`expected a record with field ${name}, got a ${v.kind}`);
  const i = v.fieldNames.indexOf(name);
  if (i < 0) throw new ShapeError(`the record ${v.tycon.module}:${v.tycon.name} has no field ${name}`);
  return v.fields[i]!;
}

/** The only field of a one-field record (daml-script newtypes such as `TemplateTypeRep`). */
export function unwrap(v: Value): Value {
  if (v.kind !== 'record' || v.fields.length !== 1) throw new ShapeError(`expected a one-field record, got a ${v.kind}`);
  return v.fields[0]!;
}

export function text(v: Value): string {
  if (v.kind !== 'text') throw new ShapeError(`expected Text, got a ${v.kind}`);
  return v.value;
}

export function party(v: Value): string {
  if (v.kind !== 'party') throw new ShapeError(`expected a Party, got a ${v.kind}`);
  return v.value;
}

export function list(v: Value): Value[] {
  if (v.kind !== 'cons' && v.kind !== 'nil') throw new ShapeError(`expected a list, got a ${v.kind}`);
  const out: Value[] = [];
  for (let cell: ListValue = v; cell.kind === 'cons'; cell = cell.tail) out.push(cell.head);
  return out;
}

export function constructorOf(v: Value): string {
  if (v.kind === 'variant' || v.kind === 'enum') return v.constructor;
  throw new ShapeError(`expected a variant, got a ${v.kind}`);
}

/** The type constructor a `TypeRep` (inside `TemplateTypeRep`) names. */
export function typeRepTycon(templateTypeRep: Value): QualifiedName {
  const rep = templateTypeRep.kind === 'typeRep' ? templateTypeRep : unwrap(templateTypeRep);
  if (rep.kind !== 'typeRep' || rep.type.kind !== 'con') throw new ShapeError('expected the TypeRep of a template or interface');
  return rep.type.tycon;
}

const conType = (tycon: QualifiedName): Type => ({ kind: 'con', tycon, args: [] });

/** Finds data types by module and name in a set of packages, and builds their values. */
export class ScriptValues {
  private readonly byName = new Map<string, QualifiedName>();

  constructor(
    private readonly packages: () => Iterable<Package>,
    private readonly getPackage: (id: string) => Package | undefined,
    /** The daml-script package the running script was compiled against. */
    readonly scriptPackageId: string,
  ) {}

  /** A data type of `module` named `name`: in daml-script first, else in any package. */
  tycon(module: string, name: string): QualifiedName {
    const key = `${module}:${name}`;
    let found = this.byName.get(key);
    if (found) return found;
    const own = this.getPackage(this.scriptPackageId)?.modules.get(module)?.dataTypes.get(name);
    if (own) found = { packageId: this.scriptPackageId, module, name };
    else {
      for (const pkg of this.packages()) {
        if (pkg.modules.get(module)?.dataTypes.has(name)) { found = { packageId: pkg.id, module, name }; break; }
      }
    }
    if (!found) throw new ShapeError(`no data type ${module}:${name} in the script's packages`);
    this.byName.set(key, found);
    return found;
  }

  private def(tycon: QualifiedName): DefDataType {
    const def = this.getPackage(tycon.packageId)?.modules.get(tycon.module)?.dataTypes.get(tycon.name);
    if (!def) throw new ShapeError(`no data type ${tycon.module}:${tycon.name}`);
    return def;
  }

  /** A record of `tycon`: values for fields this version of the type lacks are left out; a field without a value is a ShapeError. */
  record(tycon: QualifiedName, values: Readonly<Record<string, Value>>): RecordValue {
    const def = this.def(tycon);
    if (def.cons.kind !== 'record') throw new ShapeError(`${tycon.module}:${tycon.name} is not a record`);
    const fields = def.cons.fieldNames.map((n) => {
      const v = values[n];
      if (v === undefined) throw new ShapeError(`no value for field ${n} of ${tycon.module}:${tycon.name}`);
      return v;
    });
    return { kind: 'record', tycon, fieldNames: def.cons.fieldNames, fields };
  }

  variant(tycon: QualifiedName, constructor: string, value: Value): VariantValue {
    const def = this.def(tycon);
    if (def.cons.kind !== 'variant') throw new ShapeError(`${tycon.module}:${tycon.name} is not a variant`);
    const rank = def.cons.constructors.findIndex((c) => c.name === constructor);
    if (rank < 0) throw new ShapeError(`${tycon.module}:${tycon.name} has no constructor ${constructor}`);
    return { kind: 'variant', tycon, constructor, rank, value };
  }

  enumValue(tycon: QualifiedName, constructor: string): Value {
    const def = this.def(tycon);
    if (def.cons.kind !== 'enum') throw new ShapeError(`${tycon.module}:${tycon.name} is not an enum`);
    const rank = def.cons.constructors.indexOf(constructor);
    if (rank < 0) throw new ShapeError(`${tycon.module}:${tycon.name} has no constructor ${constructor}`);
    return { kind: 'enum', tycon, constructor, rank };
  }

  /** A record of a daml-script type named by its module (under `Daml.Script.Internal.`) and name. */
  script(module: string, name: string, values: Readonly<Record<string, Value>>): RecordValue {
    return this.record(this.tycon(`Daml.Script.Internal.${module}`, name), values);
  }

  left(v: Value): Value { return this.variant(this.tycon('DA.Types', 'Either'), 'Left', v); }
  right(v: Value): Value { return this.variant(this.tycon('DA.Types', 'Either'), 'Right', v); }

  tuple(...items: Value[]): RecordValue {
    const values: Record<string, Value> = {};
    items.forEach((v, i) => { values[`_${i + 1}`] = v; });
    return this.record(this.tycon('DA.Types', `Tuple${items.length}`), values);
  }

  templateTypeRep(id: QualifiedName): RecordValue {
    return this.record(this.tycon('DA.Internal.Any', 'TemplateTypeRep'), { getTemplateTypeRep: { kind: 'typeRep', type: conType(id) } });
  }

  anyTemplate(id: QualifiedName, argument: Value): RecordValue {
    return this.record(this.tycon('DA.Internal.Any', 'AnyTemplate'), { getAnyTemplate: { kind: 'any', type: conType(id), value: argument } });
  }

  anyContractId(templateId: QualifiedName, contractId: string): RecordValue {
    return this.script('Questions.Util', 'AnyContractId', {
      templateId: this.templateTypeRep(templateId), contractId: { kind: 'contractId', value: contractId },
    });
  }

  nonEmpty(items: readonly Value[]): RecordValue {
    if (items.length === 0) throw new ShapeError('a NonEmpty of nothing');
    return this.record(this.tycon('DA.NonEmpty.Types', 'NonEmpty'), { hd: items[0]!, tl: listOf(items.slice(1)) });
  }

  optional(v: Value | undefined): Value { return v === undefined ? NONE : some(v); }

  readonly unit = UNIT;
}
