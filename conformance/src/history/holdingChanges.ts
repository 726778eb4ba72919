/**
 * The holdings a transaction creates and archives for one party, read from the update itself
 * (independently of the parser): created events whose Holding view names the party as owner, and
 * consuming events on contracts whose created event, looked up by contract id, has such a view.
 * What the parser reports is judged against this.
 */
import { isObject, type Json } from '../checks/support/expect.js';

export const HOLDING_V1 = '#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding';
export const TRANSFER_INSTRUCTION_V1 = '#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:TransferInstruction';

/** One event of a LEDGER_EFFECTS transaction, whichever its kind. */
export interface TxEvent {
  readonly kind: 'created' | 'exercised' | 'archived';
  readonly nodeId: number;
  readonly event: Json;
}

export function eventsOf(tx: Json): TxEvent[] {
  const out: TxEvent[] = [];
  for (const e of Array.isArray(tx.events) ? tx.events : []) {
    if (!isObject(e)) continue;
    const [kind, event] = isObject(e.CreatedEvent) ? (['created', e.CreatedEvent] as const) : isObject(e.ExercisedEvent) ? (['exercised', e.ExercisedEvent] as const) : isObject(e.ArchivedEvent) ? (['archived', e.ArchivedEvent] as const) : [undefined, undefined];
    if (kind !== undefined) out.push({ kind, nodeId: typeof event.nodeId === 'number' ? event.nodeId : -1, event });
  }
  return out;
}

/** `#pkg:Module:Entity` and `pkgId:Module:Entity` name one interface when module and entity agree (as the parser matches them). */
export function sameInterface(a: unknown, b: string): boolean {
  if (typeof a !== 'string') return false;
  const tail = (s: string) => s.split(':').slice(-2).join(':');
  return tail(a) === tail(b);
}

export interface HoldingView {
  readonly owner: string;
  readonly amount: string;
  readonly instrumentId: { readonly admin: string; readonly id: string };
  readonly lock: unknown;
}

export type ViewLookup = { readonly kind: 'view'; readonly view: HoldingView } | { readonly kind: 'none' } | { readonly kind: 'failed'; readonly reason: string };

/** The Holding view of a created event: present, absent (not a holding, or the filter did not match), or failed to compute. */
export function holdingViewOf(created: Json): ViewLookup {
  const views = Array.isArray(created.interfaceViews) ? created.interfaceViews.filter(isObject) : [];
  const v = views.find((x) => sameInterface(x.interfaceId, HOLDING_V1));
  if (v === undefined) return { kind: 'none' };
  const status = isObject(v.viewStatus) ? v.viewStatus : undefined;
  if (status && typeof status.code === 'number' && status.code !== 0) return { kind: 'failed', reason: `the target could not compute the Holding view of ${String(created.contractId)}: ${String(status.message ?? `code ${status.code}`)}` };
  const value = isObject(v.viewValue) ? v.viewValue : undefined;
  const instrument = value && isObject(value.instrumentId) ? value.instrumentId : undefined;
  if (!value || typeof value.owner !== 'string' || typeof value.amount !== 'string' || !instrument) return { kind: 'failed', reason: `the Holding view of ${String(created.contractId)} has no owner, amount and instrumentId` };
  return { kind: 'view', view: { owner: value.owner, amount: value.amount, instrumentId: { admin: String(instrument.admin), id: String(instrument.id) }, lock: value.lock ?? null } };
}

export interface HoldingChange {
  readonly contractId: string;
  readonly change: 'created' | 'archived';
  readonly nodeId: number;
  readonly view: HoldingView;
  /** For an archive: whether the update shows a consuming event on it (false: only its own events say so). */
  readonly shown?: boolean;
}

export interface TxHoldings {
  readonly changes: readonly HoldingChange[];
  /** Why the transaction's holdings cannot be told (a view the target failed to compute). */
  readonly unknown?: string;
}

/**
 * The party's holding changes in `tx`.
 * Contracts created and archived in the same transaction are left out, as the parser leaves them.
 * `lookup` answers a contract's events by contract id as the party sees them (undefined: not visible).
 */
export async function holdingChangesOf(tx: Json, party: string, lookup: (contractId: string) => Promise<ContractEvents | undefined>): Promise<TxHoldings> {
  const events = eventsOf(tx);
  const createdHere = new Set(events.filter((e) => e.kind === 'created').map((e) => String(e.event.contractId)));
  const consumed = events.filter((e) => e.kind === 'archived' || (e.kind === 'exercised' && e.event.consuming === true));
  const consumedIds = new Set(consumed.map((e) => String(e.event.contractId)));
  const changes: HoldingChange[] = [];
  for (const e of events) {
    if (e.kind !== 'created' || consumedIds.has(String(e.event.contractId))) continue;
    const v = holdingViewOf(e.event);
    if (v.kind === 'failed') return { changes, unknown: v.reason };
    if (v.kind === 'view' && v.view.owner === party) changes.push({ contractId: String(e.event.contractId), change: 'created', nodeId: e.nodeId, view: v.view });
  }
  // Consuming events shown, and the holdings a transfer names as its inputs: the latter are this
  // update's archives when their own events say they were archived at its offset, shown or not.
  const inputs = events.flatMap((e) => (e.kind === 'exercised' ? inputHoldingCidsOf(e.event) : [])).filter((id) => !consumedIds.has(id));
  const candidates = [...consumed.map((e) => ({ id: String(e.event.contractId), nodeId: e.nodeId, shown: true })), ...[...new Set(inputs)].map((id) => ({ id, nodeId: -1, shown: false }))];
  for (const c of candidates) {
    if (createdHere.has(c.id) || changes.some((x) => x.contractId === c.id && x.change === 'archived')) continue;
    const found = await lookup(c.id);
    if (found === undefined) continue;
    if (!c.shown && found.archivedAtOffset !== Number(tx.offset)) continue;
    const v = holdingViewOf(found.created);
    if (v.kind === 'failed') return { changes, unknown: v.reason };
    if (v.kind === 'view' && v.view.owner === party) changes.push({ contractId: c.id, change: 'archived', nodeId: c.shown ? c.nodeId : (found.archivedNodeId ?? -1), view: v.view, shown: c.shown });
  }
  return { changes };
}

/** A contract's created event (through the Holding filter) and where it was archived, if it was. */
export interface ContractEvents {
  readonly created: Json;
  readonly archivedAtOffset?: number;
  readonly archivedNodeId?: number;
}

/** `transfer.inputHoldingCids` (v1 and v2) or `inputHoldingCids` of a choice argument. */
function inputHoldingCidsOf(x: Json): string[] {
  const arg = isObject(x.choiceArgument) ? x.choiceArgument : {};
  const from = isObject(arg.transfer) ? arg.transfer.inputHoldingCids : isObject(arg.allocation) ? arg.inputHoldingCids : undefined;
  return Array.isArray(from) ? from.filter((c): c is string => typeof c === 'string') : [];
}
