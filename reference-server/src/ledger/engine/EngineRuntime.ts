import type { DefValue } from '../../../../daml-engine/ast/Package.js';
import type { Type } from '../../../../daml-engine/ast/Type.js';
import type { BuiltinName, FirstOrderBuiltin } from '../../../../daml-engine/builtins/Builtin.js';
import type { PackageCache } from '../../../../daml-engine/decode/decodeArchive.js';
import { bindEnv, Evaluator, replacesBuiltins, type Env, type EvaluatorOptions, type Slicing } from '../../../../daml-engine/eval/Evaluator.js';
import type { EvalResult } from '../../../../daml-engine/eval/EvalResult.js';
import { ENGINE_SLICING } from './engineSlicing.js';
import { decodeJson, encodeJson } from '../../../../daml-engine/json/jsonValue.js';
import type { JsonProblem } from '../../../../daml-engine/json/jsonValue.js';
import { UpdateEngine } from '../../../../daml-engine/update/UpdateEngine.js';
import type { Value } from '../../../../daml-engine/value/Value.js';
import type { AdminStore } from '../../store/AdminStore.js';
import { StoredContract } from '../../store/StoredContract.js';
import type { TemplateDef } from '../templates/Catalogue.js';
import type { ContractView } from '../templates/types.js';
import type { DamlRecord, DamlValue } from '../wire.js';
import type { EngineDef, EngineInterfaceDef, EngineTemplateDef } from './EngineCatalogue.js';
import { EngineCatalogue, isEngineDef } from './EngineCatalogue.js';
import { EnginePackages } from './EnginePackages.js';
import { EngineWorker, type EngineWorkerOptions } from './EngineWorker.js';
import { cantonErrorOf } from './cantonErrorOf.js';
import { ViewFailed } from './ViewFailed.js';
import { errorClassOf, GrpcCode } from '../errors.js';
import { MAXIMUM_NESTING, valueBoundsProblem } from '../../../../daml-engine/value/valueBounds.js';
import type { EngineLimits } from './engineLimits.js';
import type { PackageSelection } from './cachedSelection.js';

export interface EngineRuntimeOptions {
  readonly admin: AdminStore;
  /** The package a `#name` id runs as (see packageService.selectPackageId). */
  readonly selectPackageId: PackageSelection;
  /** The bounds of a submission and of an interface view. */
  readonly limits: EngineLimits;
  /** Receives `trace` / `debug` output of choices and templates (a Daml Script run shows it). */
  readonly onTrace?: (message: string) => void;
  /** Decoded packages shared with the caller (a Daml Script run decoded the DAR already). */
  readonly packageCache?: PackageCache;
  /** Top-level values shared with other engines of the same packages (default: those of `packageCache`, or the engine's own). */
  readonly sharedValues?: Map<DefValue, Value>;
  /** For tests only: builtins replacing the engine's (see `EvaluatorOptions.builtinOverrides`). */
  readonly builtinOverrides?: ReadonlyMap<BuiltinName, FirstOrderBuiltin>;
  /** Command runs made ahead of their commit go to an engine thread (EngineWorker.ts); not with builtins replaced. */
  readonly worker?: boolean | EngineWorkerOptions;
}

/** The top-level values evaluated by the engines of ledgers sharing one package cache. */
const topValuesByCache = new WeakMap<PackageCache, Map<DefValue, Value>>();
function topValuesOf(cache: PackageCache): Map<DefValue, Value> {
  let values = topValuesByCache.get(cache);
  if (values === undefined) topValuesByCache.set(cache, (values = new Map()));
  return values;
}

/**
 * The Daml-LF engine as the ledger uses it: the uploaded packages, their templates behind the
 * catalogue's shape, one update engine, and the conversion of contract arguments between the
 * JSON API encoding the store keeps and the engine's values.
 */
