/**
 * Whether one package may upgrade another of the same name (smart contract upgrades): Canton's
 * TypecheckUpgrades, run when a vetting change puts two versions of a name side by side. Templates,
 * choices, interface instances and serializable data types may be added, never taken away; records
 * grow only by Optional fields at their end; variants and enums only by constructors at their end;
 * choice results and keys keep their types. A type named in an old definition may name, in the new
 * one, the same definition of the same package name at the same or a higher version.
 *
 * The reasons are Canton's own words (UpgradeError), so a client reading the refusal reads what a
 * participant would have said.
 */
import type { DataCons, DefDataType, DefTemplate, Module, Package } from '../ast/Package.js';
import type { Kind, QualifiedName, Type } from '../ast/Type.js';
import { spineOf } from '../ast/Type.js';
import { compareVersions } from '../decode/Packages.js';
import { curried, keyOfKind } from './kinds.js';
import { compareLfVersions } from './lfFeatures.js';

/** The name and version of a package the participant holds (Canton's package map). */
export type PackageNameAndVersion = (packageId: string) => { readonly name: string; readonly version: string } | undefined;

/** Why `present` is no upgrade of `past`: Canton's UpgradeError class name and its message. */
export interface UpgradeProblem {
  readonly kind: string;
  readonly message: string;
}

/**
 * A utility package: no templates, no interfaces, no serializable data types. Utility packages
 * (daml-prim, daml-stdlib, a library of functions) stand outside upgrade lineages.
 */
export function isUtilityPackage(pkg: Package): boolean {
  for (const m of pkg.modules.values()) {
    if (m.templates.size > 0 || m.interfaces.size > 0) return false;
    for (const dt of m.dataTypes.values()) if (dt.serializable) return false;
  }
  return true;
}

/**
 * The serializable types of daml-prim and daml-stdlib before SDK 3.2 marked them otherwise:
 * Canton counts those releases as utility packages all the same (UtilityDamlPackages, by id).
 */
const LEGACY_SERIALIZABLE: Readonly<Record<string, ReadonlySet<string>>> = {
  'daml-prim': new Set(['GHC.Stack.Types']),
  'daml-stdlib': new Set(['DA.Numeric']),
};

/**
 * A daml-prim or daml-stdlib that is no utility package (Canton's isInvalidDamlPrimOrStdlib):
 * templates, interfaces, or serializable types beyond those early 3.x releases had.
 */
export function isInvalidDamlPrimOrStdlib(pkg: Package): boolean {
  const legacy = pkg.metadata ? LEGACY_SERIALIZABLE[pkg.metadata.name] : undefined;
  if (legacy === undefined) return false;
  for (const m of pkg.modules.values()) {
    if (m.templates.size > 0 || m.interfaces.size > 0) return true;
    if (legacy.has(m.name)) continue;
    for (const dt of m.dataTypes.values()) if (dt.serializable) return true;
  }
  return false;
}

/** Every LF 2 package supports upgrades, save utility packages (daml-prim and daml-stdlib always are). */
export const supportsUpgrades = (pkg: Package): boolean => !isUtilityPackage(pkg) && !(pkg.metadata !== undefined && pkg.metadata.name in LEGACY_SERIALIZABLE);

/** The first reason `present` cannot upgrade `past`, in Canton's order; undefined when it can. */
export function checkUpgrade(past: Package, present: Package, packageOf: PackageNameAndVersion): UpgradeProblem | undefined {
  const fail = (kind: string, message: string): UpgradeProblem => ({ kind, message });
  if (compareLfVersions(past.lfVersion, present.lfVersion) > 0) {
    return fail('DecreasingLfVersion', `The upgraded package uses an older LF version (${present.lfVersion} < ${past.lfVersion})`);
  }
  for (const name of past.modules.keys()) {
    if (!present.modules.has(name)) return fail('MissingModule', `Module ${name} appears in package that is being upgraded, but does not appear in the upgrading package.`);
  }
  const types = new TypeComparison(packageOf, past, present);
  for (const [name, pastModule] of past.modules) {
    const problem = checkModule(pastModule, present.modules.get(name) as Module, types);
    if (problem) return problem;
  }
  return undefined;
}

