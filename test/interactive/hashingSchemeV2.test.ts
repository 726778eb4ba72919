import type { DamlTransaction_Node, Identifier, PreparedTransaction, Value } from '@canton-network/core-ledger-proto';
import { PreparedTransaction as Proto } from '@canton-network/core-ledger-proto';
import { hashPreparedTransaction as visualizerHash } from '@canton-network/core-tx-visualizer';
import { SDK } from '@canton-network/wallet-sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashPreparedTransaction, hashingDetails } from '../../reference-server/src/ledger/interactive/index.js';

/**
 * Our hashing scheme V2 against two independent implementations Canton's clients use: the
 * wallet SDK's `utils.hash.preparedTransaction` and core-tx-visualizer's `hashPreparedTransaction`,
 * over random prepared transactions (every value kind, nested exercises, rollbacks, fetches,
 * optional fields present and absent, input contracts). Int64 values stay within 2^53: the
 * visualizer reads them through parseInt (our encoding is exact beyond that, as Canton's is).
 */

const hex = (bytes: number) => fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'));
const contractId = hex(33);
const text = fc.string({ maxLength: 12 });
const party = fc.stringMatching(/^[a-z]{1,6}::1220[0-9a-f]{8}$/);
const parties = fc.uniqueArray(party, { maxLength: 3 });
const name = fc.stringMatching(/^[A-Z][a-z]{0,6}$/);
const identifier: fc.Arbitrary<Identifier> = fc.record({ packageId: hex(32), moduleName: fc.array(name, { minLength: 1, maxLength: 2 }).map((xs) => xs.join('.')), entityName: name });
const micros = fc.bigInt({ min: 0n, max: 253402300799999999n });

const { value } = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant<Value>({ sum: { oneofKind: 'unit', unit: {} } }),
    fc.boolean().map((bool): Value => ({ sum: { oneofKind: 'bool', bool } })),
    fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }).map((n): Value => ({ sum: { oneofKind: 'int64', int64: String(n) } })),
    fc.stringMatching(/^-?\d{1,5}\.\d{10}$/).map((numeric): Value => ({ sum: { oneofKind: 'numeric', numeric } })),
    micros.map((t): Value => ({ sum: { oneofKind: 'timestamp', timestamp: t.toString() } })),
    fc.integer({ min: -700_000, max: 2_900_000 }).map((date): Value => ({ sum: { oneofKind: 'date', date } })),
    party.map((p): Value => ({ sum: { oneofKind: 'party', party: p } })),
    text.map((t): Value => ({ sum: { oneofKind: 'text', text: t } })),
    contractId.map((c): Value => ({ sum: { oneofKind: 'contractId', contractId: c } })),
    fc.option(tie('value'), { nil: undefined }).map((v): Value => ({ sum: { oneofKind: 'optional', optional: v === undefined ? {} : { value: v } } })),
    fc.array(tie('value'), { maxLength: 3 }).map((elements): Value => ({ sum: { oneofKind: 'list', list: { elements } } })),
    fc.array(fc.record({ key: text, value: tie('value') }), { maxLength: 3 }).map((entries): Value => ({ sum: { oneofKind: 'textMap', textMap: { entries } } })),
    fc.array(fc.record({ key: tie('value'), value: tie('value') }), { maxLength: 2 }).map((entries): Value => ({ sum: { oneofKind: 'genMap', genMap: { entries } } })),
    fc
      .record({ recordId: fc.option(identifier, { nil: undefined }), fields: fc.array(fc.record({ label: name, value: tie('value') }), { maxLength: 3 }) })
      .map(({ recordId, fields }): Value => ({ sum: { oneofKind: 'record', record: { ...(recordId === undefined ? {} : { recordId }), fields } } })),
    fc
      .record({ variantId: fc.option(identifier, { nil: undefined }), constructor: name, value: tie('value') })
      .map(({ variantId, ...v }): Value => ({ sum: { oneofKind: 'variant', variant: { ...(variantId === undefined ? {} : { variantId }), ...v } } })),
    fc.record({ enumId: fc.option(identifier, { nil: undefined }), constructor: name }).map(({ enumId, constructor }): Value => ({ sum: { oneofKind: 'enum', enum: { ...(enumId === undefined ? {} : { enumId }), constructor } } })),
  ),
}));

const create = fc.record({ lfVersion: fc.constant('2.1'), contractId, packageName: name, templateId: identifier, argument: value, signatories: parties, stakeholders: parties });

/** A node tree shape: each node a kind and its children (only exercises and rollbacks have any). */
interface Shape {
  readonly kind: 'create' | 'exercise' | 'fetch' | 'rollback';
  readonly children: readonly Shape[];
}
const { shape } = fc.letrec<{ shape: Shape }>((tie) => ({
  shape: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<Shape['kind']>('create', 'fetch').map((kind): Shape => ({ kind, children: [] })),
    fc.record({ kind: fc.constantFrom<Shape['kind']>('exercise', 'rollback'), children: fc.array(tie('shape'), { maxLength: 3 }) }),
  ),
}));

