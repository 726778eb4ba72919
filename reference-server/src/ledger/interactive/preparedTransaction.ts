import {
  PreparedTransaction,
  type Create,
  type DamlTransaction_Node,
  type Metadata,
  type Metadata_InputContract,
  type Value,
} from '@canton-network/core-ledger-proto';
import type { IMessageType } from '@protobuf-ts/runtime';
import { encodeBlob } from '../blob.js';
import { contractViewOf, type PreparedTransaction as Interpreted } from '../interpret.js';
import type { LedgerConfig } from '../config.js';
import { isMicrosInRange } from '../rfc3339.js';
import type { StoredContract } from '../../store/StoredContract.js';
import type { ExerciseNode, TxNode } from '../../store/LogEntry.js';
import type { Command, DisclosedContract } from '../wire.js';
import { fromProto, identifierOf, identifierText, MAX_VALUE_DEPTH, recordToProto, toProto, untypedToProto } from './damlValueProto.js';
import { protobufNesting } from './protobufNesting.js';
import { OneBufferWriter } from './OneBufferWriter.js';

/**
 * The prepared transaction as Canton encodes it: protobuf
 * `com.daml.ledger.api.v2.interactive.PreparedTransaction` (Daml transaction nodes, node seeds,
 * metadata), built and parsed with Canton's own bindings (`@canton-network/core-ledger-proto`).
 */

/** Daml-LF version written on every node and the transaction. */
export const LF_VERSION = '2.1';

/** What prepare fixes besides the interpretation: the metadata's own fields. */
export interface PreparationFacts {
  readonly synchronizerId: string;
  readonly transactionUuid: string;
  /** ms since the epoch. */
  readonly preparationTime: number;
  /** Set when the transaction's ledger time is later than its preparation time (ms). */
  readonly minLedgerEffectiveTime?: number;
  readonly maxLedgerEffectiveTime?: number;
  readonly maxRecordTime?: number;
}

const micros = (ms: number): bigint => BigInt(Math.trunc(ms)) * 1000n;
/** ms of a microsecond count (floor). */
export const millisOf = (us: bigint): number => Number((us - (((us % 1000n) + 1000n) % 1000n)) / 1000n);

const sorted = (xs: readonly string[]): string[] => [...new Set(xs)].sort();

function createOf(c: StoredContract): Create {
  return {
    lfVersion: LF_VERSION,
    contractId: c.contractId,
    packageName: c.template.packageName,
    templateId: identifierOf(c.template.id),
    argument: recordToProto(c.template.fields, c.argument),
    signatories: sorted(c.signatories),
    stakeholders: sorted([...c.signatories, ...c.observers]),
  };
}

/** Direct children of the node at `index` in the interpreter's pre-order node list (roots for -1). */
function childrenOf(nodes: readonly TxNode[], index: number): number[] {
  const last = index < 0 ? nodes.length - 1 : (nodes[index] as ExerciseNode).lastDescendantNodeId;
  const out: number[] = [];
  for (let j = index + 1; j <= last; ) {
    out.push(j);
    const n = nodes[j] as TxNode;
    j = (n.kind === 'exercise' ? n.lastDescendantNodeId : j) + 1;
  }
  return out;
}

function exerciseOf(n: ExerciseNode, children: readonly number[], config: LedgerConfig): DamlTransaction_Node['versionedNode'] {
  const c = n.contract;
  let choiceObservers: readonly string[] = [];
  try {
    choiceObservers = n.choice.observers?.(contractViewOf(c, config), n.argument) ?? [];
  } catch {
    // The interpretation that produced this node evaluated the same function without failing.
  }
  return {
    oneofKind: 'v1',
    v1: {
      nodeType: {
        oneofKind: 'exercise',
        exercise: {
          lfVersion: LF_VERSION,
          contractId: c.contractId,
          packageName: c.template.packageName,
          templateId: identifierOf(c.template.id),
          signatories: sorted(c.signatories),
          stakeholders: sorted([...c.signatories, ...c.observers]),
          actingParties: sorted(n.actingParties),
          ...(n.interface === undefined ? {} : { interfaceId: identifierOf(n.interface.id) }),
          choiceId: n.choice.name,
          chosenValue: toProto(n.choice.argumentType, n.argument),
          consuming: n.consuming,
          children: children.map(String),
          exerciseResult: untypedToProto(n.result),
          choiceObservers: sorted(choiceObservers),
        },
      },
    },
  };
}

