import { createHash } from 'node:crypto';
import type { LedgerError } from '../errors.js';
import { fail } from '../errors.js';
import type { Result } from '../result.js';
import { ok } from '../result.js';
import type { DamlRecord, DamlValue } from '../wire.js';
import type { ChoiceSpec, ContractView, FieldType, InterfaceSpec, KeySpec, RecordType, TemplateSpec } from './types.js';

/** A choice as the interpreter uses it. `interface` is set for interface choices. */
export interface ChoiceDef extends ChoiceSpec {
  readonly name: string;
  readonly argumentType: FieldType;
  readonly interface?: InterfaceDef;
}

export interface InterfaceDef {
  readonly kind: 'interface';
  /** `pkgId:Module:Entity`, the form events carry. */
  readonly id: string;
  readonly packageId: string;
  readonly packageName: string;
  readonly qualifiedName: string;
  readonly choices: ReadonlyMap<string, ChoiceDef>;
}

export interface TemplateDef {
  readonly kind: 'template';
  readonly id: string;
  readonly packageId: string;
  readonly packageName: string;
  readonly qualifiedName: string;
  readonly fields: RecordType;
  signatoriesOf(argument: DamlRecord): string[];
  observersOf(argument: DamlRecord): string[];
  readonly key: KeySpec | undefined;
  readonly ensure: ((argument: DamlRecord) => string | undefined) | undefined;
  readonly choices: ReadonlyMap<string, ChoiceDef>;
  /** Implemented interfaces by interface id (package-id form). */
  readonly interfaces: ReadonlyMap<string, InterfaceImpl>;
}

/** How a template implements an interface: its view, computed at once or (uploaded code) in slices. */
export interface InterfaceImpl {
  readonly def: InterfaceDef;
  readonly view: (self: ContractView) => DamlValue;
  /** The same view evaluated in slices that yield to the event loop (engine templates); rejects with ViewFailed. */
  readonly viewSliced?: (self: ContractView) => Promise<DamlValue>;
}

export type IdentifierDef = TemplateDef | InterfaceDef;

/** Where the catalogue finds templates it does not declare: those of uploaded packages. */
export interface UploadedDefs {
  resolve(id: string): IdentifierDef | undefined;
  hasPackageName(name: string): boolean;
  /** Every uploaded version of a `#name` id's template or interface (filters by package name match them all). */
  versions(id: string): readonly IdentifierDef[];
}

/** A package as the catalogue knows it (built-in and fixture-declared templates have no DAR). */
export interface CataloguePackage {
  readonly packageId: string;
  readonly packageName: string;
  readonly packageVersion: string;
}

/** The version of every built-in package. */
export const BUILT_IN_PACKAGE_VERSION = '1.0.0';

/** Package ids are derived from name and version, so they are stable across runs. */
export function packageIdOf(packageName: string, version = BUILT_IN_PACKAGE_VERSION): string {
  return createHash('sha256').update(`${packageName}@${version}`).digest('hex');
}

const ID_PART = /^[A-Za-z_][A-Za-z0-9_']*(\.[A-Za-z_][A-Za-z0-9_']*)*$/;
const PKG_ID = /^[0-9a-f]{64}$/;
const PKG_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export type ParsedIdentifier = { readonly pkg: string; readonly byName: boolean; readonly module: string; readonly entity: string };

/** Identifiers parsed so far (every command, filter and event names a few, over and over); emptied when full. */
const parsedIds = new Map<string, ParsedIdentifier | undefined>();
const PARSED_KEPT = 4096;

/** Splits `pkgId:Module:Entity` or `#pkg-name:Module:Entity`; undefined when malformed. The answer is shared (frozen). */
export function parseIdentifier(id: string): ParsedIdentifier | undefined {
  const known = parsedIds.get(id);
  if (known !== undefined || parsedIds.has(id)) return known;
  const parsed = parseIdentifierOnce(id);
  if (parsedIds.size >= PARSED_KEPT) parsedIds.clear();
  // Only strings are kept: a caller passing something else gets the parse's answer, unremembered.
  if (typeof id === 'string') parsedIds.set(id, parsed === undefined ? undefined : Object.freeze(parsed));
  return parsed;
}

function parseIdentifierOnce(id: string): ParsedIdentifier | undefined {
  const parts = id.split(':');
  if (parts.length !== 3) return undefined;
  const [pkg, module, entity] = parts as [string, string, string];
  const byName = pkg.startsWith('#');
  const pkgRef = byName ? pkg.slice(1) : pkg;
  if (byName ? !PKG_NAME.test(pkgRef) : !PKG_ID.test(pkgRef)) return undefined;
  if (!ID_PART.test(module) || !ID_PART.test(entity)) return undefined;
  return { pkg: pkgRef, byName, module, entity };
}

