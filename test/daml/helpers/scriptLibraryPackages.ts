/**
 * Hand-built Daml-LF packages in the shape of each daml-script release line (the records the
 * runner reads and builds, as each line's `Daml/Script/Internal/*.daml` declares them), a
 * `daml-prim` with `DA.Types`, and a main package of scripts asking questions. Built as AST, not
 * decoded, so the tests need no DAR of those SDK versions.
 */
import type { Expr } from '../../../daml-engine/ast/Expr.js';
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

const ANY: Type = { kind: 'builtin', builtin: 'UNIT', args: [] };
const rec = (...fields: string[]): DataCons => ({ kind: 'record', fields: fields.map((name) => ({ name, type: ANY })), fieldNames: fields });
const variant = (...ctors: string[]): DataCons => ({ kind: 'variant', constructors: ctors.map((name) => ({ name, type: ANY })) });

type ModuleSpec = { readonly dataTypes?: Readonly<Record<string, DataCons>>; readonly values?: Readonly<Record<string, Omit<DefValue, 'name'>>> };

function pkg(id: string, metadata: { name: string; version: string } | undefined, modules: Readonly<Record<string, ModuleSpec>>): Package {
  return {
    id, lfVersion: '2.1', imports: undefined,
    metadata: metadata && { ...metadata, upgradedPackageId: undefined },
    modules: new Map(Object.entries(modules).map(([name, m]): [string, Module] => [name, {
      name, synonyms: new Map(), templates: new Map(), exceptions: new Map(), interfaces: new Map(),
      // `Script a` takes its result type, as daml-script declares it (the upload check counts type arguments).
      dataTypes: new Map(Object.entries(m.dataTypes ?? {}).map(([n, cons]): [string, DefDataType] => [n, { name: n, params: n === 'Script' && name === LOW_LEVEL_MODULE ? [{ name: 'a', kind: { kind: 'star' } }] : [], serializable: true, cons }])),
      values: new Map(Object.entries(m.values ?? {}).map(([n, v]): [string, DefValue] => [n, { name: n, ...v }])),
    }])),
  };
}

/** A daml-script release line's records, as the runner sees them. */
export type ScriptShape = '3.2' | '3.3' | '3.4' | '3.5';

export const PRIM_ID = 'daml-prim-by-hand';

export function primPackage(): Package {
  return pkg(PRIM_ID, { name: 'daml-prim', version: '0.0.0' }, {
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

/** Builds the expressions of scripts over one daml-script package. */
export class ScriptExprs {
  constructor(readonly scriptId: string, readonly primId: string = PRIM_ID) {}
  private con(module: string, name: string, packageId = this.scriptId) { return { tycon: { packageId, module, name }, args: [] }; }
  lit(value: Value): Expr { return { kind: 'lit', value }; }
  text(value: string): Expr { return this.lit({ kind: 'text', value }); }
  v(name: string): Expr { return { kind: 'var', name }; }
  record(module: string, name: string, fields: Readonly<Record<string, Expr>>, packageId = this.scriptId): Expr {
    return { kind: 'recCon', tycon: this.con(module, name, packageId), fields: Object.entries(fields).map(([field, expr]) => ({ field, expr })) };
  }
  tuple(a: Expr, b: Expr): Expr { return this.record('DA.Types', 'Tuple2', { _1: a, _2: b }, this.primId); }
  question(module: string, name: string, fields: Readonly<Record<string, Expr>>): Expr {
    return this.record(`Daml.Script.Internal.Questions.${module}`, name, fields);
  }
  /** `Pure (result, ())`. */
  pure(result: Expr): Expr {
    return { kind: 'variantCon', tycon: this.con('Daml.Script.Internal.Free', 'Free'), constructor: 'Pure', arg: this.tuple(result, this.lit(UNIT)) };
  }
  /** Asks `command` (version `version`) with `payload`; `next` is what follows, with the answer bound to `bind`. */
  ask(command: string, version: bigint, payload: Expr, bind: string, next: Expr): Expr {
    const question = this.record(LOW_LEVEL_MODULE, 'Question', {
      commandName: this.text(command), commandVersion: this.lit({ kind: 'int64', value: version }), payload,
      locations: { kind: 'nil', type: ANY }, continue: { kind: 'abs', params: [{ name: bind, type: ANY }], body: next },
    });
    return { kind: 'variantCon', tycon: this.con('Daml.Script.Internal.Free', 'Free'), constructor: 'Free', arg: this.record(LOW_LEVEL_MODULE, 'ScriptF', { unpack: question }) };
  }
  /** `Script { runScript = \_ -> free, dummy = () }`, as a top-level value of type `Script`. */
  script(free: Expr): Omit<DefValue, 'name'> {
    return {
      type: { kind: 'con', tycon: { packageId: this.scriptId, module: LOW_LEVEL_MODULE, name: 'Script' }, args: [ANY] },
      expr: {
        kind: 'recCon', tycon: { tycon: { packageId: this.scriptId, module: LOW_LEVEL_MODULE, name: 'Script' }, args: [ANY] },
        fields: [{ field: 'runScript', expr: { kind: 'abs', params: [{ name: 'u', type: ANY }], body: free } }, { field: 'dummy', expr: this.lit(UNIT) }],
      },
    };
  }
  /** `None` and `[]` as expressions (a DALF has no literal for them). */
  readonly none: Expr = { kind: 'optionalNone', type: ANY };
  readonly nil: Expr = { kind: 'nil', type: ANY };
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
