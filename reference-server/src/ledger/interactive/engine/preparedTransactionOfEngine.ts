import type { Create, DamlTransaction_Node, Metadata_InputContract, PreparedTransaction, Value as ProtoValue } from '@canton-network/core-ledger-proto';
import type { Package } from '../../../../../daml-engine/ast/Package.js';
import type { QualifiedName } from '../../../../../daml-engine/ast/Type.js';
import type { NodeId, Transaction, TxNode } from '../../../../../daml-engine/update/Transaction.js';
import type { RecordValue, Value } from '../../../../../daml-engine/value/Value.js';
import { engineValueToProto, protoIdentifier, type ValueEncodingFailure } from './engineValueToProto.js';
import { serializationVersionOf, transactionVersionOf } from './serializationVersion.js';

/**
 * The seam prepare uses: the engine's transaction and the facts of the preparation become the
 * protobuf `PreparedTransaction` Canton's PreparedTransactionEncoder would produce for it:
 *
 * - nodes in the engine's order with its node ids ("0", "1", ... in pre-order), roots, children;
 * - node seeds of every create and exercise (rolled back ones too), as the engine derived them;
 * - on each node the package name and `lf_version` of its template's package; signatories,
 *   stakeholders, acting parties and choice observers sorted; values as `engineValueToProto`;
 * - metadata: act_as sorted, command id, synchronizer, mediator group 0, transaction UUID,
 *   preparation time, ledger-time bounds when given, input contracts (every contract an exercise
 *   or fetch used that the transaction did not create) sorted by contract id with their create
 *   node, creation time and event blob, global key mapping empty (deprecated), max record time.
 *
 * Times are microseconds since the epoch (the engine's unit), as in the protobuf.
 */

/** A contract the transaction used but did not create: from the store, or disclosed with the command. */
export interface EngineInputContract {
  readonly contractId: string;
  readonly templateId: QualifiedName;
  readonly argument: RecordValue;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
  /** When it was created: microseconds since the epoch. */
  readonly createdAt: bigint;
  /** Its created-event blob (Canton fills one for every input contract; execute discloses it from here). */
  readonly eventBlob: Uint8Array;
}

/** Everything prepare knows besides the transaction itself. */
export interface EnginePreparation {
  /** The engine's transaction (`UpdateEngine.submit`), its node seeds included. */
  readonly transaction: Transaction;
  readonly actAs: readonly string[];
  readonly commandId: string;
  /** The synchronizer the transaction is routed to (its logical id, `name::fingerprint`). */
  readonly synchronizerId: string;
  readonly transactionUuid: string;
  /** The preparation time the engine ran with (part of every contract id), microseconds. */
  readonly preparationTime: bigint;
  /** Ledger-time bounds when the interpretation constrained the ledger time, microseconds. */
  readonly minLedgerEffectiveTime?: bigint;
  readonly maxLedgerEffectiveTime?: bigint;
  readonly maxRecordTime?: bigint;
  readonly mediatorGroup?: number;
  readonly getPackage: (packageId: string) => Package | undefined;
  /** The input contracts by id: the store's active contracts and the command's disclosed ones. */
  readonly inputContract: (contractId: string) => EngineInputContract | undefined;
}

export type PrepareFailure =
  | { readonly kind: 'value'; readonly where: string; readonly failure: ValueEncodingFailure }
  | { readonly kind: 'unknownPackage'; readonly packageId: string }
  | { readonly kind: 'noPackageName'; readonly packageId: string }
  | { readonly kind: 'unknownInputContract'; readonly contractId: string };

export type PrepareResult = { readonly ok: true; readonly value: PreparedTransaction } | { readonly ok: false; readonly failure: PrepareFailure };

class Refused extends Error {
  constructor(readonly failure: PrepareFailure) {
    super(failure.kind);
  }
}

const sorted = (xs: readonly string[]): string[] => [...new Set(xs)].sort();

/** Contract ids an exercise or fetch used that no create of the transaction made (Canton's input contracts). */
export function inputContractIds(tx: Transaction): string[] {
  const local = new Set<string>();
  for (const n of tx.nodes) if (n.kind === 'create') local.add(n.contractId);
  const inputs = new Set<string>();
  for (const n of tx.nodes) if ((n.kind === 'exercise' || n.kind === 'fetch') && !local.has(n.contractId)) inputs.add(n.contractId);
  return [...inputs].sort();
}

/** Builds the prepared transaction, or says why the transaction cannot be prepared. */
export function preparedTransactionOfEngine(p: EnginePreparation): PrepareResult {
  try {
    return { ok: true, value: build(p) };
  } catch (e) {
    if (e instanceof Refused) return { ok: false, failure: e.failure };
    throw e;
  }
}