/** The protobuf prepared transaction of an interpretation. */
export function buildPreparedTransaction(p: Interpreted, facts: PreparationFacts, config: LedgerConfig, o: { blobs: boolean } = { blobs: true }): PreparedTransaction {
  const nodes = p.nodes.map(
    (n, i): DamlTransaction_Node => ({
      nodeId: String(n.nodeId),
      versionedNode:
        n.kind === 'create' ? { oneofKind: 'v1', v1: { nodeType: { oneofKind: 'create', create: createOf(n.contract) } } } : exerciseOf(n, childrenOf(p.nodes, i), config),
    }),
  );
  const actAs = new Set(p.submission.actAs);
  const inputContracts = p.inputs.map(
    (c): Metadata_InputContract => ({
      contract: { oneofKind: 'v1', v1: createOf(c) },
      createdAt: micros(c.createdAt),
      // The blob discloses the contract to execute; an acting stakeholder sees it anyway, and the
      // blob is not part of the hash (execute's rebuild, which only compares hashes, leaves it out).
      eventBlob: o.blobs && !c.signatories.concat(c.observers).some((s) => actAs.has(s)) ? Buffer.from(encodeBlob(c, config.blobKey), 'base64') : new Uint8Array(0),
    }),
  );
  const metadata: Metadata = {
    submitterInfo: { actAs: [...p.submission.actAs], commandId: p.submission.commandId },
    synchronizerId: facts.synchronizerId,
    mediatorGroup: 0,
    transactionUuid: facts.transactionUuid,
    preparationTime: micros(facts.preparationTime),
    inputContracts,
    ...(facts.minLedgerEffectiveTime === undefined ? {} : { minLedgerEffectiveTime: micros(facts.minLedgerEffectiveTime) }),
    ...(facts.maxLedgerEffectiveTime === undefined ? {} : { maxLedgerEffectiveTime: micros(facts.maxLedgerEffectiveTime) }),
    globalKeyMapping: [],
    ...(facts.maxRecordTime === undefined ? {} : { maxRecordTime: micros(facts.maxRecordTime) }),
  };
  return {
    transaction: {
      version: LF_VERSION,
      roots: childrenOf(p.nodes, -1).map(String),
      nodes,
      nodeSeeds: p.nodes.map((n) => ({ nodeId: n.nodeId, seed: seedOf(p, n.nodeId) })),
    },
    metadata,
  };
}

/** A node's seed from the seeded interpretation (contract-id.rst): a prepared transaction shows the seeds its contract ids derive from. */
function seedOf(p: Interpreted, nodeId: number): Uint8Array {
  const seed = p.nodeSeeds?.get(nodeId);
  if (seed === undefined) throw new Error(`node ${nodeId} of a prepared transaction has no seed: interpret it with seeding`);
  return seed;
}

export const encodePreparedTransaction = (p: PreparedTransaction): string =>
  Buffer.from(PreparedTransaction.toBinary(p, { writeUnknownFields: false, writerFactory: () => new OneBufferWriter(16_384) })).toString('base64');

export type Decoded = { ok: true; value: PreparedTransaction } | { ok: false; reason: string };

/**
 * Message nesting a prepared transaction may have: room for values nested MAX_VALUE_DEPTH deep
 * (three messages per level at most: Value, Record, RecordField) below the transaction's own
 * levels. Deeper input is refused before it is decoded.
 */
export const PROTOBUF_NESTING_LIMIT = 3 * (MAX_VALUE_DEPTH + 1) + 16;

/** Canton's contract id form: hex, an even number of digits (here at most 512). */
const CONTRACT_ID = /^(?:[0-9a-f]{2}){1,256}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Reads a prepared transaction back and checks what the hash and the rebuild rely on: the
 * protobuf parses, every node is a known v1 node referenced once from the roots, contract ids are
 * hex, times are RFC 3339 instants, values nest boundedly. A reason when it is not so.
 */
export function decodePreparedTransaction(encoded: unknown): Decoded {
  // The HTTP face decodes for the access check (actAs) and the core again, twice (its checks run
  // in two passes around the engine's sliced run): the last few are remembered, for concurrent
  // executes interleave. Decoded transactions are read, never changed.
  if (typeof encoded !== 'string') return decode(encoded);
  const known = recent.get(encoded);
  if (known !== undefined) return known;
  const decoded = decode(encoded);
  // Large ones are not kept: sixteen requests at the body limit must not hold hundreds of MB.
  if (encoded.length > RECENT_MAX_LENGTH) return decoded;
  if (recent.size >= RECENT_DECODES) recent.delete(recent.keys().next().value as string);
  recent.set(encoded, decoded);
  return decoded;
}

