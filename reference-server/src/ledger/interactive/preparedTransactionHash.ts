import { createHash, hash as digest } from 'node:crypto';
import type { Create, DamlTransaction, DamlTransaction_Node, Exercise, Fetch, Identifier, Metadata, PreparedTransaction, Value } from '@canton-network/core-ledger-proto';
import { UnknownFieldHandler } from '@protobuf-ts/runtime';

/**
 * Canton's hashing schemes V2 and V3 for prepared transactions (Canton's "external signing hashing
 * algorithm"): every node and the metadata are encoded field by field (big-endian int32 lengths
 * and counts, int64 times in microseconds, contract ids as their hex bytes), nodes are hashed
 * bottom-up (a parent encodes the SHA-256 of each child), and
 *
 *   hash = SHA-256( purpose 0x00000030 || scheme (0x02 or 0x03) || transactionHash || metadataHash )
 *   transactionHash = SHA-256( purpose || version || roots' node hashes )
 *   metadataHash    = SHA-256( purpose || [V2: 0x01] || act_as || command_id || transaction_uuid ||
 *                              mediator_group || synchronizer_id || min/max ledger effective time ||
 *                              preparation_time || input contracts (created_at, hash of the create node)
 *                              || [V3: max_record_time] )
 *
 * V3 (Canton 3.5, protocol version 35) drops V2's encoding-version bytes (0x01 before every node
 * and the metadata), adds the contract key (optional) to create, fetch and exercise nodes and
 * `by_key` to fetch and exercise nodes, and adds the optional max record time to the metadata.
 * 32 raw bytes, no multihash prefix: what the parties sign.
 */

const PURPOSE = Buffer.of(0, 0, 0, 48);
/** The 0x01 V2 puts before every node and the metadata (the protobuf encoding's version); V3 has none. */
const V2_ENCODING_VERSION = 1;

/** A hashing scheme by its number: HASHING_SCHEME_VERSION_V2 is 2, _V3 is 3. */
export type HashingScheme = 2 | 3;

/** Why a prepared transaction cannot be hashed (the decoder refuses these first; this is the last guard). */
export class UnhashableTransaction extends Error {}

/** A line of `hashingDetails`: what was hashed, and the hash. */
export interface HashTrace {
  readonly lines: string[];
}

