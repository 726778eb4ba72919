import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeArchive, encodeArchive, UpdateEngine, createCommand, decodeJson, packageDataTypes, type QualifiedName, type Type } from '../../daml-engine/index.js';
import type { LedgerSource } from '../../conformance/src/reinterpret/ledgerSource.js';
import { reportedContract } from '../../conformance/src/reinterpret/ledgerSource.js';
import { reinterpret } from '../../conformance/src/reinterpret/reinterpret.js';
import { reinterpretRefusal } from '../../conformance/src/reinterpret/reinterpretRefusal.js';
import { describeDifference } from '../../conformance/src/reinterpret/compareTransaction.js';
import type { Command, Ledger } from '../../reference-server/src/ledger/index.js';
import { ACCOUNT_TEMPLATE, ASSET_TEMPLATE, HOLDING_INTERFACE } from '../../reference-server/src/ledger/index.js';
import { cantonErrorOf } from '../../reference-server/src/ledger/engine/cantonErrorOf.js';
import { samplePackage } from '../../reference-server/src/ledger/templates/samplePackage.js';
import { must, nextCommandId, world } from './helpers.js';

/**
 * The reference runs the sample templates with its TypeScript model; the package it serves for
 * them (`samplePackage.ts`) is real Daml-LF. The same commands go through both: the model's
 * transaction (as the JSON API answers it) is re-run by the engine on the built package, and
 * the events and results must be equal; refusals must carry the same error code.
 */
const built = samplePackage();

/** The reference ledger as re-interpretation sees a target: its served packages and reported contracts. */
function ledgerSource(ledger: Ledger): LedgerSource {
  return {
    packageOf: (id) => {
      const r = ledger.getPackage(id);
      if (!r.ok) return Promise.resolve({ ok: false, reason: r.error.code });
      const d = decodeArchive(encodeArchive(r.value.payload, { hash: id }).dalf);
      return Promise.resolve(d.ok ? { ok: true, pkg: d.value } : { ok: false, reason: d.failure.message });
    },
    contract: (contractId, parties) => {
      const r = ledger.eventsByContractId({ contractId, eventFormat: { filtersByParty: Object.fromEntries(parties.map((p) => [p, {}])), verbose: true } });
      const created = r.ok ? (r.value as { created?: { createdEvent?: Record<string, unknown> } }).created?.createdEvent : undefined;
      return Promise.resolve(created === undefined ? undefined : reportedContract(created as never));
    },
  };
}

type Tx = { events: Record<string, Record<string, unknown>>[] };

