/**
 * The engine's transaction as the suite's parties see it, in the JSON API's own terms: created
 * and exercised nodes in pre-order (fetches and rolled-back subtrees are not events), a node shown
 * when one of the parties is its informee or an ancestor's, values encoded as the JSON API does.
 */
import { encodeJson, lookupInterface, lookupTemplate, type DataTypes, type Package, type QualifiedName, type Transaction, type TxNode } from '../../../daml-engine/index.js';

export type EngineEventNode =
  | {
      readonly kind: 'create'; readonly contractId: string; readonly templateId: string; readonly createArgument: unknown;
      /** The name of the template's package (its metadata), as every event of the JSON API names it. */
      readonly packageName: string | undefined;
      readonly signatories: readonly string[]; readonly observers: readonly string[];
      /** The suite's parties that witness the node (its informees and its ancestors'), sorted. */
      readonly witnesses: readonly string[];
      /** Whether the node is part of the ACS-delta view of the same read (event.proto acs_delta). */
      readonly acsDelta: boolean;
    }
  | {
      readonly kind: 'exercise'; readonly contractId: string; readonly templateId: string; readonly choice: string; readonly consuming: boolean;
      readonly packageName: string | undefined;
      readonly actingParties: readonly string[]; readonly exerciseResult: unknown; readonly descendants: number;
      readonly witnesses: readonly string[];
      /** The choice's argument as the JSON API encodes it (undefined when the choice is not found). */
      readonly choiceArgument: unknown;
      /** The interface the choice was exercised through (`package:module:entity`), when it was. */
      readonly interfaceId: string | undefined;
      readonly acsDelta: boolean;
    };

/** The contracts a transaction's effective nodes create and consume (rolled-back subtrees change nothing). */
export interface Effects {
  readonly created: ReadonlySet<string>;
  readonly consumed: ReadonlySet<string>;
}

/** The effects of the transactions the engine built for one ledger transaction's top-level nodes, together. */
export function effectsOf(txs: readonly Transaction[]): Effects {
  const created = new Set<string>();
  const consumed = new Set<string>();
  for (const tx of txs) {
    const visit = (id: number): void => {
      const n = tx.nodes[id]!;
      if (n.kind === 'create') created.add(n.contractId);
      if (n.kind !== 'exercise') return;
      if (n.consuming) consumed.add(n.contractId);
      n.children.forEach(visit);
    };
    tx.roots.forEach(visit);
  }
  return { created, consumed };
}

const show = (q: QualifiedName) => `${q.packageId}:${q.module}:${q.name}`;

export function projectEngineNodes(tx: Transaction, parties: ReadonlySet<string>, getPackage: (id: string) => Package | undefined, types: DataTypes, effects: Effects = effectsOf([tx])): EngineEventNode[] {
  const out: EngineEventNode[] = [];
  // acs_delta: the event would be in the ACS-delta shape of the same read: a stakeholder reads it,
  // and the contract is not both created and consumed in the transaction (transient).
  const stakeholderReads = (ps: readonly string[]) => ps.some((p) => parties.has(p));
  const sees = (ps: readonly string[]) => ps.some((p) => parties.has(p));
  const packageName = (q: QualifiedName) => getPackage(q.packageId)?.metadata?.name;
  // Witnesses (event.proto, witness_parties): the node's informees and all its ancestors', among the parties.
  const witnessesOf = (informees: readonly string[], above: ReadonlySet<string>) => new Set([...above, ...informees.filter((p) => parties.has(p))]);
  const visit = (id: number, shownAbove: boolean, above: ReadonlySet<string>): void => {
    const n: TxNode = tx.nodes[id]!;
    if (n.kind === 'rollback' || n.kind === 'fetch') return;
    if (n.kind === 'create') {
      if (shownAbove || sees(n.stakeholders)) {
        const observers = n.observers.filter((p) => !n.signatories.includes(p));
        const witnesses = [...witnessesOf(n.stakeholders, above)].sort();
        out.push({ kind: 'create', contractId: n.contractId, templateId: show(n.templateId), packageName: packageName(n.templateId), createArgument: encodeJson(n.argument, { kind: 'con', tycon: n.templateId, args: [] }, types), signatories: n.signatories, observers, witnesses,
          acsDelta: !effects.consumed.has(n.contractId) && stakeholderReads(n.stakeholders) });
      }
      return;
    }
    const informees = [...(n.consuming ? n.stakeholders : n.signatories), ...n.actingParties, ...n.choiceObservers];
    const shown = shownAbove || sees(informees);
    const witnesses = witnessesOf(informees, above);
    const at = out.length;
    if (shown) {
      const choice = (n.interfaceId ? lookupInterface(getPackage, n.interfaceId) : lookupTemplate(getPackage, n.templateId))?.choices.get(n.choice);
      const exerciseResult = n.exerciseResult === undefined || choice === undefined ? undefined : encodeJson(n.exerciseResult, choice.returnType, types);
      const choiceArgument = choice === undefined ? undefined : encodeJson(n.choiceArgument, choice.argBinder.type, types);
      out.push({
        kind: 'exercise', contractId: n.contractId, templateId: show(n.templateId), packageName: packageName(n.templateId), choice: n.choice, consuming: n.consuming, actingParties: n.actingParties, exerciseResult, descendants: 0,
        witnesses: [...witnesses].sort(), choiceArgument, interfaceId: n.interfaceId ? show(n.interfaceId) : undefined,
        acsDelta: n.consuming && !effects.created.has(n.contractId) && stakeholderReads(n.stakeholders),
      });
    }
    for (const c of n.children) visit(c, shown, witnesses);
    if (shown) out[at] = { ...(out[at] as Extract<EngineEventNode, { kind: 'exercise' }>), descendants: out.length - at - 1 };
  };
  for (const r of tx.roots) visit(r, false, new Set());
  return out;
}
