/**
 * Prepare and execute of engine transactions as the ledger core runs them: prepare interprets
 * the commands seeded from the transaction UUID; execute reads the signed transaction back,
 * interprets its root commands again and admits it only if that hashes to what was signed.
 */
import { decodePreparedTransaction, hashPreparedTransaction as visualizerHash } from '@canton-network/core-tx-visualizer';
import type { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { beforeAll, describe, expect, it } from 'vitest';

import type { Update } from '../../daml-engine/ast/Expr.js';
import type { QualifiedName } from '../../daml-engine/ast/Type.js';
import type { Packages } from '../../daml-engine/decode/Packages.js';
import { createCommand, exerciseInterfaceCommand } from '../../daml-engine/update/UpdateEngine.js';
import type { EngineRun } from '../../reference-server/src/ledger/interactive/engine/engineSubmission.js';
import { prepareEngineCommands, reinterpretSigned, rerunWith, submissionSeedOf } from '../../reference-server/src/ledger/interactive/engine/engineSubmission.js';
import { hashPreparedTransaction } from '../../reference-server/src/ledger/interactive/index.js';
import { HAS_DARS, loadDar } from '../daml/damlFixtures.js';
import { EngineLedger, SYNCHRONIZER, wire } from './support/engineLedger.js';

const ADMIN = 'admin::1220aa';
const SENDER = 'sender::1220bb';
const RECEIVER = 'receiver::1220cc';
const PARTICIPANT = 'PAR::participant1::1220ee';
const KEY = 'participant secret';
const T0 = 1_764_000_000_000_000n;
const NOW = T0 + 86_400_000_000n;
const UUID = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const MODULE = 'Splice.Testing.Tokens.TestTokenV1';

describe.skipIf(!HAS_DARS)('engine prepare and execute (splice-test-token-v1-1.0.0) (needs ../shared/upstream/daml/dars)', () => {
  let packages: Packages;
  let main: string;
  let ledger: EngineLedger;
  let factory: QualifiedName;
  let tokenId: string;
  let rulesId: string;
  const tpl = (name: string): QualifiedName => ({ packageId: main, module: MODULE, name });

  beforeAll(() => {
    const loaded = loadDar('splice/splice-test-token-v1-1.0.0.dar');
    packages = loaded.packages;
    main = loaded.dar.main.id;
    ledger = new EngineLedger(packages);
    rulesId = (ledger.commit(createCommand(tpl('TokenRules'), ledger.record(tpl('TokenRules'), { admin: ADMIN })), [ADMIN], T0).result as { value: string }).value;
    const holding = { owner: SENDER, instrumentId: { admin: ADMIN, id: 'TEST' }, amount: '100.0', lock: null, meta: { values: {} } };
    tokenId = (ledger.commit(createCommand(tpl('Token'), ledger.record(tpl('Token'), { holding })), [SENDER, ADMIN], T0).result as { value: string }).value;
    factory = [...packages.all()].flatMap((p) => (p.modules.get('Splice.Api.Token.TransferInstructionV1')?.interfaces.has('TransferFactory') ? [{ packageId: p.id, module: 'Splice.Api.Token.TransferInstructionV1', name: 'TransferFactory' }] : []))[0]!;
  });

  const transferOf = (amount: string): Update => {
    const choice = packages.get(factory.packageId)!.modules.get(factory.module)!.interfaces.get(factory.name)!.choices.get('TransferFactory_Transfer')!;
    return exerciseInterfaceCommand(factory, rulesId, 'TransferFactory_Transfer', ledger.value(choice.argBinder.type, {
      expectedAdmin: ADMIN,
      transfer: {
        sender: SENDER, receiver: RECEIVER, amount, instrumentId: { admin: ADMIN, id: 'TEST' },
        requestedAt: '2025-11-24T16:00:00Z', executeBefore: '2025-11-26T16:00:00Z', inputHoldingCids: [tokenId], meta: { values: {} },
      },
      extraArgs: { context: { values: {} }, meta: { values: {} } },
    }));
  };
  const run = (ledgerTime: bigint): EngineRun => ({
    engine: ledger.engine, participantId: PARTICIPANT, submissionSeed: submissionSeedOf(KEY, UUID), ledgerTime, getContract: (cid) => ledger.active.get(cid),
  });
  const lookups = () => ({ getPackage: (id: string) => packages.get(id), inputContract: (cid: string) => ledger.active.get(cid) });
  const facts = { actAs: [SENDER], commandId: 'transfer-2', synchronizerId: SYNCHRONIZER, transactionUuid: UUID, preparationTime: NOW };

  const prepared = (commands: Update[]): PreparedTransaction => {
    const r = prepareEngineCommands(commands, run(NOW), { ...facts, ...lookups() });
    if (!r.ok) throw new Error(JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)));
    return r.prepared;
  };

  it('prepare: the wallet recomputes the hash; execute admits the signed bytes and commits the same transaction', async () => {
    const p = prepared([transferOf('30.5')]);
    const signedHash = hashPreparedTransaction(p, 2);
    expect(await visualizerHash(decodePreparedTransaction(wire(p)), 'hex')).toBe(signedHash.toString('hex'));
    // Executed a minute later: the ledger time moves, the transaction (ids, seeds, values) does not.
    const checked = reinterpretSigned(decodePreparedTransaction(wire(p)), signedHash, 2, rerunWith(run(NOW + 60_000_000n)), lookups());
    if (!checked.ok) throw new Error(checked.problem);
    expect(checked.transaction.created.map((c) => c.contractId)).toEqual(p.transaction!.nodes.flatMap((n) => (n.versionedNode.oneofKind === 'v1' && n.versionedNode.v1.nodeType.oneofKind === 'create' ? [n.versionedNode.v1.nodeType.create.contractId] : [])));
    expect(checked.transaction.archived).toEqual([tokenId]);
  });

  it('execute refuses a transaction altered and signed again: its commands do not yield it', () => {
    const p = decodePreparedTransaction(wire(prepared([transferOf('30.5')])));
    // The signer asks for 31 instead, keeping the effects of 30.5 (the change of 69.5) in the tree.
    const root = p.transaction!.nodes[0]!.versionedNode;
    const honest = decodePreparedTransaction(wire(prepared([transferOf('31.0')])));
    const honestRoot = honest.transaction!.nodes[0]!.versionedNode;
    if (root.oneofKind === 'v1' && root.v1.nodeType.oneofKind === 'exercise' && honestRoot.oneofKind === 'v1' && honestRoot.v1.nodeType.oneofKind === 'exercise') {
      root.v1.nodeType.exercise.chosenValue = honestRoot.v1.nodeType.exercise.chosenValue;
    }
    const checked = reinterpretSigned(p, hashPreparedTransaction(p, 2), 2, rerunWith(run(NOW)), lookups());
    expect(checked).toMatchObject({ ok: false, problem: expect.stringContaining('is not what its commands yield') });
    // The honest 31.0 transaction passes.
    expect(reinterpretSigned(honest, hashPreparedTransaction(honest, 2), 2, rerunWith(run(NOW)), lookups()).ok).toBe(true);
  });

  it('execute refuses when the commands fail on the current ledger: past executeBefore', () => {
    const p = prepared([transferOf('30.5')]);
    const checked = reinterpretSigned(decodePreparedTransaction(wire(p)), hashPreparedTransaction(p, 2), 2, rerunWith(run(NOW + 3n * 86_400_000_000n)), lookups());
    expect(checked).toMatchObject({ ok: false, problem: expect.stringContaining('its commands fail on the current ledger') });
  });

  it('several commands: one root each, seeded in order, re-interpreted alike', () => {
    const token = (amount: string) => createCommand(tpl('Token'), ledger.record(tpl('Token'), { holding: { owner: SENDER, instrumentId: { admin: ADMIN, id: 'TEST' }, amount, lock: null, meta: { values: {} } } }));
    const r = prepareEngineCommands([token('1.0'), token('2.0')], run(NOW), { ...facts, actAs: [SENDER, ADMIN], ...lookups() });
    if (!r.ok) throw new Error(r.reason);
    expect(r.prepared.transaction!.roots).toEqual(['0', '1']);
    const p = decodePreparedTransaction(wire(r.prepared));
    expect(reinterpretSigned(p, hashPreparedTransaction(p, 2), 2, rerunWith(run(NOW)), lookups()).ok).toBe(true);
    // Another participant key gives other seeds, so other contract ids: not what was signed.
    expect(reinterpretSigned(p, hashPreparedTransaction(p, 2), 2, rerunWith({ ...run(NOW), submissionSeed: submissionSeedOf('another key', UUID) }), lookups()).ok).toBe(false);
  });

  it('execute refuses when an input contract is gone between prepare and execute', () => {
    const p = prepared([transferOf('30.5')]);
    const saved = ledger.active.get(tokenId)!;
    ledger.active.delete(tokenId);
    try {
      const checked = reinterpretSigned(decodePreparedTransaction(wire(p)), hashPreparedTransaction(p, 2), 2, rerunWith(run(NOW)), lookups());
      expect(checked).toEqual({ ok: false, problem: 'its commands fail on the current ledger (ledger)' });
    } finally {
      ledger.active.set(tokenId, saved);
    }
  });
});
