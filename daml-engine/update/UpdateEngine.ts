/**
 * The update engine: runs an `update` value as daml-lf-2.rst "Update interpretation" defines it,
 * building the transaction of transaction.rst. It drives the evaluator's machine with
 * continuation frames (`then`, `catchWith`), never with nested evaluations: Daml's `forA` and
 * `mapA` build binds nested as deep as their lists are long.
 *
 * It holds no store: contracts the transaction did not create come from `getContract`.
 */
import type { Expr, Update } from '../ast/Expr.js';
import type { DefInterface, DefTemplate, Package, TemplateChoice } from '../ast/Package.js';
import { qualifiedKey } from '../ast/Package.js';
import type { QualifiedName } from '../ast/Type.js';
import type { Env, EvaluatorOptions, Slicing, SuspendedUpdate } from '../eval/Evaluator.js';
import { bindEnv, Evaluator } from '../eval/Evaluator.js';
import { EnvCell } from '../eval/Env.js';
import type { Node } from '../eval/Node.js';
import { updateKids, updateNode } from '../eval/Node.js';
import type { Definition, EvalError, EvalResult } from '../eval/EvalResult.js';
import type { AnyExceptionValue, ContractIdValue, RecordValue, UpdateValue, Value } from '../value/Value.js';
import { bool } from '../value/Value.js';
import type { InterpretationTrace, TraceCommand } from './InterpretationTrace.js';
import type { LedgerFailure } from './LedgerFailure.js';
import type { Seed } from './seeds.js';
import { insert, sameSet, sortedSet, union } from './partySets.js';
import { contractIdV1, deriveContractDiscriminator } from './seeds.js';
import type { Transaction } from './Transaction.js';
import { TransactionBuilder } from './TransactionBuilder.js';
import type { BoundsProblem } from '../value/valueBounds.js';
import { MAXIMUM_NESTING, valueBoundsProblem } from '../value/valueBounds.js';
import { upgradeValue } from './upgradeValue.js';

/**
 * A contract the caller knows: its template and argument (a record of that template), and the
 * signatories and observers the ledger recorded when it was created. Given, they are used as
 * they are (the template's expressions, run on the same argument, give them again: Canton checks
 * exactly that); absent, they are evaluated from the template.
 */
export interface LedgerContract {
  readonly templateId: QualifiedName;
  readonly argument: Value;
  readonly signatories?: readonly string[];
  readonly observers?: readonly string[];
}

export interface UpdateEngineOptions {
  readonly getPackage: (packageId: string) => Package | undefined;
  /** Steps one submission may take. */
  readonly stepBudget?: number;
  /** Bytes one submission may allocate (default 256 MiB; see `EvaluatorOptions.allocationBudget`). */
  readonly allocationBudget?: number;
  /**
   * Bytes the result, and the values of the transaction together, may take (default 16 MiB,
   * `DEFAULT_MAX_VALUE_BYTES`): past them the submission fails with `sizeExceeded`.
   */
  readonly maxValueBytes?: number;
  readonly onTrace?: (message: string) => void;
  /** Replaces builtins (see `EvaluatorOptions.builtinOverrides`): for tests, never for users. */
  readonly builtinOverrides?: EvaluatorOptions['builtinOverrides'];
  /** See `EvaluatorOptions.directDepth` (tests compare the machine alone with the direct evaluator). */
  readonly directDepth?: number;
  /** Top-level values evaluated so far, shared with other engines of the same packages (default: this engine's own). */
  readonly sharedValues?: EvaluatorOptions['sharedValues'];
}

