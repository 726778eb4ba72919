import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { interactiveSubmissionOf } from '../../reference-server/src/ledger/interactive/index.js';
import { createLedger, ManualClock, resolveConfig, type Ledger } from '../../reference-server/src/ledger/index.js';
import { SqliteStore } from '../../reference-server/src/store/sqlite/SqliteStore.js';
import { createAssetCommand, freshId } from '../interactive/support/externalParties.js';
import { newKey, signHash } from '../interactive/support/keys.js';
import { must } from '../ledger/helpers.js';

/** The transaction UUIDs a ledger has committed are part of its state: a restart from --data-dir does not make a signature executable again. */
const dirs: string[] = [];
const stores: SqliteStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function ledgerOn(dir: string, clock: ManualClock): Ledger {
  const store = SqliteStore.open(dir, { participantId: resolveConfig().participantId });
  stores.push(store);
  const ledger = createLedger({ clock, store, blobKey: store.blobKey });
  ledger.recover();
  return ledger;
}

describe('transaction UUIDs across a restart', () => {
  it('a signed transaction executed before the restart is refused as a replay after it', () => {
    const base = mkdtempSync(join(tmpdir(), 'cc-uuid-'));
    dirs.push(base);
    const dir = join(base, 'data');
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
    stores.splice(0).forEach((s) => s.close());

    clock.advance(60_000);
    const second = ledgerOn(dir, clock);
    const replay = interactiveSubmissionOf(second).executeAndWait(request('second-wallet'));
    expect(replay.ok ? 'committed' : replay.error.code).toBe('DUPLICATE_CONFIRMATION_REQUEST_UUID');
  });
});
