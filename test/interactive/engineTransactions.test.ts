/**
 * Engine transactions of any shape (creates, exercises by template or interface, fetches,
 * rollback nodes, nested) through prepare: core-tx-visualizer recomputes our V2 hash, and the
 * signed form reads back as the same engine transaction, encoding to the same bytes.
 */
import { decodePreparedTransaction, hashPreparedTransaction as visualizerHash } from '@canton-network/core-tx-visualizer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { DefDataType, Module, Package } from '../../daml-engine/ast/Package.js';
import type { QualifiedName, Type } from '../../daml-engine/ast/Type.js';
import type { CreatedContract, NodeId, Transaction, TxNode } from '../../daml-engine/update/Transaction.js';
import { int64, NONE, some, text, UNIT, type RecordValue, type Value } from '../../daml-engine/value/Value.js';
import { engineTransactionOfPrepared } from '../../reference-server/src/ledger/interactive/engine/engineTransactionOfPrepared.js';
import type { EngineInputContract } from '../../reference-server/src/ledger/interactive/engine/preparedTransactionOfEngine.js';
import { preparedTransactionOfEngine } from '../../reference-server/src/ledger/interactive/engine/preparedTransactionOfEngine.js';
import { hashPreparedTransaction } from '../../reference-server/src/ledger/interactive/index.js';
import { wire } from './support/engineLedger.js';

const STABLE = 'a'.repeat(64);
const DEV = 'b'.repeat(64);
const builtin = (b: string, ...args: Type[]): Type => ({ kind: 'builtin', builtin: b as never, args });
const ASSET: DefDataType = {
  name: 'Asset', params: [], serializable: true,
  cons: { kind: 'record', fields: [{ name: 'owner', type: builtin('PARTY') }, { name: 'qty', type: builtin('INT64') }, { name: 'memo', type: builtin('OPTIONAL', builtin('TEXT')) }], fieldNames: ['owner', 'qty', 'memo'] } as never,
};
const pkg = (id: string, lfVersion: string, name: string): Package => {
  const module: Module = { name: 'Main', synonyms: new Map(), dataTypes: new Map([['Asset', ASSET]]), values: new Map(), templates: new Map(), exceptions: new Map(), interfaces: new Map() };
  return { id, lfVersion, metadata: { name, version: '1.0.0', upgradedPackageId: undefined }, modules: new Map([['Main', module]]), imports: undefined };
};
const PACKAGES = new Map([[STABLE, pkg(STABLE, '2.1', 'assets')], [DEV, pkg(DEV, '2.dev', 'assets-dev')]]);
const getPackage = (id: string) => PACKAGES.get(id);
const tpl = (packageId: string): QualifiedName => ({ packageId, module: 'Main', name: 'Asset' });

const hex = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => Buffer.from(b).toString('hex'));
const party = fc.constantFrom('alice::1220aa', 'bob::1220bb', 'carol::1220cc');
const parties = fc.uniqueArray(party, { minLength: 1, maxLength: 3 }).map((xs) => xs.sort());
const asset = (packageId: string): fc.Arbitrary<RecordValue> =>
  // Int64 within 2^53: the visualizer reads Int64 through parseInt (our encoding is exact beyond, as Canton's).
  fc.record({ owner: party, qty: fc.bigInt({ min: -(2n ** 53n), max: 2n ** 53n }), memo: fc.option(fc.string({ maxLength: 5 }), { nil: undefined }) })
    .map(({ owner, qty, memo }) => ({ kind: 'record', tycon: tpl(packageId), fieldNames: ['owner', 'qty', 'memo'], fields: [{ kind: 'party', value: owner }, int64(qty), memo === undefined ? NONE : some(text(memo))] }));
const scalar: fc.Arbitrary<Value> = fc.oneof(fc.constant(UNIT), fc.string({ maxLength: 5 }).map(text), fc.bigInt({ min: -100n, max: 100n }).map(int64));

interface Shape { readonly kind: 'create' | 'exercise' | 'fetch' | 'rollback'; readonly children: readonly Shape[] }
const { shape } = fc.letrec<{ shape: Shape }>((tie) => ({
  shape: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<Shape['kind']>('create', 'fetch').map((kind): Shape => ({ kind, children: [] })),
    fc.record({ kind: fc.constantFrom<Shape['kind']>('exercise', 'rollback'), children: fc.array(tie('shape'), { minLength: 1, maxLength: 3 }) }),
  ),
}));
/** Per node the random facts it needs (drawn for the largest tree the shapes make). */
const nodeFacts = fc.record({
  packageId: fc.constantFrom(STABLE, STABLE, DEV), contractId: hex(33), seed: hex(32), signatories: parties, observers: parties,
  assetStable: asset(STABLE), assetDev: asset(DEV), arg: scalar, result: scalar, consuming: fc.boolean(), byInterface: fc.boolean(),
});
type NodeFacts = typeof nodeFacts extends fc.Arbitrary<infer T> ? T : never;