export interface Submission {
  /** The update to run: an `update` value, or an Update node of closed expressions (a command). */
  readonly update: UpdateValue | Update;
  /** The acting parties: the authorizers of the root actions. */
  readonly submitters: readonly string[];
  readonly transactionSeed: Seed;
  /** Microseconds since the epoch; part of every contract id's discriminator. */
  readonly preparationTime: bigint;
  /** What `get_time` returns and `ledger_time_lt` compares with (default: the preparation time). */
  readonly ledgerTime?: bigint;
  readonly getContract: (contractId: string) => LedgerContract | undefined;
  /**
   * The package each package name runs as in this submission (Canton's package preference: the
   * highest version vetted now, or the one the submission prefers). A contract fetched or
   * exercised through an interface is read as that version of its template, whose interface
   * instance runs (Speedy's softFetchInterface); without it, or for a name it does not resolve, or
   * for a contract this transaction created, the contract's own template.
   */
  readonly packageResolution?: (packageName: string) => string | undefined;
  /**
   * The command being run, for the trace a failure carries (default: the command `update` is,
   * when it is a create, exercise or interface exercise node).
   */
  readonly command?: TraceCommand;
}

export type SubmissionResult =
  | {
      readonly ok: true; readonly result: Value; readonly transaction: Transaction; readonly steps: number;
      /** Whether `get_time` or `ledger_time_lt` ran: the transaction then holds at its ledger time only (Canton's time boundaries). */
      readonly readsLedgerTime: boolean;
    }
  | { readonly ok: false; readonly error: EvalError; readonly steps: number };

interface ContractInfo {
  readonly contractId: string;
  readonly templateId: QualifiedName;
  readonly template: DefTemplate;
  readonly argument: RecordValue;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
  readonly stakeholders: readonly string[];
  /** Created by this transaction (else the caller's). */
  readonly local: boolean;
}

/** The default bound of a submission's result, and of its transaction's values: 16 MiB. */
export const DEFAULT_MAX_VALUE_BYTES = 16 * 1024 * 1024;

export class UpdateEngine {
  private readonly m: Evaluator;
  private readonly getPackage: (id: string) => Package | undefined;
  private readonly maxValueBytes: number;
  private readonly evaluatorOptions: EvaluatorOptions;

  constructor(options: UpdateEngineOptions) {
    this.getPackage = options.getPackage;
    this.maxValueBytes = options.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES;
    this.evaluatorOptions = {
      getPackage: options.getPackage, stepBudget: options.stepBudget, allocationBudget: options.allocationBudget,
      onTrace: options.onTrace, builtinOverrides: options.builtinOverrides, directDepth: options.directDepth, sharedValues: options.sharedValues ?? new Map(),
    };
    this.m = new Evaluator(this.evaluatorOptions);
  }

  /**
   * `submit` in slices that yield (`slicing.pause()` every `slicing.steps` steps), so a long
   * command leaves the event loop to others. Each sliced run has its own evaluator (runs may
   * interleave), sharing the top-level values evaluated so far. `getContract` is asked during the
   * run: a caller that commits the result must check afterwards that what it read still holds.
   */
  async submitSliced(submission: Submission, slicing: Slicing): Promise<SubmissionResult> {
    const m = new Evaluator(this.evaluatorOptions);
    const run = new Run(m, this.getPackage, submission);
    const outcome = await m.runMachineSliced(() => run.run(updateOf(submission)), slicing);
    return this.finish(run, submission, outcome);
  }

  /** Runs one submission: its result and transaction, or why it failed (as data). */
  submit(submission: Submission): SubmissionResult {
    const run = new Run(this.m, this.getPackage, submission);
    const outcome = this.m.runMachine(() => run.run(updateOf(submission)));
    return this.finish(run, submission, outcome);
  }

  private finish(run: Run, submission: Submission, outcome: EvalResult): SubmissionResult {
    if (!outcome.ok) return { ...outcome, error: { ...outcome.error, trace: run.trace(submission.command ?? commandOf(submission.update)) } };
    const transaction = run.tx.finish();
    const bounds = boundsError(outcome.value, transaction, this.maxValueBytes);
    if (bounds) return { ok: false, error: { ...bounds, trace: run.trace(submission.command ?? commandOf(submission.update)) }, steps: outcome.steps };
    return { ok: true, result: outcome.value, transaction, steps: outcome.steps, readsLedgerTime: run.readsLedgerTime };
  }
}

/**
 * The bounds a submission's output keeps (Daml's value nesting limit, `maxBytes`) checked on the
 * values that leave the engine: the result, and the arguments and results its nodes carry.
 */
