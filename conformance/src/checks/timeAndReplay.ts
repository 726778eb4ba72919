import { expectCantonError, expectErrorResponse, expectStatus, objectBody, type Json } from './support/expect.js';
import { activeContracts, createCommand, freshParty, jsCommands, ledgerEnd, updates } from './support/ledger.js';
import { executeBody, externalParty, needInteractive, prepare, signature } from './ledgerInteractive.js';
import { LedgerOp, UPSTREAM_B } from './ledgerOps.js';
import { post, serves, transferArgs } from './tokenRegistry.js';
import type { CheckDefinition } from './types.js';

/**
 * Time and replay: a ledger time is never far from its record time (Canton's
 * ledgerTimeRecordTimeTolerance, 60 s by default), an externally signed transaction commits at
 * most once (the mediator deduplicates on its transaction UUID), and the registry parses
 * timestamps as strictly as the ledger. Each is something a client's deadline logic relies on.
 */
const HOUR = 3_600_000;

export const timeAndReplayChecks: readonly CheckDefinition[] = [
  {
    id: 'ledger.commands.ledger-time-bounded',
    title: 'A submission whose minimum ledger time lies an hour ahead of the record time (minLedgerTimeAbs, or minLedgerTimeRel from now) is refused (LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND) and commits nothing',
    group: 'ledger',
    operationId: LedgerOp.submitAndWait,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: submit-and-wait, Commands.min_ledger_time_abs / min_ledger_time_rel; Canton TimeValidator, ledgerTimeRecordTimeTolerance (default 60 s)`,
    requires: { writes: true },
    async run(ctx) {
      const party = await freshParty(ctx, 'cc-time');
      // The same hour, absolute and relative to now (Commands.min_ledger_time_rel): an application
      // holding a command back by a delay says so with the second.
      const ahead: readonly { readonly what: string; readonly bound: Json }[] = [
        { what: 'minLedgerTimeAbs', bound: { minLedgerTimeAbs: new Date(Date.now() + HOUR).toISOString() } },
        { what: 'minLedgerTimeRel', bound: { minLedgerTimeRel: { seconds: HOUR / 1000, nanos: 0 } } },
      ];
      for (const { what, bound } of ahead) {
        const body: Json = { ...jsCommands(ctx, party, { CreateCommand: createCommand(ctx, party) }), ...bound };
        const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait', json: body });
        expectStatus(ctx, e, 409, `a submission dated an hour ahead by ${what} (ABORTED)`);
        expectCantonError(ctx, e, `a submission dated an hour ahead by ${what}`, ['LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND']);
      }
      const end = await ledgerEnd(ctx);
      const acs = await activeContracts(ctx, party, end.offset);
      if (acs.contracts.length > 0) ctx.fail(`the refused submission left ${acs.contracts.length} active contract(s) for ${party}`, acs.exchange);
    },
  },
  {
    id: 'ledger.interactive.replay-commits-nothing',
    title: 'An executed prepared transaction executed again, outside command deduplication, is refused and commits nothing',
    group: 'ledger',
    operationId: LedgerOp.executeAndWait,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: interactive submission executeAndWait; Canton's mediator deduplicates confirmation requests on the transaction UUID (DUPLICATE_CONFIRMATION_REQUEST_UUID)`,
    requires: { writes: true },
    async run(ctx) {
      needInteractive(ctx);
      const ext = await externalParty(ctx);
      const prepared = await prepare(ctx, ext);
      const sig = signature(ext.privateKey, prepared.hash, ext.fingerprint);
      // The party's updates from here: a participant that prunes refuses reads of its whole history.
      const begin = (await ledgerEnd(ctx)).offset;
      const first = await ctx.http.request('ledger', { method: 'POST', path: '/v2/interactive-submission/executeAndWait', json: executeBody(ctx, ext, prepared, sig) });
      expectStatus(ctx, first, 200, 'the first execution');
      const committed = objectBody(ctx, first, 'the first execution');
      if (typeof committed.completionOffset !== 'number') return ctx.fail('executeAndWait must answer {updateId, completionOffset}', first);
      // A zero deduplication period takes command deduplication out of the way: only the transaction UUID can stop the replay.
      const replay = { ...executeBody(ctx, ext, prepared, sig), deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 0, nanos: 0 } } } };
      const again = await ctx.http.request('ledger', { method: 'POST', path: '/v2/interactive-submission/executeAndWait', json: replay });
      expectStatus(ctx, again, [400, 409], 'the same signed transaction executed again');
      expectCantonError(ctx, again, 'the replay', ['DUPLICATE_CONFIRMATION_REQUEST_UUID', 'DUPLICATE_COMMAND']);
      const end = await ledgerEnd(ctx);
      const seen = await updates(ctx, ext.party, begin, end.offset);
      if (seen.transactions.length !== 1) ctx.fail(`one signature must commit one transaction; ${ext.party} sees ${seen.transactions.length}`, seen.exchange);
    },
  },
  {
    id: 'registry.transfer-factory.strict-timestamps',
    title: 'Transfer factory: timestamps the ledger refuses (a day the month lacks, year 0, 24:00) get 400, not a rolled-over date',
    group: 'registry',
    operationId: 'getTransferFactoryV1',
    level: 'MUST',
    kind: 'negative',
    specRef: 'token standard: transfer-instruction-v1 getTransferFactory 400; RFC 3339 date-time (days of the month, years 0001-9999, hours 00-23), as the ledger parses Daml Time',
    async run(ctx) {
      serves(ctx, 'transfer-instruction-v1');
      for (const bad of ['2025-02-30T00:00:00Z', '0000-01-01T00:00:00Z', '2025-01-01T24:00:00Z']) {
        const e = await post(ctx, '/registry/transfer-instruction/v1/transfer-factory', { choiceArguments: await transferArgs(ctx, { requestedAt: bad }) }, 'getTransferFactoryV1');
        expectStatus(ctx, e, 400, `transfer factory with requestedAt ${bad}`);
        expectErrorResponse(ctx, e, `requestedAt ${bad}`);
      }
    },
  },
];
