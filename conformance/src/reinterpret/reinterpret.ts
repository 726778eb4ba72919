/**
 * Re-interpretation, as a confirming participant does it: the submitted commands run again with
 * the project's Daml engine on the packages the target served and the input contracts as it
 * reported them, and the transaction the engine builds is compared with the one the target
 * answered, over what the suite's parties see (contract ids aside: the JSON API gives no seed).
 */
import {
  UpdateEngine, createCommand, decodeJson, exerciseCommand, exerciseInterfaceCommand, lookupInterface, lookupTemplate, packageDataTypes, parseTimestamp,
  type EvalError, type LedgerContract, type Package, type QualifiedName, type Type, type Update, type Value,
} from '../../../daml-engine/index.js';
import { isObject, type Json } from '../checks/support/expect.js';
import { compareTransaction, targetNodesOf, type Difference } from './compareTransaction.js';
import { projectEngineNodes } from './projectEngineNodes.js';
import type { LedgerSource } from './ledgerSource.js';

/** A transaction the suite caused: the commands it submitted and what the target answered. */
export interface JudgedSubmission {
  readonly commands: readonly Json[];
  readonly actAs: readonly string[];
  /** The parties whose view `transaction` is (its event format). */
  readonly parties: readonly string[];
  /** The answered transaction, LEDGER_EFFECTS shape (created and exercised events). */
  readonly transaction: Json;
}

export type Reinterpretation =
  | { readonly kind: 'agrees'; readonly nodes: number }
  | { readonly kind: 'differs'; readonly differences: readonly Difference[] }
  | { readonly kind: 'skipped'; readonly reason: string };

const skipped = (reason: string): Reinterpretation => ({ kind: 'skipped', reason });

/** `pkg:Module.Name:Entity` into its parts; undefined when it is not of that shape. */
export function parseTemplateId(id: string): QualifiedName | undefined {
  const parts = id.split(':');
  if (parts.length !== 3 || parts.some((p) => p === '')) return undefined;
  return { packageId: parts[0]!, module: parts[1]!, name: parts[2]! };
}

const conType = (tycon: QualifiedName): Type => ({ kind: 'con', tycon, args: [] });

export async function reinterpret(source: LedgerSource, s: JudgedSubmission): Promise<Reinterpretation> {
  const events = s.transaction.events;
  if (!Array.isArray(events)) return skipped('the transaction has no events list');
  const target = targetNodesOf(events);
  if (!target.ok) return skipped(target.reason);

  const packages = new Map<string, Package>();
  const need = async (packageId: string): Promise<string | undefined> => {
    if (packages.has(packageId)) return undefined;
    const p = await source.packageOf(packageId);
    if (!p.ok) return p.reason;
    packages.set(packageId, p.pkg);
    // Dependencies are fetched too: the engine resolves references across packages.
    for (const dep of p.pkg.imports ?? []) {
      const why = await need(dep);
      if (why !== undefined) return why;
    }
    return undefined;
  };

  // The commands, with their template (or interface) ids resolved to a package.
  const resolved: { kind: string; body: Json; id: QualifiedName }[] = [];
  for (const [i, c] of s.commands.entries()) {
    const [kind, body] = Object.entries(c)[0] ?? [];
    if (kind === undefined || !isObject(body) || typeof body.templateId !== 'string') return skipped(`commands[${i}] has no templateId`);
    if (body.templateId.startsWith('#')) return skipped(`commands[${i}] names its template by package name (${body.templateId}); only package ids are re-run`);
    const id = parseTemplateId(body.templateId);
    if (id === undefined) return skipped(`commands[${i}].templateId '${body.templateId}' is not pkg:Module:Entity`);
    resolved.push({ kind, body, id });
  }
  for (const c of resolved) {
    const why = await need(c.id.packageId);
    if (why !== undefined) return skipped(why);
  }
  const getPackage = (id: string) => packages.get(id);
  const types = packageDataTypes(getPackage);

  // Input contracts: those the commands exercise, as the target reported their creation.
  const inputs = new Map<string, LedgerContract>();
  for (const c of resolved) {
    if (c.kind !== 'ExerciseCommand' || typeof c.body.contractId !== 'string') continue;
    const reported = await source.contract(c.body.contractId, s.parties);
    if (reported === undefined) return skipped(`the input contract ${c.body.contractId} has no created event the suite's parties see`);
    const templateId = parseTemplateId(reported.templateId);
    if (templateId === undefined) return skipped(`the input contract ${c.body.contractId} names template '${reported.templateId}'`);
    const why = await need(templateId.packageId);
    if (why !== undefined) return skipped(why);
    const argument = decodeJson(conType(templateId), reported.createArgument as never, types);
    if (!argument.ok) return skipped(`the engine cannot read the input contract ${c.body.contractId}'s argument: ${argument.problem.message}`);
    inputs.set(c.body.contractId, { templateId, argument: argument.value, signatories: reported.signatories, observers: reported.observers });
  }

  const updates: Update[] = [];
  for (const [i, c] of resolved.entries()) {
    const u = updateOf(c.kind, c.body, c.id, getPackage, (t, j) => decodeJson(t, j as never, types), `commands[${i}]`);
    if (typeof u === 'string') return skipped(u);
    updates.push(u);
  }

  const time = typeof s.transaction.effectiveAt === 'string' ? parseTimestamp(s.transaction.effectiveAt) : undefined;
  const engine = new UpdateEngine({ getPackage, stepBudget: 10_000_000 });
  const created = new Map<string, LedgerContract>();
  const runs = [];
  for (const [i, update] of updates.entries()) {
    const r = engine.submit({
      update, submitters: s.actAs, transactionSeed: new Uint8Array(32).fill(i + 1), preparationTime: time ?? 0n, ledgerTime: time ?? 0n,
      getContract: (cid) => inputs.get(cid) ?? created.get(cid),
    });
    if (!r.ok) return refusedOrSkipped(r.error, i);
    for (const c of r.transaction.created) created.set(c.contractId, { templateId: c.templateId, argument: c.argument, signatories: c.signatories, observers: c.observers });
    runs.push(r.transaction);
  }
  const engineNodes = runs.flatMap((tx) => projectEngineNodes(tx, new Set(s.parties), getPackage, types));
  const differences = compareTransaction(target.nodes, engineNodes);
  return differences.length === 0 ? { kind: 'agrees', nodes: engineNodes.length } : { kind: 'differs', differences };
}