function checkModule(past: Module, present: Module, types: TypeComparison): UpgradeProblem | undefined {
  for (const [name, template] of past.templates) {
    const now = present.templates.get(name);
    if (!now) return { kind: 'MissingTemplate', message: `Template ${name} appears in package that is being upgraded, but does not appear in the upgrading package.` };
    const problem = checkTemplate(name, template, now, types);
    if (problem) return problem;
  }
  // Interfaces and exceptions may be carried over unchanged or not (Canton only warns).
  for (const [name, template] of past.templates) {
    const now = present.templates.get(name) as DefTemplate;
    for (const [key, instance] of template.implements) {
      if (!now.implements.has(key)) {
        return { kind: 'MissingImplementation', message: `Implementation of interface ${typeConId(instance.iface)} by template ${name} appears in package that is being upgraded, but does not appear in this package.` };
      }
    }
  }
  const owned = (m: Module, name: string) => m.interfaces.has(name) || m.exceptions.has(name);
  for (const [name, dt] of past.dataTypes) {
    if (owned(past, name) || !dt.serializable) continue;
    if (!present.dataTypes.has(name) || owned(present, name)) {
      return { kind: 'MissingDataCon', message: `Data type ${name} appears in package that is being upgraded, but does not appear in the upgrading package.` };
    }
  }
  for (const [name, dt] of past.dataTypes) {
    const now = present.dataTypes.get(name);
    if (owned(past, name) || !now || owned(present, name)) continue;
    const problem = checkDataType(name, dt, now, originOf(past, name), originOf(present, name), types);
    if (problem) return problem;
  }
  return undefined;
}

function checkTemplate(name: string, past: DefTemplate, present: DefTemplate, types: TypeComparison): UpgradeProblem | undefined {
  for (const choice of past.choices.keys()) {
    if (!present.choices.has(choice)) return { kind: 'MissingChoice', message: `Choice ${choice} appears in package that is being upgraded, but does not appear in the upgrading package.` };
  }
  for (const [choiceName, choice] of past.choices) {
    const now = present.choices.get(choiceName);
    if (now && !types.same(choice.returnType, now.returnType)) {
      return { kind: 'ChoiceChangedReturnType', message: `The upgraded choice ${choiceName} cannot change its return type.` };
    }
  }
  if (past.key && !present.key) return { kind: 'TemplateRemovedKey', message: `The upgraded template ${name} cannot remove its key.` };
  if (!past.key && present.key) return { kind: 'TemplateAddedKey', message: `The upgraded template ${name} cannot add a key.` };
  if (past.key && present.key && !types.same(past.key.type, present.key.type)) {
    return { kind: 'TemplateChangedKeyType', message: `The upgraded template ${name} cannot change its key type.` };
  }
  return undefined;
}

// ------------------------------------------------------------------ where a record comes from

/**
 * What a data type is for, as Canton's check reads it from names: a template's record, a choice's
 * argument (`Prefix.Choice` beside a template `Prefix.T`), a variant constructor's record
 * (`Variant.Constructor`), or a data type of its own.
 */
type Origin =
  | { readonly kind: 'template'; readonly template: string }
  | { readonly kind: 'choiceInput'; readonly template: string; readonly choice: string }
  | { readonly kind: 'variantConstructor'; readonly datatype: string; readonly variant: string }
  | { readonly kind: 'topLevel'; readonly datatype: string };

function originOf(module: Module, name: string): Origin {
  if (module.templates.has(name)) return { kind: 'template', template: name };
  for (const [templateName, template] of module.templates) {
    const prefix = templateName.includes('.') ? templateName.slice(0, templateName.lastIndexOf('.') + 1) : '';
    for (const choice of template.choices.keys()) if (`${prefix}${choice}` === name) return { kind: 'choiceInput', template: templateName, choice };
  }
  for (const [dtName, dt] of module.dataTypes) {
    if (dt.cons.kind !== 'variant') continue;
    for (const c of dt.cons.constructors) {
      const head = leftMostTyCon(c.type);
      if (head && `${dtName}.${c.name}` === name) return { kind: 'variantConstructor', datatype: dtName, variant: head.name };
    }
  }
  return { kind: 'topLevel', datatype: name };
}

