/**
 * Hand-built Daml-LF packages in the shape of each daml-script release line (the records the
 * runner reads and builds, as each line's `Daml/Script/Internal/*.daml` declares them), a
 * `daml-prim-DA-Types` (where Daml-LF 2 SDKs put `DA.Types`), and a main package of scripts asking questions. Built as AST, not
 * decoded, so the tests need no DAR of those SDK versions.
 */
import type { Expr, TypeConApp } from '../../../daml-engine/ast/Expr.js';
import type { DataCons, DefDataType, DefValue, Module, Package } from '../../../daml-engine/ast/Package.js';
import type { QualifiedName, Type } from '../../../daml-engine/ast/Type.js';
import type { Dar } from '../../../daml-engine/decode/decodeDar.js';
import { Packages } from '../../../daml-engine/decode/Packages.js';
import { findScripts } from '../../../daml-engine/script/findScripts.js';
import type { LoadedDar } from '../../../daml-engine/script/runDarScripts.js';
import { LOW_LEVEL_MODULE } from '../../../daml-engine/script/ScriptRunner.js';
import type { Value } from '../../../daml-engine/value/Value.js';
import { UNIT } from '../../../daml-engine/value/Value.js';
import { encodeDar } from '../../../daml-engine/encode/encodeDar.js';
import { encodePackageArchive } from '../../../daml-engine/encode/encodeArchive.js';

/**
 * The runner reads these records by field name and never by type, so each record and variant
 * here takes one type parameter per field or constructor (`t0`, `t1`, ...), and `ScriptExprs`
 * applies it to the types of what it puts there: the packages are well-typed Daml-LF, and pass
 * the upload check as daml-script's own packages do. Binders, `[]` and `None` are typed `Any`, a
 * synonym of `()` each package declares (module `Any`).
 */
const ANY_MODULE = 'Any';
const anyIn = (packageId: string): Type => ({ kind: 'syn', tysyn: { packageId, module: ANY_MODULE, name: 'Any' }, args: [] });
const param = (i: number): Type => ({ kind: 'var', name: `t${i}`, args: [] });
type Shape = { readonly cons: DataCons; readonly arity: number };
const rec = (...fields: string[]): Shape => ({ cons: { kind: 'record', fields: fields.map((name, i) => ({ name, type: param(i) })), fieldNames: fields }, arity: fields.length });
const variant = (...ctors: string[]): Shape => ({ cons: { kind: 'variant', constructors: ctors.map((name, i) => ({ name, type: param(i) })) }, arity: ctors.length });

type ModuleSpec = { readonly dataTypes?: Readonly<Record<string, Shape>>; readonly values?: Readonly<Record<string, Omit<DefValue, 'name'>>> };

function pkg(id: string, metadata: { name: string; version: string } | undefined, modules: Readonly<Record<string, ModuleSpec>>): Package {
  const unit: Type = { kind: 'builtin', builtin: 'UNIT', args: [] };
  const all: Readonly<Record<string, ModuleSpec>> = { [ANY_MODULE]: {}, ...modules };
  return {
    id, lfVersion: '2.1', imports: undefined,
    metadata: metadata && { ...metadata, upgradedPackageId: undefined },
    modules: new Map(Object.entries(all).map(([name, m]): [string, Module] => [name, {
      name, templates: new Map(), exceptions: new Map(), interfaces: new Map(),
      synonyms: new Map(name === ANY_MODULE ? [['Any', { name: 'Any', params: [], type: unit }]] : []),
      dataTypes: new Map(Object.entries(m.dataTypes ?? {}).map(([n, { cons, arity }]): [string, DefDataType] => [n, {
        name: n, params: Array.from({ length: arity }, (_, i) => ({ name: `t${i}`, kind: { kind: 'star' } as const })), serializable: true, cons,
      }])),
      values: new Map(Object.entries(m.values ?? {}).map(([n, v]): [string, DefValue] => [n, { name: n, ...v }])),
    }])),
  };
}

/** A daml-script release line's records, as the runner sees them. */
export type ScriptShape = '3.2' | '3.3' | '3.4' | '3.5';

export const PRIM_ID = 'daml-prim-by-hand';

export function primPackage(): Package {
  return pkg(PRIM_ID, { name: 'daml-prim-DA-Types', version: '1.0.0' }, {
    'DA.Types': { dataTypes: { Tuple2: rec('_1', '_2'), Either: variant('Left', 'Right') } },
  });
}