function boundsError(result: Value, tx: Transaction, maxBytes: number): EvalError | undefined {
  const resultProblem = valueBoundsProblem(result, MAXIMUM_NESTING, maxBytes, 0);
  if (resultProblem) return boundsErrorOf(resultProblem, 'result');
  let used = 0;
  const add = (b: number): void => { used += b; };
  for (const n of tx.nodes) {
    let p: BoundsProblem | undefined;
    if (n.kind === 'create') {
      p = valueBoundsProblem(n.argument, MAXIMUM_NESTING, maxBytes, used, add);
    } else if (n.kind === 'exercise') {
      p = valueBoundsProblem(n.choiceArgument, MAXIMUM_NESTING, maxBytes, used, add);
      if (p === undefined && n.exerciseResult !== undefined) p = valueBoundsProblem(n.exerciseResult, MAXIMUM_NESTING, maxBytes, used, add);
    }
    if (p) return boundsErrorOf(p, 'transaction');
  }
  return undefined;
}

function boundsErrorOf(p: BoundsProblem, where: string): EvalError {
  return p.kind === 'nesting'
    ? { kind: 'valueNesting', limit: p.limit, where, definition: undefined, message: `Value exceeds maximum nesting value of ${p.limit}` }
    : { kind: 'sizeExceeded', bytes: p.bytes, limit: p.limit, where, definition: undefined, message: `the ${where} takes more than ${p.limit} bytes` };
}

/** The update value a submission runs. */
function updateOf(submission: Submission): UpdateValue {
  return 'kind' in submission.update && submission.update.kind === 'update'
    ? submission.update
    : { kind: 'update', update: { node: updateNode(submission.update as Update), env: null, def: undefined } satisfies SuspendedUpdate };
}

/** A create command: `create` of a closed argument. */
export function createCommand(templateId: QualifiedName, argument: Value): Update {
  return { kind: 'create', template: templateId, expr: { kind: 'lit', value: argument } };
}

/** An exercise command on a contract of `templateId`. */
export function exerciseCommand(templateId: QualifiedName, contractId: string, choice: string, argument: Value): Update {
  return {
    kind: 'exercise', template: templateId, choice,
    cid: { kind: 'lit', value: { kind: 'contractId', value: contractId } }, arg: { kind: 'lit', value: argument },
  };
}

/** An exercise of an interface choice on a contract of any template implementing `interfaceId`. */
export function exerciseInterfaceCommand(interfaceId: QualifiedName, contractId: string, choice: string, argument: Value): Update {
  return {
    kind: 'exerciseInterface', iface: interfaceId, choice, guard: undefined,
    cid: { kind: 'lit', value: { kind: 'contractId', value: contractId } }, arg: { kind: 'lit', value: argument },
  };
}

/** The command an Update node is, for the failure trace. */
function commandOf(update: UpdateValue | Update): TraceCommand | undefined {
  if (update.kind === 'update') return undefined;
  const cid = (e: Expr): string | undefined => (e.kind === 'lit' && e.value.kind === 'contractId' ? e.value.value : undefined);
  switch (update.kind) {
    case 'create': return { kind: 'create', templateId: update.template };
    case 'exercise': {
      const contractId = cid(update.cid);
      return contractId === undefined ? undefined : { kind: 'exercise', templateId: update.template, choice: update.choice, contractId };
    }
    case 'exerciseInterface': {
      const contractId = cid(update.cid);
      return contractId === undefined ? undefined : { kind: 'exerciseInterface', interfaceId: update.iface, choice: update.choice, contractId };
    }
    default: return undefined;
  }
}

const show = (q: QualifiedName): string => `${q.module}:${q.name}`;
const sameName = (a: QualifiedName, b: QualifiedName): boolean => a.packageId === b.packageId && a.module === b.module && a.name === b.name;

/** The state of one submission while the machine runs it. */
class Run {
  readonly tx: TransactionBuilder;
  /** Contracts this transaction created or looked up, made on first use (most commands touch one or two). */
  private contracts: Map<string, ContractInfo> | undefined;
  private readonly ledgerTime: bigint;
  /** Set by `get_time` and `ledger_time_lt`. */
  readsLedgerTime = false;

