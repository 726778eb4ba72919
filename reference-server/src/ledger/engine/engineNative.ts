import type { Update } from '../../../../daml-engine/ast/Expr.js';
import type { QualifiedName } from '../../../../daml-engine/ast/Type.js';
import type { Transaction } from '../../../../daml-engine/update/Transaction.js';
import type { Value } from '../../../../daml-engine/value/Value.js';
import type { LedgerStore } from '../../store/LedgerStore.js';
import type { StoredContract } from '../../store/StoredContract.js';
import type { ValidatedSubmission } from '../submission.js';
import type { EngineRuntime } from './EngineRuntime.js';

/**
 * A submission in the engine's own terms, for callers that speak Daml-LF rather than the JSON API
 * (a Daml Script runner): updates built with `createCommand`, `exerciseCommand`,
 * `exerciseInterfaceCommand` (daml/update/UpdateEngine.ts) or any closed `Update`.
 */
export interface EngineSubmission {
  readonly actAs: readonly string[];
  readonly readAs?: readonly string[];
  readonly commands: readonly Update[];
  /** createdEventBlobs of contracts the submitters may use without seeing them. */
  readonly disclosedContracts?: readonly string[];
  readonly userId?: string;
  readonly commandId?: string;
  /**
   * The ledger time in microseconds, for a caller on static time whose clock the ledger's
   * `ManualClock` follows to the millisecond (a Daml Script may set any microsecond); default the clock's.
   */
  readonly ledgerTime?: bigint;
}

/** An active contract as engine values; `view` is the interface view when an interface was asked for. */
export interface EngineContract {
  readonly contractId: string;
  readonly templateId: QualifiedName;
  readonly argument: Value;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
  readonly view?: Value;
}

/** What an engine-native submission produced: each command's result, the engine's transaction, where it committed. */
export interface EngineSubmitted {
  readonly results: readonly Value[];
  readonly transaction: Transaction;
  readonly offset: number;
  readonly updateId: string;
}

let counter = 0;

/** The ledger's submission record of an engine-native submission (deduplicated by its command id like any other). */
export function engineSubmissionOf(req: EngineSubmission): ValidatedSubmission {
  return {
    userId: req.userId ?? 'engine',
    actAs: [...new Set(req.actAs)].sort(),
    readAs: [...new Set(req.readAs ?? [])].sort(),
    commandId: req.commandId ?? `engine-${Date.now().toString(36)}-${++counter}`,
    submissionId: undefined,
    workflowId: undefined,
    commands: [],
    disclosedContracts: (req.disclosedContracts ?? []).map((createdEventBlob) => ({ createdEventBlob })),
    synchronizerId: undefined,
    dedup: { kind: 'duration', ms: 0 },
    deduplicationPeriod: { Empty: {} },
    minLedgerTimeMs: undefined,
  };
}

/** Active contracts of an engine template, or of every template implementing an engine interface, that one of `parties` sees. */
export function activeEngineContracts(rt: EngineRuntime, store: LedgerStore, id: QualifiedName, parties: readonly string[]): EngineContract[] {
  const def = rt.catalogue.byName(id);
  if (!def) return [];
  const wanted = new Set(parties);
  const seen = new Set<string>();
  const out: EngineContract[] = [];
  const consider = (c: StoredContract) => {
    if (seen.has(c.contractId) || !c.stakeholders.some((p) => wanted.has(p))) return;
    seen.add(c.contractId);
    const template = rt.catalogue.resolve(c.template.id);
    if (!template || template.kind !== 'template') return;
    if (def.kind === 'interface' && !template.interfaces.has(def.id)) return;
    const argument = rt.argumentOf(c);
    if (!argument) return;
    const view = def.kind === 'interface' ? rt.viewValue(template, def, argument) : undefined;
    out.push({
      contractId: c.contractId, templateId: template.engine.name, argument, signatories: c.signatories, observers: c.observers,
      ...(view?.ok ? { view: view.value } : {}),
    });
  };
  if (def.kind === 'template') for (const c of store.activeSnapshot({ kind: 'template', template: def })) consider(c);
  else for (const p of wanted) for (const c of store.activeSnapshot({ kind: 'party', party: p })) consider(c);
  return out;
}
