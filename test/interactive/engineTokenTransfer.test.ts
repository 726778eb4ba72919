/**
 * Prepare of an engine transaction on a real DAR (splice-test-token-v1): the token standard's
 * TransferFactory_Transfer exercised through its interface on TokenRules, which fetches and
 * archives the sender's holding and creates the change and a transfer offer. The protobuf
 * PreparedTransaction is decoded and hashed by core-tx-visualizer and the wallet SDK, as a
 * wallet does before signing.
 */
import { decodePreparedTransaction, hashPreparedTransaction as visualizerHash, parsePreparedTransaction } from '@canton-network/core-tx-visualizer';
import { SDK } from '@canton-network/wallet-sdk';
import type { Exercise, Fetch, Value as ProtoValue } from '@canton-network/core-ledger-proto';
import { beforeAll, describe, expect, it } from 'vitest';

import type { QualifiedName } from '../../daml-engine/ast/Type.js';
import type { Packages } from '../../daml-engine/decode/Packages.js';
import { createCommand, exerciseInterfaceCommand } from '../../daml-engine/update/UpdateEngine.js';
import { engineTransactionOfPrepared } from '../../reference-server/src/ledger/interactive/engine/engineTransactionOfPrepared.js';
import { preparedTransactionOfEngine } from '../../reference-server/src/ledger/interactive/engine/preparedTransactionOfEngine.js';
import { decodePreparedTransaction as ourDecode, hashPreparedTransaction } from '../../reference-server/src/ledger/interactive/index.js';
import { HAS_DARS, loadDar } from '../daml/damlFixtures.js';
import { EngineLedger, expectReadsBackAndPreparesAgain, ok, SYNCHRONIZER, wire, type Ok } from './support/engineLedger.js';

const ADMIN = 'admin::1220aa';
const SENDER = 'sender::1220bb';
const RECEIVER = 'receiver::1220cc';
const DAY = 86_400_000_000n;
const T0 = 1_764_000_000_000_000n;
const NOW = T0 + DAY;
const UUID = '0b5b3c2e-6f7a-4c1d-9e2f-3a4b5c6d7e8f';
const MODULE = 'Splice.Testing.Tokens.TestTokenV1';

const field = (v: ProtoValue | undefined, label: string): ProtoValue | undefined =>
  v?.sum.oneofKind === 'record' ? v.sum.record.fields.find((f) => f.label === label)?.value : undefined;

