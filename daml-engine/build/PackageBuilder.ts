/**
 * A small builder of Daml-LF 2 packages for tests: the project writes its own packages (sample
 * templates, interfaces, exceptions, hostile code) instead of reading upstream DARs.
 *
 *     const b = new PackageBuilder({ name: 'my-sample', version: '1.0.0' });
 *     const m = b.module('Main');
 *     const Asset = m.template('Asset', {
 *       fields: { issuer: T.party, owner: T.party, amount: T.int64 },
 *       signatories: (t) => E.list(T.party, [t.field('issuer')]),
 *       observers: (t) => E.list(T.party, [t.field('owner')]),
 *       choices: [{
 *         name: 'Transfer', arg: { newOwner: T.party }, returnType: T.contractId(Asset.type),
 *         controllers: (c) => E.list(T.party, [c.field('owner')]),
 *         update: (c) => E.create(Asset.ref, E.setField(Asset.ref, 'owner', c.this, c.argField('newOwner'))),
 *       }],
 *     });
 *     const built = b.build();            // { id, package, payload, dalf, dar(), ref() }
 *
 * Everything is the engine's own AST (`ast/Package.ts`, `ast/Expr.ts`, `ast/Type.ts`), encoded by
 * `encode/encodePackage.ts`: the builder never validates, so ill-typed bodies, unknown references,
 * odd names and versions, deep nesting all go through as written (hostile packages for tests).
 *
 * References to the package's own definitions carry the placeholder id `SELF_PACKAGE_ID` until
 * `build()`, which encodes them as the proto's `self_package_id`, hashes the payload and decodes it
 * again: `built.package` and `built.ref(...)` carry the real package id. Other packages are
 * referenced by their id (`{ packageId, module, name }`); put their DALFs in the DAR with
 * `built.dar({ dependencies })`.
 */
import type { Expr, TypeConApp } from '../ast/Expr.js';
import type {
  DefDataType, FieldWithType,
  InterfaceInstance, Module, ModuleMaps, Package, TemplateChoice, TypeVarWithKind,
} from '../ast/Package.js';
import { qualifiedKey } from '../ast/Package.js';
import type { QualifiedName, Type } from '../ast/Type.js';
import { decodeArchive } from '../decode/decodeArchive.js';
import { encodeArchive } from '../encode/encodeArchive.js';
import type { DarInput } from '../encode/encodeDar.js';
import { encodeDar } from '../encode/encodeDar.js';
import { encodePackagePayload } from '../encode/encodePackage.js';
import { E } from './E.js';
import { STAR, T } from './T.js';

/** The package id self references carry before `build()` hashes the payload. */
export const SELF_PACKAGE_ID = 'self';

export interface PackageBuilderOptions {
  /** Package metadata name; not validated (hostile names such as `''` or `'../x/y'` are allowed). */
  readonly name: string;
  readonly version: string;
  /** Daml-LF version, `2.1` by default (what SDK 3.3 to 3.5 compilers write). */
  readonly lfVersion?: string;
  readonly upgradedPackageId?: string;
  /** Leave out the metadata altogether (a malformed LF 2 package). */
  readonly noMetadata?: boolean;
  /** An explicit import table (LF 2.dev `package_imports`); absent, other packages are named by interned id. */
  readonly imports?: readonly string[];
}

/** Fields in order: an object (insertion order) or a list of name/type pairs. */
export type FieldsSpec = Readonly<Record<string, Type>> | readonly FieldWithType[];

/** An expression, or a function building it from the scope it is evaluated in. */
export type ScopedExpr<S> = Expr | ((scope: S) => Expr);

/** What a template's expressions see: the contract argument, bound to `param`. */
export interface TemplateScope {
  /** The contract argument (a variable named after the template's `param`, `this` by default). */
  readonly this: Expr;
  /** A field of the contract argument. */
  field(name: string): Expr;
}

/** What a choice's expressions see: the contract argument, the choice argument and (in the body) the contract id. */
export interface ChoiceScope extends TemplateScope {
  /** The choice argument (variable `arg`). */
  readonly arg: Expr;
  /** A field of the choice argument, when it is the record the builder defined for it (`arg: {...}`). */
  argField(name: string): Expr;
  /** The contract id of the exercised contract (variable `self`); meaningful in the update body only. */
  readonly self: Expr;
}