const exercise = fc.record({
  lfVersion: fc.constant('2.1'),
  contractId,
  packageName: name,
  templateId: identifier,
  signatories: parties,
  stakeholders: parties,
  actingParties: parties,
  interfaceId: fc.option(identifier, { nil: undefined }),
  choiceId: name,
  chosenValue: value,
  consuming: fc.boolean(),
  exerciseResult: fc.option(value, { nil: undefined }),
  choiceObservers: parties,
});
const fetch = fc.record({ lfVersion: fc.constant('2.1'), contractId, packageName: name, templateId: identifier, signatories: parties, stakeholders: parties, actingParties: parties, interfaceId: fc.option(identifier, { nil: undefined }) });

/** Fills a shape with random node contents, numbering nodes in pre-order. */
type Contents = [typeof create extends fc.Arbitrary<infer C> ? C : never, typeof exercise extends fc.Arbitrary<infer X> ? X : never, typeof fetch extends fc.Arbitrary<infer F> ? F : never, Uint8Array, boolean];
const contents: fc.Arbitrary<Contents> = fc.tuple(create, exercise, fetch, fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.boolean());
const transaction = fc.tuple(fc.array(shape, { minLength: 1, maxLength: 3 }), fc.infiniteStream(contents)).map(([roots, stream]) => {
  const nodes: DamlTransaction_Node[] = [];
  const seeds: { nodeId: number; seed: Uint8Array }[] = [];
  const it = stream[Symbol.iterator]();
  const place = (s: Shape): string => {
    const id = nodes.length;
    const [c, x, f, seed, seeded] = it.next().value as Contents;
    const node: DamlTransaction_Node = { nodeId: String(id), versionedNode: { oneofKind: 'v1', v1: { nodeType: { oneofKind: undefined } } } };
    nodes.push(node);
    const children = s.children.map(place);
    const strip = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
    const nodeType =
      s.kind === 'create'
        ? { oneofKind: 'create' as const, create: c }
        : s.kind === 'exercise'
          ? { oneofKind: 'exercise' as const, exercise: strip({ ...x, children }) }
          : s.kind === 'fetch'
            ? { oneofKind: 'fetch' as const, fetch: strip(f) }
            : { oneofKind: 'rollback' as const, rollback: { children } };
    node.versionedNode = { oneofKind: 'v1', v1: { nodeType } };
    if (s.kind === 'exercise' || (s.kind === 'create' && seeded)) seeds.push({ nodeId: id, seed });
    return String(id);
  };
  const rootIds = roots.map(place);
  return { version: '2.1', roots: rootIds, nodes, nodeSeeds: seeds };
});

const prepared: fc.Arbitrary<PreparedTransaction> = fc
  .record({
    transaction,
    actAs: fc.uniqueArray(party, { minLength: 1, maxLength: 3 }),
    commandId: text,
    transactionUuid: fc.uuid(),
    mediatorGroup: fc.integer({ min: 0, max: 10 }),
    synchronizerId: text,
    min: fc.option(micros, { nil: undefined }),
    max: fc.option(micros, { nil: undefined }),
    preparationTime: micros,
    inputs: fc.array(fc.record({ create, createdAt: micros }), { maxLength: 3 }),
  })
  .map((r) => ({
    transaction: r.transaction,
    metadata: {
      submitterInfo: { actAs: r.actAs, commandId: r.commandId },
      synchronizerId: r.synchronizerId,
      mediatorGroup: r.mediatorGroup,
      transactionUuid: r.transactionUuid,
      preparationTime: r.preparationTime,
      inputContracts: r.inputs.map((i) => ({ contract: { oneofKind: 'v1' as const, v1: i.create }, createdAt: i.createdAt, eventBlob: new Uint8Array(0) })),
      ...(r.min === undefined ? {} : { minLedgerEffectiveTime: r.min }),
      ...(r.max === undefined ? {} : { maxLedgerEffectiveTime: r.max }),
      globalKeyMapping: [],
    },
  }));

describe('hashing scheme V2', () => {
  const sdk = SDK.createOffline({ logAdapter: 'console' });

  it('equals core-tx-visualizer and the wallet SDK on random prepared transactions (through the protobuf wire form)', async () => {
    await fc.assert(
      fc.asyncProperty(prepared, async (p) => {
        // Through the wire, as clients see it: the oracles read what the bytes say.
        const wire = Buffer.from(Proto.toBinary(p)).toString('base64');
        const decoded = Proto.fromBinary(Buffer.from(wire, 'base64'));
        const ours = hashPreparedTransaction(decoded, 2).toString('base64');
        expect(ours).toBe(await visualizerHash(wire, 'base64'));
        expect(ours).toBe((await sdk.utils.hash.preparedTransaction(wire)).toBase64());
      }),
      { numRuns: 150, seed: 20261124 },
    );
  }, 60_000);

  it('changes when one microsecond of preparation time changes', () => {
    fc.assert(
      fc.property(prepared, (p) => {
        const base = hashPreparedTransaction(p, 2);
        const later = Proto.clone(p);
        later.metadata!.preparationTime += 1n;
        expect(hashPreparedTransaction(later, 2).equals(base)).toBe(false);
      }),
      { numRuns: 50 },
    );
  });

  it('explains itself: hashingDetails ends in the hash it computed', () => {
    fc.assert(
      fc.property(prepared, (p) => {
        expect(hashingDetails(p, 2)).toContain(hashPreparedTransaction(p, 2).toString('hex'));
      }),
      { numRuns: 20 },
    );
  });
});