describe.skipIf(!HAS_DARS)('prepare of an engine transaction: test token transfer (splice-test-token-v1-1.0.0) (needs ../shared/upstream/daml/dars)', () => {
  let packages: Packages;
  let main: string;
  let ledger: EngineLedger;
  let transfer: Ok;
  let rulesId: string;
  let tokenId: string;
  let factory: QualifiedName;
  const tpl = (name: string): QualifiedName => ({ packageId: main, module: MODULE, name });

  beforeAll(() => {
    const loaded = loadDar('splice/splice-test-token-v1-1.0.0.dar');
    packages = loaded.packages;
    main = loaded.dar.main.id;
    ledger = new EngineLedger(packages);
    rulesId = (ledger.commit(createCommand(tpl('TokenRules'), ledger.record(tpl('TokenRules'), { admin: ADMIN })), [ADMIN], T0).result as { value: string }).value;
    const holding = { owner: SENDER, instrumentId: { admin: ADMIN, id: 'TEST' }, amount: '100.0', lock: null, meta: { values: { note: 'first' } } };
    tokenId = (ledger.commit(createCommand(tpl('Token'), ledger.record(tpl('Token'), { holding })), [SENDER, ADMIN], T0).result as { value: string }).value;
    factory = [...packages.all()].flatMap((p) => (p.modules.get('Splice.Api.Token.TransferInstructionV1')?.interfaces.has('TransferFactory') ? [{ packageId: p.id, module: 'Splice.Api.Token.TransferInstructionV1', name: 'TransferFactory' }] : []))[0]!;
    const choice = packages.get(factory.packageId)!.modules.get(factory.module)!.interfaces.get(factory.name)!.choices.get('TransferFactory_Transfer')!;
    const arg = ledger.value(choice.argBinder.type, {
      expectedAdmin: ADMIN,
      transfer: {
        sender: SENDER, receiver: RECEIVER, amount: '30.5', instrumentId: { admin: ADMIN, id: 'TEST' },
        requestedAt: '2025-11-24T16:00:00Z', executeBefore: '2025-11-26T16:00:00Z', inputHoldingCids: [tokenId], meta: { values: {} },
      },
      extraArgs: { context: { values: { 'splice.lfdecentralizedtrust.org/reason': { tag: 'AV_Text', value: 'rent' } } }, meta: { values: {} } },
    });
    transfer = ok(ledger.run(exerciseInterfaceCommand(factory, rulesId, 'TransferFactory_Transfer', arg), [SENDER], NOW));
  });

  const prepare = () => {
    const r = ledger.prepare(transfer, { actAs: [SENDER], commandId: 'transfer-1', synchronizerId: SYNCHRONIZER, transactionUuid: UUID, preparationTime: NOW });
    if (!r.ok) throw new Error(JSON.stringify(r.failure));
    return r.value;
  };

  it('the engine ran the real choice: exercise, fetch through Holding, archive, change and offer created', () => {
    expect(transfer.transaction.nodes.map((n) => n.kind)).toEqual(['exercise', 'fetch', 'exercise', 'create', 'create']);
  });

  it('hashes (V2) as core-tx-visualizer and the wallet SDK recompute it from the wire form', async () => {
    const p = prepare();
    const ours = hashPreparedTransaction(p, 2).toString('base64');
    const decoded = decodePreparedTransaction(wire(p));
    expect(await visualizerHash(decoded, 'base64')).toBe(ours);
    const sdk = SDK.createOffline({ logAdapter: 'console' });
    expect((await sdk.utils.hash.preparedTransaction(wire(p))).toBase64()).toBe(ours);
  });

  it('decodes to the real choice, its argument and its result, node by node in the engine order', () => {
    const decoded = decodePreparedTransaction(wire(prepare()));
    const tx = decoded.transaction!;
    expect(tx.version).toBe('2.1');
    expect(tx.roots).toEqual(['0']);
    expect(tx.nodes.map((n) => n.nodeId)).toEqual(['0', '1', '2', '3', '4']);
    const node = (i: number) => (tx.nodes[i]!.versionedNode.oneofKind === 'v1' ? tx.nodes[i]!.versionedNode.v1.nodeType : undefined);
    const root = node(0);
    expect(root?.oneofKind).toBe('exercise');
    const ex = (root as { exercise: Exercise }).exercise;
    expect(ex).toMatchObject({
      lfVersion: '2.1', contractId: rulesId, packageName: 'splice-test-token-v1', choiceId: 'TransferFactory_Transfer', consuming: false,
      templateId: { packageId: main, moduleName: MODULE, entityName: 'TokenRules' },
      interfaceId: { packageId: factory.packageId, moduleName: 'Splice.Api.Token.TransferInstructionV1', entityName: 'TransferFactory' },
      actingParties: [SENDER], signatories: [ADMIN], stakeholders: [ADMIN], children: ['1', '2', '3', '4'],
    });
    // The argument as Canton writes it: record ids, labels, Numeric at scale 10, Time in µs, variant AnyValue with its id.
    const t = field(ex.chosenValue, 'transfer');
    expect(ex.chosenValue?.sum.oneofKind === 'record' && ex.chosenValue.sum.record.recordId).toMatchObject({ packageId: factory.packageId, moduleName: 'Splice.Api.Token.TransferInstructionV1', entityName: 'TransferFactory_Transfer' });
    expect(field(t, 'amount')?.sum).toEqual({ oneofKind: 'numeric', numeric: '30.5000000000' });
    expect(field(t, 'requestedAt')?.sum).toEqual({ oneofKind: 'timestamp', timestamp: String(Date.parse('2025-11-24T16:00:00Z') * 1000) });
    expect(field(t, 'inputHoldingCids')?.sum).toEqual({ oneofKind: 'list', list: { elements: [{ sum: { oneofKind: 'contractId', contractId: tokenId } }] } });
    const reason = field(field(field(ex.chosenValue, 'extraArgs'), 'context'), 'values');
    expect(reason?.sum.oneofKind).toBe('textMap');
    const entry = reason?.sum.oneofKind === 'textMap' ? reason.sum.textMap.entries[0] : undefined;
    expect(entry?.key).toBe('splice.lfdecentralizedtrust.org/reason');
    expect(entry?.value?.sum).toMatchObject({ oneofKind: 'variant', variant: { constructor: 'AV_Text', variantId: { entityName: 'AnyValue' }, value: { sum: { oneofKind: 'text', text: 'rent' } } } });
    // The result: TransferInstructionResult, pending on the offer created at node 4.
    const offerId = (transfer.transaction.nodes[4] as { contractId: string }).contractId;
    const output = field(ex.exerciseResult, 'output');
    expect(output?.sum).toMatchObject({ oneofKind: 'variant', variant: { constructor: 'TransferInstructionResult_Pending', value: { sum: { oneofKind: 'record', record: { fields: [{ label: 'transferInstructionCid', value: { sum: { contractId: offerId } } }] } } } } });
    // The fetch of the holding through its interface: its acting parties are the authorizers (TokenRules'
    // signatory, the choice's controller) that are stakeholders of the holding.
    const fetch = (node(1) as { fetch: Fetch }).fetch;
    expect(fetch).toMatchObject({ contractId: tokenId, actingParties: [ADMIN, SENDER].sort(), signatories: [ADMIN, SENDER].sort(), interfaceId: { entityName: 'Holding' }, templateId: { entityName: 'Token' } });
    expect(node(2)).toMatchObject({ oneofKind: 'exercise', exercise: { contractId: tokenId, choiceId: 'Archive', consuming: true } });
    // The change: 69.5 back to the sender; `lock` None stays (it is not a trailing field).
    const change = node(3);
    expect(change?.oneofKind).toBe('create');
    const changeHolding = change?.oneofKind === 'create' ? field(change.create.argument, 'holding') : undefined;
    expect(field(changeHolding, 'amount')?.sum).toEqual({ oneofKind: 'numeric', numeric: '69.5000000000' });
    expect(field(changeHolding, 'lock')?.sum).toEqual({ oneofKind: 'optional', optional: {} });
  });

  it('seeds every create and exercise as the engine derived them, and nothing else', () => {
    const tx = decodePreparedTransaction(wire(prepare())).transaction!;
    expect(tx.nodeSeeds.map((s) => [s.nodeId, Buffer.from(s.seed).toString('hex')])).toEqual(transfer.transaction.nodeSeeds);
    expect(tx.nodeSeeds.map((s) => s.nodeId)).toEqual([0, 2, 3, 4]);
  });

  it('metadata: act_as, command id, synchronizer, UUID, preparation time, and the input contracts sorted with their creation', () => {
    const m = decodePreparedTransaction(wire(prepare())).metadata!;
    expect(m).toMatchObject({ submitterInfo: { actAs: [SENDER], commandId: 'transfer-1' }, synchronizerId: SYNCHRONIZER, transactionUuid: UUID, mediatorGroup: 0, preparationTime: NOW, globalKeyMapping: [] });
    expect(m.inputContracts.map((c) => (c.contract.oneofKind === 'v1' ? c.contract.v1.contractId : ''))).toEqual([rulesId, tokenId].sort());
    const token = m.inputContracts.find((c) => c.contract.oneofKind === 'v1' && c.contract.v1.contractId === tokenId)!;
    expect(token.createdAt).toBe(T0);
    expect(Buffer.from(token.eventBlob).toString()).toBe(`blob of ${tokenId}`);
    expect(token.contract.oneofKind === 'v1' && token.contract.v1).toMatchObject({ packageName: 'splice-test-token-v1', signatories: [ADMIN, SENDER].sort(), stakeholders: [ADMIN, SENDER].sort() });
  });

  it('the visualizer shows the wallet its choice and amount', () => {
    const shown = parsePreparedTransaction(wire(prepare()));
    expect(shown).toMatchObject({ isExercise: true, choiceId: 'TransferFactory_Transfer' });
  });

  it('an input contract the store does not know is refused, naming it', () => {
    const r = ledger.prepare(transfer, { actAs: [SENDER], commandId: 'c', synchronizerId: SYNCHRONIZER, transactionUuid: UUID, preparationTime: NOW });
    expect(r.ok).toBe(true);
    const saved = ledger.active.get(rulesId)!;
    ledger.active.delete(rulesId);
    try {
      const refused = ledger.prepare(transfer, { actAs: [SENDER], commandId: 'c', synchronizerId: SYNCHRONIZER, transactionUuid: UUID, preparationTime: NOW });
      expect(refused).toEqual({ ok: false, failure: { kind: 'unknownInputContract', contractId: rulesId } });
    } finally {
      ledger.active.set(rulesId, saved);
    }
  });

  it('reads back as the engine transaction execute commits: node for node, created and archived, and prepares to the same bytes', () => {
    const p = prepare();
    expectReadsBackAndPreparesAgain(p, transfer.transaction, packages);
  });

  it('execute refuses a signed transaction it cannot commit as it stands, saying why', () => {
    const read = (mutate: (p: ReturnType<typeof prepare>) => void) => {
      const p = decodePreparedTransaction(wire(prepare()));
      mutate(p);
      return engineTransactionOfPrepared(p, (id) => packages.get(id));
    };
    expect(read((p) => { p.transaction!.roots = ['0', '0']; })).toEqual({ ok: false, problem: 'node 0 is referenced twice' });
    expect(read((p) => { p.transaction!.nodeSeeds = p.transaction!.nodeSeeds.filter((s) => s.nodeId !== 3); })).toEqual({ ok: false, problem: 'create node 3 has no seed' });
    expect(read((p) => { p.transaction!.roots = []; })).toEqual({ ok: false, problem: 'some nodes are not reachable from the roots' });
    // The change's create carrying the transfer offer's argument: not a Token record.
    expect(read((p) => {
      const [change, offer] = [p.transaction!.nodes[3]!.versionedNode, p.transaction!.nodes[4]!.versionedNode];
      if (change.oneofKind === 'v1' && change.v1.nodeType.oneofKind === 'create' && offer.oneofKind === 'v1' && offer.v1.nodeType.oneofKind === 'create') change.v1.nodeType.create.argument = offer.v1.nodeType.create.argument;
    })).toEqual({ ok: false, problem: 'node 3: the argument is not a Splice.Testing.Tokens.TestTokenV1:Token record' });
    // A package the participant does not have: its types cannot be read.
    const foreign = engineTransactionOfPrepared(decodePreparedTransaction(wire(prepare())), () => undefined);
    expect(foreign).toMatchObject({ ok: false, problem: expect.stringContaining('is not a known record type') });
  });

  it('prepare refuses a transaction whose package the participant does not have', () => {
    const r = preparedTransactionOfEngine({
      transaction: transfer.transaction, actAs: [SENDER], commandId: 'c', synchronizerId: SYNCHRONIZER, transactionUuid: UUID, preparationTime: NOW,
      getPackage: (id) => (id === main ? undefined : packages.get(id)), inputContract: (cid) => ledger.active.get(cid),
    });
    expect(r).toEqual({ ok: false, failure: { kind: 'unknownPackage', packageId: main } });
  });

  it('passes the execute path\'s own structural checks on the submitted bytes', () => {
    expect(ourDecode(wire(prepare()))).toMatchObject({ ok: true });
  });
});