export interface ChoiceSpec {
  readonly name: string;
  /** Consuming by default. */
  readonly consuming?: boolean;
  /**
   * The argument's fields: a record the builder defines in the module under the choice's name, as
   * the compiler does (none: an empty record). Ignored when `argType` is given.
   */
  readonly arg?: FieldsSpec;
  /** Any argument type instead of the record of `arg`. */
  readonly argType?: Type;
  readonly returnType: Type;
  /** `[Party]`. */
  readonly controllers: ScopedExpr<ChoiceScope>;
  /** `[Party]`; absent means none (the proto's optional field left out). */
  readonly observers?: ScopedExpr<ChoiceScope>;
  /** `[Party]` (LF 2.dev explicit authorizers). */
  readonly authorizers?: ScopedExpr<ChoiceScope>;
  /** An `Update returnType` expression. */
  readonly update: ScopedExpr<ChoiceScope>;
}

export interface ImplementsSpec {
  readonly iface: QualifiedName;
  /** The interface view value, in scope of the template argument. */
  readonly view: ScopedExpr<TemplateScope>;
  readonly methods?: Readonly<Record<string, ScopedExpr<TemplateScope>>>;
}

export interface TemplateSpec {
  readonly fields: FieldsSpec;
  /** The variable the contract argument is bound to, `this` by default. */
  readonly param?: string;
  /** `Bool`; `True` by default. */
  readonly precondition?: ScopedExpr<TemplateScope>;
  /** `[Party]`. */
  readonly signatories: ScopedExpr<TemplateScope>;
  /** `[Party]`; no observers by default. */
  readonly observers?: ScopedExpr<TemplateScope>;
  readonly choices?: readonly ChoiceSpec[];
  /**
   * The `Archive` choice every compiled template has (consuming, controllers the signatories,
   * returning `()`), its empty argument record `Archive` defined in the module: added unless
   * `false` or a choice of that name is given.
   */
  readonly archive?: boolean;
  readonly implements?: readonly ImplementsSpec[];
  readonly key?: { readonly type: Type; readonly body: ScopedExpr<TemplateScope>; readonly maintainers: Expr };
}

export interface InterfaceSpec {
  /** The view type (a record type). */
  readonly view: Type;
  readonly methods?: Readonly<Record<string, Type>>;
  /** Choices see the interface value as `this` (`field` is unavailable there). */
  readonly choices?: readonly ChoiceSpec[];
  readonly requires?: readonly QualifiedName[];
  readonly param?: string;
}

/** A defined record-like type: its reference, its type, and helpers for its values. */
export interface TypeHandle {
  readonly ref: QualifiedName;
  /** `T.con(ref)`. */
  readonly type: Type;
  readonly tycon: TypeConApp;
}

/** The package as built: bytes to upload and the decoded package with its real id. */
export interface BuiltPackage {
  /** SHA-256 hex of `payload`, as `decodeArchive` checks. */
  readonly id: string;
  readonly name: string;
  readonly version: string;
  /** The package as the engine decodes it from `dalf` (real ids, bodies as written), decoded on first use. */
  readonly package: Package;
  /** The ArchivePayload bytes. */
  readonly payload: Uint8Array;
  /** The Archive (DALF) bytes. */
  readonly dalf: Uint8Array;
  /** A definition of this package by module and name, with the real package id. */
  ref(module: string, name: string): QualifiedName;
  /** A DAR holding this package (main) and the given dependency DALFs. */
  dar(options?: Omit<DarInput, 'main' | 'name'> & { readonly name?: string }): Uint8Array;
}

interface MutableModule extends ModuleMaps {
  readonly name: string;
}

function fieldList(fields: FieldsSpec): FieldWithType[] {
  return Array.isArray(fields) ? [...(fields as readonly FieldWithType[])] : Object.entries(fields as Record<string, Type>).map(([name, type]) => ({ name, type }));
}

const resolve = <S>(e: ScopedExpr<S>, scope: S): Expr => (typeof e === 'function' ? e(scope) : e);
const handle = (ref: QualifiedName): TypeHandle => ({ ref, type: T.con(ref), tycon: { tycon: ref, args: [] } });

export class ModuleBuilder {
  /** @internal */
  readonly def: MutableModule;

