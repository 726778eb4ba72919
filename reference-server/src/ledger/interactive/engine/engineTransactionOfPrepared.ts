import type { Create, DamlTransaction_Node, Identifier, PreparedTransaction } from '@canton-network/core-ledger-proto';
import type { Package } from '../../../../../daml-engine/ast/Package.js';
import type { QualifiedName } from '../../../../../daml-engine/ast/Type.js';
import { packageDataTypes } from '../../../../../daml-engine/json/packageDataTypes.js';
import type { DataTypes } from '../../../../../daml-engine/json/DataTypes.js';
import type { CreatedContract, NodeId, Transaction, TxNode } from '../../../../../daml-engine/update/Transaction.js';
import type { RecordValue, Value } from '../../../../../daml-engine/value/Value.js';
import type { EngineInputContract, EnginePreparation } from './preparedTransactionOfEngine.js';
import { protoToEngineValue, qualifiedNameOf } from './protoToEngineValue.js';

/**
 * What execute commits: the signed prepared transaction read back as the engine's transaction,
 * its input contracts and the facts of its preparation (Canton's execute decodes and
 * "impoverishes" the signed transaction; it does not interpret the commands again). Node ids
 * become the pre-order numbering the engine uses (prepare emits exactly that, so a faithful
 * client's transaction comes back node for node); `created` and `archived` are recomputed
 * outside rollback nodes. `preparedTransactionOfEngine` of the result gives the input back.
 */

export type SignedFacts = Omit<EnginePreparation, 'transaction' | 'getPackage' | 'inputContract'>;

export interface SignedEngineTransaction {
  readonly transaction: Transaction;
  /** Sorted by contract id, as in the metadata. */
  readonly inputContracts: readonly EngineInputContract[];
  readonly facts: SignedFacts;
}

export type SignedResult = { readonly ok: true; readonly value: SignedEngineTransaction } | { readonly ok: false; readonly problem: string };

class Unreadable extends Error {}

const fail = (message: string): never => {
  throw new Unreadable(message);
};

/**
 * Read transactions by their decoded prepared transaction: an execute reads the one it was given
 * in both passes of its checks (`Ledger.inEngineSlices`). Only successes: a package uploaded
 * since may make a failed read succeed; packages never change, so a success stays one.
 */
const readBefore = new WeakMap<PreparedTransaction, SignedResult>();

export function engineTransactionOfPrepared(p: PreparedTransaction, getPackage: (packageId: string) => Package | undefined): SignedResult {
  const known = readBefore.get(p);
  if (known !== undefined) return known;
  try {
    const done = { ok: true, value: read(p, packageDataTypes(getPackage)) } as const;
    readBefore.set(p, done);
    return done;
  } catch (e) {
    if (e instanceof Unreadable) return { ok: false, problem: e.message };
    throw e;
  }
}

const templateOf = (id: Identifier | undefined, where: string): QualifiedName => (id === undefined ? fail(`${where} has no template id`) : qualifiedNameOf(id));

function valueOf(v: Parameters<typeof protoToEngineValue>[0], types: DataTypes, where: string): Value {
  const r = protoToEngineValue(v, types, where);
  return r.ok ? r.value : fail(r.problem);
}

/** A create's argument: a record of the template's own type. */
function argumentOf(c: Create, types: DataTypes, where: string): RecordValue {
  const template = templateOf(c.templateId, where);
  const arg = valueOf(c.argument, types, `${where} argument`);
  if (arg.kind !== 'record' || arg.tycon.packageId !== template.packageId || arg.tycon.module !== template.module || arg.tycon.name !== template.name) {
    return fail(`${where}: the argument is not a ${template.module}:${template.name} record`);
  }
  return arg;
}

const observersOf = (signatories: readonly string[], stakeholders: readonly string[]): string[] => stakeholders.filter((s) => !signatories.includes(s));

