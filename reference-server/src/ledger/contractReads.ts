import type { ExerciseNode } from '../store/LogEntry.js';
import type { LedgerContext } from './context.js';
import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import { matchEvent, resolveEventFormat } from './filters.js';
import { isValidPartyId } from './parties.js';
import type { Result } from './result.js';
import { ok } from './result.js';
import { isPlainObject } from './values.js';
import type { ArchivedEvent } from './wire.js';
import type { GetContractRequest, GetContractResponse, GetEventsByContractIdRequest, JsGetEventsByContractIdResponse } from './wireReads.js';

const EVENTS_NOT_FOUND = 'Contract events not found, or not visible.';
const PAYLOAD_NOT_FOUND = 'Contract payload not found, or not visible.';

function contractIdOf(req: unknown): Result<string, LedgerError> {
  const id = isPlainObject(req) ? req.contractId : undefined;
  if (typeof id !== 'string' || id === '') return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: contract_id', { context: { field_name: 'contract_id' } });
  return ok(id);
}

/**
 * The create and the consuming exercise of a contract, as the event format's parties see them
 * (ACS-delta presentation: stakeholders only). Unknown, pruned or invisible: CONTRACT_EVENTS_NOT_FOUND.
 */
export function eventsByContractId(ctx: LedgerContext, req: GetEventsByContractIdRequest): Result<JsGetEventsByContractIdResponse, LedgerError> {
  const id = contractIdOf(req);
  if (!id.ok) return id;
  if (req.eventFormat === undefined || req.eventFormat === null) {
    return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: event_format', { context: { field_name: 'event_format' } });
  }
  const q = resolveEventFormat(ctx.catalogue, req.eventFormat, undefined, 'event_format');
  if (!q.ok) return q;
  const c = ctx.store.contract(id.value);
  const hit = c && c.createdOffset > 0 ? matchEvent(q.value, c.stakeholders, c.template) : undefined;
  if (!c || !hit) return fail('CONTRACT_EVENTS_NOT_FOUND', EVENTS_NOT_FOUND, { context: { contract_id: id.value } });
  const { renderer } = ctx;
  const out: JsGetEventsByContractIdResponse = {
    created: { createdEvent: renderer.createdEvent(c, hit.witnesses, hit.match), synchronizerId: renderer.synchronizerId(c.originSynchronizer) },
  };
  const entry = c.isActive ? undefined : ctx.store.entryAt(c.archivedOffset);
  if (entry?.kind === 'transaction') {
    const node = entry.nodes.find((n): n is ExerciseNode => n.kind === 'exercise' && n.consuming && n.contract === c);
    if (node) {
      const archivedEvent: ArchivedEvent = {
        offset: entry.offset,
        nodeId: node.nodeId,
        contractId: c.contractId,
        templateId: c.template.id,
        witnessParties: hit.witnesses as string[],
        packageName: c.template.packageName,
        ...(hit.match.interfaces.length ? { implementedInterfaces: hit.match.interfaces.map((i) => i.id) } : {}),
      };
      out.archived = { archivedEvent, synchronizerId: renderer.synchronizerId(entry.synchronizer) };
    }
  }
  return ok(out);
}

/**
 * A contract's payload by id (Canton's alpha contract service): known to this participant and, when
 * querying parties are given, shared with one of them. The event carries no offset, node id, blob
 * or views (0 / absent), and only the querying parties that are stakeholders as witnesses.
 */
export function contractById(ctx: LedgerContext, req: GetContractRequest): Result<GetContractResponse, LedgerError> {
  const id = contractIdOf(req);
  if (!id.ok) return id;
  const querying = req.queryingParties ?? [];
  if (!Array.isArray(querying)) return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: querying_parties must be a list');
  const bad = querying.find((p) => typeof p !== 'string' || !isValidPartyId(p));
  if (bad !== undefined) return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: Invalid party id '${String(bad).slice(0, 80)}' in querying_parties`);
  const c = ctx.store.contract(id.value);
  const witnesses = c ? querying.filter((p) => c.stakeholders.includes(p)) : [];
  if (!c || c.createdOffset === 0 || (querying.length > 0 && witnesses.length === 0)) {
    return fail('CONTRACT_PAYLOAD_NOT_FOUND', PAYLOAD_NOT_FOUND, { context: { contract_id: id.value } });
  }
  const createdEvent = ctx.renderer.createdEvent(c, [...new Set(witnesses)].sort(), { blob: false, views: [], interfaces: [] }, 0, 0, false);
  return ok({ createdEvent });
}
