/**
 * Re-interpretation, as a confirming participant does it: the submitted commands run again with
 * the project's Daml engine on the packages the target served and the input contracts as it
 * reported them, and the transaction the engine builds is compared with the one the target
 * answered, over what the suite's parties see (contract ids aside: the JSON API gives no seed).
 */
import {
  UpdateEngine, createCommand, decodeJson, encodeJson, exerciseCommand, exerciseInterfaceCommand, lookupInterface, lookupTemplate, packageDataTypes, parseTimestamp,
  type DataTypes, type EvalError, type LedgerContract, type Package, type QualifiedName, type Transaction, type Type, type Update, type Value,
} from '../../../daml-engine/index.js';
import { isObject, jsonEqual, type Json } from '../checks/support/expect.js';
import { compareTransaction, rootsOf, targetNodesOf, type Difference, type TargetNode } from './compareTransaction.js';
import { effectsOf, projectEngineNodes, type Effects } from './projectEngineNodes.js';
import { viewDifferences } from './compareViews.js';
import { packageFetcher, untilPackagesFound, type LedgerSource, type ReportedContract } from './ledgerSource.js';

/** A command with its template (or interface) resolved to a package, and the contract it exercises. */
export interface Resolved {
  readonly kind: string;
  readonly body: Json;
  readonly id: QualifiedName;
  readonly contractId: string | undefined;
}