  constructor(name: string) {
    this.def = { name, synonyms: new Map(), dataTypes: new Map(), values: new Map(), templates: new Map(), exceptions: new Map(), interfaces: new Map() };
  }

  get name(): string {
    return this.def.name;
  }

  /** A definition of this module (by placeholder id until the package is built). */
  ref(name: string): QualifiedName {
    return { packageId: SELF_PACKAGE_ID, module: this.def.name, name };
  }

  /** Any data type definition, as written. */
  dataType(def: DefDataType): QualifiedName {
    this.def.dataTypes.set(def.name, def);
    return this.ref(def.name);
  }

  record(name: string, fields: FieldsSpec, options: { params?: readonly string[]; serializable?: boolean } = {}): TypeHandle {
    const list = fieldList(fields);
    this.dataType({
      name, params: (options.params ?? []).map((p): TypeVarWithKind => ({ name: p, kind: STAR })),
      serializable: options.serializable ?? true, cons: { kind: 'record', fields: list, fieldNames: list.map((f) => f.name) },
    });
    return handle(this.ref(name));
  }

  variant(name: string, constructors: FieldsSpec, options: { params?: readonly string[]; serializable?: boolean } = {}): TypeHandle {
    this.dataType({
      name, params: (options.params ?? []).map((p) => ({ name: p, kind: STAR })),
      serializable: options.serializable ?? true, cons: { kind: 'variant', constructors: fieldList(constructors) },
    });
    return handle(this.ref(name));
  }

  enum(name: string, constructors: readonly string[]): TypeHandle {
    this.dataType({ name, params: [], serializable: true, cons: { kind: 'enum', constructors } });
    return handle(this.ref(name));
  }

  synonym(name: string, params: readonly string[], type: Type): QualifiedName {
    this.def.synonyms.set(name, { name, params: params.map((p) => ({ name: p, kind: STAR })), type });
    return this.ref(name);
  }

  /** A top-level value. */
  value(name: string, type: Type, expr: Expr): QualifiedName {
    this.def.values.set(name, { name, type, expr });
    return this.ref(name);
  }

  /** A template and its argument record (serializable, named after the template), as the compiler writes them. */
  template(name: string, spec: TemplateSpec): TypeHandle {
    const rec = this.record(name, spec.fields);
    const param = spec.param ?? 'this';
    const scope = templateScope(rec.tycon, param);
    const choices = new Map<string, TemplateChoice>();
    for (const c of spec.choices ?? []) choices.set(c.name, this.choice(c, scope));
    if (spec.archive !== false && !choices.has('Archive')) {
      choices.set('Archive', this.choice({
        name: 'Archive', returnType: T.unit, controllers: spec.signatories, update: E.pure(T.unit, E.unit),
      }, scope));
    }
    const implementsMap = new Map<string, InterfaceInstance>();
    for (const i of spec.implements ?? []) {
      const methods = new Map(Object.entries(i.methods ?? {}).map(([m, e]) => [m, resolve(e, scope)] as const));
      implementsMap.set(qualifiedKey(i.iface), { iface: i.iface, methods, view: resolve(i.view, scope) });
    }
    this.def.templates.set(name, {
      name, param,
      precondition: spec.precondition === undefined ? E.true : resolve(spec.precondition, scope),
      signatories: resolve(spec.signatories, scope),
      observers: spec.observers === undefined ? E.nil(T.party) : resolve(spec.observers, scope),
      choices,
      key: spec.key && { type: spec.key.type, body: resolve(spec.key.body, scope), maintainers: spec.key.maintainers },
      implements: implementsMap,
    });
    return rec;
  }

  /** An interface: its data type (`DataInterface`) and definition. */
  interface(name: string, spec: InterfaceSpec): TypeHandle {
    this.dataType({ name, params: [], serializable: false, cons: { kind: 'interface' } });
    const param = spec.param ?? 'this';
    const self = handle(this.ref(name));
    const scope: TemplateScope = {
      this: E.var(param),
      field: () => { throw new Error(`an interface value has no fields (interface ${name})`); },
    };
    const choices = new Map<string, TemplateChoice>();
    for (const c of spec.choices ?? []) choices.set(c.name, this.choice(c, scope));
    this.def.interfaces.set(name, {
      name, param, methods: new Map(Object.entries(spec.methods ?? {})), choices, view: spec.view, requires: spec.requires ?? [],
    });
    return self;
  }

