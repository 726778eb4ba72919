/**
 * A decoded Daml-LF 2 package (daml_lf2.proto `Package`, daml-lf-2.rst "Packages"), interning
 * resolved: every name is a JS string, every reference a `QualifiedName` with a package id.
 */
import type { Expr } from './Expr.js';
import type { Kind, QualifiedName, Type } from './Type.js';

export interface TypeVarWithKind { readonly name: string; readonly kind: Kind }
export interface FieldWithType { readonly name: string; readonly type: Type }

export type DataCons =
  /** `fieldNames` is shared by every record value of the type. */
  | { readonly kind: 'record'; readonly fields: readonly FieldWithType[]; readonly fieldNames: readonly string[] }
  | { readonly kind: 'variant'; readonly constructors: readonly FieldWithType[] }
  | { readonly kind: 'enum'; readonly constructors: readonly string[] }
  | { readonly kind: 'interface' };

export interface DefDataType {
  readonly name: string;
  readonly params: readonly TypeVarWithKind[];
  readonly serializable: boolean;
  readonly cons: DataCons;
}

export interface DefTypeSyn {
  readonly name: string;
  readonly params: readonly TypeVarWithKind[];
  readonly type: Type;
}

export interface DefValue {
  readonly name: string;
  readonly type: Type;
  readonly expr: Expr;
}

export interface TemplateChoice {
  readonly name: string;
  readonly consuming: boolean;
  readonly controllers: Expr;
  readonly observers: Expr | undefined;
  /** Explicit authorizers (LF 2.dev); absent means the controllers and signatories. */
  readonly authorizers: Expr | undefined;
  readonly argBinder: { readonly name: string; readonly type: Type };
  readonly selfBinder: string;
  readonly returnType: Type;
  readonly update: Expr;
}

export interface InterfaceInstance {
  readonly iface: QualifiedName;
  /** Method bodies, in scope of the template parameter. */
  readonly methods: ReadonlyMap<string, Expr>;
  readonly view: Expr;
}

export interface DefTemplate {
  readonly name: string;
  readonly param: string;
  readonly precondition: Expr;
  readonly signatories: Expr;
  readonly observers: Expr;
  readonly choices: ReadonlyMap<string, TemplateChoice>;
  readonly key: { readonly type: Type; readonly body: Expr; readonly maintainers: Expr } | undefined;
  /** Keyed by `packageId:module:name` of the interface (see `qualifiedKey`). */
  readonly implements: ReadonlyMap<string, InterfaceInstance>;
}

export interface DefInterface {
  readonly name: string;
  readonly param: string;
  readonly methods: ReadonlyMap<string, Type>;
  readonly choices: ReadonlyMap<string, TemplateChoice>;
  readonly view: Type;
  readonly requires: readonly QualifiedName[];
}

export interface DefException {
  readonly name: string;
  /** A function from the exception payload to its message text. */
  readonly message: Expr;
}

export interface Module {
  readonly name: string;
  readonly synonyms: ReadonlyMap<string, DefTypeSyn>;
  readonly dataTypes: ReadonlyMap<string, DefDataType>;
  readonly values: ReadonlyMap<string, DefValue>;
  readonly templates: ReadonlyMap<string, DefTemplate>;
  readonly exceptions: ReadonlyMap<string, DefException>;
  readonly interfaces: ReadonlyMap<string, DefInterface>;
}

/** A module's definition maps as a decoder or builder fills them: `Module`'s maps, writable. */
export type ModuleMaps = {
  readonly [K in Exclude<keyof Module, 'name'>]: Module[K] extends ReadonlyMap<string, infer D> ? Map<string, D> : never;
};

export interface PackageMetadata {
  readonly name: string;
  readonly version: string;
  readonly upgradedPackageId: string | undefined;
}

export interface Package {
  /** SHA-256 hex of the archive payload, checked against the archive's `hash`. */
  readonly id: string;
  /** The LF version, e.g. `2.1`. */
  readonly lfVersion: string;
  readonly metadata: PackageMetadata | undefined;
  readonly modules: ReadonlyMap<string, Module>;
  /** Package ids this package declares it imports (absent before LF 2.2's explicit import table). */
  readonly imports: readonly string[] | undefined;
}

/** `packageId:Module.Name:Def.Name`, the key of a definition in maps. */
export function qualifiedKey(name: QualifiedName): string {
  return `${name.packageId}:${name.module}:${name.name}`;
}