function leftMostTyCon(t: Type): QualifiedName | undefined {
  const { head } = spineOf(t);
  return head.kind === 'con' ? head.tycon : undefined;
}

function describeOrigin(o: Origin): string {
  switch (o.kind) {
    case 'template': return `template ${o.template}`;
    case 'choiceInput': return `input type of choice ${o.choice} on template ${o.template}`;
    case 'variantConstructor': return `variant constructor ${o.variant} from variant ${o.datatype}`;
    case 'topLevel': return `data type ${o.datatype}`;
  }
}

// ------------------------------------------------------------------ data types

function checkDataType(name: string, past: DefDataType, present: DefDataType, pastOrigin: Origin, origin: Origin, types: TypeComparison): UpgradeProblem | undefined {
  const where = describeOrigin(origin);
  if (past.serializable && !present.serializable) {
    return { kind: 'DatatypeBecameUnserializable', message: `The upgraded ${where} was serializable and is now unserializable. Datatypes cannot change their serializability via upgrades.` };
  }
  if (!past.serializable) return undefined;
  if (describeOrigin(pastOrigin) !== where) {
    return { kind: 'RecordChangedOrigin', message: `The record ${name} has changed origin from ${describeOrigin(pastOrigin)} to ${where}` };
  }
  if (past.params.length !== present.params.length) return { kind: 'DifferentParamsCount', message: `The upgraded ${where} has changed the number of type variables it has.` };
  if (past.params.some((p, i) => kindOf(p.kind) !== kindOf((present.params[i] as DefDataType['params'][number]).kind))) {
    return { kind: 'DifferentParamsKinds', message: `The upgraded ${where} has changed the kind of one of its type variables.` };
  }
  const scope = types.scoped(past.params.map((p) => p.name), present.params.map((p) => p.name));
  const a = past.cons;
  const b = present.cons;
  if (a.kind === 'record' && b.kind === 'record') return checkFields(origin, where, a.fields, b.fields, scope);
  if (a.kind === 'variant' && b.kind === 'variant') {
    const now = new Map(b.constructors.map((c) => [c.name, c.type]));
    if (a.constructors.some((c) => !now.has(c.name))) return { kind: 'VariantRemovedVariant', message: `The upgraded ${where} has removed an existing variant.` };
    if (a.constructors.some((c) => !scope.same(c.type, now.get(c.name) as Type))) return { kind: 'VariantChangedVariantType', message: `The upgraded ${where} has changed the type of a variant.` };
    if (a.constructors.some((c, i) => b.constructors[i]?.name !== c.name)) {
      return { kind: 'VariantVariantsOrderChanged', message: `The upgraded ${where} has changed the order of its variants - any new variant must be added at the end of the variant.` };
    }
    return undefined;
  }
  if (a.kind === 'enum' && b.kind === 'enum') {
    const now = new Set(b.constructors);
    if (a.constructors.some((c) => !now.has(c))) return { kind: 'EnumRemovedVariant', message: `The upgraded ${where} has removed an existing variant.` };
    if (a.constructors.some((c, i) => b.constructors[i] !== c)) {
      return { kind: 'EnumVariantsOrderChanged', message: `The upgraded ${where} has changed the order of its variants - any new variant must be added at the end of the enum.` };
    }
    return undefined;
  }
  if (a.kind === 'interface' && b.kind === 'interface') return undefined;
  return {
    kind: 'MismatchDataConsVariety',
    message: `The upgraded data type ${name} has changed from a ${a.kind} to a ${b.kind}. Datatypes cannot change variety via upgrades.`,
  };
}

function checkFields(origin: Origin, where: string, past: Extract<DataCons, { kind: 'record' }>['fields'], present: Extract<DataCons, { kind: 'record' }>['fields'], scope: TypeComparison): UpgradeProblem | undefined {
  const now = new Map(present.map((f) => [f.name, f.type]));
  const before = new Set(past.map((f) => f.name));
  if (past.some((f) => !now.has(f.name))) return { kind: 'RecordFieldsMissing', message: `The upgraded ${where} is missing some of its original fields.` };
  if (past.some((f) => !scope.same(f.type, now.get(f.name) as Type))) {
    return { kind: 'RecordFieldsExistingChanged', message: `The upgraded ${where} has changed the types of some of its original fields.` };
  }
  if (present.some((f) => !before.has(f.name) && !isOptional(f.type))) {
    return origin.kind === 'variantConstructor'
      ? { kind: 'VariantAddedVariantField', message: `The upgraded ${where} has added a field.` }
      : { kind: 'RecordFieldsNewNonOptional', message: `The upgraded ${where} has added new fields, but those fields are not Optional.` };
  }
  if (past.some((f, i) => present[i]?.name !== f.name)) {
    return { kind: 'RecordFieldsOrderChanged', message: `The upgraded ${where} has changed the order of its fields - any new fields must be added at the end of the record.` };
  }
  return undefined;
}

