import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Ledger } from '../../reference-server/src/ledger/index.js';
import { ASSET_TEMPLATE } from '../../reference-server/src/ledger/index.js';
import type { Command, Event, JsTransaction } from '../../reference-server/src/ledger/wire.js';
import { DARS_DIR, HAS_DARS, loadDar } from '../daml/damlFixtures.js';
import { must, nextCommandId, refused, world } from './helpers.js';

const TOKEN_DAR = 'splice/splice-test-token-v1-1.0.0.dar';
const TOKEN = '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1:Token';

function setup(options: { engineStepBudget?: number } = {}) {
  const w = world(options);
  must(w.ledger.uploadDar(readFileSync(join(DARS_DIR, TOKEN_DAR)), { synchronizerId: w.ledger.config.synchronizers[0]!.id }));
  const holdingPackage = [...loadDar(TOKEN_DAR).dar.packages].find((p) => p.metadata?.name === 'splice-api-token-holding-v1')!.id;
  return { ...w, holdingInterface: `${holdingPackage}:Splice.Api.Token.HoldingV1:Holding` };
}

const holding = (owner: string, admin: string, amount: string) => ({ owner, instrumentId: { admin, id: 'TEST' }, amount, lock: null, meta: { values: {} } });
const createToken = (owner: string, admin: string, amount = '10.0'): Command => ({ CreateCommand: { templateId: TOKEN, createArguments: { holding: holding(owner, admin, amount) } } });