const sha256 = (...parts: readonly Uint8Array[]): Buffer => {
  // One part (every node): the one-shot digest, no Hash object.
  if (parts.length === 1) return digest('sha256', parts[0] as Uint8Array, 'buffer');
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

/** Appends encoded fields to one growing buffer; `done()` is the concatenation. */
class Encoder {
  #buf: Buffer;
  #len = 0;
  constructor(size = 512) {
    this.#buf = Buffer.allocUnsafe(size);
  }
  /** Empties it for another encoding (the node encoder: nodes are encoded one after another, children hashed first). */
  reset(): this {
    this.#len = 0;
    // A buffer grown by one huge transaction is not kept for every later one.
    if (this.#buf.length > 1024 * 1024) this.#buf = Buffer.allocUnsafe(16_384);
    return this;
  }
  #room(n: number): void {
    if (this.#len + n <= this.#buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.#len + n));
    this.#buf.copy(next, 0, 0, this.#len);
    this.#buf = next;
  }
  byte(b: number): this {
    this.#room(1);
    this.#buf[this.#len++] = b;
    return this;
  }
  int32(n: number): this {
    this.#room(4);
    this.#buf.writeInt32BE(n, this.#len);
    this.#len += 4;
    return this;
  }
  int64(n: bigint): this {
    this.#room(8);
    this.#buf.writeBigInt64BE(BigInt.asIntN(64, n), this.#len);
    this.#len += 8;
    return this;
  }
  bool(x: boolean): this {
    return this.byte(x ? 1 : 0);
  }
  bytes(b: Uint8Array): this {
    return this.int32(b.length).raw(b);
  }
  raw(b: Uint8Array): this {
    this.#room(b.length);
    this.#buf.set(b, this.#len);
    this.#len += b.length;
    return this;
  }
  string(s: string): this {
    // Room for the worst case (3 bytes per UTF-16 unit), write, then fill in the length.
    this.#room(4 + s.length * 3);
    const at = this.#len;
    const n = this.#buf.write(s, at + 4, 'utf8');
    this.#buf.writeInt32BE(n, at);
    this.#len = at + 4 + n;
    return this;
  }
  hex(s: string): this {
    if (s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) throw new UnhashableTransaction(`'${s.slice(0, 40)}' is not a hex contract id`);
    const n = s.length / 2;
    this.int32(n);
    this.#room(n);
    this.#len += this.#buf.write(s, this.#len, 'hex');
    return this;
  }
  strings(xs: readonly string[]): this {
    this.int32(xs.length);
    for (const x of xs) this.string(x);
    return this;
  }
  optional<T>(x: T | undefined, encode: (e: this, x: T) => void): this {
    if (x === undefined) return this.byte(0);
    this.byte(1);
    encode(this, x);
    return this;
  }
  identifier(i: Identifier | undefined): this {
    if (i === undefined) throw new UnhashableTransaction('an identifier is missing');
    return this.string(i.packageId).strings(i.moduleName.split('.')).strings(i.entityName.split('.'));
  }
  value(x: Value | undefined): this {
    encodeValue(this, x);
    return this;
  }
  done(): Buffer {
    return this.#buf.subarray(0, this.#len);
  }
}

function encodeValue(e: Encoder, value: Value | undefined): void {
  if (value === undefined) throw new UnhashableTransaction('a value is missing');
  const s = value.sum;
  switch (s.oneofKind) {
    case 'unit':
      e.byte(0);
      return;
    case 'bool':
      e.byte(1).bool(s.bool);
      return;
    case 'int64':
      e.byte(2).int64(BigInt(s.int64));
      return;
    case 'numeric':
      e.byte(3).string(s.numeric);
      return;
    case 'timestamp':
      e.byte(4).int64(BigInt(s.timestamp));
      return;
    case 'date':
      e.byte(5).int32(s.date);
      return;
    case 'party':
      e.byte(6).string(s.party);
      return;
    case 'text':
      e.byte(7).string(s.text);
      return;
    case 'contractId':
      e.byte(8).hex(s.contractId);
      return;
    case 'optional':
      e.byte(9).optional(s.optional.value, (x, v) => x.value(v));
      return;
    case 'list':
      e.byte(10).int32(s.list.elements.length);
      for (const x of s.list.elements) e.value(x);
      return;
    case 'textMap':
      e.byte(11).int32(s.textMap.entries.length);
      for (const x of s.textMap.entries) e.string(x.key).value(x.value);
      return;
    case 'record':
      e.byte(12).optional(s.record.recordId, (x, id) => x.identifier(id));
      e.int32(s.record.fields.length);
      for (const f of s.record.fields) e.byte(1).string(f.label).value(f.value);
      return;
    case 'variant':
      e.byte(13).optional(s.variant.variantId, (x, id) => x.identifier(id));
      e.string(s.variant.constructor).value(s.variant.value);
      return;
    case 'enum':
      e.byte(14).optional(s.enum.enumId, (x, id) => x.identifier(id));
      e.string(s.enum.constructor);
      return;
    case 'genMap':
      e.byte(15).int32(s.genMap.entries.length);
      for (const x of s.genMap.entries) e.value(x.key).value(x.value);
      return;
    default:
      throw new UnhashableTransaction('a value has no known kind');
  }
}

/**
 * The one encoder of node encodings, emptied for each: a node's encoding is hashed before the next
 * begins (an exercise's and a rollback's children are hashed before the node is encoded), and
 * hashing is synchronous. A buffer per node cost more than the SHA-256 of it.
 */
const NODES = new Encoder(16_384);

/** A node encoding begun: V2 starts it with its encoding version, V3 with nothing. */
const nodeEncoder = (scheme: HashingScheme): Encoder => (scheme === 2 ? NODES.reset().byte(V2_ENCODING_VERSION) : NODES.reset());

/**
 * Contract keys (`key` on creates, fetches and exercises, `by_key` on fetches and exercises) exist
 * only on LF serialization version 2 nodes, which the ledger never prepares; the protobuf types we
 * read predate them, so they arrive as unknown fields. Refused rather than silently left out of the hash.
 */
function refuseKeys(node: object, kind: string, lfVersion: string, fields: readonly number[]): void {
  const present = UnknownFieldHandler.list(node).filter((f) => fields.includes(f.no));
  if (present.length > 0) throw new UnhashableTransaction(`contract keys in ${kind} node (field ${present.map((f) => f.no).join(', ')}) are not supported in nodes with LF version ${lfVersion.slice(0, 20)}`);
}

/** V3's key fields of a node without a key: `by_key` false (fetches and exercises have one) and no key. */
const noKey = (e: Encoder, scheme: HashingScheme, hasByKey: boolean): Encoder => (scheme === 2 ? e : (hasByKey ? e.bool(false) : e).optional(undefined, () => undefined));

/** The create node encoding (also the input contracts' encoding, without a seed). */
function encodeCreate(c: Create, seed: Uint8Array | undefined, scheme: HashingScheme): Buffer {
  refuseKeys(c, 'a create', c.lfVersion, [8]);
  const e = nodeEncoder(scheme)
    .string(c.lfVersion)
    .byte(0)
    .optional(seed, (e, s) => e.raw(s))
    .hex(c.contractId)
    .string(c.packageName)
    .identifier(c.templateId)
    .value(c.argument)
    .strings(c.signatories)
    .strings(c.stakeholders);
  return noKey(e, scheme, false).done();
}

function encodeFetch(f: Fetch, scheme: HashingScheme): Buffer {
  refuseKeys(f, 'a fetch', f.lfVersion, [9, 10]);
  const e = nodeEncoder(scheme)
    .string(f.lfVersion)
    .byte(2)
    .hex(f.contractId)
    .string(f.packageName)
    .identifier(f.templateId)
    .strings(f.signatories)
    .strings(f.stakeholders)
    .optional(f.interfaceId, (x, i) => x.identifier(i))
    .strings(f.actingParties);
  return noKey(e, scheme, true).done();
}

/** Hashes the nodes of one transaction, each once, refusing cycles and dangling references. */
class NodeHasher {
  readonly #byId = new Map<string, DamlTransaction_Node>();
  readonly #seeds = new Map<string, Uint8Array>();
  readonly #done = new Map<string, Buffer>();
  readonly #visiting = new Set<string>();

  constructor(
    tx: DamlTransaction,
    readonly scheme: HashingScheme,
    readonly trace: HashTrace | undefined,
  ) {
    for (const n of tx.nodes) this.#byId.set(n.nodeId, n);
    for (const s of tx.nodeSeeds) this.#seeds.set(String(s.nodeId), s.seed);
  }

  hash(nodeId: string): Buffer {
    const known = this.#done.get(nodeId);
    if (known !== undefined) return known;
    const node = this.#byId.get(nodeId);
    if (node === undefined) throw new UnhashableTransaction(`node ${nodeId.slice(0, 20)} is referenced but not in the transaction`);
    if (this.#visiting.has(nodeId)) throw new UnhashableTransaction(`node ${nodeId.slice(0, 20)} is its own descendant`);
    this.#visiting.add(nodeId);
    const children = this.#childHashes(node);
    const encoded = this.#encode(node, children);
    this.#visiting.delete(nodeId);
    const hash = sha256(encoded);
    this.#done.set(nodeId, hash);
    this.trace?.lines.push(`node ${nodeId} (${describe(node)}): ${encoded.length} bytes encoded, sha-256 ${hash.toString('hex')}`);
    return hash;
  }

  /** The hashes of an exercise's or a rollback's children, made before the node is encoded (see NODES). */
  #childHashes(node: DamlTransaction_Node): readonly Buffer[] {
    if (node.versionedNode.oneofKind !== 'v1') return [];
    const t = node.versionedNode.v1.nodeType;
    const ids = t.oneofKind === 'exercise' ? t.exercise.children : t.oneofKind === 'rollback' ? t.rollback.children : [];
    return ids.map((id) => this.hash(id));
  }

  #encode(node: DamlTransaction_Node, children: readonly Buffer[]): Buffer {
    if (node.versionedNode.oneofKind !== 'v1') throw new UnhashableTransaction(`node ${node.nodeId.slice(0, 20)} has an unsupported version`);
    const t = node.versionedNode.v1.nodeType;
    const seed = this.#seeds.get(node.nodeId);
    switch (t.oneofKind) {
      case 'create':
        return encodeCreate(t.create, seed, this.scheme);
      case 'exercise': {
        if (seed === undefined) throw new UnhashableTransaction(`exercise node ${node.nodeId.slice(0, 20)} has no seed`);
        return this.#encodeExercise(t.exercise, seed, children);
      }
      case 'fetch':
        return encodeFetch(t.fetch, this.scheme);
      case 'rollback':
        return withChildren(nodeEncoder(this.scheme).byte(3), children).done();
      default:
        throw new UnhashableTransaction(`node ${node.nodeId.slice(0, 20)} has no known type`);
    }
  }

  #encodeExercise(x: Exercise, seed: Uint8Array, children: readonly Buffer[]): Buffer {
    refuseKeys(x, 'an exercise', x.lfVersion, [15, 16]);
    const head = nodeEncoder(this.scheme)
      .string(x.lfVersion)
      .byte(1)
      .raw(seed)
      .hex(x.contractId)
      .string(x.packageName)
      .identifier(x.templateId)
      .strings(x.signatories)
      .strings(x.stakeholders)
      .strings(x.actingParties)
      .optional(x.interfaceId, (e, i) => e.identifier(i))
      .string(x.choiceId)
      .value(x.chosenValue)
      .bool(x.consuming)
      .optional(x.exerciseResult, (e, r) => e.value(r))
      .strings(x.choiceObservers);
    return withChildren(noKey(head, this.scheme, true), children).done();
  }
}

