import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedger, ManualClock, resolveConfig, type Ledger } from '../../reference-server/src/ledger/index.js';
import type { Command } from '../../reference-server/src/ledger/wire.js';
import { SqliteStore } from '../../reference-server/src/store/sqlite/SqliteStore.js';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';
import { must, nextCommandId } from '../ledger/helpers.js';

/** Packages are persisted; contracts of their templates must work again after a restart from --data-dir. */
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

const SPLITWELL = '#splitwell:Splice.Splitwell';

describe.runIf(HAS_DARS)('engine contracts across a restart', () => {
  it('a contract created through the engine before the restart is exercised after it, its events read back', () => {
    const base = mkdtempSync(join(tmpdir(), 'cc-engine-'));
    dirs.push(base);
    const dir = join(base, 'data');
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const first = ledgerOn(dir, clock);
    must(first.uploadDar(readFileSync(join(DARS_DIR, 'splice/splitwell-0.1.23.dar')), { synchronizerId: first.config.synchronizers[0]!.id }));
    const provider = must(first.allocateParty({ partyIdHint: 'provider' })).partyDetails.party;
    const user = must(first.allocateParty({ partyIdHint: 'user' })).partyDetails.party;
    const submit = (ledger: Ledger, actAs: string[], command: Command) =>
      must(ledger.submitAndWaitForTransaction({ commands: { userId: 'tester', commandId: nextCommandId(), actAs, commands: [command] } })).transaction;
    const rules = submit(first, [provider], { CreateCommand: { templateId: `${SPLITWELL}:SplitwellRules`, createArguments: { provider } } });
    const rulesId = (rules.events[0] as { CreatedEvent: { contractId: string } }).CreatedEvent.contractId;
    stores.splice(0).forEach((s) => s.close());

    const second = ledgerOn(dir, clock);
    const request = submit(second, [provider, user], {
      ExerciseCommand: { templateId: `${SPLITWELL}:SplitwellRules`, contractId: rulesId, choice: 'SplitwellRules_RequestInstall', choiceArgument: { user } },
    });
    const requestEvent = (request.events[0] as { CreatedEvent: { contractId: string; createArgument: unknown } }).CreatedEvent;
    expect(requestEvent.createArgument).toEqual({ provider, user });
    const before = must(second.updateById({ updateId: rules.updateId, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [provider]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }));
    expect(JSON.stringify(before)).toContain(rulesId);
    stores.splice(0).forEach((s) => s.close());

    const third = ledgerOn(dir, clock);
    const accepted = submit(third, [provider], {
      ExerciseCommand: { templateId: `${SPLITWELL}:SplitwellInstallRequest`, contractId: requestEvent.contractId, choice: 'SplitwellInstallRequest_Accept', choiceArgument: {} },
    });
    expect(accepted.events.map((e) => Object.keys(e)[0])).toEqual(['ArchivedEvent', 'CreatedEvent']);
  });
});
