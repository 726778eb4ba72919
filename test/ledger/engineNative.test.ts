import { describe, expect, it } from 'vitest';
import type { QualifiedName } from '../../daml-engine/ast/Type.js';
import { createCommand, exerciseCommand } from '../../daml-engine/update/UpdateEngine.js';
import type { Value } from '../../daml-engine/value/Value.js';
import type { Ledger } from '../../reference-server/src/ledger/index.js';
import { buildSamplePackage } from '../daml/samplePackage.js';
import { must, refused, world } from './helpers.js';

// A package the test builds (test/daml/samplePackage.ts): no upstream file needed.
const SAMPLE = buildSamplePackage('conformance-sample-native');

function setup() {
  const w = world();
  must(w.ledger.uploadDar(SAMPLE.dar(), { synchronizerId: w.ledger.config.synchronizers[0]!.id }));
  return w;
}
const valueOf = (ledger: Ledger, tycon: QualifiedName, json: unknown): Value => {
  const r = ledger.engine.value({ kind: 'con', tycon, args: [] }, json);
  if (!r.ok) throw new Error(JSON.stringify(r.problem));
  return r.value;
};
const ASSET = SAMPLE.ref('Sample.Asset', 'Asset');

describe('the engine-native entry of the ledger core', () => {
  it('submits engine commands, answers engine results and commits what the JSON API then shows', () => {
    const { ledger, bank: issuer, alice: owner, bob } = setup();
    const created = must(ledger.submitEngineCommands({ actAs: [issuer], commands: [createCommand(ASSET, valueOf(ledger, ASSET, { issuer, owner, description: 'gold', quantity: '5' }))] }));
    expect(created.results[0]).toMatchObject({ kind: 'contractId' });
    const assetId = (created.results[0] as { value: string }).value;
    expect(created.transaction.nodes[0]).toMatchObject({ kind: 'create', contractId: assetId });

    const arg = valueOf(ledger, SAMPLE.ref('Sample.Asset', 'Transfer'), { newOwner: bob });
    refused(ledger.submitEngineCommands({ actAs: [issuer], commands: [exerciseCommand(ASSET, assetId, 'Transfer', arg)] }), 'DAML_AUTHORIZATION_ERROR');
    const moved = must(ledger.submitEngineCommands({ actAs: [owner], commands: [exerciseCommand(ASSET, assetId, 'Transfer', arg)] }));
    const movedId = (moved.results[0] as { value: string }).value;

    const active = ledger.activeEngineContracts(ASSET, [bob]);
    expect(active.map((c) => c.contractId)).toEqual([movedId]);
    expect(active[0]!.argument).toMatchObject({ kind: 'record', fields: [{ kind: 'party', value: issuer }, { kind: 'party', value: bob }, { kind: 'text', value: 'gold' }, { kind: 'int64', value: 5n }] });
    expect(ledger.activeEngineContracts(ASSET, [owner])).toEqual([]);
    const seen = must(ledger.updateById({ updateId: moved.updateId, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [bob]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }));
    expect(JSON.stringify(seen)).toContain(movedId);
  });

  it('reads the contracts of an interface with their views as engine values', () => {
    const { ledger, alice, bank } = setup();
    must(ledger.submitEngineCommands({ actAs: [bank], commands: [createCommand(ASSET, valueOf(ledger, ASSET, { issuer: bank, owner: alice, description: 'silver', quantity: '3' }))] }));
    const iface = SAMPLE.ref('Sample.Asset', 'Describable');
    const held = ledger.activeEngineContracts(iface, [alice]);
    expect(held).toHaveLength(1);
    expect(held[0]!.templateId).toEqual(ASSET);
    expect(held[0]!.view).toMatchObject({ kind: 'record', fieldNames: ['owner', 'description'], fields: [{ kind: 'party', value: alice }, { kind: 'text', value: 'silver' }] });
  });
});

describe('the engine-native entry: a static-time caller\'s ledger time', () => {
  it('must lie within the ledger clock\'s millisecond (the clock follows the caller\'s time)', () => {
    const { ledger, clock, alice } = world();
    const micros = BigInt(clock.now()) * 1000n;
    const e = refused(ledger.submitEngineCommands({ actAs: [alice], commands: [], ledgerTime: micros + 1000n }), 'INVALID_ARGUMENT');
    expect(e.cause).toContain(`ledger time ${micros + 1000n} µs is not within the ledger clock's millisecond ${clock.now()}`);
    // Within the millisecond, the time is accepted (the empty command list is then the refusal).
    refused(ledger.submitEngineCommands({ actAs: [alice], commands: [], ledgerTime: micros + 999n }), 'COMMAND_PREPROCESSING_FAILED');
  });
});