/** Numbers a forest of shapes in pre-order, the engine's way, into a Transaction. */
function transactionOf(roots: readonly Shape[], facts: readonly NodeFacts[]): Transaction {
  const nodes: TxNode[] = [];
  const nodeSeeds: [NodeId, string][] = [];
  const created: CreatedContract[] = [];
  const archived: string[] = [];
  const build = (s: Shape, inRollback: boolean): NodeId => {
    const nodeId = nodes.length;
    const f = facts[nodeId % facts.length]!;
    const templateId = tpl(f.packageId);
    const stakeholders = [...new Set([...f.signatories, ...f.observers])].sort();
    const observers = stakeholders.filter((p) => !f.signatories.includes(p));
    const contractId = `00${f.contractId}${nodeId.toString(16).padStart(4, '0')}`;
    nodes.push({ kind: 'rollback', nodeId, children: [] }); // placeholder, replaced below
    const children = s.children.map((c) => build(c, inRollback || s.kind === 'rollback'));
    const argument = f.packageId === STABLE ? f.assetStable : f.assetDev;
    switch (s.kind) {
      case 'create':
        nodes[nodeId] = { kind: 'create', nodeId, contractId, templateId, argument, signatories: f.signatories, observers, stakeholders };
        nodeSeeds.push([nodeId, f.seed]);
        if (!inRollback) created.push({ contractId, templateId, argument, signatories: f.signatories, observers });
        break;
      case 'exercise':
        nodes[nodeId] = {
          kind: 'exercise', nodeId, contractId: `00${'e'.repeat(64)}`, templateId, interfaceId: f.byInterface ? { ...templateId, name: 'Asset' } : undefined,
          choice: 'Move', choiceArgument: f.arg, consuming: f.consuming, actingParties: f.signatories, signatories: f.signatories, stakeholders,
          choiceObservers: observers, children, exerciseResult: inRollback ? undefined : f.result,
        };
        nodeSeeds.push([nodeId, f.seed]);
        if (!inRollback && f.consuming) archived.push(`00${'e'.repeat(64)}`);
        break;
      case 'fetch':
        nodes[nodeId] = { kind: 'fetch', nodeId, contractId: `00${'f'.repeat(64)}`, templateId, interfaceId: undefined, actingParties: f.signatories, signatories: f.signatories, stakeholders };
        break;
      case 'rollback':
        nodes[nodeId] = { kind: 'rollback', nodeId, children };
        break;
    }
    return nodeId;
  };
  const rootIds = roots.map((r) => build(r, false));
  nodeSeeds.sort((a, b) => a[0] - b[0]);
  return { nodes, roots: rootIds, nodeSeeds, created, archived };
}

const INPUTS: ReadonlyMap<string, EngineInputContract> = new Map(['e', 'f'].map((c): [string, EngineInputContract] => {
  const contractId = `00${c.repeat(64)}`;
  return [contractId, {
    contractId, templateId: tpl(STABLE), signatories: ['alice::1220aa'], observers: [], createdAt: 1_700_000_000_000_000n, eventBlob: Buffer.from(c),
    argument: { kind: 'record', tycon: tpl(STABLE), fieldNames: ['owner', 'qty', 'memo'], fields: [{ kind: 'party', value: 'alice::1220aa' }, int64(1n), NONE] },
  }];
}));

const canonical = (tx: Transaction): string => JSON.stringify(tx, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

describe('engine transactions of any shape through prepare', () => {
  it('the visualizer recomputes our hash; read back, they are the same transaction and encode to the same bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(shape, { minLength: 1, maxLength: 3 }), fc.array(nodeFacts, { minLength: 1, maxLength: 6 }), async (roots, facts) => {
        const tx = transactionOf(roots, facts);
        const prepared = preparedTransactionOfEngine({
          transaction: tx, actAs: ['bob::1220bb', 'alice::1220aa'], commandId: 'cmd', synchronizerId: 'sync::1220', transactionUuid: '00000000-0000-4000-8000-000000000000',
          preparationTime: 1_764_000_000_000_000n, getPackage, inputContract: (cid) => INPUTS.get(cid),
        });
        if (!prepared.ok) throw new Error(JSON.stringify(prepared.failure));
        const p = prepared.value;
        const usesDev = tx.nodes.some((n) => n.kind !== 'rollback' && n.templateId.packageId === DEV);
        expect(p.transaction!.version).toBe(usesDev ? 'dev' : '2.1');
        expect(p.metadata!.submitterInfo!.actAs).toEqual(['alice::1220aa', 'bob::1220bb']);
        expect(await visualizerHash(decodePreparedTransaction(wire(p)), 'base64')).toBe(hashPreparedTransaction(p, 2).toString('base64'));
        const back = engineTransactionOfPrepared(decodePreparedTransaction(wire(p)), getPackage);
        if (!back.ok) throw new Error(back.problem);
        expect(canonical(back.value.transaction)).toBe(canonical(tx));
        const again = preparedTransactionOfEngine({ ...back.value.facts, transaction: back.value.transaction, getPackage, inputContract: (cid) => back.value.inputContracts.find((c) => c.contractId === cid) });
        expect(again.ok && wire(again.value)).toBe(wire(p));
      }),
      { numRuns: 80, seed: 20261126 },
    );
  }, 60_000);
});
