import { describe, expect, it } from 'vitest';
import { ASSET_TEMPLATE, submissionClaims } from '../../reference-server/src/ledger/index.js';
import { createAsset, must, nextCommandId, refused, submit, world } from './helpers.js';

describe('Daml authorization', () => {
  it('requires actAs to cover the signatories of created contracts', () => {
    const { ledger, alice, bank } = world();
    const e = refused(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [createAsset(bank, alice)] }), 'DAML_AUTHORIZATION_ERROR');
    expect(e.cause).toContain(bank);
    must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
  });

  it('requires actAs to cover the controllers of exercised choices', () => {
    const { ledger, alice, bob, bank } = world();
    const [cid] = submit(ledger, [bank], [createAsset(bank, alice)]);
    const transfer = { ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid as string, choice: 'Transfer', choiceArgument: { newOwner: bob } } };
    // bank is the signatory and sees the contract, but alice (owner) controls Transfer
    refused(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [transfer] }), 'DAML_AUTHORIZATION_ERROR');
    must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [transfer] }));
  });

  it('lets a choice create what the signatories of the exercised contract authorize', () => {
    const { ledger, alice, bob, bank } = world();
    const [cid] = submit(ledger, [bank], [createAsset(bank, alice)]);
    // Transfer creates an asset signed by bank although only alice submits: bank authorizes
    // through its signature on the exercised contract.
    const r = must(
      ledger.submitAndWaitForTransaction({
        commands: { userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid as string, choice: 'Transfer', choiceArgument: { newOwner: bob } } }] },
        transactionFormat: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
      }),
    );
    const kinds = r.transaction.events.map((e) => Object.keys(e)[0]);
    expect(kinds).toEqual(['ExercisedEvent', 'CreatedEvent']);
    const ex = r.transaction.events[0];
    expect(ex && 'ExercisedEvent' in ex && ex.ExercisedEvent).toMatchObject({ choice: 'Transfer', consuming: true, actingParties: [alice], lastDescendantNodeId: 1, acsDelta: true });
  });

  it('refuses Archive by a non-signatory', () => {
    const { ledger, alice, bank } = world();
    const [cid] = submit(ledger, [bank], [createAsset(bank, alice)]);
    refused(
      ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid as string, choice: 'Archive', choiceArgument: {} } }] }),
      'DAML_AUTHORIZATION_ERROR',
    );
  });

  it('refuses actAs parties that are not on the ledger', () => {
    const { ledger, alice } = world();
    const ghost = 'ghost::1220' + 'ab'.repeat(32);
    refused(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [ghost], commands: [createAsset(ghost, alice)] }), 'PARTY_NOT_KNOWN_ON_LEDGER');
  });
});

describe('user rights (authorize)', () => {
  it('grants what the rights say, and no more', () => {
    const { ledger, alice, bob } = world();
    must(
      ledger.createUser({
        user: { id: 'alice-user' },
        rights: [{ kind: { CanActAs: { value: { party: alice } } } }, { kind: { CanReadAs: { value: { party: bob } } } }],
      }),
    );
    must(ledger.authorize('alice-user', [{ kind: 'actAs', party: alice }, { kind: 'readAs', party: alice }, { kind: 'readAs', party: bob }, { kind: 'executeAs', party: alice }]));
    refused(ledger.authorize('alice-user', [{ kind: 'actAs', party: bob }]), 'PERMISSION_DENIED');
    refused(ledger.authorize('alice-user', [{ kind: 'participantAdmin' }]), 'PERMISSION_DENIED');
    refused(ledger.authorize('nobody', []), 'PERMISSION_DENIED');
    must(ledger.authorize('participant_admin', [{ kind: 'participantAdmin' }, { kind: 'identityProviderAdmin' }]));
  });

  it('maps a submission to the claims it needs', () => {
    expect(submissionClaims({ actAs: ['a'], readAs: ['b'] })).toEqual([
      { kind: 'actAs', party: 'a' },
      { kind: 'readAs', party: 'b' },
    ]);
  });

  it('denies a deactivated user everything', () => {
    const { ledger, alice } = world();
    must(ledger.createUser({ user: { id: 'u1', isDeactivated: true }, rights: [{ kind: { CanActAs: { value: { party: alice } } } }] }));
    refused(ledger.authorize('u1', [{ kind: 'actAs', party: alice }]), 'PERMISSION_DENIED');
  });
});