function partiesFrom(fieldsOrFn: readonly string[] | ((argument: DamlRecord) => readonly string[]) | undefined) {
  if (fieldsOrFn === undefined) return () => [];
  if (typeof fieldsOrFn === 'function') return (argument: DamlRecord) => [...new Set(fieldsOrFn(argument))].sort();
  const fields = fieldsOrFn;
  return (argument: DamlRecord) => {
    const out = new Set<string>();
    for (const f of fields) {
      const v = argument[f];
      if (typeof v === 'string') out.add(v);
      else if (Array.isArray(v)) for (const p of v) if (typeof p === 'string') out.add(p);
    }
    return [...out].sort();
  };
}

const archiveChoice = (): ChoiceDef => ({
  name: 'Archive',
  consuming: true,
  argumentType: { record: {} },
  controllers: (self) => self.signatories,
});

/**
 * The template catalogue: what contracts may exist and what can be done with them. Extensible at
 * runtime (the registry and Scan apps add theirs; fixture files declare more).
 */
export class Catalogue {
  readonly #byId = new Map<string, IdentifierDef>();
  readonly #packageNames = new Set<string>();
  readonly #templates: TemplateDef[] = [];
  readonly #packages = new Map<string, CataloguePackage>();
  /** Templates and interfaces of uploaded packages (the engine's), consulted after the declared ones. */
  #uploaded: UploadedDefs | undefined;
  /** Package names handed to the uploaded packages of that name (yieldToUploaded). */
  readonly #yielded = new Set<string>();

  /** Makes the templates and interfaces of uploaded packages resolvable (ids of either form). */
  useUploaded(uploaded: UploadedDefs): void {
    this.#uploaded = uploaded;
  }

  templates(): readonly TemplateDef[] {
    return this.#templates;
  }

  /** Was `id` declared here (not only resolvable through an uploaded package)? */
  declares(id: string): boolean {
    return this.#byId.has(id);
  }

