import type { DefInterface, DefTemplate, Package, TemplateChoice } from '../../../../daml-engine/ast/Package.js';
import type { QualifiedName, Type } from '../../../../daml-engine/ast/Type.js';
import type { ChoiceDef, IdentifierDef, InterfaceDef, InterfaceImpl, TemplateDef } from '../templates/Catalogue.js';
import { parseIdentifier } from '../templates/Catalogue.js';
import type { ContractView } from '../templates/types.js';
import type { DamlValue } from '../wire.js';
import type { EnginePackages } from './EnginePackages.js';

/** A choice of an engine template or interface: its Daml-LF definition beside the catalogue's shape. */
export interface EngineChoiceDef extends ChoiceDef {
  readonly engine: TemplateChoice;
}

/** A template of an uploaded package, behind the catalogue's `TemplateDef` shape. */
export interface EngineTemplateDef extends TemplateDef {
  readonly engine: { readonly name: QualifiedName; readonly def: DefTemplate; readonly type: Type };
  readonly choices: ReadonlyMap<string, EngineChoiceDef>;
}

export interface EngineInterfaceDef extends InterfaceDef {
  readonly engine: { readonly name: QualifiedName; readonly def: DefInterface };
  readonly choices: ReadonlyMap<string, EngineChoiceDef>;
}

export type EngineDef = EngineTemplateDef | EngineInterfaceDef;

export const isEngineDef = (d: IdentifierDef): d is EngineDef => 'engine' in d;

/** An interface view as the JSON API renders it, computed by the engine from the contract. */
export type ViewOf = (template: EngineTemplateDef, iface: EngineInterfaceDef, self: ContractView) => DamlValue;
/** The same, evaluated in slices that yield to the event loop (reads and streams). */
export type ViewSlicedOf = (template: EngineTemplateDef, iface: EngineInterfaceDef, self: ContractView) => Promise<DamlValue>;

/** The built-in and fixture templates never run engine choices: engine defs route to the engine. */
const NO_PARTIES = (): string[] => [];

/**
 * Templates and interfaces of uploaded packages, made on first use and kept (filters and store
 * indexes compare them by identity). `#name` ids resolve to the package `preferredPackageId`
 * picks, as Canton resolves a package-name reference.
 */
export class EngineCatalogue {
  /** By package id, module and name; only what was found is kept: a package uploaded later makes a missing name resolvable. */
  readonly #defs = new Map<string, Map<string, Map<string, EngineDef>>>();
  /** The same, by a def's own name object (the engine's nodes carry it; found defs are kept for good). */
  readonly #byNameObject = new WeakMap<QualifiedName, EngineDef>();

  constructor(
    readonly packages: EnginePackages,
    readonly preferredPackageId: (packageName: string) => string | undefined,
    readonly viewOf: ViewOf,
    readonly viewSlicedOf?: ViewSlicedOf,
  ) {}

  /** An engine template or interface by either id form; undefined when no uploaded package has it. */
  resolve(id: string): EngineDef | undefined {
    const parsed = parseIdentifier(id);
    if (!parsed) return undefined;
    const packageId = parsed.byName ? this.preferredPackageId(parsed.pkg) : parsed.pkg;
    if (packageId === undefined) return undefined;
    return this.byName({ packageId, module: parsed.module, name: parsed.entity });
  }

  /** The template or interface of a `#name` id in every uploaded version of the package. */
  versions(id: string): readonly EngineDef[] {
    const parsed = parseIdentifier(id);
    if (!parsed?.byName) return [];
    const out: EngineDef[] = [];
    for (const p of this.packages.admin.packages()) {
      if (p.packageName !== parsed.pkg) continue;
      const d = this.byName({ packageId: p.packageId, module: parsed.module, name: parsed.entity });
      if (d) out.push(d);
    }
    return out;
  }

  /** Whether `name` is the name of an uploaded package the engine can run. */
  hasPackageName(name: string): boolean {
    return this.preferredPackageId(name) !== undefined;
  }

  byName(name: QualifiedName): EngineDef | undefined {
    // The engine hands back the name objects it was given (a def's own `engine.name`): found by identity.
    const same = this.#byNameObject.get(name);
    if (same !== undefined) return same;
    const known = this.#defs.get(name.packageId)?.get(name.module)?.get(name.name);
    if (known !== undefined) return known;
    const pkg = this.packages.get(name.packageId);
    const module = pkg?.modules.get(name.module);
    const template = module?.templates.get(name.name);
    const iface = module?.interfaces.get(name.name);
    const key = `${name.packageId}:${name.module}:${name.name}`;
    let def: EngineDef | undefined;
    if (pkg && template) def = this.#template(pkg, name, key, template);
    else if (pkg && iface) def = this.#interface(pkg, name, key, iface);
    if (def) {
      const modules = this.#defs.get(name.packageId) ?? new Map<string, Map<string, EngineDef>>();
      this.#defs.set(name.packageId, modules);
      const names = modules.get(name.module) ?? new Map<string, EngineDef>();
      modules.set(name.module, names);
      names.set(name.name, def);
      this.#byNameObject.set(def.engine.name, def);
    }
    return def;
  }

  template(name: QualifiedName): EngineTemplateDef | undefined {
    const d = this.byName(name);
    return d?.kind === 'template' ? d : undefined;
  }

  interface(name: QualifiedName): EngineInterfaceDef | undefined {
    const d = this.byName(name);
    return d?.kind === 'interface' ? d : undefined;
  }

  #template(pkg: Package, name: QualifiedName, id: string, def: DefTemplate): EngineTemplateDef {
    const choices = new Map<string, EngineChoiceDef>();
    const interfaces = new Map<string, InterfaceImpl>();
    const out: EngineTemplateDef = {
      kind: 'template',
      id,
      packageId: name.packageId,
      packageName: pkg.metadata?.name ?? name.packageId,
      qualifiedName: `${name.module}:${name.name}`,
      fields: {},
      signatoriesOf: NO_PARTIES,
      observersOf: NO_PARTIES,
      key: undefined,
      ensure: undefined,
      choices,
      interfaces,
      engine: { name, def, type: { kind: 'con', tycon: name, args: [] } },
    };
    for (const [n, c] of def.choices) choices.set(n, choiceDef(c));
    for (const [ifaceKey, impl] of def.implements) {
      const iface = this.interface(impl.iface);
      if (!iface) continue;
      const sliced = this.viewSlicedOf;
      interfaces.set(ifaceKey, {
        def: iface,
        view: (self) => this.viewOf(out, iface, self),
        ...(sliced === undefined ? {} : { viewSliced: (self: ContractView) => sliced(out, iface, self) }),
      });
    }
    return out;
  }

  #interface(pkg: Package, name: QualifiedName, id: string, def: DefInterface): EngineInterfaceDef {
    const choices = new Map<string, EngineChoiceDef>();
    const out: EngineInterfaceDef = {
      kind: 'interface',
      id,
      packageId: name.packageId,
      packageName: pkg.metadata?.name ?? name.packageId,
      qualifiedName: `${name.module}:${name.name}`,
      choices,
      engine: { name, def },
    };
    for (const [n, c] of def.choices) choices.set(n, { ...choiceDef(c), interface: out });
    return out;
  }
}

function choiceDef(c: TemplateChoice): EngineChoiceDef {
  return { name: c.name, consuming: c.consuming, argumentType: 'Any', controllers: NO_PARTIES, engine: c };
}
