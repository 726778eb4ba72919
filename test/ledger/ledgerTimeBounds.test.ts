import { describe, expect, it } from 'vitest';
import { LEDGER_TIME_RECORD_TIME_TOLERANCE_MS } from '../../reference-server/src/ledger/ledgerTime.js';
import { acsIds, createAsset, must, nextCommandId, refused, world } from './helpers.js';

/**
 * Ledger time stays within Canton's ledger-time / record-time tolerance (60 s): a submission
 * whose minLedgerTime asks for more is sequenced and refused by the confirmers with
 * LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND, so nobody can date a transaction past a deadline.
 */
const iso = (ms: number) => new Date(ms).toISOString();

describe('ledger time bounded by record time', () => {
  const cases: [string, (now: number) => Record<string, unknown>][] = [
    ['minLedgerTimeAbs an hour ahead', (now) => ({ minLedgerTimeAbs: iso(now + 3_600_000) })],
    ['minLedgerTimeAbs 9999-12-31', () => ({ minLedgerTimeAbs: '9999-12-31T23:59:59Z' })],
    ['minLedgerTimeRel of an hour', () => ({ minLedgerTimeRel: { seconds: 3600, nanos: 0 } })],
    ['minLedgerTimeAbs just past the tolerance', (now) => ({ minLedgerTimeAbs: iso(now + LEDGER_TIME_RECORD_TIME_TOLERANCE_MS + 1) })],
  ];
  for (const [what, extra] of cases) {
    it(`refuses ${what}, commits nothing and reports it on the completion`, () => {
      const { ledger, clock, alice } = world();
      const before = acsIds(ledger, alice);
      const commandId = nextCommandId();
      const e = refused(ledger.submitAndWait({ userId: 'u', commandId, actAs: [alice], commands: [createAsset(alice, alice)], ...extra(clock.now()) }), 'LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND');
      expect(e.cause).toMatch(/^Rejected transaction as delta of the ledger time and the record time exceed the time tolerance ledgerTime=.*, recordTime=.*, maxDelta=PT1M$/);
      expect(acsIds(ledger, alice)).toEqual(before);
      const completions = [...must(ledger.completions({ userId: 'u', parties: [alice], beginExclusive: 0 }))];
      const c = completions.at(-1)?.completionResponse;
      expect(c && 'Completion' in c && [c.Completion.value.commandId, c.Completion.value.status?.code]).toEqual([commandId, 10]);
      // A rejection does not take the change id: the same command at an honest time commits.
      must(ledger.submitAndWait({ userId: 'u', commandId, actAs: [alice], commands: [createAsset(alice, alice)] }));
    });
  }

  it('commits within the tolerance, at the ledger time asked for', () => {
    const { ledger, clock, alice } = world();
    const at = clock.now() + LEDGER_TIME_RECORD_TIME_TOLERANCE_MS;
    const r = must(
      ledger.submitAndWaitForTransaction({
        commands: { userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [createAsset(alice, alice)], minLedgerTimeAbs: iso(at) },
        transactionFormat: { eventFormat: { filtersByParty: { [alice]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
      }),
    );
    expect(Date.parse(r.transaction.effectiveAt)).toBe(at);
  });

  it('takes the record time for a minimum in the past, and now + the duration for minLedgerTimeRel', () => {
    const { ledger, clock, alice } = world();
    const effectiveAt = (extra: Record<string, unknown>) =>
      Date.parse(
        must(
          ledger.submitAndWaitForTransaction({
            commands: { userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [createAsset(alice, alice)], ...extra },
            transactionFormat: { eventFormat: { filtersByParty: { [alice]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
          }),
        ).transaction.effectiveAt,
      );
    expect(effectiveAt({ minLedgerTimeAbs: '2020-01-01T00:00:00Z' })).toBe(clock.now());
    expect(effectiveAt({ minLedgerTimeRel: { seconds: 30, nanos: 0 } })).toBe(clock.now() + 30_000);
  });

  it('refuses minLedgerTimeAbs and minLedgerTimeRel together, as Canton does', () => {
    const { ledger, alice } = world();
    const e = refused(
      ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [createAsset(alice, alice)], minLedgerTimeAbs: '2020-01-01T00:00:00Z', minLedgerTimeRel: { seconds: 1, nanos: 0 } }),
      'INVALID_ARGUMENT',
    );
    expect(e.cause).toMatch(/min_ledger_time_abs cannot be specified at the same time as min_ledger_time_rel/);
  });

  it('reports an async submission out of bounds on the completion stream', async () => {
    const { ledger, clock, alice } = world();
    const begin = ledger.ledgerEnd().offset;
    must(ledger.submitAsync({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [createAsset(alice, alice)], minLedgerTimeAbs: iso(clock.now() + 3_600_000) }));
    await new Promise((r) => setImmediate(r));
    const completions = [...must(ledger.completions({ userId: 'u', parties: [alice], beginExclusive: begin }))];
    const c = completions[0]?.completionResponse;
    expect(c && 'Completion' in c && c.Completion.value.status).toMatchObject({ code: 10, message: expect.stringContaining('LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND') });
  });
});