/** A node's children after its fields: their count, then each child's hash. */
function withChildren(e: Encoder, hashes: readonly Buffer[]): Encoder {
  e.int32(hashes.length);
  for (const h of hashes) e.raw(h);
  return e;
}

function describe(node: DamlTransaction_Node): string {
  if (node.versionedNode.oneofKind !== 'v1') return 'unknown';
  const t = node.versionedNode.v1.nodeType;
  switch (t.oneofKind) {
    case 'create':
      return `create ${t.create.templateId?.entityName ?? ''} ${t.create.contractId}`;
    case 'exercise':
      return `exercise ${t.exercise.choiceId} on ${t.exercise.contractId}`;
    case 'fetch':
      return `fetch ${t.fetch.contractId}`;
    case 'rollback':
      return 'rollback';
    default:
      return 'unknown';
  }
}

export function transactionHash(tx: DamlTransaction, scheme: HashingScheme, trace?: HashTrace): Buffer {
  const nodes = new NodeHasher(tx, scheme, trace);
  const e = new Encoder().string(tx.version).int32(tx.roots.length);
  for (const root of tx.roots) e.raw(nodes.hash(root));
  return sha256(PURPOSE, e.done());
}

export function encodeMetadata(m: Metadata, scheme: HashingScheme): Buffer {
  const e = (scheme === 2 ? new Encoder().byte(V2_ENCODING_VERSION) : new Encoder())
    .strings(m.submitterInfo?.actAs ?? [])
    .string(m.submitterInfo?.commandId ?? '')
    .string(m.transactionUuid)
    .int32(m.mediatorGroup)
    .string(m.synchronizerId)
    .optional(m.minLedgerEffectiveTime, (x, t) => x.int64(t))
    .optional(m.maxLedgerEffectiveTime, (x, t) => x.int64(t))
    .int64(m.preparationTime)
    .int32(m.inputContracts.length);
  for (const c of m.inputContracts) {
    if (c.contract.oneofKind !== 'v1') throw new UnhashableTransaction('an input contract has an unsupported version');
    e.int64(c.createdAt).raw(sha256(encodeCreate(c.contract.v1, undefined, scheme)));
  }
  if (scheme === 3) e.optional(m.maxRecordTime, (x, t) => x.int64(t));
  return e.done();
}