/** A transaction the suite caused: the commands it submitted and what the target answered. */
export interface JudgedSubmission {
  readonly commands: readonly Json[];
  readonly actAs: readonly string[];
  /** Each command's own submitters, where they differ (a transaction's top-level nodes re-run one by one). */
  readonly actAsOf?: readonly (readonly string[])[];
  /** The parties whose view `transaction` is (its event format). */
  readonly parties: readonly string[];
  /** The answered transaction, LEDGER_EFFECTS shape (created and exercised events). */
  readonly transaction: Json;
  /**
   * A transaction of the target's history: its offset and synchronizer, against which each input
   * contract's archive (where the source knows it) is judged.
   */
  readonly at?: { readonly offset: number; readonly synchronizerId: string };
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

/** Contracts one command may read beyond those the commands name, each asked of the target as it comes up. */
const MAX_READ_CONTRACTS = 64;

export async function reinterpret(source: LedgerSource, s: JudgedSubmission): Promise<Reinterpretation> {
  const fetcher = packageFetcher(source);
  return untilPackagesFound(fetcher, () => reinterpretOnce(source, s, fetcher), (r) => r.kind === 'agrees');
}

async function reinterpretOnce(source: LedgerSource, s: JudgedSubmission, fetcher: ReturnType<typeof packageFetcher>): Promise<Reinterpretation> {
  const events = s.transaction.events;
  if (!Array.isArray(events)) return skipped('the transaction has no events list');
  const target = targetNodesOf(events);
  if (!target.ok) return skipped(target.reason);

  const { need, getPackage } = fetcher;

  // The commands, with their template (or interface) ids resolved to a package.
  const roots = rootsOf(target.nodes);
  const eventPackages = eventPackagesOf(target.nodes);
  const resolved: Resolved[] = [];
  for (const [i, c] of s.commands.entries()) {
    const [kind, body] = Object.entries(c)[0] ?? [];
    if (kind === undefined || !isObject(body) || typeof body.templateId !== 'string') return skipped(`commands[${i}] has no templateId`);
    const id = body.templateId.startsWith('#')
      ? await resolvePackageName(body.templateId, roots[i], eventPackages, need, getPackage, `commands[${i}]`)
      : parseTemplateId(body.templateId) ?? `commands[${i}].templateId '${body.templateId}' is not pkg:Module:Entity`;
    if (typeof id === 'string') return skipped(id);
    const why = await need(id.packageId);
    if (why !== undefined) return skipped(why);
    // By key: the contract the target's root exercise names, its key checked against the command's below.
    let contractId = typeof body.contractId === 'string' ? body.contractId : undefined;
    if (kind === 'ExerciseByKeyCommand') {
      const root = roots[i];
      if (root?.kind !== 'exercise') return skipped(`commands[${i}] exercises by key and the transaction shows no exercise at its place`);
      contractId = root.contractId;
    }
    resolved.push({ kind, body, id, contractId });
  }
  const types = packageDataTypes(getPackage);

  // Input contracts: those the commands exercise, as the target reported their creation.
  const inputs = new Map<string, LedgerContract>();
  const keyDifferences: Difference[] = [];
  for (const [i, c] of resolved.entries()) {
    if (c.contractId === undefined || inputs.has(c.contractId)) continue;
    const reported = await source.contract(c.contractId, s.parties);
    if (reported === undefined) return skipped(`the input contract ${c.contractId} has no created event the suite's parties see`);
    const gone = archivedBefore(reported, s.at, i);
    if (gone !== undefined) return gone;
    const input = await inputContract(reported, need, getPackage);
    if (typeof input === 'string') return skipped(input);
    inputs.set(c.contractId, input);
    if (c.kind === 'ExerciseByKeyCommand') {
      const d = keyDifference(c, reported, input.templateId, getPackage, types, `commands[${i}].contractKey`);
      if (typeof d === 'string') return skipped(d);
      if (d !== undefined) keyDifferences.push(d);
    }
  }

  const updates: Update[] = [];
  for (const [i, c] of resolved.entries()) {
    const u = updateOf(c, getPackage, (t, j) => decodeJson(t, j as never, types), `commands[${i}]`);
    if (typeof u === 'string') return skipped(u);
    updates.push(u);
  }

  const time = typeof s.transaction.effectiveAt === 'string' ? parseTimestamp(s.transaction.effectiveAt) : undefined;
  const engine = new UpdateEngine({ getPackage, stepBudget: 10_000_000 });
  // The versions the target ran, by package name: an interface call reads a contract of another
  // version as the target did (its exercised event names the template whose instance ran).
  const ranVersions = versionsRanIn(target.nodes);
  const created = new Map<string, LedgerContract>();
  const runs = [];
  for (const [i, update] of updates.entries()) {
    const run = () => engine.submit({
      update, submitters: s.actAsOf?.[i] ?? s.actAs, transactionSeed: new Uint8Array(32).fill(i + 1), preparationTime: time ?? 0n, ledgerTime: time ?? 0n,
      getContract: (cid) => inputs.get(cid) ?? created.get(cid),
      packageResolution: (name) => ranVersions.get(name),
    });
    let r = run();
    // A contract the choice reads that no command named: asked of the target, then the command runs again.
    for (let asked = 0; !r.ok && asked < MAX_READ_CONTRACTS; asked++) {
      const cid = r.error.kind === 'ledger' && r.error.failure.kind === 'contractNotFound' ? r.error.failure.contractId : undefined;
      if (cid === undefined || inputs.has(cid)) break;
      const reported = await source.contract(cid, s.parties);
      // Not refused: a disclosed or divulged contract has no created event these parties see.
      if (reported === undefined) return skipped(`commands[${i}] reads the contract ${cid}, which has no created event the parties ${s.parties.join(', ')} see (disclosed or divulged to the submitters)`);
      const gone = archivedBefore(reported, s.at, i);
      if (gone !== undefined) return gone;
      const input = await inputContract(reported, need, getPackage);
      if (typeof input === 'string') return skipped(input);
      inputs.set(cid, input);
      r = run();
    }
    if (!r.ok) return refusedOrSkipped(r.error, i);
    for (const c of r.transaction.created) created.set(c.contractId, { templateId: c.templateId, argument: c.argument, signatories: c.signatories, observers: c.observers });
    runs.push(r.transaction);
  }
  // One ledger transaction: a contract one top-level node creates and a later one consumes is transient.
  const effects = sameContracts(effectsOf(runs), runs, target.nodes, new Set(s.parties), getPackage, types);
  const engineNodes = runs.flatMap((tx) => projectEngineNodes(tx, new Set(s.parties), getPackage, types, effects));
  // Interface views, where the request asked for them (the events carry them).
  const views = await viewDifferences(events, need, getPackage);
  if (typeof views === 'string') return skipped(`interface views: ${views}`);
  const differences = [...keyDifferences, ...compareTransaction(target.nodes, engineNodes), ...views];
  return differences.length === 0 ? { kind: 'agrees', nodes: engineNodes.length } : { kind: 'differs', differences };
}

/**
 * Each top-level node runs as a transaction of its own, so a contract one creates has the engine's
 * id there and the target's id where a later one exercises it (read back as the target showed it):
 * paired by place with the target's created events, either id stands for the contract, and a
 * contract created by one top-level node and consumed by a later one (a CreateAndExercise) is
 * transient (acsDelta false on both events), as in the one ledger transaction the target ran.
 */
function sameContracts(effects: Effects, runs: readonly Transaction[], target: readonly TargetNode[], parties: ReadonlySet<string>, getPackage: (id: string) => Package | undefined, types: DataTypes): Effects {
  if (runs.length < 2) return effects;
  const projected = runs.flatMap((tx) => projectEngineNodes(tx, parties, getPackage, types, effects));
  const targetOf = new Map<string, string>();
  projected.forEach((n, k) => {
    const t = target[k];
    if (n.kind === 'create' && t?.kind === 'create' && t.contractId !== n.contractId) targetOf.set(n.contractId, t.contractId);
  });
  if (targetOf.size === 0) return effects;
  const engineOf = new Map([...targetOf].map(([e, t]) => [t, e]));
  const also = (ids: ReadonlySet<string>, other: ReadonlyMap<string, string>) => new Set([...ids, ...[...ids].flatMap((id) => (other.has(id) ? [other.get(id)!] : []))]);
  return { created: also(effects.created, targetOf), consumed: also(effects.consumed, engineOf) };
}

/** An input contract for the engine, from its created event as the target reported it; or why it cannot be one. */
export async function inputContract(reported: ReportedContract, need: (id: string) => Promise<string | undefined>, getPackage: (id: string) => Package | undefined): Promise<LedgerContract | string> {
  const templateId = parseTemplateId(reported.templateId);
  if (templateId === undefined) return `the input contract ${reported.contractId} names template '${reported.templateId}'`;
  const why = await need(templateId.packageId);
  if (why !== undefined) return why;
  const argument = decodeJson(conType(templateId), reported.createArgument as never, packageDataTypes(getPackage));
  if (!argument.ok) return `the engine cannot read the input contract ${reported.contractId}'s argument: ${argument.problem.message}`;
  return { templateId, argument: argument.value, signatories: reported.signatories, observers: reported.observers };
}

/** The engine update of a resolved command (its packages fetched), or why it cannot be built. */
export function resolvedUpdate(c: Resolved, getPackage: (id: string) => Package | undefined, where: string): Update | string {
  const types = packageDataTypes(getPackage);
  return updateOf(c, getPackage, (t, j) => decodeJson(t, j as never, types), where);
}

/**
 * An input contract archived at an earlier offset of the same synchronizer than the transaction
 * that used it (fetched or exercised): the contract was no longer active, so a confirming
 * participant refuses the transaction. Its own offset is no earlier use: the transaction may archive it.
 */
function archivedBefore(reported: ReportedContract, at: JudgedSubmission['at'], index: number): Reinterpretation | undefined {
  const a = reported.archivedAt;
  if (at === undefined || a === undefined || a.synchronizerId === undefined || a.synchronizerId !== at.synchronizerId || a.offset >= at.offset) return undefined;
  return {
    kind: 'differs',
    differences: [{ id: 'judge.daml.refused', path: `commands[${index}]`, target: `committed at offset ${at.offset}`, engine: `refused: the input contract ${reported.contractId} is not active: the target archived it at offset ${a.offset} on the same synchronizer` }],
  };
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
function updateOf(c: Resolved, getPackage: (id: string) => Package | undefined, decode: DecodeValue, where: string): Update | string {
  const { kind, body, id } = c;
  const template = lookupTemplate(getPackage, id);
  const iface = template === undefined ? lookupInterface(getPackage, id) : undefined;
  if (template === undefined && iface === undefined) return `${where}: ${id.module}:${id.name} is no template or interface of package ${id.packageId}`;
  const argOf = (type: Type, json: unknown, at: string): Value | string => {
    const r = decode(type, json ?? {}, at);
    return r.ok ? r.value : `${where}.${at}: ${r.problem.message}`;
  };
  const choiceArg = (): { choice: string; arg: Value } | string => {
    if (typeof body.choice !== 'string') return `${where} names no choice`;
    const choice = (template ?? iface)!.choices.get(body.choice);
    if (!choice) return `${where}: no choice ${body.choice} on ${id.module}:${id.name}`;
    const arg = argOf(choice.argBinder.type, body.choiceArgument, 'choiceArgument');
    return typeof arg === 'string' ? arg : { choice: body.choice, arg };
  };
  if ((kind === 'CreateCommand' || kind === 'CreateAndExerciseCommand') && template) {
    const arg = argOf(conType(id), body.createArguments, 'createArguments');
    if (typeof arg === 'string') return arg;
    if (kind === 'CreateCommand') return createCommand(id, arg);
    const x = choiceArg();
    if (typeof x === 'string') return x;
    // Create, then exercise the new contract: two root nodes, as the participant builds them.
    const exercise: Update = { ...(exerciseCommand(id, '', x.choice, x.arg) as Extract<Update, { kind: 'exercise' }>), cid: { kind: 'var', name: 'created' } };
    return {
      kind: 'block',
      bindings: [{ name: 'created', type: { kind: 'builtin', builtin: 'CONTRACT_ID', args: [conType(id)] }, bound: { kind: 'update', update: createCommand(id, arg) } }],
      body: { kind: 'update', update: exercise },
    };
  }
  if ((kind === 'ExerciseCommand' || kind === 'ExerciseByKeyCommand') && c.contractId !== undefined) {
    const x = choiceArg();
    if (typeof x === 'string') return x;
    return template ? exerciseCommand(id, c.contractId, x.choice, x.arg) : exerciseInterfaceCommand(id, c.contractId, x.choice, x.arg);
  }
  return `${where}: ${kind} is not re-run (create, exercise, exercise-by-key and create-and-exercise commands are)`;
}

/**
 * The key an exercise-by-key named, against the key of the contract the target exercised (as
 * the target reported its creation): a difference, nothing, or why it cannot be told.
 */
function keyDifference(c: Resolved, reported: ReportedContract, templateId: QualifiedName, getPackage: (id: string) => Package | undefined, types: DataTypes, path: string): Difference | string | undefined {
  const key = lookupTemplate(getPackage, templateId)?.key;
  if (key === undefined) {
    return { id: 'judge.daml.refused', path, target: 'exercised by key', engine: `refused: ${templateId.module}:${templateId.name} has no contract key` };
  }
  const asked = decodeJson(key.type, c.body.contractKey as never, types);
  if (!asked.ok) return `the engine cannot read ${path}: ${asked.problem.message}`;
  const held = decodeJson(key.type, reported.contractKey as never, types);
  if (!held.ok) return `the input contract ${reported.contractId} reports no contract key the engine can read: ${held.problem.message}`;
  const [a, h] = [encodeJson(asked.value, key.type, types), encodeJson(held.value, key.type, types)];
  return jsonEqual(a, h) ? undefined : { id: 'judge.daml.nodes', path, target: h, engine: a };
}

/**
 * `#name:Module:Entity`, resolved as the target did: to the package its events name. The root
 * event of the command (its interface for an interface exercise) says which package the target
 * chose; failing that, the one package of that name among those the events name.
 */
async function resolvePackageName(
  ref: string, root: TargetNode | undefined, eventPackages: () => readonly string[], need: (id: string) => Promise<string | undefined>,
  packageOf: (id: string) => Package | undefined, where: string,
): Promise<QualifiedName | string> {
  const parts = parseTemplateId(ref.slice(1));
  if (parts === undefined) return `${where}.templateId '${ref}' is not #name:Module:Entity`;
  const name = parts.packageId;
  const at = (packageId: string): QualifiedName => ({ packageId, module: parts.module, name: parts.name });
  const fromRoot = root === undefined ? undefined : packageIdIn(root.kind === 'exercise' && root.interfaceId !== undefined ? root.interfaceId : root.templateId);
  if (fromRoot !== undefined) {
    const why = await need(fromRoot);
    if (why !== undefined) return why; // the package the target used cannot be re-run: say why
    if (packageOf(fromRoot)?.metadata?.name === name) return at(fromRoot);
  }
  const matching: string[] = [];
  for (const id of eventPackages()) {
    if (id === fromRoot || (await need(id)) !== undefined) continue;
    if (packageOf(id)?.metadata?.name === name) matching.push(id);
  }
  if (matching.length === 1) return at(matching[0]!);
  return `${where} names its template by package name (${ref}) and the transaction's events name ${matching.length === 0 ? 'no package' : 'several packages'} of that name`;
}

const packageIdIn = (v: unknown): string | undefined => (typeof v === 'string' ? parseTemplateId(v)?.packageId : undefined);

/** Package name -> the package of the templates the target's nodes name: exercises first (where code ran), then creates. */
function versionsRanIn(nodes: readonly TargetNode[]): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const kind of ['exercise', 'create'] as const) {
    for (const n of nodes) {
      const id = n.kind === kind ? packageIdIn(n.templateId) : undefined;
      if (id !== undefined && typeof n.packageName === 'string' && !out.has(n.packageName)) out.set(n.packageName, id);
    }
  }
  return out;
}

/** The package ids the events name (templates and interfaces), once per transaction. */
function eventPackagesOf(nodes: readonly TargetNode[]): () => readonly string[] {
  let ids: string[] | undefined;
  return () => (ids ??= [...new Set(nodes.flatMap((n) => [packageIdIn(n.templateId), packageIdIn(n.kind === 'exercise' ? n.interfaceId : undefined)]))]
    .filter((id): id is string => id !== undefined));
}
