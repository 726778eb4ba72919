import type { PreparedTransaction } from '../interpret.js';
import { isPlainObject } from '../values.js';
import type { Command, DamlValue, DisclosedContract } from '../wire.js';
import { HashPurpose, multihash } from './hashing.js';
import type { HashingSchemeVersion } from './wire.js';

/**
 * The prepared transaction as clients receive it: everything the participant needs to commit it
 * later without trusting its own memory, and everything a careful client needs to check what it
 * signs. Encoded as `CCPT` | format version byte | canonical JSON, then base64. Opaque to
 * clients by contract, readable by anyone who wants to look.
 */
export interface PreparedDocument {
  readonly version: typeof FORMAT_VERSION;
  readonly metadata: PreparedMetadata;
  /** The commands as interpreted (execute re-interprets them and must get the same transaction). */
  readonly commands: readonly Command[];
  readonly transaction: { readonly nodes: readonly NodeDocument[] };
  /** The contracts the transaction reads or consumes, as they were at preparation. */
  readonly inputContracts: readonly InputContractDocument[];
}

export interface PreparedMetadata {
  readonly participantId: string;
  /** The user who prepared (execute names its own submitting user). */
  readonly userId: string;
  readonly commandId: string;
  readonly actAs: readonly string[];
  readonly readAs: readonly string[];
  readonly synchronizerId: string;
  /** Ledger effective time, ms since the epoch. */
  readonly ledgerEffectiveTime: number;
  readonly preparationTime: number;
  /** Execution after this instant (ms) is refused. */
  readonly maxRecordTime?: number;
  readonly disclosedContracts: readonly DisclosedContract[];
}

export type NodeDocument =
  | {
      readonly kind: 'create';
      readonly nodeId: number;
      readonly contractId: string;
      readonly templateId: string;
      readonly argument: DamlValue;
      readonly signatories: readonly string[];
      readonly observers: readonly string[];
      readonly key?: DamlValue;
      readonly witnesses: readonly string[];
      readonly transient: boolean;
    }
  | {
      readonly kind: 'exercise';
      readonly nodeId: number;
      readonly contractId: string;
      readonly templateId: string;
      readonly interfaceId?: string;
      readonly choice: string;
      readonly argument: DamlValue;
      readonly actingParties: readonly string[];
      readonly consuming: boolean;
      readonly witnesses: readonly string[];
      readonly lastDescendantNodeId: number;
      readonly result: DamlValue;
    };

export interface InputContractDocument {
  readonly contractId: string;
  readonly templateId: string;
  readonly argument: DamlValue;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
  readonly createdAt: number;
}

export const FORMAT_VERSION = 1;
const MAGIC = Buffer.from('CCPT', 'ascii');

/** The transaction and inputs of an interpretation, as documented (what execute compares). */
export function describeTransaction(prepared: PreparedTransaction): Pick<PreparedDocument, 'transaction' | 'inputContracts'> {
  const nodes = prepared.nodes.map((n): NodeDocument => {
    const c = n.contract;
    if (n.kind === 'create') {
      return {
        kind: 'create',
        nodeId: n.nodeId,
        contractId: c.contractId,
        templateId: c.template.id,
        argument: c.argument,
        signatories: c.signatories,
        observers: c.observers,
        ...(c.key === undefined ? {} : { key: c.key }),
        witnesses: n.witnesses,
        transient: n.transient,
      };
    }
    return {
      kind: 'exercise',
      nodeId: n.nodeId,
      contractId: c.contractId,
      templateId: c.template.id,
      ...(n.interface === undefined ? {} : { interfaceId: n.interface.id }),
      choice: n.choice.name,
      argument: n.argument,
      actingParties: n.actingParties,
      consuming: n.consuming,
      witnesses: n.witnesses,
      lastDescendantNodeId: n.lastDescendantNodeId,
      result: n.result,
    };
  });
  const inputContracts = prepared.inputs.map((c) => ({
    contractId: c.contractId,
    templateId: c.template.id,
    argument: c.argument,
    signatories: c.signatories,
    observers: c.observers,
    createdAt: c.createdAt,
  }));
  return { transaction: { nodes }, inputContracts };
}

/**
 * One canonical text for a document or any part of it: object keys sorted, no whitespace, absent
 * (undefined) members left out as JSON does. Equal content, equal text, equal hash.
 */
