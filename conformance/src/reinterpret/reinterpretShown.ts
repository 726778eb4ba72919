/**
 * Re-interpretation of a transaction the suite did not cause: the target's own history, or other
 * applications' transactions. Without the commands, each top-level node the parties see is re-run
 * as a confirming participant re-runs the root action of a view: a create with its signatories as
 * the submitters, an exercise with its acting parties. Whoever sees a node sees its whole subtree,
 * so each top-level node's re-run rebuilds all the parties were shown of it.
 */
import { isObject, type Json } from '../checks/support/expect.js';
import { rootsOf, targetNodesOf, type TargetNode } from './compareTransaction.js';
import { reportedContract, type LedgerSource } from './ledgerSource.js';
import { reinterpret, type Reinterpretation } from './reinterpret.js';

/** A transaction with more events is not re-run: that would be a load test, not a judgement. */
export const MAX_SHOWN_EVENTS = 2_000;

/** A transaction as the parties were shown it (LEDGER_EFFECTS shape). */
export interface ShownTransaction {
  /** The parties whose view `transaction` is: those its event format named, or the witnesses of an any-party read. */
  readonly parties: readonly string[];
  readonly transaction: Json;
}

/** The command each top-level node is the root action of, and its submitters; or why a node cannot be one. */
export function rootCommandsOf(nodes: readonly TargetNode[]): { commands: Json[]; actAsOf: string[][] } | string {
  const commands: Json[] = [];
  const actAsOf: string[][] = [];
  for (const [i, n] of rootsOf(nodes).entries()) {
    const parties = (v: unknown): string[] | undefined => (Array.isArray(v) && v.length > 0 && v.every((p) => typeof p === 'string') ? (v as string[]) : undefined);
    if (n.kind === 'create') {
      const signatories = parties(n.signatories);
      if (typeof n.templateId !== 'string' || signatories === undefined) return `top-level node ${i} (a create) has no templateId or signatories`;
      commands.push({ CreateCommand: { templateId: n.templateId, createArguments: n.createArgument as Json } });
      actAsOf.push(signatories);
    } else {
      const acting = parties(n.actingParties);
      // Through its interface when it was exercised through one: the command names the interface.
      const id = n.interfaceId ?? n.templateId;
      if (typeof id !== 'string' || typeof n.choice !== 'string' || acting === undefined) return `top-level node ${i} (an exercise) has no templateId, choice or acting parties`;
      commands.push({ ExerciseCommand: { templateId: id, contractId: n.contractId, choice: n.choice, choiceArgument: n.choiceArgument as Json } });
      actAsOf.push(acting);
    }
  }
  return { commands, actAsOf };
}

/** The hosted witnesses of an any-party read's transaction: the parties whose view it is. */
export function witnessesOf(events: readonly unknown[]): string[] {
  const out = new Set<string>();
  for (const e of events) {
    const inner = isObject(e) ? (isObject(e.CreatedEvent) ? e.CreatedEvent : isObject(e.ExercisedEvent) ? e.ExercisedEvent : undefined) : undefined;
    if (inner && Array.isArray(inner.witnessParties)) for (const p of inner.witnessParties) if (typeof p === 'string') out.add(p);
  }
  return [...out].sort();
}

/** Re-runs a shown transaction from its top-level nodes and compares what the engine builds with what the target showed. */
export async function reinterpretShown(source: LedgerSource, t: ShownTransaction): Promise<Reinterpretation> {
  const events = t.transaction.events;
  if (!Array.isArray(events)) return { kind: 'skipped', reason: 'the transaction has no events list' };
  const target = targetNodesOf(events);
  if (!target.ok) return { kind: 'skipped', reason: target.reason };
  const roots = rootCommandsOf(target.nodes);
  if (typeof roots === 'string') return { kind: 'skipped', reason: roots };
  if (roots.commands.length === 0) return { kind: 'skipped', reason: 'the parties see no node of the transaction' };
  // A contract one top-level node creates and a later one uses (even within the transaction only)
  // is read as the target showed its creation here.
  for (const e of events) {
    const c = isObject(e) && isObject(e.CreatedEvent) ? reportedContract(e.CreatedEvent) : undefined;
    if (c !== undefined) source.remember?.(c);
  }
  const tx = t.transaction;
  const at = typeof tx.offset === 'number' && typeof tx.synchronizerId === 'string' ? { at: { offset: tx.offset, synchronizerId: tx.synchronizerId } } : {};
  return reinterpret(source, { commands: roots.commands, actAs: [], actAsOf: roots.actAsOf, parties: t.parties, transaction: tx, ...at });
}
