/**
 * The two shapes of one transaction, read from the same target with the same event format: the
 * ACS-delta shape must be the ledger-effects shape's events that say `acsDelta` (event.proto:
 * "would be part of the respective ACS_DELTA shaped stream"), a created event as it is and a
 * consuming exercise as the archive of its contract, each at its node id. A wallet that tracks its
 * holdings from one shape and reads trees from the other relies on it. Judged by the target's own
 * reads alone, so it holds for transactions the engine cannot re-run too.
 */
import { isObject, jsonEqual, type Json } from '../checks/support/expect.js';

interface FlatEvent {
  readonly kind: 'CreatedEvent' | 'ArchivedEvent';
  readonly nodeId: unknown;
  readonly contractId: unknown;
  readonly templateId: unknown;
  /** Created events only: what a client reads of the contract. */
  readonly created?: { readonly createArgument: unknown; readonly signatories: unknown; readonly observers: unknown; readonly witnessParties: unknown };
}

const sorted = (v: unknown): unknown => (Array.isArray(v) ? [...v].map(String).sort() : v);
const key = (e: FlatEvent) => `${e.kind} ${String(e.contractId)} at node ${String(e.nodeId)}`;

/** The ACS-delta events the ledger-effects events imply; undefined when an event says no acsDelta (a line before 3.4). */
export function expectedFlatEvents(ledgerEffects: readonly unknown[]): FlatEvent[] | undefined {
  const out: FlatEvent[] = [];
  for (const e of ledgerEffects) {
    const c = isObject(e) && isObject(e.CreatedEvent) ? e.CreatedEvent : undefined;
    const x = isObject(e) && isObject(e.ExercisedEvent) ? e.ExercisedEvent : undefined;
    const event = c ?? x;
    if (event === undefined || typeof event.acsDelta !== 'boolean') return undefined;
    if (!event.acsDelta) continue;
    if (c !== undefined) {
      const stakeholders = new Set([...(Array.isArray(c.signatories) ? c.signatories : []), ...(Array.isArray(c.observers) ? c.observers : [])].map(String));
      // An ACS-delta event's witnesses are its requesting stakeholders, not the informees of the exercises above it.
      const witnesses = Array.isArray(c.witnessParties) ? c.witnessParties.map(String).filter((p) => stakeholders.has(p)) : c.witnessParties;
      out.push({ kind: 'CreatedEvent', nodeId: c.nodeId, contractId: c.contractId, templateId: c.templateId, created: { createArgument: c.createArgument, signatories: sorted(c.signatories), observers: sorted(c.observers ?? []), witnessParties: sorted(witnesses) } });
    } else if (x !== undefined) {
      out.push({ kind: 'ArchivedEvent', nodeId: x.nodeId, contractId: x.contractId, templateId: x.templateId });
    }
  }
  return out;
}

function flatEventsOf(events: readonly unknown[]): FlatEvent[] | string {
  const out: FlatEvent[] = [];
  for (const [i, e] of events.entries()) {
    const c = isObject(e) && isObject(e.CreatedEvent) ? e.CreatedEvent : undefined;
    const a = isObject(e) && isObject(e.ArchivedEvent) ? e.ArchivedEvent : undefined;
    if (c !== undefined) out.push({ kind: 'CreatedEvent', nodeId: c.nodeId, contractId: c.contractId, templateId: c.templateId, created: { createArgument: c.createArgument, signatories: sorted(c.signatories), observers: sorted(c.observers ?? []), witnessParties: sorted(c.witnessParties) } });
    else if (a !== undefined) out.push({ kind: 'ArchivedEvent', nodeId: a.nodeId, contractId: a.contractId, templateId: a.templateId });
    else return `events[${i}] is neither a created nor an archived event`;
  }
  return out;
}

/**
 * What differs between the ACS-delta shape the target showed of a transaction (undefined: the
 * ACS-delta read did not show it) and the one its ledger-effects shape implies: one line each.
 */
export function shapeDifferences(ledgerEffects: Json, acsDelta: Json | undefined): string[] {
  const expected = expectedFlatEvents(Array.isArray(ledgerEffects.events) ? ledgerEffects.events : []);
  if (expected === undefined) return [];
  if (acsDelta === undefined) return expected.length === 0 ? [] : [`the ACS-delta read does not show it, while its ledger-effects events say acsDelta for ${expected.map(key).join(', ')}`];
  const shown = flatEventsOf(Array.isArray(acsDelta.events) ? acsDelta.events : []);
  if (typeof shown === 'string') return [`its ACS-delta shape: ${shown}`];
  const want = expected.map(key);
  const got = shown.map(key);
  if (!jsonEqual(want, got)) return [`its ACS-delta shape shows [${got.join('; ')}], its ledger-effects shape implies [${want.join('; ')}]`];
  const out: string[] = [];
  for (const [i, e] of expected.entries()) {
    const s = shown[i]!;
    if (!jsonEqual(s.templateId, e.templateId)) out.push(`${key(e)}: templateId ${JSON.stringify(s.templateId)} in the ACS-delta shape, ${JSON.stringify(e.templateId)} in the ledger-effects shape`);
    for (const field of ['createArgument', 'signatories', 'observers', 'witnessParties'] as const) {
      if (e.created !== undefined && !jsonEqual(s.created?.[field], e.created[field])) out.push(`${key(e)}: ${field} ${JSON.stringify(s.created?.[field])} in the ACS-delta shape, ${JSON.stringify(e.created[field])} in the ledger-effects shape`);
    }
  }
  return out;
}