/** A Daml failure means the target should have refused; anything else the engine could not do is a skip. */
function refusedOrSkipped(error: EvalError, index: number): Reinterpretation {
  const message = 'message' in error && typeof error.message === 'string' ? error.message : error.kind;
  if (error.kind === 'budgetExceeded' || error.kind === 'missingDefinition' || error.kind === 'crash') {
    return skipped(`the engine cannot run commands[${index}] (${error.kind}): ${message}`);
  }
  return { kind: 'differs', differences: [{ id: 'judge.daml.refused', path: `commands[${index}]`, target: 'committed', engine: `refused: ${error.kind}: ${message}` }] };
}

type DecodeValue = (type: Type, json: unknown, where: string) => { ok: true; value: Value } | { ok: false; problem: { message: string } };

/** The engine update of one JSON API command, or why it cannot be built. */
function updateOf(kind: string, body: Json, id: QualifiedName, getPackage: (id: string) => Package | undefined, decode: DecodeValue, where: string): Update | string {
  const template = lookupTemplate(getPackage, id);
  const iface = template === undefined ? lookupInterface(getPackage, id) : undefined;
  if (template === undefined && iface === undefined) return `${where}: ${id.module}:${id.name} is no template or interface of package ${id.packageId}`;
  const argOf = (type: Type, json: unknown, at: string): Value | string => {
    const r = decode(type, json ?? {}, at);
    return r.ok ? r.value : `${where}.${at}: ${r.problem.message}`;
  };
  if (kind === 'CreateCommand' && template) {
    const arg = argOf(conType(id), body.createArguments, 'createArguments');
    return typeof arg === 'string' ? arg : createCommand(id, arg);
  }
  if (kind === 'ExerciseCommand' && typeof body.choice === 'string' && typeof body.contractId === 'string') {
    const choice = (template ?? iface)!.choices.get(body.choice);
    if (!choice) return `${where}: no choice ${body.choice} on ${id.module}:${id.name}`;
    const arg = argOf(choice.argBinder.type, body.choiceArgument, 'choiceArgument');
    if (typeof arg === 'string') return arg;
    return template ? exerciseCommand(id, body.contractId, body.choice, arg) : exerciseInterfaceCommand(id, body.contractId, body.choice, arg);
  }
  return `${where}: ${kind} is not re-run (create and exercise commands are)`;
}
