import { ViewFailed } from './engine/ViewFailed.js';
import type { ExerciseNode, ReassignmentEntry, TopologyEntry, TransactionEntry } from '../store/LogEntry.js';
import type { ReassignmentStep, StoredContract } from '../store/StoredContract.js';
import { encodeBlob } from './blob.js';
import { toTimestamp } from './clock.js';
import type { LedgerConfig } from './config.js';
import type { EventQuery, Match } from './filters.js';
import { matchEvent } from './filters.js';
import { show } from './values.js';
import { contractViewOf } from './interpret.js';
import { pendingView, type ViewOutcome } from './pendingViews.js';
import type {
  DamlValue,
  ArchivedEvent,
  CreatedEvent,
  Event,
  ExercisedEvent,
  JsInterfaceView,
  JsReassignment,
  JsTopologyTransaction,
  JsTransaction,
  TransactionShape,
  UnassignedEvent,
} from './wire.js';

/**
 * Wire JSON is built here, on demand, from the stored records: nothing per contract is kept in
 * wire form. Every function takes the resolved query so witnesses, blobs and views follow it.
 */
export class Renderer {
  constructor(readonly config: LedgerConfig) {}

  /** A string field left at its default: "" on a line that writes defaults out (3.4), absent otherwise. */
  #empty<K extends string>(field: K): Partial<Record<K, string>> {
    return this.config.shapes.emptyDefaults ? ({ [field]: '' } as Record<K, string>) : {};
  }

  synchronizerId(index: number): string {
    return this.config.synchronizers[index]?.id ?? '';
  }

  createdEvent(c: StoredContract, witnesses: readonly string[], match: Match, offset = c.createdOffset, nodeId = c.createdNodeId, acsDelta = true): CreatedEvent {
    // Built field by field in wire order: this runs once per contract in a 100k-contract ACS.
    const ev = { offset, nodeId, contractId: c.contractId, templateId: c.template.id } as CreatedEvent;
    if (c.template.key) ev.contractKey = c.key ?? null;
    ev.createArgument = c.argument;
    if (match.blob) ev.createdEventBlob = encodeBlob(c, this.config.blobKey);
    else if (this.config.shapes.emptyDefaults) ev.createdEventBlob = '';
    if (match.views.length) ev.interfaceViews = match.views.map((i) => this.#view(c, i.id));
    ev.witnessParties = witnesses as string[];
    ev.signatories = c.signatories as string[];
    ev.observers = c.observers as string[];
    ev.createdAt = this.#timestamp(c.createdAt);
    ev.packageName = c.template.packageName;
    ev.representativePackageId = c.template.packageId;
    ev.acsDelta = acsDelta;
    return ev;
  }

  #lastMs = NaN;
  #lastTs = '';
  /** Contracts created together share a timestamp; format it once. */
  #timestamp(ms: number): string {
    if (ms !== this.#lastMs) {
      this.#lastMs = ms;
      this.#lastTs = toTimestamp(ms);
    }
    return this.#lastTs;
  }

  #view(c: StoredContract, interfaceId: string): JsInterfaceView {
    const impl = c.template.interfaces.get(interfaceId);
    const self = () => contractViewOf(c, this.config);
    const now = (): ViewOutcome => {
      try {
        return viewOk(impl?.view(self()));
      } catch (e) {
        return viewFailed(e);
      }
    };
    // Uploaded code: evaluated in slices when the answer is written (pendingViews.ts), never here.
    const later = impl?.viewSliced;
    if (later === undefined) return { interfaceId, ...now() };
    return pendingView(interfaceId, now, () => later(self()).then(viewOk, viewFailed));
  }

  /** A transaction as `q` sees it; undefined events list when nothing in it is visible. */
  transaction(tx: TransactionEntry, q: EventQuery, shape: TransactionShape): JsTransaction {
    const events: Event[] = [];
    const ledgerEffects = shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS';
    for (const n of tx.nodes) {
      if (n.kind === 'create') {
        if (!ledgerEffects && n.transient) continue;
        const c = n.contract;
        const hit = matchEvent(q, ledgerEffects ? n.witnesses : c.stakeholders, c.template);
        if (!hit) continue;
        const acsDelta = !n.transient && hit.witnesses.some((p) => c.stakeholders.includes(p));
        events.push({ CreatedEvent: this.createdEvent(c, hit.witnesses, hit.match, tx.offset, n.nodeId, acsDelta) });
      } else if (ledgerEffects) {
        const hit = matchEvent(q, n.witnesses, n.contract.template);
        if (!hit) continue;
        events.push({ ExercisedEvent: this.#exercised(tx, n, hit.witnesses, hit.match) });
      } else if (n.archivesInput) {
        const c = n.contract;
        const hit = matchEvent(q, c.stakeholders, c.template);
        if (!hit) continue;
        const ev: ArchivedEvent = {
          offset: tx.offset,
          nodeId: n.nodeId,
          contractId: c.contractId,
          templateId: c.template.id,
          witnessParties: hit.witnesses as string[],
          packageName: c.template.packageName,
        };
        if (hit.match.interfaces.length) ev.implementedInterfaces = hit.match.interfaces.map((i) => i.id);
        events.push({ ArchivedEvent: ev });
      }
    }
    // Members set one by one in wire order: object spreads cost about a microsecond a member (V8 11).
    const sub = tx.submission;
    const emptyDefaults = this.config.shapes.emptyDefaults;
    const out = { updateId: tx.updateId } as JsTransaction;
    if (sub && showsCommandOf(q, sub.actAs)) out.commandId = sub.commandId;
    else if (emptyDefaults) out.commandId = '';
    if (sub?.workflowId) out.workflowId = sub.workflowId;
    else if (emptyDefaults) out.workflowId = '';
    out.effectiveAt = toTimestamp(tx.effectiveAt);
    out.events = events;
    out.offset = tx.offset;
    out.synchronizerId = this.synchronizerId(tx.synchronizer);
    out.recordTime = toTimestamp(tx.recordTime);
    if (tx.externalTransactionHash !== undefined) {
      out.externalTransactionHash = tx.externalTransactionHash;
      if (this.config.shapes.transactionHash) out.transactionHash = tx.externalTransactionHash;
    }
    return out;
  }

  #exercised(tx: TransactionEntry, n: ExerciseNode, witnesses: readonly string[], match: Match): ExercisedEvent {
    const c = n.contract;
    // Members set one by one in wire order (no spreads: see `transaction`).
    const ev = { offset: tx.offset, nodeId: n.nodeId, contractId: c.contractId, templateId: (n.template ?? c.template).id } as ExercisedEvent;
    if (n.interface) ev.interfaceId = n.interface.id;
    ev.choice = n.choice.name;
    ev.choiceArgument = n.argument;
    ev.actingParties = n.actingParties as string[];
    ev.consuming = n.consuming;
    ev.witnessParties = witnesses as string[];
    ev.lastDescendantNodeId = n.lastDescendantNodeId;
    ev.exerciseResult = n.result;
    ev.packageName = c.template.packageName;
    if (match.interfaces.length) ev.implementedInterfaces = match.interfaces.map((i) => i.id);
    ev.acsDelta = n.archivesInput && witnesses.some((p) => c.stakeholders.includes(p));
    return ev;
  }

  unassignedEvent(c: StoredContract, step: ReassignmentStep, witnesses: readonly string[]): UnassignedEvent {
    return {
      reassignmentId: step.reassignmentId,
      contractId: c.contractId,
      templateId: c.template.id,
      source: this.synchronizerId(step.source),
      target: this.synchronizerId(step.target),
      submitter: step.submitter,
      reassignmentCounter: step.counter,
      witnessParties: witnesses as string[],
      packageName: c.template.packageName,
      offset: step.offset,
      nodeId: 0,
    };
  }

  /** A reassignment as `q` sees it, or undefined when none of its stakeholders is asked for. */
  reassignment(e: ReassignmentEntry, q: EventQuery): JsReassignment | undefined {
    const c = e.contract;
    const hit = matchEvent(q, c.stakeholders, c.template);
    if (!hit) return undefined;
    const step = e.step;
    const event =
      step.kind === 'unassign'
        ? { JsUnassignedEvent: { value: this.unassignedEvent(c, step, hit.witnesses) } }
        : {
            JsAssignmentEvent: {
              source: this.synchronizerId(step.source),
              target: this.synchronizerId(step.target),
              reassignmentId: step.reassignmentId,
              submitter: step.submitter,
              reassignmentCounter: step.counter,
              createdEvent: this.createdEvent(c, hit.witnesses, hit.match, e.offset, 0),
            },
          };
    return {
      updateId: e.updateId,
      ...(e.submission && showsCommandOf(q, e.submission.actAs) ? { commandId: e.submission.commandId } : this.#empty('commandId')),
      ...(e.submission?.workflowId ? { workflowId: e.submission.workflowId } : this.#empty('workflowId')),
      offset: e.offset,
      events: [event],
      recordTime: toTimestamp(e.recordTime),
      synchronizerId: this.synchronizerId(e.synchronizer),
    };
  }

  topology(e: TopologyEntry): JsTopologyTransaction {
    return {
      updateId: e.updateId,
      offset: e.offset,
      synchronizerId: this.synchronizerId(e.synchronizer),
      recordTime: toTimestamp(e.recordTime),
      events: [
        {
          event: {
            ParticipantAuthorizationAdded: {
              value: { partyId: e.party, participantId: this.config.participantId, participantPermission: 'PARTICIPANT_PERMISSION_SUBMISSION' },
            },
          },
        },
      ],
    };
  }
}

/**
 * Whether a read shows the command id of an update its `actAs` submitted: a read for any party
 * does, a read for parties only when one of them submitted it ("Missing for everyone except the
 * submitting party"; Canton's event storage backend, `filteredCommandId`).
 */
function showsCommandOf(q: EventQuery, actAs: readonly string[]): boolean {
  if (q.anyParty !== undefined) return true;
  for (const p of actAs) if (q.byParty.has(p)) return true;
  return false;
}

const viewOk = (viewValue: DamlValue | undefined): ViewOutcome => ({ viewStatus: { code: 0, message: '' }, ...(viewValue !== undefined ? { viewValue } : {}) });

/** A view the engine could not compute carries its Canton status; any other failure is a failed precondition. */
const viewFailed = (e: unknown): ViewOutcome => ({ viewStatus: { code: e instanceof ViewFailed ? e.grpcCode : 9, message: e instanceof Error ? e.message : show(e) } });