  constructor(
    private readonly m: Evaluator,
    private readonly getPackage: (id: string) => Package | undefined,
    private readonly s: Submission,
  ) {
    this.tx = new TransactionBuilder(s.transactionSeed, s.submitters);
    this.ledgerTime = s.ledgerTime ?? s.preparationTime;
  }

  /** The exercises running now (innermost first) and the command. */
  trace(command: TraceCommand | undefined): InterpretationTrace {
    const exercises = this.tx.openExercises().map(({ nodeId, exercise: e }) => ({
      templateId: e.interfaceId ?? e.templateId, choice: e.choice, contractId: e.contractId, nodeId,
    }));
    return { exercises, command };
  }

  private fail(failure: LedgerFailure, message: string): never {
    return this.m.abort({ kind: 'ledger', failure, message, definition: this.m.definition });
  }

  private crash(message: string): never {
    return this.m.abort({ kind: 'crash', message, definition: this.m.definition });
  }

  /** Evaluates `expr` in `env`, then continues with `k`. */
  private eval(expr: Expr, env: Env, def: Definition | undefined, k: (v: Value) => void): void {
    this.m.then(k);
    this.m.evalWith(expr, env, def);
  }

  /** Evaluates the update's sub-expression node `n` in `env` (its layout), then continues with `k`. */
  private evalKid(n: Node, env: Env, def: Definition | undefined, k: (v: Value) => void): void {
    this.m.then(k);
    this.m.evalNode(n, env, def);
  }

  /** Runs the update value its argument is (one function per run, not a closure per use). */
  private readonly runNext = (v: Value): void => this.run(v);

  /** Runs an update value; its result returns to the top frame. */
  run(value: Value): void {
    if (value.kind !== 'update') return this.crash(`ran a ${value.kind} value as an update`);
    const { node, env, def } = value.update as SuspendedUpdate;
    const u = node.x as Update;
    const kids = updateKids(node);
    switch (u.kind) {
      case 'pure': return this.m.evalNode(kids[0]!, env, def);
      case 'block': return this.block(kids, 0, env, def);
      case 'embedExpr': return this.evalKid(kids[0]!, env, def, this.runNext);
      case 'getTime':
        this.readsLedgerTime = true;
        return this.m.returnValue({ kind: 'timestamp', micros: this.ledgerTime });
      case 'ledgerTimeLt':
        return this.evalKid(kids[0]!, env, def, (t) => {
          if (t.kind !== 'timestamp') return this.crash(`ledger_time_lt of a ${t.kind}`);
          this.readsLedgerTime = true;
          this.m.returnValue(bool(this.ledgerTime < t.micros));
        });
      case 'create': return this.evalKid(kids[0]!, env, def, (arg) => this.create(u.template, arg));
      case 'createInterface':
        return this.evalKid(kids[0]!, env, def, (arg) => {
          if (arg.kind !== 'record') return this.crash(`create_interface of a ${arg.kind}`);
          this.create(arg.tycon, arg);
        });
      case 'exercise':
        return this.evalKid(kids[0]!, env, def, (cid) => this.evalKid(kids[1]!, env, def, (arg) =>
          this.exercise(this.cidOf(cid), arg, { template: u.template }, u.choice)));
      case 'exerciseInterface':
        return this.evalKid(kids[0]!, env, def, (cid) => this.evalKid(kids[1]!, env, def, (arg) => {
          if (kids.length === 2) return this.exercise(this.cidOf(cid), arg, { iface: u.iface, guard: undefined }, u.choice);
          this.evalKid(kids[2]!, env, def, (guard) => this.exercise(this.cidOf(cid), arg, { iface: u.iface, guard }, u.choice));
        }));
      case 'fetch': return this.evalKid(kids[0]!, env, def, (cid) => this.fetch(this.cidOf(cid), { template: u.template }));
      case 'fetchInterface': return this.evalKid(kids[0]!, env, def, (cid) => this.fetch(this.cidOf(cid), { iface: u.iface }));
      case 'tryCatch': return this.tryCatch(kids, env, def);
      case 'exerciseByKey': case 'lookupByKey': case 'fetchByKey': case 'queryNByKey':
        return this.fail({ kind: 'unsupported', what: `contract keys (${u.kind})` }, `contract keys are not part of Daml-LF 2.1 (${u.kind})`);
    }
  }

