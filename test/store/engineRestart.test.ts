import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock, type Ledger } from '../../reference-server/src/ledger/index.js';
import type { Command } from '../../reference-server/src/ledger/wire.js';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';
import { must, nextCommandId } from '../ledger/helpers.js';
import { restartableLedgers } from './support/restartableLedgers.js';

/** Packages are persisted; contracts of their templates must work again after a restart from --data-dir. */
const { newDataDir, ledgerOn, stopAll } = restartableLedgers();

const SPLITWELL = '#splitwell:Splice.Splitwell';

describe.runIf(HAS_DARS)('engine contracts across a restart (needs ../shared/upstream/daml/dars)', () => {
  it('a contract created through the engine before the restart is exercised after it, its events read back', () => {
    const dir = newDataDir('cc-engine-');
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const first = ledgerOn(dir, clock);
    must(first.uploadDar(readFileSync(join(DARS_DIR, 'splice/splitwell-0.1.23.dar')), { synchronizerId: first.config.synchronizers[0]!.id }));
    const provider = must(first.allocateParty({ partyIdHint: 'provider' })).partyDetails.party;
    const user = must(first.allocateParty({ partyIdHint: 'user' })).partyDetails.party;
    const submit = (ledger: Ledger, actAs: string[], command: Command) =>
      must(ledger.submitAndWaitForTransaction({ commands: { userId: 'tester', commandId: nextCommandId(), actAs, commands: [command] } })).transaction;
    const rules = submit(first, [provider], { CreateCommand: { templateId: `${SPLITWELL}:SplitwellRules`, createArguments: { provider } } });
    const rulesId = (rules.events[0] as { CreatedEvent: { contractId: string } }).CreatedEvent.contractId;
    stopAll();

    const second = ledgerOn(dir, clock);
    const request = submit(second, [provider, user], {
      ExerciseCommand: { templateId: `${SPLITWELL}:SplitwellRules`, contractId: rulesId, choice: 'SplitwellRules_RequestInstall', choiceArgument: { user } },
    });
    const requestEvent = (request.events[0] as { CreatedEvent: { contractId: string; createArgument: unknown } }).CreatedEvent;
    expect(requestEvent.createArgument).toEqual({ provider, user });
    const before = must(second.updateById({ updateId: rules.updateId, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [provider]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }));
    expect(JSON.stringify(before)).toContain(rulesId);
    stopAll();

    const third = ledgerOn(dir, clock);
    const accepted = submit(third, [provider], {
      ExerciseCommand: { templateId: `${SPLITWELL}:SplitwellInstallRequest`, contractId: requestEvent.contractId, choice: 'SplitwellInstallRequest_Accept', choiceArgument: {} },
    });
    expect(accepted.events.map((e) => Object.keys(e)[0])).toEqual(['ArchivedEvent', 'CreatedEvent']);
  });
});