export class EngineRuntime {
  readonly packages: EnginePackages;
  readonly catalogue: EngineCatalogue;
  readonly engine: UpdateEngine;
  /** The engine thread runs made ahead go to (the command service's, interactive submission's), when the ledger has one. */
  readonly worker: EngineWorker | undefined;
  readonly #views: Evaluator;
  readonly #viewOptions: EvaluatorOptions;
  /** Engine values of stored contracts' arguments: the engine's own (its creates) or decoded once from the JSON (after a restart). */
  readonly #values = new WeakMap<StoredContract, Value>();
  /** Engine values of other contracts' arguments (views of contracts), by the argument's JSON, decoded once. */
  readonly #decoded = new WeakMap<object, Value>();
  /** Evaluation steps submissions and interface views took so far. */
  stepsUsed = 0;
  /** Command runs in progress in slices (`preRunEngineCommands`): others are served meanwhile. */
  slicedRunsInProgress = 0;
  /** Seeded runs (interactive prepare and execute) made in slices and taken by the operation's second pass (`inSlicesTwice`). */
  slicedRunsTaken = 0;
  /** Interface views evaluating in slices (`viewValueSliced`: reads and streams). */
  slicedViewsInProgress = 0;

  constructor(readonly options: EngineRuntimeOptions) {
    this.packages = new EnginePackages(options.admin, options.packageCache);
    const getPackage = (id: string) => this.packages.get(id);
    this.catalogue = new EngineCatalogue(this.packages, (name) => options.selectPackageId(name), (t, i, self) => this.#view(t, i, self), (t, i, self) => this.#viewSliced(t, i, self));
    const { limits, onTrace, builtinOverrides } = options;
    // Ledgers of the same packages share what they evaluated (a `test --dar` run's participants
    // the run's values, otherwise the ledgers of one package cache: each `reset()` of msw
    // handlers): a top-level value is computed once for all of them, as upstream's engine
    // computes a definition once for its compiled packages. Not with builtins replaced (tests).
    const sharedValues = replacesBuiltins(builtinOverrides) ? new Map<DefValue, Value>()
      : options.sharedValues ?? (options.packageCache !== undefined ? topValuesOf(options.packageCache) : new Map<DefValue, Value>());
    this.engine = new UpdateEngine({
      getPackage, stepBudget: limits.stepBudget, allocationBudget: limits.allocationBudget, maxValueBytes: limits.maxTransactionBytes, onTrace, builtinOverrides, sharedValues,
    });
    // Views run on reads and streams: their own, smaller budget, so one view never holds a read for long.
    this.#viewOptions = { getPackage, stepBudget: limits.viewStepBudget, allocationBudget: limits.viewAllocationBudget, onTrace, builtinOverrides, sharedValues };
    this.#views = new Evaluator(this.#viewOptions);
    const worker = options.worker;
    this.worker = worker === undefined || worker === false || replacesBuiltins(builtinOverrides) ? undefined
      : new EngineWorker({ packagePayload: (id) => options.admin.package(id)?.payload }, limits, worker === true ? {} : worker);
  }

  /** The JSON of `value` by its Daml-LF type, as events carry it. */
  json(value: Value, type: Type): DamlValue {
    return encodeJson(value, type, this.packages.dataTypes) as DamlValue;
  }

  /** The engine value of a JSON API value of `type`, or where it does not fit. */
  value(type: Type, json: unknown): { ok: true; value: Value } | { ok: false; problem: JsonProblem } {
    return decodeJson(type, json, this.packages.dataTypes);
  }

  /** Remembers the engine value of a stored contract's argument (a contract the engine just created). */
  remember(contract: StoredContract, value: Value): void {
    this.#values.set(contract, value);
  }

  /**
   * Lets go of the engine value of a contract a transaction archives: the store keeps archived
   * arguments as JSON, and an engine value held beside each of them would outlive the collector's
   * young generation for nothing (it is decoded again if ever asked for).
   */
  forget(contract: StoredContract): void {
    this.#values.delete(contract);
    const json = contract.argumentIfMade;
    if (json !== undefined) this.#decoded.delete(json);
  }

  /** Whether the engine value of a stored contract's argument is held (decoded or remembered). */
  holdsValueOf(contract: StoredContract): boolean {
    return this.#values.has(contract);
  }

  /** The argument of an engine contract as an engine value. */
  argumentOf(c: StoredContract | ContractView): Value | undefined {
    if (c instanceof StoredContract) {
      const known = this.#values.get(c);
      if (known) return known;
      const value = this.#decode(c.template, c.argument);
      if (value) this.#values.set(c, value);
      return value;
    }
    const known = this.#decoded.get(c.argument);
    if (known) return known;
    const value = this.#decode(this.catalogue.resolve(c.templateId), c.argument);
    if (value) this.#decoded.set(c.argument, value);
    return value;
  }

  #decode(template: TemplateDef | EngineDef | undefined, argument: DamlRecord): Value | undefined {
    if (!template || !isEngineDef(template) || template.kind !== 'template') return undefined;
    const r = this.value(template.engine.type, argument);
    return r.ok ? r.value : undefined;
  }

