/**
 * Compares the target's events with the engine's projected nodes, node by node in pre-order.
 * Contract ids are not compared (the JSON API gives no seed to derive them): the engine's ids are
 * replaced by the target's of the node at the same place before values are compared.
 */
import { isObject, jsonEqual, type Json } from '../checks/support/expect.js';
import { damlValueDifference } from '../checks/support/values.js';
import type { JudgeDamlId } from './judgeDamlIds.js';
import type { EngineEventNode } from './projectEngineNodes.js';

export interface Difference {
  readonly id: JudgeDamlId;
  /** Where: `events[i]` of the target's transaction (or the command). */
  readonly path: string;
  readonly target: unknown;
  readonly engine: unknown;
}

export type TargetNode =
  | {
      readonly kind: 'create'; readonly contractId: string; readonly templateId: unknown; readonly packageName: unknown; readonly createArgument: unknown; readonly signatories: unknown; readonly observers: unknown;
      readonly witnessParties: unknown;
      readonly acsDelta: unknown;
    }
  | {
      readonly kind: 'exercise'; readonly contractId: string; readonly templateId: unknown; readonly packageName: unknown; readonly choice: unknown; readonly consuming: unknown;
      readonly actingParties: unknown; readonly exerciseResult: unknown; readonly descendants: number; readonly witnessParties: unknown;
      readonly choiceArgument: unknown;
      readonly acsDelta: unknown;
      /** The interface the choice was exercised through, when it was. */
      readonly interfaceId?: unknown;
    };

/** The created and exercised events of a LEDGER_EFFECTS transaction, with each exercise's number of descendants. */
export function targetNodesOf(events: readonly unknown[]): { ok: true; nodes: TargetNode[] } | { ok: false; reason: string } {
  const withIds: { node: TargetNode; nodeId: unknown; last: unknown }[] = [];
  for (const [i, e] of events.entries()) {
    if (!isObject(e)) return { ok: false, reason: `events[${i}] is not an object` };
    if (isObject(e.CreatedEvent)) {
      const c = e.CreatedEvent;
      withIds.push({ node: { kind: 'create', contractId: String(c.contractId), templateId: c.templateId, packageName: c.packageName, createArgument: c.createArgument, signatories: c.signatories, observers: c.observers, witnessParties: c.witnessParties, acsDelta: c.acsDelta }, nodeId: c.nodeId, last: c.nodeId });
    } else if (isObject(e.ExercisedEvent)) {
      const x = e.ExercisedEvent;
      withIds.push({
        node: {
          kind: 'exercise', contractId: String(x.contractId), templateId: x.templateId, packageName: x.packageName, choice: x.choice, consuming: x.consuming, actingParties: x.actingParties,
          exerciseResult: x.exerciseResult, choiceArgument: x.choiceArgument, descendants: 0, witnessParties: x.witnessParties, acsDelta: x.acsDelta, ...(x.interfaceId === undefined || x.interfaceId === null ? {} : { interfaceId: x.interfaceId }),
        },
        nodeId: x.nodeId, last: x.lastDescendantNodeId,
      });
    } else {
      return { ok: false, reason: `events[${i}] is neither a CreatedEvent nor an ExercisedEvent (the transaction must be of LEDGER_EFFECTS shape)` };
    }
  }
  const nodes = withIds.map(({ node, nodeId, last }) => {
    if (node.kind !== 'exercise' || typeof nodeId !== 'number' || typeof last !== 'number') return node;
    return { ...node, descendants: withIds.filter((o) => typeof o.nodeId === 'number' && o.nodeId > nodeId && o.nodeId <= last).length };
  });
  return { ok: true, nodes };
}

const sorted = (v: unknown): unknown => (Array.isArray(v) ? [...v].map(String).sort() : v);

/** The top-level nodes (one per command, in order): those no exercise before them contains. */
export function rootsOf(nodes: readonly TargetNode[]): TargetNode[] {
  const roots: TargetNode[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    roots.push(n);
    if (n.kind === 'exercise') i += n.descendants;
  }
  return roots;
}

/** Replaces every string that is a key of `ids` (an engine contract id) by its value (the target's). */
function renameIds(v: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (typeof v === 'string') return ids.get(v) ?? v;
  if (Array.isArray(v)) return v.map((x) => renameIds(x, ids));
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, renameIds(x, ids)]));
  return v;
}