export function metadataHash(m: Metadata, scheme: HashingScheme): Buffer {
  return sha256(PURPOSE, encodeMetadata(m, scheme));
}

/** The hash of a prepared transaction under a scheme; throws UnhashableTransaction on a malformed one. */
export function hashPreparedTransaction(p: PreparedTransaction, scheme: HashingScheme, trace?: HashTrace): Buffer {
  if (p.transaction === undefined || p.metadata === undefined) throw new UnhashableTransaction('the transaction or its metadata is missing');
  const tx = transactionHash(p.transaction, scheme, trace);
  const meta = metadataHash(p.metadata, scheme);
  const hash = sha256(PURPOSE, Buffer.of(scheme), tx, meta);
  if (trace !== undefined) {
    trace.lines.push(`transaction hash = sha-256(purpose 00000030 || version '${p.transaction.version}' || ${p.transaction.roots.length} root node hashes) = ${tx.toString('hex')}`);
    trace.lines.push(`metadata encoding (${encodeMetadata(p.metadata, scheme).toString('hex')})`);
    trace.lines.push(`metadata hash = sha-256(purpose 00000030 || metadata encoding) = ${meta.toString('hex')}`);
    trace.lines.push(`prepared transaction hash = sha-256(purpose 00000030 || scheme 0${scheme} || transaction hash || metadata hash) = ${hash.toString('hex')}`);
  }
  return hash;
}

/** What `verboseHashing` answers: the steps of the computation with their inputs and results. */
export function hashingDetails(p: PreparedTransaction, scheme: HashingScheme): string {
  const trace: HashTrace = { lines: [] };
  hashPreparedTransaction(p, scheme, trace);
  return [
    `Canton hashing scheme V${scheme} (HASHING_SCHEME_VERSION_V${scheme}) over the protobuf PreparedTransaction; integers big-endian, strings and bytes prefixed with their int32 length, lists with their int32 count, times in microseconds, contract ids as their hex bytes; each node encoded with the SHA-256 of its children`,
    ...trace.lines,
  ].join('\n');
}