  /** An exception: its payload record and a message function (`\(e : Name) -> Text`). */
  exception(name: string, fields: FieldsSpec, message: Expr | ((payload: TemplateScope) => Expr)): TypeHandle {
    const rec = this.record(name, fields);
    const body = resolve(message, templateScope(rec.tycon, 'exception'));
    this.def.exceptions.set(name, { name, message: typeof message === 'function' ? E.lam([['exception', rec.type]], body) : body });
    return rec;
  }

  private choice(spec: ChoiceSpec, template: TemplateScope): TemplateChoice {
    let argType: Type;
    let argTycon: TypeConApp | undefined;
    if (spec.argType) {
      argType = spec.argType;
    } else {
      const rec = this.record(spec.name, spec.arg ?? {});
      argType = rec.type;
      argTycon = rec.tycon;
    }
    const scope: ChoiceScope = {
      ...template,
      field: template.field,
      arg: E.var('arg'),
      argField: (name) => {
        if (!argTycon) throw new Error(`choice ${spec.name}: argField needs the argument record the builder defines`);
        return E.field(argTycon, name, E.var('arg'));
      },
      self: E.var('self'),
    };
    return {
      name: spec.name, consuming: spec.consuming ?? true,
      controllers: resolve(spec.controllers, scope),
      observers: spec.observers === undefined ? undefined : resolve(spec.observers, scope),
      authorizers: spec.authorizers === undefined ? undefined : resolve(spec.authorizers, scope),
      argBinder: { name: 'arg', type: argType }, selfBinder: 'self', returnType: spec.returnType,
      update: resolve(spec.update, scope),
    };
  }

  /** @internal */
  toModule(): Module {
    return { ...this.def };
  }
}

function templateScope(tycon: TypeConApp, param: string): TemplateScope {
  const self = E.var(param);
  return { this: self, field: (name) => E.field(tycon, name, self) };
}

export class PackageBuilder {
  private readonly modules = new Map<string, ModuleBuilder>();

  constructor(readonly options: PackageBuilderOptions) {}

  /** The module of that name, created on first use. */
  module(name: string): ModuleBuilder {
    let m = this.modules.get(name);
    if (!m) { m = new ModuleBuilder(name); this.modules.set(name, m); }
    return m;
  }

  /** The package as the AST, self references under `SELF_PACKAGE_ID`. */
  toPackage(): Package {
    const o = this.options;
    return {
      id: SELF_PACKAGE_ID,
      lfVersion: o.lfVersion ?? '2.1',
      metadata: o.noMetadata ? undefined : { name: o.name, version: o.version, upgradedPackageId: o.upgradedPackageId },
      modules: new Map([...this.modules].map(([name, m]) => [name, m.toModule()])),
      imports: o.imports,
    };
  }

  /** Encodes and hashes the package; `package` of the result is what the engine decodes from it. */
  build(): BuiltPackage {
    return buildPackage(this.toPackage());
  }
}

/**
 * Encodes any AST package (self references under `pkg.id`) into a DALF. `package` decodes the DALF
 * on first use and throws when the engine cannot decode it (the point of some hostile packages:
 * nesting deeper than the decoder allows, an LF version it refuses).
 */
export function buildPackage(pkg: Package): BuiltPackage {
  const payload = encodePackagePayload(pkg);
  const { dalf, id } = encodeArchive(payload);
  const name = pkg.metadata?.name ?? 'package';
  const version = pkg.metadata?.version ?? '0.0.0';
  let decoded: Package | undefined;
  return {
    id, name, version, payload, dalf,
    get package(): Package {
      if (decoded) return decoded;
      const result = decodeArchive(dalf);
      if (!result.ok) throw new Error(`the built package does not decode: ${result.failure.message}`);
      return (decoded = result.value);
    },
    ref: (module, defName) => ({ packageId: id, module, name: defName }),
    // A DAR's name is also a path segment: a hostile package name must not make it one.
    dar: (options = {}) => encodeDar({ ...options, name: options.name ?? darName(name, version), main: dalf }),
  };
}

/** `name-version`, as damlc names a DAR, made safe as one path segment of the zip. */
function darName(name: string, version: string): string {
  const safe = `${name}-${version}`.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
  return safe === '' || /^\.+$/.test(safe) ? 'package' : safe;
}
