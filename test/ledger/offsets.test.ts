import { describe, expect, it } from 'vitest';
import { createLedger } from '../../reference-server/src/ledger/index.js';
import { createAsset, must, nextCommandId, refused, submit, world } from './helpers.js';

describe('offsets and ledger end', () => {
  it('starts empty at offset 0', () => {
    expect(createLedger().ledgerEnd()).toEqual({ offset: 0 });
  });

  it('gives every update the next offset and a unique update id', () => {
    const { ledger, alice, bank } = world();
    const start = ledger.ledgerEnd().offset;
    expect(start).toBe(4); // four party allocations are topology updates
    const ids = new Set<string>();
    for (let i = 1; i <= 5; i++) {
      const r = must(
        ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }),
      );
      expect(r.completionOffset).toBe(start + i);
      ids.add(r.updateId);
      expect(r.updateId).toMatch(/^1220[0-9a-f]{64}$/);
    }
    expect(ids.size).toBe(5);
    expect(ledger.ledgerEnd().offset).toBe(start + 5);
  });

  it('does not move the ledger end for a submission refused at interpretation', () => {
    const { ledger, alice, bank } = world();
    const before = ledger.ledgerEnd().offset;
    // alice cannot create an asset bank must sign
    refused(
      ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [createAsset(bank, alice)] }),
      'DAML_AUTHORIZATION_ERROR',
    );
    expect(ledger.ledgerEnd().offset).toBe(before);
  });

  it('reports transactions at the offset the submission returned', () => {
    const { ledger, alice, bank } = world();
    const [cid] = submit(ledger, [bank], [createAsset(bank, alice)]);
    const end = ledger.ledgerEnd().offset;
    const updates = [...must(ledger.updates({ beginExclusive: end - 1, filter: { filtersByParty: { [alice]: {} } } }))];
    expect(updates).toHaveLength(1);
    const u = updates[0]?.update;
    expect(u && 'Transaction' in u && u.Transaction.value.offset).toBe(end);
    expect(u && 'Transaction' in u && u.Transaction.value.events[0]).toMatchObject({ CreatedEvent: { contractId: cid, offset: end, nodeId: 0 } });
  });
});
