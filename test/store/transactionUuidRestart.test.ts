import { describe, expect, it } from 'vitest';
import { interactiveSubmissionOf } from '../../reference-server/src/ledger/interactive/index.js';
import { ManualClock } from '../../reference-server/src/ledger/index.js';
import { createAssetCommand, freshId } from '../interactive/support/externalParties.js';
import { newKey, signHash } from '../interactive/support/keys.js';
import { must } from '../ledger/helpers.js';
import { restartableLedgers } from './support/restartableLedgers.js';

/** The transaction UUIDs a ledger has committed are part of its state: a restart from --data-dir does not make a signature executable again. */
const { newDataDir, ledgerOn, stopAll } = restartableLedgers();

describe('transaction UUIDs across a restart', () => {
  it('a signed transaction executed before the restart is refused as a replay after it', () => {
    const dir = newDataDir('cc-uuid-');
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const first = ledgerOn(dir, clock);
    const key = newKey('ed25519');
    const ext = must(first.allocateExternalParty('ext', key.publicKey)).party;
    for (const id of ['wallet', 'second-wallet']) must(first.createUser({ user: { id, isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanActAs: { value: { party: ext } } } }] }));
    const p = must(
      interactiveSubmissionOf(first).prepare({ userId: 'wallet', commandId: freshId('prep'), commands: [createAssetCommand(ext, ext)], actAs: [ext], readAs: [], disclosedContracts: [], packageIdSelectionPreference: [], verboseHashing: false } as never),
    );
    const request = (userId: string) =>
      ({
        preparedTransaction: p.preparedTransaction,
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
        submissionId: freshId('sub'),
        userId,
        deduplicationPeriod: { Empty: {} },
        partySignatures: { signatures: [{ party: ext, signatures: [signHash(key, p.preparedTransactionHash)] }] },
      }) as never;
    must(interactiveSubmissionOf(first).executeAndWait(request('wallet')));
    stopAll();

    clock.advance(60_000);
    const second = ledgerOn(dir, clock);
    const replay = interactiveSubmissionOf(second).executeAndWait(request('second-wallet'));
    expect(replay.ok ? 'committed' : replay.error.code).toBe('DUPLICATE_CONFIRMATION_REQUEST_UUID');
  });
});