const RECENT_DECODES = 16;
/** Base64 characters of the largest one remembered (a real Amulet transfer's is about 37,000). */
export const RECENT_MAX_LENGTH = 256 * 1024;
const recent = new Map<string, Decoded>();

function decode(encoded: unknown): Decoded {
  if (typeof encoded !== 'string' || encoded === '') return { ok: false, reason: 'it is empty' };
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return { ok: false, reason: 'it is not base64' };
  const bytes = Buffer.from(encoded, 'base64');
  // Read recursively below: a hostile nesting is refused first, by the protobuf recursion limit.
  const nesting = protobufNesting(bytes, PreparedTransaction as IMessageType<object>, PROTOBUF_NESTING_LIMIT);
  if (nesting.kind === 'too-deep') return { ok: false, reason: `its messages nest deeper than ${nesting.limit} levels (the protobuf recursion limit)` };
  let p: PreparedTransaction;
  try {
    p = PreparedTransaction.fromBinary(bytes, { readUnknownField: false });
  } catch (e) {
    return { ok: false, reason: `it is not a protobuf PreparedTransaction (${e instanceof Error ? e.message.slice(0, 120) : 'unreadable'})` };
  }
  const problem = structureProblem(p);
  return problem === undefined ? { ok: true, value: p } : { ok: false, reason: problem };
}

function structureProblem(p: PreparedTransaction): string | undefined {
  const tx = p.transaction;
  const m = p.metadata;
  if (tx === undefined) return 'it has no transaction';
  if (m === undefined) return 'it has no metadata';
  if (m.submitterInfo === undefined || m.submitterInfo.actAs.length === 0) return 'metadata.submitter_info.act_as is empty';
  if (!UUID.test(m.transactionUuid)) return 'metadata.transaction_uuid is not a UUID';
  const times: [string, bigint | undefined][] = [
    ['preparation_time', m.preparationTime],
    ['min_ledger_effective_time', m.minLedgerEffectiveTime],
    ['max_ledger_effective_time', m.maxLedgerEffectiveTime],
    ['max_record_time', m.maxRecordTime],
  ];
  for (const [name, t] of times) if (t !== undefined && !isMicrosInRange(t)) return `metadata.${name} is outside RFC 3339 (years 0001-9999)`;
  const byId = new Map<string, DamlTransaction_Node>();
  for (const n of tx.nodes) {
    if (byId.has(n.nodeId)) return `node id ${n.nodeId.slice(0, 20)} appears twice`;
    byId.set(n.nodeId, n);
  }
  // Every node reachable exactly once from the roots: a tree, as Daml transactions are.
  const referenced = new Set<string>();
  const stack = [...tx.roots];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    const n = byId.get(id);
    if (n === undefined) return `node ${id.slice(0, 20)} is referenced but not in the transaction`;
    if (referenced.has(id)) return `node ${id.slice(0, 20)} is referenced twice`;
    referenced.add(id);
    const problem = nodeProblem(n);
    if (problem !== undefined) return problem;
    const t = n.versionedNode.oneofKind === 'v1' ? n.versionedNode.v1.nodeType : undefined;
    if (t?.oneofKind === 'exercise') stack.push(...t.exercise.children);
    if (t?.oneofKind === 'rollback') stack.push(...t.rollback.children);
  }
  if (referenced.size !== byId.size) return 'some nodes are not reachable from the roots';
  for (const c of m.inputContracts) {
    if (c.contract.oneofKind !== 'v1') return 'an input contract has an unsupported version';
    if (!isMicrosInRange(c.createdAt)) return 'an input contract has a created_at outside RFC 3339 (years 0001-9999)';
    const problem = createProblem(c.contract.v1);
    if (problem !== undefined) return `input contract: ${problem}`;
  }
  for (const s of tx.nodeSeeds) if (s.seed.length !== 32) return `the seed of node ${s.nodeId} is not 32 bytes`;
  return undefined;
}

function nodeProblem(n: DamlTransaction_Node): string | undefined {
  if (n.versionedNode.oneofKind !== 'v1') return `node ${n.nodeId.slice(0, 20)} has an unsupported version`;
  const t = n.versionedNode.v1.nodeType;
  switch (t.oneofKind) {
    case 'create':
      return createProblem(t.create);
    case 'exercise':
      if (!CONTRACT_ID.test(t.exercise.contractId)) return `contract id '${t.exercise.contractId.slice(0, 40)}' is not a Canton contract id`;
      if (t.exercise.templateId === undefined) return 'an exercise node has no template id';
      return valueProblem(t.exercise.chosenValue, 0) ?? (t.exercise.exerciseResult === undefined ? undefined : valueProblem(t.exercise.exerciseResult, 0));
    case 'fetch':
      return CONTRACT_ID.test(t.fetch.contractId) && t.fetch.templateId !== undefined ? undefined : 'a fetch node is malformed';
    case 'rollback':
      return undefined;
    default:
      return `node ${n.nodeId.slice(0, 20)} has no known type`;
  }
}

