import { describe, expect, it } from 'vitest';
import { interactiveSubmissionOf } from '../../reference-server/src/ledger/interactive/index.js';
import { ManualClock } from '../../reference-server/src/ledger/index.js';
import { createAssetCommand, executeBody, freshId } from '../interactive/support/externalParties.js';
import { newKey, signHash } from '../interactive/support/keys.js';
import { must } from '../ledger/helpers.js';
import { restartableLedgers } from './support/restartableLedgers.js';

/** Canton 3.6's lookups by transaction hash find what was committed before a restart from --data-dir. */
const { newDataDir, ledgerOn, stopAll } = restartableLedgers();

describe('transaction hashes across a restart', () => {
  it('completion-by-hash and update-by-hash find the signed transaction, and its refused replay, after the restart', () => {
    const dir = newDataDir('cc-hash-');
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const first = ledgerOn(dir, clock);
    const key = newKey('ed25519');
    const ext = must(first.allocateExternalParty('ext', key.publicKey)).party;
    must(first.createUser({ user: { id: 'wallet', isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanActAs: { value: { party: ext } } } }] }));
    const p = must(
      interactiveSubmissionOf(first).prepare({ userId: 'wallet', commandId: freshId('prep'), commands: [createAssetCommand(ext, ext)], actAs: [ext], readAs: [], disclosedContracts: [], packageIdSelectionPreference: [], verboseHashing: false } as never),
    );
    const request = () => executeBody(p.preparedTransaction, [{ party: ext, signatures: [signHash(key, p.preparedTransactionHash)] }], { userId: 'wallet' }) as never;
    const committed = must(interactiveSubmissionOf(first).executeAndWait(request()));
    stopAll();

    clock.advance(60_000);
    const second = ledgerOn(dir, clock);
    expect(interactiveSubmissionOf(second).executeAndWait(request()).ok).toBe(false);
    const found = must(second.completionByHash({ transactionHash: p.preparedTransactionHash }, 'all'));
    expect(found.acceptedCompletion).toMatchObject({ updateId: committed.updateId, offset: committed.completionOffset, actAs: [ext] });
    expect(found.lastRejectedCompletions).toHaveLength(1);
    const format = { includeTransactions: { eventFormat: { filtersByParty: { [ext]: {} }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } as never;
    const update = must(second.updateByHash({ transactionHash: p.preparedTransactionHash, updateFormat: format }));
    expect(update).toEqual(must(second.updateById({ updateId: committed.updateId, updateFormat: format })));
  });
});