/** A daml-script package of `shape` (name and version as that line's SDK writes them; both may be overridden). */
export function scriptPackage(shape: ScriptShape, id: string, metadata: { name: string; version: string } | undefined = defaultMetadata(shape)): Package {
  const old = shape === '3.2';
  return pkg(id, metadata, {
    [LOW_LEVEL_MODULE]: { dataTypes: { Script: rec('runScript', 'dummy'), ScriptF: rec('unpack'), Question: rec('commandName', 'commandVersion', 'payload', 'locations', 'continue') } },
    'Daml.Script.Internal.Free': { dataTypes: { Free: variant('Pure', 'Free') } },
    'Daml.Script.Internal.Questions.PartyManagement': {
      dataTypes: {
        AllocateParty: old ? rec('displayName', 'idHint', 'participant') : rec('requestedName', 'idHint', 'participants'),
        PartyDetails: old ? rec('party', 'displayName', 'isLocal') : rec('party', 'isLocal'),
        ListKnownParties: rec('participant'),
      },
    },
    'Daml.Script.Internal.Questions.Submit': {
      dataTypes: {
        Submit: rec('submissions'),
        Submission: shape === '3.2'
          ? rec('sActAs', 'sReadAs', 'sDisclosures', 'sPackagePreference', 'sErrorBehaviour', 'sCommands', 'sLocation')
          : rec('sActAs', 'sReadAs', 'sDisclosures', 'sPackagePreference', 'sPrefetchKeys', 'sErrorBehaviour', 'sCommands', 'sLocation'),
      },
    },
  });
}

function defaultMetadata(shape: ScriptShape): { name: string; version: string } {
  switch (shape) {
    case '3.2': return { name: 'daml3-script', version: '3.2.0.20241031.0' } // damlc drops '-snapshot': a package version is dotted numbers;
    case '3.3': return { name: 'daml-script', version: '3.3.0.20250214.13611.0' };
    case '3.4': return { name: 'daml-script', version: '3.4.0' };
    case '3.5': return { name: 'daml-script', version: '3.5.0' };
  }
}

