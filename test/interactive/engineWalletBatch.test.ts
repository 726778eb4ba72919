/**
 * Prepare of an engine transaction with a rollback node, on a real DAR (splice-wallet-0.1.14): the
 * wallet's WalletAppInstall_ExecuteBatch runs each amulet operation under `catchAll` (try/catch).
 * Completing an expired AcceptedTransferOffer fails its `require`; the handler catches it, the
 * consuming exercise stays in the transaction under a rollback node without a result, and the
 * batch reports the error as its outcome. The choice argument holds a GenMap keyed by records
 * and a trailing `None` field Canton leaves out.
 */
import { decodePreparedTransaction, hashPreparedTransaction as visualizerHash } from '@canton-network/core-tx-visualizer';
import type { Exercise, Value as ProtoValue } from '@canton-network/core-ledger-proto';
import { beforeAll, describe, expect, it } from 'vitest';

import type { QualifiedName } from '../../daml-engine/ast/Type.js';
import type { Packages } from '../../daml-engine/decode/Packages.js';
import type { ExerciseNode } from '../../daml-engine/update/Transaction.js';
import { createCommand, exerciseCommand } from '../../daml-engine/update/UpdateEngine.js';
import { decodePreparedTransaction as ourDecode, hashPreparedTransaction } from '../../reference-server/src/ledger/interactive/index.js';
import { HAS_DARS, loadDar } from '../daml/damlFixtures.js';
import { EngineLedger, expectReadsBackAndPreparesAgain, ok, SYNCHRONIZER, wire, type Ok } from './support/engineLedger.js';

const DSO = 'dso::1220d5';
const VALIDATOR = 'validator::1220aa';
const USER = 'user::1220bb';
const RECEIVER = 'receiver::1220cc';
const T0 = 1_764_000_000_000_000n;
const NOW = T0 + 3_600_000_000n;
const UUID = '6a0c2b7e-1d4f-4e8a-b3c5-9d7e6f5a4b3c';
const cid = (n: number): string => '00' + n.toString(16).padStart(64, '0');

const fields = (v: ProtoValue | undefined) => (v?.sum.oneofKind === 'record' ? v.sum.record.fields : []);
const field = (v: ProtoValue | undefined, label: string) => fields(v).find((f) => f.label === label)?.value;

