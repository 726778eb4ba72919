import { describe, expect, it } from 'vitest';
import type { JsCommands } from '../../reference-server/src/ledger/index.js';
import { createAsset, must, refused, world } from './helpers.js';

function cmds(actAs: string, owner: string, extra: Partial<JsCommands> = {}): JsCommands {
  return { userId: 'u', commandId: 'same-command', actAs: [actAs], commands: [createAsset(actAs, owner)], ...extra };
}

describe('command deduplication on (userId, actAs, commandId)', () => {
  it('refuses a repeat inside the default (maximum) window with DUPLICATE_COMMAND', () => {
    const { ledger, alice, bank } = world();
    const first = must(ledger.submitAndWait(cmds(bank, alice, { submissionId: 'sub-1' })));
    const e = refused(ledger.submitAndWait(cmds(bank, alice)), 'DUPLICATE_COMMAND');
    expect(e.context).toMatchObject({ existing_submission_id: 'sub-1', completion_offset: String(first.completionOffset) });
  });

  it('treats another user, another actAs set or another command id as a different change', () => {
    const { ledger, alice, bank } = world();
    must(ledger.submitAndWait(cmds(bank, alice)));
    must(ledger.submitAndWait(cmds(bank, alice, { userId: 'other' })));
    must(ledger.submitAndWait(cmds(bank, alice, { commandId: 'other' })));
    must(ledger.submitAndWait({ ...cmds(bank, alice), actAs: [bank, alice] }));
  });

  it('honours DeduplicationDuration: a repeat after the window is accepted', () => {
    const { ledger, clock, alice, bank } = world();
    const period = { DeduplicationDuration: { value: { seconds: 60, nanos: 0 } } };
    must(ledger.submitAndWait(cmds(bank, alice, { deduplicationPeriod: period })));
    clock.advance(30_000);
    refused(ledger.submitAndWait(cmds(bank, alice, { deduplicationPeriod: period })), 'DUPLICATE_COMMAND');
    clock.advance(31_000);
    must(ledger.submitAndWait(cmds(bank, alice, { deduplicationPeriod: period })));
  });

  it('honours DeduplicationOffset: only acceptances after the offset count', () => {
    const { ledger, alice, bank } = world();
    const first = must(ledger.submitAndWait(cmds(bank, alice)));
    refused(ledger.submitAndWait(cmds(bank, alice, { deduplicationPeriod: { DeduplicationOffset: { value: first.completionOffset - 1 } } })), 'DUPLICATE_COMMAND');
    must(ledger.submitAndWait(cmds(bank, alice, { deduplicationPeriod: { DeduplicationOffset: { value: first.completionOffset } } })));
  });

  it('applies the maximum for Empty', () => {
    const { ledger, clock, alice, bank } = world({ maxDeduplicationDurationMs: 10_000 });
    must(ledger.submitAndWait(cmds(bank, alice)));
    clock.advance(5_000);
    refused(ledger.submitAndWait(cmds(bank, alice, { deduplicationPeriod: { Empty: {} } })), 'DUPLICATE_COMMAND');
    clock.advance(6_000);
    must(ledger.submitAndWait(cmds(bank, alice, { deduplicationPeriod: { Empty: {} } })));
  });

  it('refuses periods beyond the maximum or malformed', () => {
    const { ledger, alice, bank } = world({ maxDeduplicationDurationMs: 10_000 });
    const e = refused(ledger.submitAndWait(cmds(bank, alice, { deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 11, nanos: 0 } } } })), 'INVALID_DEDUPLICATION_PERIOD');
    expect(e.context).toEqual({ longest_duration: 'PT10S' });
    refused(ledger.submitAndWait(cmds(bank, alice, { deduplicationPeriod: { DeduplicationOffset: { value: 10_000 } } })), 'INVALID_DEDUPLICATION_PERIOD');
    refused(ledger.submitAndWait(cmds(bank, alice, { deduplicationPeriod: { DeduplicationDuration: { value: { seconds: -1, nanos: 0 } } } })), 'INVALID_FIELD');
  });

  it('does not let a failed submission occupy the change id', () => {
    const { ledger, alice, bank } = world();
    // same change id, but interpretation fails (alice cannot sign for bank)
    refused(ledger.submitAndWait({ ...cmds(bank, alice), commands: [createAsset(alice, bank)] }), 'DAML_AUTHORIZATION_ERROR');
    must(ledger.submitAndWait(cmds(bank, alice)));
  });

  it('reports a duplicate async submission on the completion stream', async () => {
    const { ledger, alice, bank } = world();
    must(ledger.submitAndWait(cmds(bank, alice)));
    const begin = ledger.ledgerEnd().offset;
    must(ledger.submitAsync(cmds(bank, alice)));
    await new Promise((r) => setImmediate(r));
    const completions = [...must(ledger.completions({ userId: 'u', parties: [bank], beginExclusive: begin }))];
    const c = completions[0]?.completionResponse;
    expect(c && 'Completion' in c && c.Completion.value.status).toMatchObject({ code: 6, message: expect.stringContaining('DUPLICATE_COMMAND') });
  });

  it('refuses a second submission while the first is in flight', () => {
    const { ledger, alice, bank } = world();
    must(ledger.submitAsync(cmds(bank, alice)));
    refused(ledger.submitAsync(cmds(bank, alice)), 'SUBMISSION_ALREADY_IN_FLIGHT');
    refused(ledger.submitAndWait(cmds(bank, alice)), 'SUBMISSION_ALREADY_IN_FLIGHT');
  });
});