/** Builds the expressions of scripts over one daml-script package, each with its type. */
export class ScriptExprs {
  readonly #types = new WeakMap<Expr, Type>();
  constructor(readonly scriptId: string, readonly primId: string = PRIM_ID) {}
  /** The `Any` synonym of the daml-script package: what every binder and list here is typed. */
  get any(): Type { return anyIn(this.scriptId); }
  lit(value: Value): Expr { return { kind: 'lit', value }; }
  text(value: string): Expr { return this.lit({ kind: 'text', value }); }
  v(name: string): Expr { return { kind: 'var', name }; }
  /** `e`'s type: as built here, or read off the few shapes tests write by hand; `Any` otherwise. */
  typeOf(e: Expr): Type {
    const known = this.#types.get(e);
    if (known !== undefined) return known;
    const builtin = (builtin: 'TEXT' | 'INT64' | 'UNIT' | 'BOOL' | 'PARTY', ...args: Type[]): Type => ({ kind: 'builtin', builtin, args });
    switch (e.kind) {
      case 'lit': return e.value.kind === 'text' ? builtin('TEXT') : e.value.kind === 'int64' ? builtin('INT64') : e.value.kind === 'unit' ? builtin('UNIT') : e.value.kind === 'bool' ? builtin('BOOL') : e.value.kind === 'party' ? builtin('PARTY') : this.any;
      case 'nil': return { kind: 'builtin', builtin: 'LIST', args: [e.type] };
      case 'optionalNone': return { kind: 'builtin', builtin: 'OPTIONAL', args: [e.type] };
      case 'abs': return e.params.reduceRight<Type>((to, p) => ({ kind: 'builtin', builtin: 'ARROW', args: [p.type, to] }), this.typeOf(e.body));
      case 'app': return e.fun.kind === 'tyApp' && e.fun.expr.kind === 'builtin' && e.fun.expr.builtin === 'ERROR' ? e.fun.types[0]! : this.any;
      default: return this.any;
    }
  }
  #typed(e: Expr, t: Type): Expr { this.#types.set(e, t); return e; }
  /** A data type of these packages applied to `args` (one per field or constructor). */
  #con(module: string, name: string, args: readonly Type[], packageId = this.scriptId): TypeConApp {
    return { tycon: { packageId, module, name }, args };
  }
  record(module: string, name: string, fields: Readonly<Record<string, Expr>>, packageId = this.scriptId): Expr {
    const tycon = this.#con(module, name, Object.values(fields).map((x) => this.typeOf(x)), packageId);
    return this.#typed({ kind: 'recCon', tycon, fields: Object.entries(fields).map(([field, expr]) => ({ field, expr })) }, { kind: 'con', ...tycon });
  }
  tuple(a: Expr, b: Expr): Expr { return this.record('DA.Types', 'Tuple2', { _1: a, _2: b }, this.primId); }
  question(module: string, name: string, fields: Readonly<Record<string, Expr>>): Expr {
    return this.record(`Daml.Script.Internal.Questions.${module}`, name, fields);
  }
  /** `Free`'s constructor `Pure` (parameter 0) or `Free` (parameter 1) of `arg`. */
  #free(constructor: 'Pure' | 'Free', arg: Expr): Expr {
    const t = this.typeOf(arg);
    const tycon = this.#con('Daml.Script.Internal.Free', 'Free', constructor === 'Pure' ? [t, this.any] : [this.any, t]);
    return this.#typed({ kind: 'variantCon', tycon, constructor, arg }, { kind: 'con', ...tycon });
  }
  /** `Pure (result, ())`. */
  pure(result: Expr): Expr {
    return this.#free('Pure', this.tuple(result, this.lit(UNIT)));
  }
  /** Asks `command` (version `version`) with `payload`; `next` is what follows, with the answer bound to `bind`. */
  ask(command: string, version: bigint, payload: Expr, bind: string, next: Expr): Expr {
    const question = this.record(LOW_LEVEL_MODULE, 'Question', {
      commandName: this.text(command), commandVersion: this.lit({ kind: 'int64', value: version }), payload,
      locations: { kind: 'nil', type: this.any }, continue: { kind: 'abs', params: [{ name: bind, type: this.any }], body: next },
    });
    return this.#free('Free', this.record(LOW_LEVEL_MODULE, 'ScriptF', { unpack: question }));
  }
  /** `Script { runScript = \_ -> free, dummy = () }`, as a top-level value of type `Script`. */
  script(free: Expr): Omit<DefValue, 'name'> {
    const expr = this.record(LOW_LEVEL_MODULE, 'Script', { runScript: { kind: 'abs', params: [{ name: 'u', type: this.any }], body: free }, dummy: this.lit(UNIT) });
    return { type: this.typeOf(expr), expr };
  }
  /** `None` and `[]` as expressions (a DALF has no literal for them). */
  get none(): Expr { return { kind: 'optionalNone', type: this.any }; }
  get nil(): Expr { return { kind: 'nil', type: this.any }; }
}

/** A DAR in memory: `main` (scripts by module), the script package, daml-prim. Its bytes are empty (nothing to upload). */
export function loadedDar(main: Package, script: Package): LoadedDar {
  const packages = new Packages();
  const all = [main, script, primPackage()];
  for (const p of all) packages.add(p);
  const dar: Dar = { main, packages: all, sources: new Map() };
  return { bytes: new Uint8Array(), dar, packages, scripts: findScripts(main) };
}

export function mainPackage(id: string, module: string, values: Readonly<Record<string, Omit<DefValue, 'name'>>>, version = '1.0.0'): Package {
  return pkg(id, { name: 'my-tests', version }, { [module]: { values } });
}

/**
 * A real DAR (encoded DALFs, as damlc lays them out) of scripts in `shape`: daml-prim and the
 * daml-script package are encoded first, then `scripts` (given the expression builder over their
 * package ids) become the main package's module `Main`.
 */
export function builtScriptDar(
  shape: ScriptShape, scripts: (e: ScriptExprs) => Readonly<Record<string, Omit<DefValue, 'name'>>>,
  metadata?: { name: string; version: string },
): Uint8Array {
  const prim = encodePackageArchive(primPackage());
  const script = encodePackageArchive(scriptPackage(shape, 'daml-script-self', metadata ?? defaultMetadata(shape)));
  // A version per daml-script release: one participant takes each DAR once per name and version.
  const version = `1.${shape.replace('.', '')}.0`;
  const main = encodePackageArchive(mainPackage('main-self', 'Main', scripts(new ScriptExprs(script.id, prim.id)), version));
  return encodeDar({ name: `my-tests-${version}`, main: main.dalf, dependencies: [script.dalf, prim.dalf] });
}

export type { QualifiedName };
