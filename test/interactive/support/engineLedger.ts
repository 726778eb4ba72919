/**
 * A participant's view for engine prepare tests: real DAR packages, the update engine, the active
 * contracts its submissions made (with creation times and blobs), and the prepare seam over them.
 */
import { PreparedTransaction as Proto } from '@canton-network/core-ledger-proto';
import type { Update } from '../../../daml-engine/ast/Expr.js';
import type { QualifiedName, Type } from '../../../daml-engine/ast/Type.js';
import type { Packages } from '../../../daml-engine/decode/Packages.js';
import { decodeJson } from '../../../daml-engine/json/jsonValue.js';
import { packageDataTypes } from '../../../daml-engine/json/packageDataTypes.js';
import type { SubmissionResult } from '../../../daml-engine/update/UpdateEngine.js';
import { UpdateEngine } from '../../../daml-engine/update/UpdateEngine.js';
import type { Value } from '../../../daml-engine/value/Value.js';
import type { EngineInputContract, EnginePreparation, PrepareResult } from '../../../reference-server/src/ledger/interactive/engine/preparedTransactionOfEngine.js';
import { preparedTransactionOfEngine } from '../../../reference-server/src/ledger/interactive/engine/preparedTransactionOfEngine.js';
import { engineTransactionOfPrepared } from '../../../reference-server/src/ledger/interactive/engine/engineTransactionOfPrepared.js';
import type { Transaction } from '../../../daml-engine/update/Transaction.js';
import { decodePreparedTransaction } from '@canton-network/core-tx-visualizer';
import { expect } from 'vitest';

export const SYNCHRONIZER = 'global-domain::1220f00dcafe';
export type Ok = Extract<SubmissionResult, { ok: true }>;

export function ok(result: SubmissionResult): Ok {
  if (!result.ok) throw new Error(`submission failed: ${JSON.stringify(result.error, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)).slice(0, 600)}`);
  return result;
}

export class EngineLedger {
  readonly engine: UpdateEngine;
  readonly active = new Map<string, EngineInputContract>();
  #seed = 1;

  constructor(readonly packages: Packages) {
    this.engine = new UpdateEngine({ getPackage: (id) => packages.get(id) });
  }

  /** A JSON API value of `type` as an engine value (fails loudly). */
  value(type: Type, json: unknown): Value {
    const decoded = decodeJson(type, json, packageDataTypes((id) => this.packages.get(id)));
    if (!decoded.ok) throw new Error(JSON.stringify(decoded.problem));
    return decoded.value;
  }

  record(tycon: QualifiedName, json: unknown): Value {
    return this.value({ kind: 'con', tycon, args: [] }, json);
  }

  /** Runs an update at `time` (µs) without committing it. */
  run(update: Update, submitters: string[], time: bigint, seedByte = this.#seed++): SubmissionResult {
    return this.engine.submit({
      update, submitters, transactionSeed: new Uint8Array(32).fill(seedByte), preparationTime: time,
      getContract: (cid) => this.active.get(cid),
    });
  }

  /** Runs and commits an update: its creates become active contracts, its archives leave. */
  commit(update: Update, submitters: string[], time: bigint): Ok {
    const r = ok(this.run(update, submitters, time));
    for (const c of r.transaction.created) {
      this.active.set(c.contractId, { ...c, createdAt: time, eventBlob: Buffer.from(`blob of ${c.contractId}`) });
    }
    for (const cid of r.transaction.archived) this.active.delete(cid);
    return r;
  }

  prepare(result: Ok, facts: Omit<EnginePreparation, 'transaction' | 'getPackage' | 'inputContract'>): PrepareResult {
    return preparedTransactionOfEngine({
      ...facts, transaction: result.transaction, getPackage: (id) => this.packages.get(id), inputContract: (cid) => this.active.get(cid),
    });
  }
}

/** The prepared transaction as the JSON API returns it: base64 protobuf. */
export const wire = (p: Proto): string => Buffer.from(Proto.toBinary(p)).toString('base64');

/**
 * Reads a prepared transaction back as execute does and prepares it again: the engine transaction
 * it reads back equals `original` (party sets compared as sets), and it encodes to the same bytes.
 */
export function expectReadsBackAndPreparesAgain(p: Proto, original: Transaction, packages: Packages): void {
  const back = engineTransactionOfPrepared(decodePreparedTransaction(wire(p)), (id) => packages.get(id));
  if (!back.ok) throw new Error(back.problem);
  const sortSets = (tx: Transaction) => JSON.stringify(tx, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : Array.isArray(v) && v.every((x) => typeof x === 'string') ? [...(v as string[])].sort() : v));
  expect(sortSets(back.value.transaction)).toBe(sortSets(original));
  const again = preparedTransactionOfEngine({
    ...back.value.facts, transaction: back.value.transaction, getPackage: (id) => packages.get(id),
    inputContract: (cid) => back.value.inputContracts.find((c) => c.contractId === cid),
  });
  if (!again.ok) throw new Error(JSON.stringify(again.failure));
  expect(wire(again.value)).toBe(wire(p));
}