export function compareTransaction(target: readonly TargetNode[], engine: readonly EngineEventNode[]): Difference[] {
  const out: Difference[] = [];
  const ids = new Map<string, string>();
  for (let i = 0; i < Math.min(target.length, engine.length); i++) ids.set(engine[i]!.contractId, target[i]!.contractId);
  const shape = (ns: readonly { kind: string }[]) => ns.map((n) => ('choice' in n ? `exercise ${String(n.choice)}` : n.kind));
  if (target.length !== engine.length) {
    out.push({ id: 'judge.daml.nodes', path: 'events', target: shape(target), engine: shape(engine) });
  }
  for (let i = 0; i < Math.min(target.length, engine.length); i++) {
    const t = target[i]!;
    const e = engine[i]!;
    const path = `events[${i}]`;
    const diff = (id: JudgeDamlId, field: string, tv: unknown, ev: unknown) => {
      if (!jsonEqual(tv, ev)) out.push({ id, path: `${path}.${field}`, target: tv, engine: ev });
    };
    // A Daml value compares as a value: Canton 3.5's JSON API leaves a record's trailing None fields out
    // (transcode's JsonCodec, removeTrailingNonesInRecords), the engine's JSON writes them null.
    const valueDiff = (id: JudgeDamlId, field: string, tv: unknown, ev: unknown) => {
      if (damlValueDifference(tv, ev) !== undefined) out.push({ id, path: `${path}.${field}`, target: tv, engine: ev });
    };
    if (t.kind !== e.kind) {
      out.push({ id: 'judge.daml.nodes', path, target: t.kind === 'create' ? 'CreatedEvent' : 'ExercisedEvent', engine: e.kind === 'create' ? 'create node' : 'exercise node' });
      continue;
    }
    diff('judge.daml.template', 'templateId', t.templateId, e.templateId);
    // Clients select templates by package name (`#name:Module:Entity`); a package without metadata names none.
    if (e.packageName !== undefined) diff('judge.daml.package-name', 'packageName', t.packageName, e.packageName);
    diff('judge.daml.witnesses', 'witnessParties', sorted(t.witnessParties ?? []), e.witnesses);
    // A line before 3.4 has no acsDelta: only a flag the target gives is judged.
    if (typeof t.acsDelta === 'boolean') diff('judge.daml.acs-delta', 'acsDelta', t.acsDelta, e.acsDelta);
    if (t.kind === 'create' && e.kind === 'create') {
      valueDiff('judge.daml.payload', 'createArgument', t.createArgument, renameIds(e.createArgument, ids));
      diff('judge.daml.signatories', 'signatories', sorted(t.signatories), sorted(e.signatories));
      diff('judge.daml.observers', 'observers', sorted(t.observers ?? []), sorted(e.observers));
    } else if (t.kind === 'exercise' && e.kind === 'exercise') {
      diff('judge.daml.nodes', 'choice', t.choice, e.choice);
      diff('judge.daml.consuming', 'consuming', t.consuming, e.consuming);
      diff('judge.daml.acting-parties', 'actingParties', sorted(t.actingParties), sorted(e.actingParties));
      valueDiff('judge.daml.exercise-result', 'exerciseResult', t.exerciseResult, renameIds(e.exerciseResult, ids));
      // Contract ids in the argument are the command's (or an earlier node's), so they are renamed
      // too. An event without one breaks the schema, which its own check reports.
      if (e.choiceArgument !== undefined && t.choiceArgument !== undefined) valueDiff('judge.daml.choice-argument', 'choiceArgument', t.choiceArgument, renameIds(e.choiceArgument, ids));
      diff('judge.daml.interface', 'interfaceId', t.interfaceId ?? null, e.interfaceId ?? null);
      diff('judge.daml.nodes', 'lastDescendantNodeId (descendants shown)', t.descendants, e.descendants);
    }
  }
  return out;
}

/** One line per difference: the id, the path and both values. */
export function describeDifference(d: Difference): string {
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
  return `${d.id} at ${d.path}: the target has ${show(d.target)}, the engine ${show(d.engine)}`;
}

export type { Json };
