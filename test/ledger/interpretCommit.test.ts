import { describe, expect, it } from 'vitest';
import { ASSET_TEMPLATE } from '../../reference-server/src/ledger/index.js';
import { createAsset, must, nextCommandId, refused, submit, world } from './helpers.js';

describe('interpret, then commit', () => {
  it('interprets without writing anything', () => {
    const { ledger, alice, bank } = world();
    const end = ledger.ledgerEnd().offset;
    const prepared = must(ledger.interpret({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
    expect(ledger.ledgerEnd().offset).toBe(end);
    expect(prepared.created).toHaveLength(1);
    expect(prepared.results).toEqual([prepared.created[0]?.contractId]);
    const committed = must(ledger.commit(prepared));
    expect(committed.offset).toBe(end + 1);
    expect(ledger.isActive(prepared.created[0]?.contractId as string)).toBe(true);
    refused(ledger.commit(prepared), 'INVALID_ARGUMENT');
  });

  it('re-checks inputs at commit and records the rejection as a completion', () => {
    const { ledger, alice, bob, bank } = world();
    const [cid] = submit(ledger, [bank], [createAsset(bank, alice)]);
    const transfer = { ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid as string, choice: 'Transfer', choiceArgument: { newOwner: bob } } };
    const prepared = must(ledger.interpret({ userId: 'app', commandId: 'slow', actAs: [alice], commands: [transfer] }));
    // meanwhile, the contract is consumed by another transaction
    must(ledger.submitAndWait({ userId: 'app', commandId: 'fast', actAs: [alice], commands: [transfer] }));
    refused(ledger.commit(prepared), 'CONTRACT_NOT_ACTIVE');
    const completions = [...must(ledger.completions({ userId: 'app', parties: [alice] }))];
    expect(completions.map((c) => ('Completion' in c.completionResponse ? [c.completionResponse.Completion.value.commandId, c.completionResponse.Completion.value.status?.code] : null))).toEqual([
      ['fast', 0],
      ['slow', 5],
    ]);
  });
});