/** `Optional t` as written (no synonym: serializable types have none). */
function isOptional(t: Type): boolean {
  const { head, args } = spineOf(t);
  return head.kind === 'builtin' && head.builtin === 'OPTIONAL' && args.length === 1;
}

/** A kind as a comparable key (curried, so `(a, b) → r` and `a → b → r` agree); the upload check bounded its size. */
const kindOf = (k: Kind): string => keyOfKind(curried(k));

// ------------------------------------------------------------------ types

/**
 * Canton's type comparison across an upgrade: the same shape, type variables bound at the same
 * depth, type constructors of the same qualified name whose packages are one name at a version no
 * lower; synonyms, structs and `∀` never compare equal (a serializable type has none).
 */
class TypeComparison {
  constructor(
    private readonly packageOf: PackageNameAndVersion,
    private readonly past: Package,
    private readonly present: Package,
    private readonly pastDepth: ReadonlyMap<string, number> = new Map(),
    private readonly presentDepth: ReadonlyMap<string, number> = new Map(),
  ) {}

  /** The comparison under a data type's parameters. */
  scoped(pastParams: readonly string[], presentParams: readonly string[]): TypeComparison {
    return new TypeComparison(this.packageOf, this.past, this.present, new Map(pastParams.map((p, i) => [p, i])), new Map(presentParams.map((p, i) => [p, i])));
  }

  /** Pairs compared already or under way (an interned type is a DAG: its tree may be exponential). */
  private readonly seen = new Map<Type, Set<Type>>();

  same(a: Type, b: Type): boolean {
    const pending: [Type, Type][] = [[a, b]];
    for (let pair = pending.pop(); pair !== undefined; pair = pending.pop()) {
      let against = this.seen.get(pair[0]);
      if (against?.has(pair[1])) continue;
      if (against === undefined) this.seen.set(pair[0], (against = new Set()));
      against.add(pair[1]);
      const x = spineOf(pair[0]);
      const y = spineOf(pair[1]);
      if (x.args.length !== y.args.length || !this.sameHead(x.head, y.head)) {
        // Pairs under way when a difference shows were never verified: forget them all.
        this.seen.clear();
        return false;
      }
      for (let i = 0; i < x.args.length; i++) pending.push([x.args[i] as Type, y.args[i] as Type]);
    }
    return true;
  }

  private sameHead(a: Type, b: Type): boolean {
    switch (a.kind) {
      case 'var': {
        const d = this.pastDepth.get(a.name);
        return b.kind === 'var' && d !== undefined && d === this.presentDepth.get(b.name);
      }
      case 'nat': return b.kind === 'nat' && a.value === b.value;
      case 'builtin': return b.kind === 'builtin' && a.builtin === b.builtin;
      case 'con': return b.kind === 'con' && this.sameTyCon(a.tycon, b.tycon);
      default: return false;
    }
  }

  private sameTyCon(a: QualifiedName, b: QualifiedName): boolean {
    if (a.module !== b.module || a.name !== b.name) return false;
    const x = this.metadataOf(a.packageId, this.past);
    const y = this.metadataOf(b.packageId, this.present);
    if (x === undefined && y === undefined) return a.packageId === b.packageId;
    return x !== undefined && y !== undefined && x.name === y.name && compareVersions(x.version, y.version) <= 0;
  }

  private metadataOf(packageId: string, self: Package): { readonly name: string; readonly version: string } | undefined {
    return packageId === self.id && self.metadata ? self.metadata : this.packageOf(packageId);
  }
}

const typeConId = (n: QualifiedName): string => `${n.packageId}:${n.module}:${n.name}`;