function createProblem(c: Create): string | undefined {
  if (!CONTRACT_ID.test(c.contractId)) return `contract id '${c.contractId.slice(0, 40)}' is not a Canton contract id`;
  if (c.templateId === undefined) return 'a create node has no template id';
  return valueProblem(c.argument, 0);
}

/** Contract ids, times and nesting inside a value (what the hash and the JSON form need). */
function valueProblem(v: Value | undefined, depth: number): string | undefined {
  if (v === undefined) return 'a value is missing';
  if (depth > MAX_VALUE_DEPTH) return `values nest deeper than ${MAX_VALUE_DEPTH}`;
  const s = v.sum;
  switch (s.oneofKind) {
    case 'contractId':
      return CONTRACT_ID.test(s.contractId) ? undefined : `contract id '${s.contractId.slice(0, 40)}' is not a Canton contract id`;
    case 'timestamp':
      return isMicrosInRange(BigInt(s.timestamp)) ? undefined : 'a timestamp value is outside RFC 3339 (years 0001-9999)';
    case 'optional':
      return s.optional.value === undefined ? undefined : valueProblem(s.optional.value, depth + 1);
    case 'list':
      return firstProblem(s.list.elements, depth);
    case 'textMap':
      return firstProblem(s.textMap.entries.map((e) => e.value), depth);
    case 'record':
      return firstProblem(s.record.fields.map((f) => f.value), depth);
    case 'variant':
      return valueProblem(s.variant.value, depth + 1);
    case 'genMap':
      return firstProblem(s.genMap.entries.flatMap((e) => [e.key, e.value]), depth);
    case undefined:
      return 'a value has no known kind';
    default:
      return undefined;
  }
}

function firstProblem(values: readonly (Value | undefined)[], depth: number): string | undefined {
  for (const v of values) {
    const p = valueProblem(v, depth + 1);
    if (p !== undefined) return p;
  }
  return undefined;
}

/**
 * The commands a prepared transaction's root nodes stand for (what execute interprets again):
 * a root create is a CreateCommand, a root exercise an ExerciseCommand on its contract (through
 * its interface when it has one). Input contracts travel as disclosed contracts with their blobs.
 */
export function commandsOf(p: PreparedTransaction): { ok: true; commands: Command[]; disclosed: DisclosedContract[] } | { ok: false; reason: string } {
  const tx = p.transaction;
  if (tx === undefined || tx.roots.length === 0) return { ok: false, reason: 'the transaction has no root nodes' };
  const byId = new Map(tx.nodes.map((n) => [n.nodeId, n]));
  const commands: Command[] = [];
  for (const root of tx.roots) {
    const n = byId.get(root);
    const t = n?.versionedNode.oneofKind === 'v1' ? n.versionedNode.v1.nodeType : undefined;
    if (t?.oneofKind === 'create') {
      const arg = fromProto(t.create.argument);
      if (!arg.ok) return arg;
      commands.push({ CreateCommand: { templateId: identifierText(t.create.templateId), createArguments: arg.value } } as Command);
    } else if (t?.oneofKind === 'exercise') {
      const x = t.exercise;
      const arg = fromProto(x.chosenValue);
      if (!arg.ok) return arg;
      const templateId = identifierText(x.interfaceId ?? x.templateId);
      commands.push({ ExerciseCommand: { templateId, contractId: x.contractId, choice: x.choiceId, choiceArgument: arg.value } } as Command);
    } else {
      return { ok: false, reason: `root node ${root.slice(0, 20)} is neither a create nor an exercise` };
    }
  }
  // Contracts an acting party is a stakeholder of need no disclosure (and no blob authentication).
  const actAs = new Set(p.metadata?.submitterInfo?.actAs ?? []);
  const disclosed = (p.metadata?.inputContracts ?? [])
    .filter((c) => c.eventBlob.length > 0 && c.contract.oneofKind === 'v1' && !c.contract.v1.stakeholders.some((s) => actAs.has(s)))
    .map((c) => ({
      contractId: c.contract.oneofKind === 'v1' ? c.contract.v1.contractId : '',
      createdEventBlob: Buffer.from(c.eventBlob).toString('base64'),
    }));
  return { ok: true, commands, disclosed };
}

/** Kept for the topology encoding, which still uses it. */
export { canonicalText } from './canonicalText.js';