  /**
   * The packages the catalogue's templates and interfaces belong to, in registration order: the
   * ones the participant lists, vets and selects (not those whose name was yielded).
   */
  packages(): readonly CataloguePackage[] {
    const all = [...this.#packages.values()];
    return this.#yielded.size === 0 ? all : all.filter((p) => !this.#yielded.has(p.packageName));
  }

  /** A declared template or interface by either id form, never an uploaded one (what the built-in apps index). */
  declared(id: string): IdentifierDef | undefined {
    return this.#byId.get(id);
  }

  /**
   * Hands each package name of declared templates that an uploaded package also has (in
   * `uploadedNames`, less `keep`) to the uploaded packages, as on a participant that holds only
   * those (Splice's DARs over the built-in ports): a `#name` id resolves to the uploaded package
   * alone, and the declared package of that name leaves the listing, the vetting and package
   * selection. Its templates stay declared under their package ids (`declared`). Interface-only
   * packages (the token standard's APIs) keep both: a name filter matches every version of a
   * name, and an exercise by name resolves for the contract at hand. Returns the names yielded.
   */
  yieldToUploaded(uploadedNames: ReadonlySet<string>, keep: ReadonlySet<string> = new Set()): readonly string[] {
    for (const t of this.#templates) {
      if (uploadedNames.has(t.packageName) && !keep.has(t.packageName)) this.#yielded.add(t.packageName);
    }
    return [...this.#yielded];
  }

  addInterface(spec: InterfaceSpec): Result<InterfaceDef, LedgerError> {
    const names = this.#names(spec);
    if (!names.ok) return names;
    const choices = new Map<string, ChoiceDef>();
    const def: InterfaceDef = { kind: 'interface', ...names.value, choices };
    for (const [name, c] of Object.entries(spec.choices ?? {})) {
      choices.set(name, { ...c, name, argumentType: c.argument ?? { record: {} }, interface: def });
    }
    this.#register(def, spec.packageName, spec.packageVersion);
    return ok(def);
  }

  addTemplate(spec: TemplateSpec): Result<TemplateDef, LedgerError> {
    const names = this.#names(spec);
    if (!names.ok) return names;
    for (const f of [...(typeof spec.signatories === 'function' ? [] : spec.signatories), ...(typeof spec.observers === 'function' || !spec.observers ? [] : spec.observers)]) {
      if (!(f in spec.fields)) return fail('INVALID_ARGUMENT', `template ${names.value.id}: party field '${f}' is not a field of the template`);
    }
    const choices = new Map<string, ChoiceDef>([['Archive', archiveChoice()]]);
    for (const [name, c] of Object.entries(spec.choices ?? {})) {
      if (name === 'Archive') return fail('INVALID_ARGUMENT', `template ${names.value.id}: 'Archive' is built in and cannot be redeclared`);
      choices.set(name, { ...c, name, argumentType: c.argument ?? { record: {} } });
    }
    const interfaces = new Map<string, { def: InterfaceDef; view: (self: ContractView) => DamlValue }>();
    for (const [ifaceId, impl] of Object.entries(spec.implements ?? {})) {
      const iface = this.resolve(ifaceId);
      if (!iface.ok) return iface;
      if (iface.value.kind !== 'interface') return fail('INVALID_ARGUMENT', `${ifaceId} is a template, not an interface`);
      interfaces.set(iface.value.id, { def: iface.value, view: impl.view });
    }
    const def: TemplateDef = {
      kind: 'template',
      ...names.value,
      fields: spec.fields,
      signatoriesOf: partiesFrom(spec.signatories),
      observersOf: partiesFrom(spec.observers),
      key: spec.key,
      ensure: spec.ensure,
      choices,
      interfaces,
    };
    this.#register(def, spec.packageName, spec.packageVersion);
    this.#templates.push(def);
    return ok(def);
  }

  /** Looks up a template or interface by either id form. */
  resolve(id: string): Result<IdentifierDef, LedgerError> {
    const parsed = parseIdentifier(id);
    if (!parsed) {
      return fail('INVALID_ARGUMENT', `Invalid identifier '${id}': expected 'packageId:Module:Entity' or '#package-name:Module:Entity'`);
    }
    const def = parsed.byName && this.#yielded.has(parsed.pkg) ? this.#uploaded?.resolve(id) : (this.#byId.get(id) ?? this.#uploaded?.resolve(id));
    if (def) return ok(def);
    if (parsed.byName && !this.#packageNames.has(parsed.pkg) && this.#uploaded?.hasPackageName(parsed.pkg) !== true) {
      return fail('PACKAGE_NAMES_NOT_FOUND', `The following package names do not match upgradable packages: ${parsed.pkg}`, {
        context: { packageNames: parsed.pkg },
      });
    }
    return fail('TEMPLATES_OR_INTERFACES_NOT_FOUND', `The following template or interface ids were not found: ${id}`, {
      context: { templatesOrInterfaces: id },
    });
  }

  /**
   * What a filter naming `id` matches: the one definition, or, for a `#name` id, also that
   * template or interface in every uploaded package of that name (as Canton filters by package
   * name), beside a built-in model of the same name.
   */
  resolveForFilter(id: string): Result<readonly IdentifierDef[], LedgerError> {
    const r = this.resolve(id);
    if (!r.ok) return r;
    if (!id.startsWith('#') || !this.#uploaded) return ok([r.value]);
    // Built-in models share names with real packages (the token standard): a name filter matches both.
    const all = this.#uploaded.versions(id).filter((d) => d.kind === r.value.kind);
    return ok(all.includes(r.value) ? all : [r.value, ...all]);
  }

  /**
   * An id an older version of this server gave a built-in package: a data directory written then
   * still names it, so its templates and interfaces resolve as `packageId`'s (reported under that id).
   */
  aliasPackageId(legacy: string, packageId: string): void {
    for (const def of [...this.#byId.values()]) {
      if (def.packageId === packageId) this.#byId.set(`${legacy}:${def.qualifiedName}`, def);
    }
  }

  resolveTemplate(id: string): Result<TemplateDef, LedgerError> {
    const r = this.resolve(id);
    if (!r.ok) return r;
    if (r.value.kind !== 'template') return fail('INVALID_ARGUMENT', `'${id}' is an interface, a template id is required here`);
    return ok(r.value);
  }

  #names(spec: { packageName: string; packageId?: string; packageVersion?: string; module: string; entity: string }) {
    if (!PKG_NAME.test(spec.packageName)) return fail('INVALID_ARGUMENT', `invalid package name '${spec.packageName}'`);
    if (!ID_PART.test(spec.module) || !ID_PART.test(spec.entity)) {
      return fail('INVALID_ARGUMENT', `invalid module or entity name '${spec.module}:${spec.entity}'`);
    }
    const packageId = spec.packageId ?? packageIdOf(spec.packageName, spec.packageVersion);
    if (!PKG_ID.test(packageId)) return fail('INVALID_ARGUMENT', `invalid package id '${packageId}': 64 lowercase hex digits expected`);
    const qualifiedName = `${spec.module}:${spec.entity}`;
    const id = `${packageId}:${qualifiedName}`;
    if (this.#byId.has(id) || this.#byId.has(`#${spec.packageName}:${qualifiedName}`)) {
      return fail('INVALID_ARGUMENT', `'#${spec.packageName}:${qualifiedName}' is already in the catalogue`);
    }
    return ok({ id, packageId, packageName: spec.packageName, qualifiedName });
  }

  #register(def: IdentifierDef, packageName: string, packageVersion = BUILT_IN_PACKAGE_VERSION) {
    if (!this.#packages.has(def.packageId)) this.#packages.set(def.packageId, { packageId: def.packageId, packageName, packageVersion });
    this.#byId.set(def.id, def);
    this.#byId.set(`#${packageName}:${def.qualifiedName}`, def);
    this.#packageNames.add(packageName);
  }
}