  /**
   * `ubind x₁ ← e₁ ; … ; e` (its nodes `kids`, the body last): each binding's update runs before
   * the next is evaluated, its value bound in a cell named as the next node's scope expects.
   */
  private block(kids: readonly Node[], i: number, env: Env, def: Definition | undefined): void {
    if (i === kids.length - 1) return this.evalKid(kids[i]!, env, def, this.runNext); // a tail call: no frame stays
    this.m.then((x) => this.block(kids, i + 1, new EnvCell(kids[i + 1]!.scope!.names, x, undefined, undefined, env), def));
    this.evalKid(kids[i]!, env, def, this.runNext);
  }

  private cidOf(v: Value): string {
    if (v.kind !== 'contractId') return this.crash(`a contract id that is a ${v.kind}`);
    return v.value;
  }

  /** A list of parties as a sorted set; `role` and `of` name it in a failure (built only then). */
  private parties(v: Value, role: string, of: QualifiedName | string): string[] {
    const out: string[] = [];
    for (let cell = v; cell.kind === 'cons'; cell = cell.tail) {
      if (cell.head.kind !== 'party') return this.crash(`the ${role} of ${typeof of === 'string' ? of : show(of)} holds a ${cell.head.kind}, not a party`);
      insert(out, cell.head.value);
    }
    if (v.kind !== 'cons' && v.kind !== 'nil') return this.crash(`the ${role} of ${typeof of === 'string' ? of : show(of)} is a ${v.kind}, not a list of parties`);
    return out;
  }

  // ---- create ------------------------------------------------------------------------------

  /** daml-lf-2.rst "create": ensure, signatories, observers, then authorization (transaction.rst). */
  private create(templateId: QualifiedName, arg: Value): void {
    if (arg.kind !== 'record') return this.crash(`created a ${arg.kind}, not a record of ${show(templateId)}`);
    const template = this.m.template(templateId);
    const env: Env = bindEnv(template.param, arg, null);
    this.eval(template.precondition, env, templateId, (ensure) => {
      if (ensure.kind !== 'bool') return this.crash(`the precondition of ${show(templateId)} is a ${ensure.kind}`);
      if (!ensure.value) {
        return this.fail({ kind: 'templatePreconditionViolated', templateId, argument: arg }, `the precondition (ensure) of ${show(templateId)} is false`);
      }
      this.stakeholders(template, templateId, arg, (signatories, observers) => {
        if (signatories.length === 0) return this.fail({ kind: 'noSignatories', templateId, nodeId: this.tx.nextNodeId }, `a contract of ${show(templateId)} with no signatories`);
        const authorizers = this.tx.authorizers;
        const missing = signatories.filter((p) => !authorizers.has(p));
        if (missing.length > 0) {
          return this.fail(
            { kind: 'createMissingAuthorization', templateId, authorizers: [...authorizers], requiredAuthorizers: signatories, nodeId: this.tx.nextNodeId, atRoot: this.tx.atRoot },
            `create of ${show(templateId)} lacks the authorization of ${missing.join(', ')}`,
          );
        }
        const stakeholders = union(signatories, observers);
        const seed = this.tx.nextSeed();
        const contractId = contractIdV1(deriveContractDiscriminator(seed.bytes, this.s.preparationTime, stakeholders));
        this.tx.addCreate({ contractId, templateId, argument: arg, signatories, observers, stakeholders }, seed);
        (this.contracts ??= new Map()).set(contractId, { contractId, templateId, template, argument: arg, signatories, observers, stakeholders, local: true });
        this.m.returnValue({ kind: 'contractId', value: contractId } satisfies ContractIdValue);
      });
    });
  }

