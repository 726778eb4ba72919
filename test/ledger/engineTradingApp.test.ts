import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Ledger } from '../../reference-server/src/ledger/index.js';
import type { Command, Event, JsTransaction } from '../../reference-server/src/ledger/wire.js';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';
import { must, nextCommandId, refused, world } from './helpers.js';

const APP = '#splice-token-test-trading-app:Splice.Testing.Apps.TradingApp';

function run(ledger: Ledger, actAs: string[], command: Command): JsTransaction {
  return must(ledger.submitAndWaitForTransaction({
    commands: { userId: 'tester', commandId: nextCommandId(), actAs, commands: [command] },
    transactionFormat: { eventFormat: { filtersForAnyParty: {}, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
  })).transaction;
}
const createdOf = (tx: JsTransaction) => tx.events.flatMap((e: Event) => ('CreatedEvent' in e ? [e.CreatedEvent] : []));

describe.runIf(HAS_DARS)('uploaded DARs run through the engine: the token-standard test trading app (needs ../shared/upstream/daml/dars)', () => {
  it('a trader proposes, the counterparty accepts, the venue initiates settlement (getTime, TextMap of legs)', () => {
    const { ledger, alice, bob, bank: venue, carol: admin } = world();
    must(ledger.uploadDar(readFileSync(join(DARS_DIR, 'splice/splice-token-test-trading-app-1.0.2.dar')), { synchronizerId: ledger.config.synchronizers[0]!.id }));
    const transferLegs = { leg0: { sender: alice, receiver: bob, amount: '10.0', instrumentId: { admin, id: 'T' }, meta: { values: {} } } };
    const proposal = createdOf(run(ledger, [alice], { CreateCommand: { templateId: `${APP}:OTCTradeProposal`, createArguments: { venue, tradeCid: null, transferLegs, approvers: [alice] } } }))[0]!;
    expect(proposal.observers).toEqual([bob, venue].sort());

    refused(ledger.submitAndWait({
      userId: 'tester', commandId: nextCommandId(), actAs: [venue],
      commands: [{ ExerciseCommand: { templateId: `${APP}:OTCTradeProposal`, contractId: proposal.contractId, choice: 'OTCTradeProposal_Accept', choiceArgument: { approver: venue } } }],
    }), 'UNHANDLED_EXCEPTION');

    const acceptTx = run(ledger, [bob], { ExerciseCommand: { templateId: `${APP}:OTCTradeProposal`, contractId: proposal.contractId, choice: 'OTCTradeProposal_Accept', choiceArgument: { approver: bob } } });
    const accepted = createdOf(acceptTx)[0]!;
    expect(accepted.createArgument).toMatchObject({ approvers: [bob, alice], tradeCid: proposal.contractId });
    expect(accepted.signatories).toEqual([alice, bob].sort());

    const settle = run(ledger, [venue], {
      ExerciseCommand: { templateId: `${APP}:OTCTradeProposal`, contractId: accepted.contractId, choice: 'OTCTradeProposal_InitiateSettlement', choiceArgument: { prepareUntil: '9000-01-01T00:00:00Z', settleBefore: '9000-01-02T00:00:00Z' } },
    });
    const trade = createdOf(settle)[0]!;
    expect(trade.templateId.endsWith(':Splice.Testing.Apps.TradingApp:OTCTrade')).toBe(true);
    expect(trade.createArgument).toMatchObject({ venue, transferLegs: { leg0: { amount: '10.0000000000' } }, tradeCid: proposal.contractId });
    expect(Date.parse((trade.createArgument as { createdAt: string }).createdAt)).toBe(Date.parse(settle.effectiveAt));
  });
});