  /**
   * An interface view as an engine value: the template's `view` for the interface, evaluated on
   * its argument under the view budgets (`limits.viewStepBudget`, `viewAllocationBudget`), its
   * value nested no deeper than Daml allows and no larger than `maxTransactionBytes`. A failure
   * carries the status Canton gives a failed view: the Canton error's gRPC code and its text.
   */
  viewValue(template: EngineTemplateDef, iface: EngineInterfaceDef, argument: Value): ViewResult {
    const impl = template.engine.def.implements.get(iface.id);
    if (!impl) return { ok: false, message: `${template.qualifiedName} does not implement ${iface.qualifiedName}`, grpcCode: GrpcCode.INVALID_ARGUMENT };
    return this.#viewResult(template, iface, this.#views.evaluate(impl.view, [[template.engine.def.param, argument]], template.engine.name));
  }

  /**
   * `viewValue` in slices that yield to the event loop (`slicing`, by default the ledger's shared
   * engine slicing): the same budgets and outcome, on an evaluator of its own (views may interleave).
   */
  async viewValueSliced(template: EngineTemplateDef, iface: EngineInterfaceDef, argument: Value, slicing: Slicing = ENGINE_SLICING): Promise<ViewResult> {
    const impl = template.engine.def.implements.get(iface.id);
    if (!impl) return { ok: false, message: `${template.qualifiedName} does not implement ${iface.qualifiedName}`, grpcCode: GrpcCode.INVALID_ARGUMENT };
    const m = new Evaluator(this.#viewOptions);
    const env: Env = bindEnv(template.engine.def.param, argument, null);
    this.slicedViewsInProgress++;
    const r = await m.runMachineSliced(() => m.evalWith(impl.view, env), slicing, template.engine.name).finally(() => { this.slicedViewsInProgress--; });
    return this.#viewResult(template, iface, r);
  }

  #viewResult(template: EngineTemplateDef, iface: EngineInterfaceDef, r: EvalResult): ViewResult {
    this.stepsUsed += r.steps;
    let error = r.ok ? undefined : r.error;
    if (r.ok) {
      const bounds = valueBoundsProblem(r.value, MAXIMUM_NESTING, this.options.limits.maxTransactionBytes);
      if (bounds === undefined) return { ok: true, value: r.value };
      error = bounds.kind === 'nesting'
        ? { kind: 'valueNesting', limit: bounds.limit, where: 'view', definition: template.engine.name, message: `Value exceeds maximum nesting value of ${bounds.limit}` }
        : { kind: 'sizeExceeded', bytes: bounds.bytes, limit: bounds.limit, where: 'view', definition: template.engine.name, message: `the view takes more than ${bounds.limit} bytes` };
    }
    const canton = cantonErrorOf(error!);
    const { category, grpc } = errorClassOf(canton);
    return { ok: false, message: `${canton.code}(${category},0): the view of ${iface.qualifiedName} failed: ${canton.cause}`, grpcCode: GrpcCode[grpc] };
  }

  /** An interface view as the JSON API renders it (a failure becomes the event's view status). */
  #view(template: EngineTemplateDef, iface: EngineInterfaceDef, self: ContractView): DamlValue {
    const arg = this.argumentOf(self);
    if (!arg) throw new Error(`the argument of ${self.contractId} does not fit ${template.qualifiedName}`);
    const v = this.viewValue(template, iface, arg);
    if (!v.ok) throw new ViewFailed(v.grpcCode, v.message);
    return this.json(v.value, iface.engine.def.view);
  }

  /** `#view` in slices (reads and streams settle their views this way, see pendingViews.ts). */
  async #viewSliced(template: EngineTemplateDef, iface: EngineInterfaceDef, self: ContractView): Promise<DamlValue> {
    const arg = this.argumentOf(self);
    if (!arg) throw new Error(`the argument of ${self.contractId} does not fit ${template.qualifiedName}`);
    const v = await this.viewValueSliced(template, iface, arg);
    if (!v.ok) throw new ViewFailed(v.grpcCode, v.message);
    return this.json(v.value, iface.engine.def.view);
  }
}

/** An interface view as an engine value, or the status Canton gives the failed view. */
export type ViewResult = { ok: true; value: Value } | { ok: false; message: string; grpcCode: number };