  private stakeholders(template: DefTemplate, templateId: QualifiedName, arg: RecordValue, k: (signatories: string[], observers: string[]) => void): void {
    const env: Env = bindEnv(template.param, arg, null);
    this.eval(template.signatories, env, templateId, (sigs) => {
      const signatories = this.parties(sigs, 'signatories', templateId);
      this.eval(template.observers, env, templateId, (obs) => k(signatories, this.parties(obs, 'observers', templateId)));
    });
  }

  // ---- contracts -----------------------------------------------------------------------------

  /** The contract `cid` if active: created by this transaction, or the caller's. */
  private withContract(contractId: string, k: (info: ContractInfo) => void): void {
    const known = this.contracts?.get(contractId);
    if (known && (this.tx.isConsumed(contractId) || !this.isLive(known))) {
      return this.fail({ kind: 'contractNotActive', contractId, templateId: known.templateId, ...this.consumer(contractId) }, `contract ${contractId} (${show(known.templateId)}) is not active`);
    }
    if (known) return k(known);
    const contract = this.s.getContract(contractId);
    if (!contract) return this.fail({ kind: 'contractNotFound', contractId }, `contract ${contractId} is not known`);
    const argument = contract.argument;
    if (argument.kind !== 'record') return this.crash(`contract ${contractId} has a ${argument.kind} argument, not a record`);
    const template = this.m.template(contract.templateId);
    const found = (signatories: readonly string[], observers: readonly string[]): void => {
      const stakeholders = union(signatories, observers);
      const info: ContractInfo = { contractId, templateId: contract.templateId, template, argument, signatories, observers, stakeholders, local: false };
      (this.contracts ??= new Map()).set(contractId, info);
      if (this.tx.isConsumed(contractId)) {
        return this.fail({ kind: 'contractNotActive', contractId, templateId: info.templateId, ...this.consumer(contractId) }, `contract ${contractId} is not active`);
      }
      k(info);
    };
    if (contract.signatories !== undefined && contract.observers !== undefined) return found(sortedSet(contract.signatories), sortedSet(contract.observers));
    this.stakeholders(template, contract.templateId, argument, found);
  }

  private consumer(contractId: string): { consumedBy?: number } {
    const by = this.tx.consumedBy(contractId);
    return by === undefined ? {} : { consumedBy: by };
  }

  /** A contract this transaction created lives while its create was not rolled back. */
  private isLive(info: ContractInfo): boolean {
    return !info.local || this.tx.isCreated(info.contractId);
  }

  private fetch(contractId: string, target: { template: QualifiedName } | { iface: QualifiedName }): void {
    this.withContract(contractId, (stored) => this.asTarget(stored, target, (info) => {
      const interfaceId = 'iface' in target ? target.iface : undefined;
      // transaction.rst: a fetch needs a stakeholder of the contract among the authorizers.
      const authorizers = this.tx.authorizers;
      const acting = info.stakeholders.filter((p) => authorizers.has(p));
      if (acting.length === 0) {
        return this.fail(
          { kind: 'fetchMissingAuthorization', templateId: info.templateId, authorizers: [...authorizers], stakeholders: info.stakeholders, nodeId: this.tx.nextNodeId, atRoot: this.tx.atRoot },
          `fetch of ${contractId} (${show(info.templateId)}) has no stakeholder among the authorizers ${[...authorizers].sort().join(', ')}`,
        );
      }
      this.tx.addFetch({ contractId, templateId: info.templateId, interfaceId, actingParties: acting, signatories: info.signatories, stakeholders: info.stakeholders });
      this.m.returnValue(info.argument);
    }));
  }