function read(p: PreparedTransaction, types: DataTypes): SignedEngineTransaction {
  const ptx = p.transaction ?? fail('the prepared transaction has no transaction');
  const m = p.metadata ?? fail('the prepared transaction has no metadata');
  const byId = new Map<string, DamlTransaction_Node>();
  for (const n of ptx.nodes) {
    if (byId.has(n.nodeId)) fail(`node ${n.nodeId.slice(0, 20)} appears twice`);
    byId.set(n.nodeId, n);
  }
  const seeds = new Map(ptx.nodeSeeds.map((s) => [String(s.nodeId), Buffer.from(s.seed).toString('hex')]));

  // Pre-order numbering from the roots: a node's new id is its position; each node reached once.
  const order: { readonly old: string; readonly inRollback: boolean }[] = [];
  const newId = new Map<string, NodeId>();
  const stack = [...ptx.roots].reverse().map((old) => ({ old, inRollback: false }));
  while (stack.length > 0) {
    const { old, inRollback } = stack.pop()!;
    if (newId.has(old)) fail(`node ${old.slice(0, 20)} is referenced twice`);
    const n = byId.get(old) ?? fail(`node ${old.slice(0, 20)} is referenced but not in the transaction`);
    newId.set(old, order.length);
    order.push({ old, inRollback });
    const t = n.versionedNode.oneofKind === 'v1' ? n.versionedNode.v1.nodeType : fail(`node ${old.slice(0, 20)} has an unsupported version`);
    const children = t.oneofKind === 'exercise' ? t.exercise.children : t.oneofKind === 'rollback' ? t.rollback.children : [];
    for (let i = children.length - 1; i >= 0; i--) stack.push({ old: children[i]!, inRollback: inRollback || t.oneofKind === 'rollback' });
  }
  if (order.length !== byId.size) fail('some nodes are not reachable from the roots');

  const nodes: TxNode[] = [];
  const nodeSeeds: [NodeId, string][] = [];
  const created: CreatedContract[] = [];
  const archived: string[] = [];
  /** Checks node `old` has a 32-byte seed and records it under its new id. */
  const recordSeed = (old: string, nodeId: NodeId, what: string): void => {
    const seed = seeds.get(old) ?? fail(`${what} node ${old.slice(0, 20)} has no seed`);
    if (seed.length !== 64) fail(`the seed of node ${old.slice(0, 20)} is not 32 bytes`);
    nodeSeeds.push([nodeId, seed]);
  };
  for (const { old, inRollback } of order) {
    const nodeId = newId.get(old)!;
    const where = `node ${old.slice(0, 20)}`;
    const v1 = byId.get(old)!.versionedNode;
    const t = v1.oneofKind === 'v1' ? v1.v1.nodeType : fail(`${where} has an unsupported version`);
    switch (t.oneofKind) {
      case 'create': {
        const c = t.create;
        const templateId = templateOf(c.templateId, where);
        const argument = argumentOf(c, types, where);
        const observers = observersOf(c.signatories, c.stakeholders);
        recordSeed(old, nodeId, 'create');
        nodes.push({ kind: 'create', nodeId, contractId: c.contractId, templateId, argument, signatories: c.signatories, observers, stakeholders: c.stakeholders });
        if (!inRollback) created.push({ contractId: c.contractId, templateId, argument, signatories: c.signatories, observers });
        break;
      }
      case 'exercise': {
        const x = t.exercise;
        recordSeed(old, nodeId, 'exercise');
        nodes.push({
          kind: 'exercise', nodeId, contractId: x.contractId, templateId: templateOf(x.templateId, where),
          interfaceId: x.interfaceId === undefined ? undefined : qualifiedNameOf(x.interfaceId), choice: x.choiceId,
          choiceArgument: valueOf(x.chosenValue, types, `${where} choice argument`), consuming: x.consuming,
          actingParties: x.actingParties, signatories: x.signatories, stakeholders: x.stakeholders, choiceObservers: x.choiceObservers,
          children: x.children.map((c) => newId.get(c)!),
          exerciseResult: x.exerciseResult === undefined ? undefined : valueOf(x.exerciseResult, types, `${where} exercise result`),
        });
        if (!inRollback && x.consuming) archived.push(x.contractId);
        break;
      }
      case 'fetch': {
        const f = t.fetch;
        nodes.push({
          kind: 'fetch', nodeId, contractId: f.contractId, templateId: templateOf(f.templateId, where),
          interfaceId: f.interfaceId === undefined ? undefined : qualifiedNameOf(f.interfaceId),
          actingParties: f.actingParties, signatories: f.signatories, stakeholders: f.stakeholders,
        });
        break;
      }
      case 'rollback':
        nodes.push({ kind: 'rollback', nodeId, children: t.rollback.children.map((c) => newId.get(c)!) });
        break;
      default:
        fail(`${where} has no known type`);
    }
  }
  nodeSeeds.sort((a, b) => a[0] - b[0]);

  const inputContracts = m.inputContracts.map((ic, i): EngineInputContract => {
    const c = ic.contract.oneofKind === 'v1' ? ic.contract.v1 : fail(`input contract ${i} has an unsupported version`);
    const where = `input contract ${c.contractId.slice(0, 20)}`;
    return {
      contractId: c.contractId, templateId: templateOf(c.templateId, where), argument: argumentOf(c, types, where),
      signatories: c.signatories, observers: observersOf(c.signatories, c.stakeholders), createdAt: ic.createdAt, eventBlob: ic.eventBlob,
    };
  });

  return {
    transaction: { nodes, roots: ptx.roots.map((r) => newId.get(r)!), nodeSeeds, created, archived },
    inputContracts,
    facts: {
      actAs: m.submitterInfo?.actAs ?? [],
      commandId: m.submitterInfo?.commandId ?? '',
      synchronizerId: m.synchronizerId,
      transactionUuid: m.transactionUuid,
      preparationTime: m.preparationTime,
      mediatorGroup: m.mediatorGroup,
      ...(m.minLedgerEffectiveTime === undefined ? {} : { minLedgerEffectiveTime: m.minLedgerEffectiveTime }),
      ...(m.maxLedgerEffectiveTime === undefined ? {} : { maxLedgerEffectiveTime: m.maxLedgerEffectiveTime }),
      ...(m.maxRecordTime === undefined ? {} : { maxRecordTime: m.maxRecordTime }),
    },
  };
}