export function canonicalText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalText(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalText(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function encodePreparedTransaction(doc: PreparedDocument): string {
  return Buffer.concat([MAGIC, Buffer.of(FORMAT_VERSION), Buffer.from(canonicalText(doc), 'utf8')]).toString('base64');
}

/** Reads a prepared transaction back; a reason when it is not one of ours or is damaged. */
export function decodePreparedTransaction(encoded: string): { ok: true; value: PreparedDocument } | { ok: false; reason: string } {
  if (typeof encoded !== 'string' || encoded === '') return { ok: false, reason: 'it is empty' };
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return { ok: false, reason: 'it is not base64' };
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length <= MAGIC.length + 1 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return { ok: false, reason: 'it was not prepared by this kind of participant' };
  if (bytes[MAGIC.length] !== FORMAT_VERSION) return { ok: false, reason: `its format version ${bytes[MAGIC.length]} is not supported` };
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.subarray(MAGIC.length + 1).toString('utf8'));
  } catch {
    return { ok: false, reason: 'its content is not readable' };
  }
  const problem = documentProblem(doc);
  return problem === undefined ? { ok: true, value: doc as PreparedDocument } : { ok: false, reason: problem };
}

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Structural check of a decoded document, so later stages can rely on its types. */
function documentProblem(doc: unknown): string | undefined {
  if (!isPlainObject(doc) || doc.version !== FORMAT_VERSION) return 'its content has the wrong shape';
  const m = doc.metadata;
  if (!isPlainObject(m)) return 'it has no metadata';
  for (const f of ['participantId', 'userId', 'commandId', 'synchronizerId'] as const) if (typeof m[f] !== 'string') return `metadata.${f} is missing`;
  if (!isStringList(m.actAs) || m.actAs.length === 0 || !isStringList(m.readAs)) return 'metadata.actAs/readAs are malformed';
  if (!isCount(m.ledgerEffectiveTime) || !isCount(m.preparationTime)) return 'metadata times are malformed';
  if (m.maxRecordTime !== undefined && !isCount(m.maxRecordTime)) return 'metadata.maxRecordTime is malformed';
  if (!Array.isArray(m.disclosedContracts) || !m.disclosedContracts.every(isPlainObject)) return 'metadata.disclosedContracts is malformed';
  if (!Array.isArray(doc.commands) || doc.commands.length === 0 || !doc.commands.every(isPlainObject)) return 'it has no commands';
  if (!isPlainObject(doc.transaction) || !Array.isArray(doc.transaction.nodes) || !doc.transaction.nodes.every(isPlainObject)) return 'it has no transaction';
  for (const n of doc.transaction.nodes as Record<string, unknown>[]) {
    if ((n.kind !== 'create' && n.kind !== 'exercise') || !isCount(n.nodeId) || typeof n.contractId !== 'string') return 'a transaction node is malformed';
  }
  if (!Array.isArray(doc.inputContracts) || !doc.inputContracts.every((c) => isPlainObject(c) && typeof c.contractId === 'string')) return 'its input contracts are malformed';
  return undefined;
}

/** The hashing schemes execute accepts, with the byte that goes into the hash. */
export const HASHING_SCHEMES: Readonly<Partial<Record<HashingSchemeVersion, number>>> = {
  HASHING_SCHEME_VERSION_V2: 2,
  HASHING_SCHEME_VERSION_V3: 3,
};

/**
 * The prepared transaction hash: SHA-256 over purpose (48), the scheme byte, and the canonical
 * text of the whole document, as a 34-byte multihash. The document is exactly what commits:
 * execute rebuilds the transaction and refuses it unless it matches node for node.
 */
export function preparedTransactionHash(doc: PreparedDocument, scheme: number): Buffer {
  return multihash(HashPurpose.PreparedTransaction, Buffer.of(scheme), Buffer.from(canonicalText(doc), 'utf8'));
}

/** What `verboseHashing` answers: the recipe and its inputs, so a client can recompute the hash. */
export function hashingDetails(doc: PreparedDocument, scheme: number): string {
  const text = canonicalText(doc);
  const hash = preparedTransactionHash(doc, scheme);
  return [
    `hashing scheme V${scheme} (canton-conformance prepared transaction format ${FORMAT_VERSION})`,
    `hash = 0x12 0x20 || SHA-256( purpose 0x${HashPurpose.PreparedTransaction.toString(16).padStart(8, '0')} || scheme 0x${scheme.toString(16).padStart(2, '0')} || UTF-8 canonical JSON of the document )`,
    'canonical JSON: object keys sorted, no whitespace; the document is the base64-decoded preparedTransaction after its 5-byte header ("CCPT" and the format version)',
    `document (${Buffer.byteLength(text)} bytes): ${text}`,
    `sha-256: ${hash.subarray(2).toString('hex')}`,
    `multihash: ${hash.toString('hex')}`,
  ].join('\n');
}