function submit(ledger: Ledger, actAs: string[], commands: Command[]) {
  return ledger.submitAndWaitForTransaction({
    commands: { userId: 'tester', commandId: nextCommandId(), actAs, commands },
    transactionFormat: { eventFormat: { filtersForAnyParty: {}, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
  });
}
const createdIn = (tx: JsTransaction) => tx.events.flatMap((e: Event) => ('CreatedEvent' in e ? [e.CreatedEvent] : []));

describe.runIf(HAS_DARS)('uploaded DARs run through the engine: a test token and the token-standard Holding (needs ../shared/upstream/daml/dars)', () => {
  it('an interface filter on Holding shows the engine-evaluated view of each token', () => {
    const { ledger, alice, bank, holdingInterface } = setup();
    const tx = must(submit(ledger, [alice, bank], [createToken(alice, bank, '10.5')])).transaction;
    const token = createdIn(tx)[0]!;
    expect(token.createArgument).toEqual({ holding: holding(alice, bank, '10.5000000000') });
    expect(token.signatories).toEqual([alice, bank].sort());
    const acs = [...must(ledger.activeContracts({
      activeAtOffset: ledger.ledgerEnd().offset,
      eventFormat: { filtersByParty: { [alice]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: holdingInterface, includeInterfaceView: true, includeCreatedEventBlob: true } } } }] } } },
    }))];
    expect(acs).toHaveLength(1);
    const ev = (acs[0]!.contractEntry as unknown as { JsActiveContract: { createdEvent: Record<string, unknown> } }).JsActiveContract.createdEvent;
    expect(ev.interfaceViews).toEqual([{ interfaceId: holdingInterface, viewStatus: { code: 0, message: '' }, viewValue: holding(alice, bank, '10.5000000000') }]);
    expect(typeof ev.createdEventBlob).toBe('string');
  });

  it('refuses as a participant does: bad value (path named), missing authorization, precondition, archived contract, exercise by key', () => {
    const { ledger, alice, bank } = setup();
    const bad = refused(submit(ledger, [alice, bank], [createToken(alice, bank, 'ten')]), 'COMMAND_PREPROCESSING_FAILED');
    expect(bad.cause).toContain('createArguments.holding.amount');
    const extra = refused(submit(ledger, [alice, bank], [{ CreateCommand: { templateId: TOKEN, createArguments: { holding: holding(alice, bank, '1.0'), colour: 'red' } } }]), 'COMMAND_PREPROCESSING_FAILED');
    expect(extra.cause).toContain('colour');
    // The upgrade rule: a missing Optional field is None; an unknown field may be dropped only when it is None.
    const { lock: _lock, ...withoutLock } = holding(alice, bank, '1.0');
    must(submit(ledger, [alice, bank], [{ CreateCommand: { templateId: TOKEN, createArguments: { holding: withoutLock, colour: null } } }]));
    refused(submit(ledger, [alice], [createToken(alice, bank)]), 'DAML_AUTHORIZATION_ERROR');
    const pre = refused(submit(ledger, [alice, bank], [createToken(alice, bank, '0.0')]), 'UNHANDLED_EXCEPTION');
    expect(pre.cause).toContain('PreconditionFailed');
    const id = createdIn(must(submit(ledger, [alice, bank], [createToken(alice, bank)])).transaction)[0]!.contractId;
    const archive: Command = { ExerciseCommand: { templateId: TOKEN, contractId: id, choice: 'Archive', choiceArgument: {} } };
    const archived = must(submit(ledger, [alice, bank], [archive])).transaction;
    expect(archived.events.map((e) => Object.keys(e)[0])).toEqual(['ExercisedEvent']);
    refused(submit(ledger, [alice, bank], [archive]), 'CONTRACT_NOT_FOUND');
    // Archived earlier in the same transaction: not active; a contract of another template: wrongly typed.
    const twice = createdIn(must(submit(ledger, [alice, bank], [createToken(alice, bank)])).transaction)[0]!.contractId;
    const archiveTwice: Command = { ExerciseCommand: { templateId: TOKEN, contractId: twice, choice: 'Archive', choiceArgument: {} } };
    refused(submit(ledger, [alice, bank], [archiveTwice, archiveTwice]), 'CONTRACT_NOT_ACTIVE');
    const rules = createdIn(must(submit(ledger, [bank], [{ CreateCommand: { templateId: '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1:TokenRules', createArguments: { admin: bank } } }])).transaction)[0]!.contractId;
    const wrong = refused(submit(ledger, [alice, bank], [{ ExerciseCommand: { templateId: TOKEN, contractId: rules, choice: 'Archive', choiceArgument: {} } }]), 'WRONGLY_TYPED_CONTRACT');
    expect(wrong.cause).toContain('TokenRules');
    // The built-in templates run in the TypeScript interpreter: one submission cannot mix the two.
    const asset = { CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer: bank, owner: alice, amount: '1' } } };
    refused(submit(ledger, [alice, bank], [createToken(alice, bank), asset]), 'COMMAND_PREPROCESSING_FAILED');
    refused(submit(ledger, [alice, bank], [asset, createToken(alice, bank)]), 'COMMAND_PREPROCESSING_FAILED');
    refused(submit(ledger, [alice, bank], [{ ExerciseByKeyCommand: { templateId: TOKEN, contractKey: {}, choice: 'Archive', choiceArgument: {} } }]), 'COMMAND_PREPROCESSING_FAILED');
  });

  it('a submission that outruns its step budget ends with INTERPRETATION_TIME_EXCEEDED, never a hang', () => {
    const { ledger, alice, bank } = setup({ engineStepBudget: 50 });
    refused(submit(ledger, [alice, bank], [createToken(alice, bank)]), 'INTERPRETATION_TIME_EXCEEDED');
  });

  it('an interface choice on a disclosed contract: the registry factory as wallets call it', () => {
    const { ledger, alice, bank } = setup();
    const factory = `${[...loadDar(TOKEN_DAR).dar.packages].find((p) => p.metadata?.name === 'splice-api-token-transfer-instruction-v1')!.id}:Splice.Api.Token.TransferInstructionV1:TransferFactory`;
    const rules = createdIn(must(submit(ledger, [bank], [{ CreateCommand: { templateId: '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1:TokenRules', createArguments: { admin: bank } } }])).transaction)[0]!;
    const fetch: Command = { ExerciseCommand: { templateId: factory, contractId: rules.contractId, choice: 'TransferFactory_PublicFetch', choiceArgument: { expectedAdmin: bank, actor: alice } } };
    refused(submit(ledger, [alice], [fetch]), 'CONTRACT_NOT_FOUND');
    const tx = must(ledger.submitAndWaitForTransaction({
      commands: { userId: 'tester', commandId: nextCommandId(), actAs: [alice], commands: [fetch], disclosedContracts: [{ contractId: rules.contractId, templateId: rules.templateId, createdEventBlob: ledger.createdEventBlob(rules.contractId)!, synchronizerId: '' }] },
      transactionFormat: { eventFormat: { filtersByParty: { [alice]: {} }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
    })).transaction;
    const ex = (tx.events[0] as unknown as { ExercisedEvent: Record<string, unknown> }).ExercisedEvent;
    expect(ex).toMatchObject({ interfaceId: factory, templateId: rules.templateId, choice: 'TransferFactory_PublicFetch', consuming: false, actingParties: [alice], witnessParties: [alice] });
    expect(ex.exerciseResult).toEqual({ admin: bank, meta: { values: {} } });
  });

  it('a token-standard transfer: the factory splits the holding and offers it, the receiver accepts', () => {
    const { ledger, alice, bob, bank } = setup();
    const pkg = (name: string) => [...loadDar(TOKEN_DAR).dar.packages].find((p) => p.metadata?.name === name)!.id;
    const factory = `${pkg('splice-api-token-transfer-instruction-v1')}:Splice.Api.Token.TransferInstructionV1:TransferFactory`;
    const instruction = `${pkg('splice-api-token-transfer-instruction-v1')}:Splice.Api.Token.TransferInstructionV1:TransferInstruction`;
    const rules = createdIn(must(submit(ledger, [bank], [{ CreateCommand: { templateId: '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1:TokenRules', createArguments: { admin: bank } } }])).transaction)[0]!;
    const input = createdIn(must(submit(ledger, [alice, bank], [createToken(alice, bank, '10.0')])).transaction)[0]!.contractId;
    const disclosed = [{ contractId: rules.contractId, templateId: rules.templateId, createdEventBlob: ledger.createdEventBlob(rules.contractId)!, synchronizerId: '' }];
    const transfer = {
      sender: alice, receiver: bob, amount: '4.0', instrumentId: { admin: bank, id: 'TEST' },
      requestedAt: '2000-01-01T00:00:00Z', executeBefore: '9000-01-01T00:00:00Z', inputHoldingCids: [input], meta: { values: {} },
    };
    const noContext = { context: { values: {} }, meta: { values: {} } };
    const offerTx = must(ledger.submitAndWaitForTransaction({
      commands: { userId: 'tester', commandId: nextCommandId(), actAs: [alice], disclosedContracts: disclosed, commands: [{ ExerciseCommand: { templateId: factory, contractId: rules.contractId, choice: 'TransferFactory_Transfer', choiceArgument: { expectedAdmin: bank, transfer, extraArgs: noContext } } }] },
      transactionFormat: { eventFormat: { filtersByParty: { [alice]: {}, [bob]: {} }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
    })).transaction;
    const made = createdIn(offerTx);
    expect(made.map((c) => c.templateId.split(':').slice(1).join(':'))).toEqual(['Splice.Testing.Tokens.TestTokenV1:Token', 'Splice.Testing.Tokens.TestTokenV1:TokenTransferOffer']);
    expect(made[0]!.createArgument).toMatchObject({ holding: { owner: alice, amount: '6.0000000000' } });
    expect(ledger.isActive(input)).toBe(false);
    const offer = made[1]!.contractId;
    const acceptTx = must(submit(ledger, [bob], [{ ExerciseCommand: { templateId: instruction, contractId: offer, choice: 'TransferInstruction_Accept', choiceArgument: { extraArgs: noContext } } }])).transaction;
    const received = createdIn(acceptTx).find((c) => c.templateId.endsWith(':Token'))!;
    expect(received.createArgument).toMatchObject({ holding: { owner: bob, amount: '4.0000000000' } });
  });

  it('several commands are one transaction; the second sees the first one`s contract', () => {
    const { ledger, alice, bank } = setup();
    const tx = must(submit(ledger, [alice, bank], [createToken(alice, bank, '1.0'), createToken(alice, bank, '2.0')])).transaction;
    expect(createdIn(tx).map((c) => [c.nodeId, (c.createArgument as { holding: { amount: string } }).holding.amount])).toEqual([[0, '1.0000000000'], [1, '2.0000000000']]);
  });
});