/** Submits on the TypeScript model (LEDGER_EFFECTS for the submitters), then re-runs on the engine. */
async function both(ledger: Ledger, actAs: string[], commands: Command[]): Promise<Tx> {
  const r = must(ledger.submitAndWaitForTransaction({
    commands: { userId: 'differential', commandId: nextCommandId(), actAs, commands },
    transactionFormat: { eventFormat: { filtersByParty: Object.fromEntries(actAs.map((p) => [p, {}])), verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
  }));
  const transaction = r.transaction as unknown as Tx;
  const judged = await reinterpret(ledgerSource(ledger), { commands: commands as never, actAs, parties: actAs, transaction: transaction as never });
  const shown = judged.kind === 'differs' ? judged.differences.map(describeDifference).join('\n') : judged.kind === 'skipped' ? judged.reason : '';
  expect(judged.kind, shown).toBe('agrees');
  return transaction;
}
const createdIds = (tx: Tx) => tx.events.flatMap((e) => (e.CreatedEvent ? [e.CreatedEvent.contractId as string] : []));

const exercise = (templateId: string, contractId: string, choice: string, choiceArgument: Record<string, unknown> = {}): Command =>
  ({ ExerciseCommand: { templateId, contractId, choice, choiceArgument: choiceArgument as never } });

describe('the sample package: real Daml-LF behind the TypeScript model', () => {
  it('is the catalogue\'s sample package, its id the SHA-256 of the payload GET /v2/packages answers', () => {
    const { ledger } = world();
    expect(built.id).toBe(createHash('sha256').update(built.payload).digest('hex'));
    expect(ledger.listPackages().packageIds).toContain(built.id);
    expect(Buffer.from(must(ledger.getPackage(built.id)).payload)).toEqual(Buffer.from(built.payload));
    expect([...built.package.modules.keys()].sort()).toEqual(['Sample.Account', 'Sample.Asset', 'Sample.Holding']);
    expect(samplePackage()).toBe(built); // built once per process
    // The id older versions derived from name and version still resolves (data directories name it).
    const legacy = createHash('sha256').update('canton-conformance-samples@1.0.0').digest('hex');
    const r = ledger.catalogue.resolve(`${legacy}:Sample.Asset:Asset`);
    expect(r.ok && r.value.id).toBe(`${built.id}:Sample.Asset:Asset`);
    expect(ledger.listPackages().packageIds).not.toContain(legacy);
  });

  it('create (with and without observers), Transfer, Split, Describe and Archive agree event for event', async () => {
    const { ledger, bank, alice, bob, carol } = world();
    const asset = (amount: string, observers?: string[]): Command =>
      ({ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer: bank, owner: alice, amount, ...(observers ? { observers } : {}) } } });
    const [plain, watched] = createdIds(await both(ledger, [bank], [asset('100'), asset('7.25', [carol, bob])]));
    const described = await both(ledger, [alice], [exercise(ASSET_TEMPLATE, plain!, 'Describe')]);
    expect(described.events[0]!.ExercisedEvent!.exerciseResult).toMatch(/^100\.0+ issued by /);
    const split = await both(ledger, [alice], [exercise(ASSET_TEMPLATE, plain!, 'Split', { splitAmount: '30.5' })]);
    expect(createdIds(split)).toHaveLength(2);
    await both(ledger, [alice], [exercise(ASSET_TEMPLATE, watched!, 'Transfer', { newOwner: bob })]);
    await both(ledger, [bank], [exercise(ASSET_TEMPLATE, createdIds(split)[0]!, 'Archive')]);
  });

  it('the Holding interface: its choice exercised through the interface, by package name', async () => {
    const { ledger, bank, alice } = world();
    const [cid] = createdIds(await both(ledger, [bank], [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer: bank, owner: alice, amount: '5' } } }]));
    const tx = await both(ledger, [alice], [exercise(HOLDING_INTERFACE, cid!, 'Holding_Owner')]);
    expect(tx.events[0]!.ExercisedEvent!.exerciseResult).toBe(alice);
  });

  it('Account: create, Deposit by contract id, by key, and create-and-exercise', async () => {
    const { ledger, bank, alice } = world();
    const account = { bank, holder: alice, accountId: 'acc-1' };
    const [cid] = createdIds(await both(ledger, [bank], [{ CreateCommand: { templateId: ACCOUNT_TEMPLATE, createArguments: account } }]));
    await both(ledger, [alice], [exercise(ACCOUNT_TEMPLATE, cid!, 'Deposit', { amount: '12.5' })]);
    await both(ledger, [alice], [{ ExerciseByKeyCommand: { templateId: ACCOUNT_TEMPLATE, contractKey: { bank, accountId: 'acc-1' }, choice: 'Deposit', choiceArgument: { amount: '1' } } }]);
    await both(ledger, [bank], [{ CreateAndExerciseCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer: bank, owner: bank, amount: '3' }, choice: 'Describe', choiceArgument: {} } }]);
  });

  it('refusals carry the same error code: a failed ensure, Split out of bounds, a missing controller', () => {
    const { ledger, bank, alice } = world();
    const pkg = built.package;
    const getPackage = (id: string) => (id === built.id ? pkg : undefined);
    const types = packageDataTypes(getPackage);
    const value = (t: QualifiedName | Type, json: unknown) => {
      const r = decodeJson('kind' in t ? t : { kind: 'con', tycon: t, args: [] }, json as never, types);
      if (!r.ok) throw new Error(r.problem.message);
      return r.value;
    };
    const ASSET = built.ref('Sample.Asset', 'Asset');
    const engine = new UpdateEngine({ getPackage });
    const engineCode = (actAs: string[], update: Parameters<UpdateEngine['submit']>[0]['update'], contracts: Map<string, never> = new Map<string, never>()) => {
      const r = engine.submit({ update, submitters: actAs, transactionSeed: new Uint8Array(32), preparationTime: 0n, ledgerTime: 0n, getContract: (c) => contracts.get(c) });
      return r.ok ? 'ok' : cantonErrorOf(r.error).code;
    };
    const modelCode = (actAs: string[], commands: Command[]) => {
      const r = ledger.submitAndWait({ userId: 'differential', commandId: nextCommandId(), actAs, commands });
      return r.ok ? 'ok' : r.error.code;
    };

    // ensure amount > 0.0
    const zero = { issuer: bank, owner: alice, amount: '0' };
    expect(modelCode([bank], [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: zero } }])).toBe('TEMPLATE_PRECONDITION_VIOLATED');
    expect(engineCode([bank], createCommand(ASSET, value(ASSET, zero)))).toBe('TEMPLATE_PRECONDITION_VIOLATED');

    // Split outside (0, amount), and a controller that did not submit
    const argument = { issuer: bank, owner: alice, amount: '10' };
    const r = must(ledger.submitAndWaitForTransaction({ commands: { userId: 'd', commandId: nextCommandId(), actAs: [bank], commands: [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: argument as never } }] } }));
    const cid = (r.transaction.events[0] as { CreatedEvent: { contractId: string } }).CreatedEvent.contractId;
    const contracts = new Map<string, never>([[cid, { templateId: ASSET, argument: value(ASSET, argument), signatories: [bank], observers: [alice] } as never]]);
    for (const [splitAmount, actAs, code] of [['10', [alice], 'DAML_FAILURE'], ['0', [alice], 'DAML_FAILURE'], ['-1', [alice], 'DAML_FAILURE'], ['4', [bank], 'DAML_AUTHORIZATION_ERROR']] as const) {
      const update = { kind: 'exercise', template: ASSET, choice: 'Split', cid: { kind: 'lit', value: { kind: 'contractId', value: cid } }, arg: { kind: 'lit', value: value(built.ref('Sample.Asset', 'Split'), { splitAmount }) } } as const;
      expect(modelCode([...actAs], [exercise(ASSET_TEMPLATE, cid, 'Split', { splitAmount })]), `model, Split ${splitAmount}`).toBe(code);
      expect(engineCode([...actAs], update, contracts), `engine, Split ${splitAmount}`).toBe(code);
    }
  });

  it('a refusal of the TypeScript model, re-run by the suite\'s re-interpretation, gets the same code from the engine', async () => {
    const { ledger, bank, alice } = world();
    const source = ledgerSource(ledger);
    const refusalOf = async (actAs: string[], commands: Command[]) => {
      const r = ledger.submitAndWait({ userId: 'differential', commandId: nextCommandId(), actAs, commands });
      if (r.ok) throw new Error('expected a refusal');
      return reinterpretRefusal(source, { commands: commands as never, actAs, parties: actAs, code: r.error.code });
    };
    const create = (amount: string): Command => ({ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer: bank, owner: alice, amount } } });
    expect(await refusalOf([bank], [create('0')])).toEqual({ kind: 'skipped', reason: expect.stringMatching(/by package name .* shows no package/) });
    const byId = (amount: string): Command => ({ CreateCommand: { templateId: `${built.id}:Sample.Asset:Asset`, createArguments: { issuer: bank, owner: alice, amount } } });
    expect(await refusalOf([bank], [byId('-1')])).toEqual({ kind: 'agrees' });
    expect(await refusalOf([alice], [byId('5')])).toEqual({ kind: 'agrees' }); // the issuer did not submit: DAML_AUTHORIZATION_ERROR
    const [cid] = createdIds(await both(ledger, [bank], [create('10')]));
    expect(await refusalOf([alice], [exercise(ASSET_TEMPLATE, cid!, 'Split', { splitAmount: '10' })])).toEqual({ kind: 'agrees' });
    expect(await refusalOf([bank], [exercise(ASSET_TEMPLATE, cid!, 'Split', { splitAmount: '1' })])).toEqual({ kind: 'agrees' });
    // What a faulty target's refusal would be: a valid Split refused, a failed ensure under another code.
    const split = [exercise(ASSET_TEMPLATE, cid!, 'Split', { splitAmount: '1' })];
    expect(await reinterpretRefusal(source, { commands: split as never, actAs: [alice], parties: [alice], code: 'DAML_FAILURE' }))
      .toEqual({ kind: 'differs', differences: [{ id: 'judge.daml.error-code', path: 'commands', target: 'DAML_FAILURE', engine: 'committed (no error)' }] });
    expect(await reinterpretRefusal(source, { commands: [byId('0')] as never, actAs: [bank], parties: [bank], code: 'DAML_AUTHORIZATION_ERROR' }))
      .toEqual({ kind: 'differs', differences: [{ id: 'judge.daml.error-code', path: 'commands[0]', target: 'DAML_AUTHORIZATION_ERROR', engine: 'TEMPLATE_PRECONDITION_VIOLATED' }] });
    expect(await reinterpretRefusal(source, { commands: split as never, actAs: [alice], parties: [alice], code: 'CONTRACT_NOT_FOUND' }))
      .toEqual({ kind: 'skipped', reason: 'refused with CONTRACT_NOT_FOUND, not an error of Daml interpretation' });
  });
});