function build(p: EnginePreparation): PreparedTransaction {
  const tx = p.transaction;
  const pkgs = new PackageFacts(p.getPackage);
  const versions: string[] = [];
  const nodes = tx.nodes.map((n): DamlTransaction_Node => {
    const node = nodeOf(n, pkgs);
    if (n.kind !== 'rollback') versions.push(pkgs.version(n.templateId));
    return node;
  });
  const inputContracts = inputContractIds(tx).map((cid): Metadata_InputContract => {
    const c = p.inputContract(cid);
    if (c === undefined) throw new Refused({ kind: 'unknownInputContract', contractId: cid });
    return { contract: { oneofKind: 'v1', v1: createOf(c, pkgs, `input contract ${cid}`) }, createdAt: c.createdAt, eventBlob: c.eventBlob };
  });
  return {
    transaction: {
      version: transactionVersionOf(versions),
      roots: tx.roots.map(String),
      nodes,
      nodeSeeds: tx.nodeSeeds.map(([nodeId, seed]) => ({ nodeId, seed: Buffer.from(seed, 'hex') })),
    },
    metadata: {
      submitterInfo: { actAs: sorted(p.actAs), commandId: p.commandId },
      synchronizerId: p.synchronizerId,
      mediatorGroup: p.mediatorGroup ?? 0,
      transactionUuid: p.transactionUuid,
      preparationTime: p.preparationTime,
      inputContracts,
      ...(p.minLedgerEffectiveTime === undefined ? {} : { minLedgerEffectiveTime: p.minLedgerEffectiveTime }),
      ...(p.maxLedgerEffectiveTime === undefined ? {} : { maxLedgerEffectiveTime: p.maxLedgerEffectiveTime }),
      globalKeyMapping: [],
      ...(p.maxRecordTime === undefined ? {} : { maxRecordTime: p.maxRecordTime }),
    },
  };
}

/** Package name and LF version of a template's package, looked up once per package. */
class PackageFacts {
  readonly #known = new Map<string, { name: string; version: string }>();
  constructor(private readonly getPackage: (packageId: string) => Package | undefined) {}

  #of(packageId: string): { name: string; version: string } {
    let facts = this.#known.get(packageId);
    if (facts === undefined) {
      const pkg = this.getPackage(packageId);
      if (pkg === undefined) throw new Refused({ kind: 'unknownPackage', packageId });
      if (pkg.metadata === undefined) throw new Refused({ kind: 'noPackageName', packageId });
      facts = { name: pkg.metadata.name, version: serializationVersionOf(pkg.lfVersion) };
      this.#known.set(packageId, facts);
    }
    return facts;
  }
  name(t: QualifiedName): string {
    return this.#of(t.packageId).name;
  }
  version(t: QualifiedName): string {
    return this.#of(t.packageId).version;
  }
}

function valueOf(v: Value, where: string): ProtoValue {
  const r = engineValueToProto(v, where);
  if (!r.ok) throw new Refused({ kind: 'value', where, failure: r.failure });
  return r.value;
}

function createOf(c: { contractId: string; templateId: QualifiedName; argument: RecordValue; signatories: readonly string[]; observers: readonly string[] }, pkgs: PackageFacts, where: string): Create {
  return {
    lfVersion: pkgs.version(c.templateId),
    contractId: c.contractId,
    packageName: pkgs.name(c.templateId),
    templateId: protoIdentifier(c.templateId),
    argument: valueOf(c.argument, `${where} argument`),
    signatories: sorted(c.signatories),
    stakeholders: sorted([...c.signatories, ...c.observers]),
  };
}

const childIds = (children: readonly NodeId[]): string[] => children.map(String);

/** The fields an exercise and a fetch node share: the contract acted on and who acted. */
function actionOn(n: Extract<TxNode, { kind: 'exercise' | 'fetch' }>, pkgs: PackageFacts) {
  return {
    lfVersion: pkgs.version(n.templateId),
    contractId: n.contractId,
    packageName: pkgs.name(n.templateId),
    templateId: protoIdentifier(n.templateId),
    signatories: sorted(n.signatories),
    stakeholders: sorted(n.stakeholders),
    actingParties: sorted(n.actingParties),
    ...(n.interfaceId === undefined ? {} : { interfaceId: protoIdentifier(n.interfaceId) }),
  };
}

type NodeType = NonNullable<DamlTransaction_Node['versionedNode'] & { oneofKind: 'v1' }>['v1']['nodeType'];

function nodeOf(n: TxNode, pkgs: PackageFacts): DamlTransaction_Node {
  const nodeId = String(n.nodeId);
  const where = `node ${nodeId}`;
  const v1 = (nodeType: NodeType): DamlTransaction_Node => ({ nodeId, versionedNode: { oneofKind: 'v1', v1: { nodeType } } });
  switch (n.kind) {
    case 'create':
      return v1({ oneofKind: 'create', create: createOf(n, pkgs, where) });
    case 'exercise':
      return v1({
        oneofKind: 'exercise',
        exercise: {
          ...actionOn(n, pkgs),
          choiceId: n.choice,
          chosenValue: valueOf(n.choiceArgument, `${where} choice argument`),
          consuming: n.consuming,
          children: childIds(n.children),
          ...(n.exerciseResult === undefined ? {} : { exerciseResult: valueOf(n.exerciseResult, `${where} exercise result`) }),
          choiceObservers: sorted(n.choiceObservers),
        },
      });
    case 'fetch':
      return v1({ oneofKind: 'fetch', fetch: actionOn(n, pkgs) });
    case 'rollback':
      return v1({ oneofKind: 'rollback', rollback: { children: childIds(n.children) } });
  }
}