  /**
   * The contract as `target` reads it: a template of its own, or of another version of its package
   * (smart contract upgrades: its argument converted to that version's type, whose precondition must
   * hold and whose signatories and observers must be those the contract was created with), or an
   * interface its template implements.
   */
  private asTarget(info: ContractInfo, target: { template: QualifiedName } | { iface: QualifiedName }, k: (info: ContractInfo) => void): void {
    if ('iface' in target) {
      const implementing = (c: ContractInfo): void => {
        if (c.template.implements.has(qualifiedKey(target.iface))) return k(c);
        return this.fail(
          { kind: 'contractDoesNotImplementInterface', contractId: c.contractId, interfaceId: target.iface, templateId: c.templateId },
          `contract ${c.contractId} (${show(c.templateId)}) does not implement ${show(target.iface)}`,
        );
      };
      const name = info.local ? undefined : this.getPackage(info.templateId.packageId)?.metadata?.name;
      const preferred = name === undefined ? undefined : this.s.packageResolution?.(name);
      if (preferred === undefined || preferred === info.templateId.packageId) return implementing(info);
      return this.asTarget(info, { template: { ...info.templateId, packageId: preferred } }, implementing);
    }
    const to = target.template;
    const from = info.templateId;
    if (sameName(from, to)) return k(info);
    const packageName = (id: string) => this.getPackage(id)?.metadata?.name;
    const template = from.module === to.module && from.name === to.name && packageName(from.packageId) !== undefined && packageName(from.packageId) === packageName(to.packageId)
      ? this.getPackage(to.packageId)?.modules.get(to.module)?.templates.get(to.name)
      : undefined;
    if (!template) {
      return this.fail({ kind: 'wronglyTypedContract', contractId: info.contractId, expected: to, actual: from }, `contract ${info.contractId} is a ${show(from)}, not a ${show(to)}`);
    }
    const converted = upgradeValue(info.argument, { kind: 'con', tycon: to, args: [] }, this.getPackage);
    if (!converted.ok) {
      return converted.kind === 'dropDefinedField'
        ? this.fail({ kind: 'downgradeDropDefinedField', contractId: info.contractId, type: converted.type, fieldIndex: converted.fieldIndex }, `contract ${info.contractId} read as ${show(to)} would drop field ${converted.fieldIndex} of ${show(converted.type)}, which holds Some`)
        : this.fail({ kind: 'downgradeFailed', contractId: info.contractId, to, detail: converted.detail }, `contract ${info.contractId} cannot be read as ${show(to)}: ${converted.detail}`);
    }
    const argument = converted.value as RecordValue;
    this.eval(template.precondition, bindEnv(template.param, argument, null), to, (ensure) => {
      if (ensure.kind !== 'bool') return this.crash(`the precondition of ${show(to)} is a ${ensure.kind}`);
      if (!ensure.value) return this.fail({ kind: 'templatePreconditionViolated', templateId: to, argument }, `the precondition (ensure) of ${show(to)} is false for contract ${info.contractId}`);
      this.stakeholders(template, to, argument, (signatories, observers) => {
        // Daml's Speedy (SBuiltinFun checkContractUpgradable) compares signatories and stakeholders:
        // an observer that is also a signatory may come or go, a stakeholder may not.
        if (!sameSet(signatories, info.signatories) || !sameSet(union(signatories, observers), info.stakeholders)) {
          return this.fail(
            { kind: 'upgradeValidationFailed', contractId: info.contractId, from, to, signatories, observers },
            `contract ${info.contractId} read as ${show(to)} has signatories ${signatories.join(', ')} and observers ${observers.join(', ')}, not those it was created with`,
          );
        }
        k({ ...info, templateId: to, template, argument });
      });
    });
  }

  private interfaceDef(iface: QualifiedName): DefInterface {
    const def = this.getPackage(iface.packageId)?.modules.get(iface.module)?.interfaces.get(iface.name);
    if (!def) return this.m.abort({ kind: 'missingDefinition', message: `no interface ${show(iface)} in package ${iface.packageId}`, definition: this.m.definition });
    return def;
  }

  // ---- exercise ----------------------------------------------------------------------------