describe.skipIf(!HAS_DARS)('prepare of an engine transaction with a rollback node: wallet batch (splice-wallet-0.1.14) (needs ../shared/upstream/daml/dars)', () => {
  let packages: Packages;
  let main: string;
  let ledger: EngineLedger;
  let batch: Ok;
  let installId: string;
  let offerId: string;
  const tpl = (module: string, name: string): QualifiedName => ({ packageId: main, module, name });
  const INSTALL = () => tpl('Splice.Wallet.Install', 'WalletAppInstall');
  const OFFER = () => tpl('Splice.Wallet.TransferOffer', 'AcceptedTransferOffer');

  beforeAll(() => {
    const loaded = loadDar('splice-wallet-0.1.14.dar');
    packages = loaded.packages;
    main = loaded.dar.main.id;
    ledger = new EngineLedger(packages);
    const install = ledger.record(INSTALL(), { dsoParty: DSO, validatorParty: VALIDATOR, endUserName: 'user', endUserParty: USER });
    installId = (ledger.commit(createCommand(INSTALL(), install), [USER, VALIDATOR], T0).result as { value: string }).value;
    // Expired an hour before the batch runs.
    const offer = ledger.record(OFFER(), { sender: USER, receiver: RECEIVER, dso: DSO, amount: { amount: '12.5', unit: 'AmuletUnit' }, expiresAt: '2025-11-24T16:00:00Z', trackingId: 'offer-1' });
    offerId = (ledger.commit(createCommand(OFFER(), offer), [USER, RECEIVER], T0).result as { value: string }).value;
    const choice = packages.get(main)!.modules.get('Splice.Wallet.Install')!.templates.get('WalletAppInstall')!.choices.get('WalletAppInstall_ExecuteBatch')!;
    const arg = ledger.value(choice.argBinder.type, {
      context: {
        amuletRules: cid(1),
        context: { openMiningRound: cid(2), issuingMiningRounds: [[{ number: '7' }, cid(3)], [{ number: '6' }, cid(4)]], validatorRights: [[USER, cid(5)]], featuredAppRight: null },
      },
      inputs: [{ tag: 'InputAmulet', value: cid(6) }],
      operations: [{ tag: 'CO_CompleteAcceptedTransfer', value: offerId }],
    });
    batch = ok(ledger.run(exerciseCommand(INSTALL(), installId, 'WalletAppInstall_ExecuteBatch', arg), [VALIDATOR], NOW));
  });

  const prepare = () => {
    const r = ledger.prepare(batch, { actAs: [VALIDATOR], commandId: 'batch-1', synchronizerId: SYNCHRONIZER, transactionUuid: UUID, preparationTime: NOW });
    if (!r.ok) throw new Error(JSON.stringify(r.failure));
    return r.value;
  };

  it('the engine ran the batch: the failed completion sits under a rollback node, without a result', () => {
    expect(batch.transaction.nodes.map((n) => n.kind)).toEqual(['exercise', 'rollback', 'exercise']);
    const inner = batch.transaction.nodes[2] as ExerciseNode;
    expect(inner).toMatchObject({ choice: 'AcceptedTransferOffer_Complete', consuming: true, exerciseResult: undefined });
    expect(batch.transaction.archived).toEqual([]);
  });

  it('hashes (V2) as core-tx-visualizer recomputes it', async () => {
    const p = prepare();
    expect(await visualizerHash(decodePreparedTransaction(wire(p)), 'base64')).toBe(hashPreparedTransaction(p, 2).toString('base64'));
  });

  it('decodes to the rollback node, the rolled-back exercise and the batch result', () => {
    const tx = decodePreparedTransaction(wire(prepare())).transaction!;
    const node = (i: number) => (tx.nodes[i]!.versionedNode.oneofKind === 'v1' ? tx.nodes[i]!.versionedNode.v1.nodeType : undefined);
    expect(tx.roots).toEqual(['0']);
    const root = (node(0) as { exercise: Exercise }).exercise;
    expect(root).toMatchObject({ choiceId: 'WalletAppInstall_ExecuteBatch', consuming: false, contractId: installId, actingParties: [VALIDATOR], children: ['1'], packageName: 'splice-wallet' });
    expect(node(1)).toEqual({ oneofKind: 'rollback', rollback: { children: ['2'] } });
    const inner = (node(2) as { exercise: Exercise }).exercise;
    expect(inner).toMatchObject({ choiceId: 'AcceptedTransferOffer_Complete', consuming: true, contractId: offerId, actingParties: [USER, VALIDATOR].sort(), children: [] });
    expect(inner.exerciseResult).toBeUndefined();
    // The result: outcomes [COO_Error (ITR_Other msg)], the requirement's message inside.
    const outcomes = field(root.exerciseResult, 'outcomes');
    const first = outcomes?.sum.oneofKind === 'list' ? outcomes.sum.list.elements[0] : undefined;
    expect(first?.sum).toMatchObject({ oneofKind: 'variant', variant: { constructor: 'COO_Error', variantId: { entityName: 'AmuletOperationOutcome' } } });
    const reason = first?.sum.oneofKind === 'variant' ? first.sum.variant.value : undefined;
    expect(reason?.sum).toMatchObject({ oneofKind: 'variant', variant: { constructor: 'ITR_Other' } });
    expect(JSON.stringify(reason)).toContain('Offer has not expired');
  });

  it('values as Canton writes them: GenMap keyed by records in key order, the trailing None field left out', () => {
    const tx = decodePreparedTransaction(wire(prepare())).transaction!;
    const root = tx.nodes[0]!.versionedNode.oneofKind === 'v1' && tx.nodes[0]!.versionedNode.v1.nodeType.oneofKind === 'exercise' ? tx.nodes[0]!.versionedNode.v1.nodeType.exercise : undefined;
    const context = field(field(root?.chosenValue, 'context'), 'context');
    // featuredAppRight : Optional (ContractId FeaturedAppRight) is the last field and None.
    expect(fields(context).map((f) => f.label)).toEqual(['openMiningRound', 'issuingMiningRounds', 'validatorRights']);
    const rounds = field(context, 'issuingMiningRounds');
    expect(rounds?.sum.oneofKind).toBe('genMap');
    const keys = rounds?.sum.oneofKind === 'genMap' ? rounds.sum.genMap.entries.map((e) => e.key) : [];
    expect(keys.map((k) => field(k, 'number')?.sum)).toEqual([{ oneofKind: 'int64', int64: '6' }, { oneofKind: 'int64', int64: '7' }]);
    expect(keys[0]?.sum).toMatchObject({ oneofKind: 'record', record: { recordId: { moduleName: 'Splice.Types', entityName: 'Round' } } });
    // The offer's amount: a record with an enum of its own id.
    const offerInput = decodePreparedTransaction(wire(prepare())).metadata!.inputContracts.find((c) => c.contract.oneofKind === 'v1' && c.contract.v1.contractId === offerId)!;
    const amount = offerInput.contract.oneofKind === 'v1' ? field(offerInput.contract.v1.argument, 'amount') : undefined;
    expect(field(amount, 'amount')?.sum).toEqual({ oneofKind: 'numeric', numeric: '12.5000000000' });
    expect(field(amount, 'unit')?.sum).toMatchObject({ oneofKind: 'enum', enum: { constructor: 'AmuletUnit', enumId: { entityName: 'Unit' } } });
  });

  it('seeds the rolled-back exercise too; its input contracts are the install and the offer', () => {
    const p = decodePreparedTransaction(wire(prepare()));
    expect(p.transaction!.nodeSeeds.map((s) => s.nodeId)).toEqual([0, 2]);
    expect(p.metadata!.inputContracts.map((c) => (c.contract.oneofKind === 'v1' ? c.contract.v1.contractId : ''))).toEqual([installId, offerId].sort());
  });

  it('reads back as the engine transaction execute commits: node for node, created and archived, and prepares to the same bytes', () => {
    const p = prepare();
    expectReadsBackAndPreparesAgain(p, batch.transaction, packages);
  });

  it('passes the execute path\'s own structural checks on the submitted bytes', () => {
    expect(ourDecode(wire(prepare()))).toMatchObject({ ok: true });
  });
});