  private exercise(
    contractId: string, arg: Value,
    target: { template: QualifiedName } | { iface: QualifiedName; guard: Value | undefined },
    choiceName: string,
  ): void {
    this.withContract(contractId, (stored) => this.asTarget(stored, target, (info) => {
      const iface = 'iface' in target ? target.iface : undefined;
      const owner = iface ? this.interfaceDef(iface) : info.template;
      const choice: TemplateChoice | undefined = owner.choices.get(choiceName);
      if (!choice) return this.m.abort({ kind: 'missingDefinition', message: `no choice ${choiceName} on ${show(iface ?? info.templateId)}`, definition: this.m.definition });
      const def = iface ?? info.templateId;
      const thisEnv: Env = bindEnv(owner.param, info.argument, null);
      const argEnv: Env = bindEnv(choice.argBinder.name, arg, thisEnv);
      const go = (): void => this.eval(choice.controllers, argEnv, def, (ctl) => {
        const controllers = this.parties(ctl, 'controllers', choiceName);
        if (controllers.length === 0) return this.fail({ kind: 'noControllers', templateId: info.templateId, choice: choiceName, nodeId: this.tx.nextNodeId }, `choice ${choiceName} of ${show(info.templateId)} has no controllers`);
        const observe = (k: (obs: string[]) => void): void => {
          if (!choice.observers) return k([]);
          this.eval(choice.observers, argEnv, def, (obs) => k(this.parties(obs, 'observers', choiceName)));
        };
        observe((choiceObservers) => {
          // transaction.rst: the controllers must all be authorizers of the exercise.
          const authorizers = this.tx.authorizers;
          const missing = controllers.filter((p) => !authorizers.has(p));
          if (missing.length > 0) {
            return this.fail(
              { kind: 'exerciseMissingAuthorization', templateId: info.templateId, choice: choiceName, authorizers: [...authorizers], requiredAuthorizers: controllers, nodeId: this.tx.nextNodeId, atRoot: this.tx.atRoot },
              `exercise of ${choiceName} on ${contractId} (${show(info.templateId)}) lacks the authorization of ${missing.join(', ')}`,
            );
          }
          // The consequences run with the authority of the signatories and the controllers (a
          // sorted set, as the engine's union of two sorted party sets).
          const inner = new Set(union(info.signatories, controllers));
          this.tx.beginExercise({
            contractId, templateId: info.templateId, interfaceId: iface, choice: choiceName, choiceArgument: arg,
            consuming: choice.consuming, actingParties: controllers, signatories: info.signatories,
            stakeholders: info.stakeholders, choiceObservers,
          }, inner);
          const bodyEnv: Env = bindEnv(choice.selfBinder, { kind: 'contractId', value: contractId }, argEnv);
          this.m.then((result) => { this.tx.endExercise(result); this.m.returnValue(result); });
          this.eval(choice.update, bodyEnv, def, this.runNext);
        });
      });
      if ('guard' in target && target.guard) {
        this.m.then((ok) => {
          if (ok.kind !== 'bool') return this.crash(`an interface guard returned a ${ok.kind}`);
          if (!ok.value) {
            return this.fail({ kind: 'interfaceGuardFailed', contractId, interfaceId: target.iface, templateId: info.templateId, choice: choiceName }, `the guard of ${choiceName} rejected contract ${contractId}`);
          }
          go();
        });
        return this.m.applyValue(target.guard, [info.argument]);
      }
      go();
    }));
  }

  // ---- exceptions ----------------------------------------------------------------------------

  /**
   * `try e catch x. h`: on an exception the transaction rolls back to where the try began (a
   * rollback node), then `h` decides (it is pure): with `Some u`, `u` runs; with `None` the
   * exception goes on to the next handler. `kids`: `e`, then `h` under the binder `x`.
   */
  private tryCatch(kids: readonly Node[], env: Env, def: Definition | undefined): void {
    const checkpoint = this.tx.checkpoint();
    this.m.catchWith((exception: AnyExceptionValue) => {
      // The engine rolls the try back before its handler decides, even if the handler then
      // rethrows (Speedy's handleException): an exception going on starts from the try's context,
      // which is what a failure's trace shows. The nested rollback nodes this leaves normalize away.
      this.tx.rollbackTo(checkpoint);
      const handlerNode = kids[1]!;
      this.evalKid(handlerNode, new EnvCell(handlerNode.scope!.names, exception, undefined, undefined, env), def, (handler) => {
        if (handler.kind !== 'optional') return this.crash(`a catch handler returned a ${handler.kind}`);
        if (handler.value === undefined) return this.m.throwException(exception);
        this.run(handler.value);
      });
    });
    this.evalKid(kids[0]!, env, def, this.runNext);
  }
}
