import { userIdArb } from '../generators/identifiers.js';
import { completionOf, completionsOf, createCommand, freshParty, jsCommands, ledgerEnd, listAfter, neverExistedContractId, submitAndWait, suiteParty, userIdOf } from './support/ledger.js';
import { expectCantonError, expectStatus, isObject, jsonEqual, objectBody, bodyOf, snippet } from './support/expect.js';
import { forAll } from './support/property.js';
import { LedgerOp, SD_B, UPSTREAM_B } from './ledgerOps.js';
import type { CheckDefinition } from './types.js';

const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });

export const ledgerCommandChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.dedup.duplicate-409',
    title: 'Submitting the same change id twice is refused with 409 DUPLICATE_COMMAND, also with its actAs parties reordered, and with a deduplication period given as an offset before the first',
    operationId: LedgerOp.submitAndWait,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B} deduplication: (userId, actAs, commandId), actAs a set of parties; deduplication_period (DeduplicationOffset: changes accepted after the offset; a ledger may extend a period, never shorten it); DUPLICATE_COMMAND, HTTP 409`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const body = jsCommands(ctx, party, { CreateCommand: createCommand(ctx, party) }, ctx.unique('cc-dedup'));
      const first = await submitAndWait(ctx, body, 'first submission');
      const again = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait', json: body });
      expectStatus(ctx, again, 409, 'the same change id submitted again');
      expectCantonError(ctx, again, 'duplicate submission', ['DUPLICATE_COMMAND', 'SUBMISSION_ALREADY_IN_FLIGHT']);
      // A period from the offset just before the first acceptance covers it.
      const since = first.completionOffset - 1;
      const byOffset = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait', json: { ...body, deduplicationPeriod: { DeduplicationOffset: { value: since } } } });
      expectStatus(ctx, byOffset, 409, `the same change id with a deduplication period from offset ${since} (the first was accepted at ${first.completionOffset})`);
      expectCantonError(ctx, byOffset, 'duplicate submission (deduplication offset)', ['DUPLICATE_COMMAND']);
      // actAs is a set: the same parties in another order are the same change id (a client's retry may reorder them).
      if (!ctx.profile.ledger?.allocateParties) return;
      const other = await freshParty(ctx, 'cc-dedup-other');
      const pair = { ...jsCommands(ctx, party, { CreateCommand: createCommand(ctx, party) }, ctx.unique('cc-dedup-set')), actAs: [party, other] };
      await submitAndWait(ctx, pair, `a command acting as ${party} and ${other}`);
      const reordered = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait', json: { ...pair, actAs: [other, party] } });
      expectStatus(ctx, reordered, 409, 'the same command id again, acting as the same two parties listed in the other order');
      expectCantonError(ctx, reordered, 'duplicate submission (actAs reordered)', ['DUPLICATE_COMMAND', 'SUBMISSION_ALREADY_IN_FLIGHT']);
    },
  }),
  check({
    id: 'ledger.dedup.new-command-id-accepted',
    title: 'Only the whole change id deduplicates: the same commands under a new command id, or the same command id acting as another party, are not refused',
    operationId: LedgerOp.submitAndWait,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B} deduplication: the change id is (userId, actAs, commandId)`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const command = { CreateCommand: createCommand(ctx, party) };
      const commandId = ctx.unique('cc-change');
      const a = await submitAndWait(ctx, jsCommands(ctx, party, command, commandId), 'first submission');
      const b = await submitAndWait(ctx, jsCommands(ctx, party, command), 'same commands, new command id');
      if (a.updateId === b.updateId) ctx.fail('two submissions got the same updateId', b.exchange);
      // Independent submitters may pick the same command id: a table keyed on it alone refuses one of them.
      if (!ctx.profile.ledger?.allocateParties) return;
      const other = await freshParty(ctx, 'cc-change-other');
      const c = await submitAndWait(ctx, jsCommands(ctx, other, { CreateCommand: createCommand(ctx, other) }, commandId), `command id ${commandId} again, acting as another party (a new change id)`);
      if (c.updateId === a.updateId) ctx.fail('the submission as another party answered the first submission\'s updateId', c.exchange);
    },
  }),
  check({
    id: 'ledger.dedup.rejected-not-deduplicated',
    title: 'A command the ledger refused does not take its change id: the same command id, resubmitted as a command that can succeed, is accepted',
    operationId: LedgerOp.submitAndWait,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B} deduplication: only accepted changes are deduplicated (a rejected submission may be retried under the same change id)`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const commandId = ctx.unique('cc-dedup-retry');
      const { templateId } = createCommand(ctx, party);
      // An exercise on a contract that never existed: refused by the ledger (CONTRACT_NOT_FOUND), not by the request decoder.
      const refused = await ctx.http.request('ledger', {
        method: 'POST',
        path: '/v2/commands/submit-and-wait',
        json: jsCommands(ctx, party, { ExerciseCommand: { templateId, contractId: neverExistedContractId('7c'), choice: 'Archive', choiceArgument: {} } }, commandId),
      });
      const status = refused.response?.status;
      if (status === undefined || status < 400) return ctx.skip(`an exercise on a contract that never existed answered HTTP ${String(status)}, not a refusal: nothing to retry`);
      const refusal = bodyOf(ctx, refused, 'refusal');
      const code = isObject(refusal) ? refusal.code : undefined;
      if (code === 'DUPLICATE_COMMAND') ctx.fail(`the first submission of command id ${commandId} was refused as a duplicate`, refused);
      const retry = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait', json: jsCommands(ctx, party, { CreateCommand: createCommand(ctx, party) }, commandId) });
      if (retry.response?.status !== 200) {
        ctx.fail(`command id ${commandId}, refused once by the ledger (HTTP ${status}), was refused again when retried with a command that can succeed (HTTP ${String(retry.response?.status)}): ${snippet(retry, 200)}`, retry);
      }
    },
  }),
  check({
    id: 'ledger.dedup.reuse-after-period',
    title: 'A change id is deduplicated within the requested DeduplicationDuration and accepted again once it has passed',
    operationId: LedgerOp.submitAndWait,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B} deduplication_period: DeduplicationDuration, measured back from the submission's record time`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      // One second: long enough to see the duplicate refused at once, short enough for a run.
      const body = { ...jsCommands(ctx, party, { CreateCommand: createCommand(ctx, party) }, ctx.unique('cc-dedup-period')), deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 1, nanos: 0 } } } };
      const first = await submitAndWait(ctx, body, 'first submission (deduplication duration 1 s)');
      const within = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait', json: body });
      expectStatus(ctx, within, 409, 'the same change id again within its 1 s deduplication duration');
      await new Promise((r) => setTimeout(r, 1_500));
      const after = await submitAndWait(ctx, body, 'the same change id 1.5 s later, after its 1 s deduplication duration');
      if (after.updateId === first.updateId) ctx.fail('the resubmission after the deduplication period answered the first update id instead of a new one', after.exchange);
    },
  }),
  check({
    id: 'ledger.async.submit-then-completion',
    title: 'Async submit answers {} and the command then completes successfully on the completions stream, naming the submission id and acting parties it was sent with, and on no other user\'s stream',
    operationId: LedgerOp.asyncSubmit,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: POST /v2/commands/async/submit (returns immediately; outcome on completions); ${UPSTREAM_B} Completion.submission_id (the submission id of the Commands it completes), Completion.act_as (its act_as among the requested parties); CompletionStreamRequest.user_id (only completions of commands submitted with the same user_id are visible)`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const begin = await ledgerEnd(ctx);
      const commandId = ctx.unique('cc-async');
      // A client tells its retries of one command apart by submission id: the completion names it.
      const submissionId = ctx.unique('cc-async-submission');
      const body = { ...jsCommands(ctx, party, { CreateCommand: createCommand(ctx, party) }, commandId), submissionId };
      const submit = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/async/submit', json: body });
      expectStatus(ctx, submit, 200, 'async submit');
      if (!isObject(bodyOf(ctx, submit, 'async submit'))) ctx.fail('async submit must answer a JSON object ({})', submit);
      const { completion: value, e } = await completionOf(ctx, party, begin.offset, commandId);
      const status = isObject(value.status) ? value.status : undefined;
      if (status && status.code !== 0) ctx.fail(`the command completed with status ${JSON.stringify(status)}`, e);
      if (typeof value.offset !== 'number' || value.offset <= begin.offset) ctx.fail(`the completion's offset ${JSON.stringify(value.offset)} is not after ${begin.offset}`, e);
      if (value.submissionId !== submissionId) ctx.fail(`the command was submitted with submissionId ${submissionId}; its completion names ${JSON.stringify(value.submissionId)}`, e);
      // actAs: the command's acting parties among those the completions were asked for (here the one).
      if (!jsonEqual(value.actAs, [party])) ctx.fail(`the command acted as [${party}]; its completion names actAs ${JSON.stringify(value.actAs)}`, e);
      // The stream is an application's: another user's read of the same party's completions does
      // not show this command. Judged where the target lets this user read for another user id.
      const otherUser = ctx.unique('cc-other-app').replace(/[^a-zA-Z0-9_-]/g, '-');
      const other = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/completions', operationId: LedgerOp.completions, query: { limit: 100, stream_idle_timeout_ms: 300 }, json: { userId: otherUser, parties: [party], beginExclusive: begin.offset } });
      if (other.response?.status === 200) {
        const list = bodyOf(ctx, other, 'completions of another user');
        const leaked = Array.isArray(list) ? completionsOf(list).find((c) => c.commandId === commandId) : undefined;
        if (leaked) ctx.fail(`the completions of user ${otherUser}, who submitted nothing, include command ${commandId}, submitted by ${userIdOf(ctx) ?? 'the run\'s user'}: the completion stream shows only the commands its userId submitted`, other);
      }
    },
  }),
  check({
    id: 'ledger.async.rejection-completes',
    title: 'An async submission the ledger rejects after accepting it (a duplicate change id) completes on the completions stream with a non-OK status and no update id',
    operationId: LedgerOp.asyncSubmit,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: POST /v2/commands/async/submit (outcome on completions); ${UPSTREAM_B} Completion.status (a rejection carries its gRPC status), Completion.update_id (only set for successfully executed commands), command deduplication (ALREADY_EXISTS)`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const commandId = ctx.unique('cc-async-dup');
      const body = jsCommands(ctx, party, { CreateCommand: createCommand(ctx, party) }, commandId);
      await submitAndWait(ctx, body, 'first submission');
      // After the first completion: the only completion of this command id past here is the duplicate's.
      const begin = await ledgerEnd(ctx);
      const again = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/async/submit', json: body });
      // Refused at once (409): the client learned of the rejection without the stream; nothing more to judge.
      if (again.response?.status === 409) return;
      expectStatus(ctx, again, 200, 'async submit of the same change id');
      const { completion: value, e: exchange } = await completionOf(ctx, party, begin.offset, commandId, 'the duplicate');
      const status = isObject(value.status) ? value.status : undefined;
      if (status === undefined || status.code === 0) ctx.fail(`the duplicate of command ${commandId} completed with status ${JSON.stringify(value.status)}: a rejection must carry a non-OK code`, exchange);
      // Completion.update_id is "only set for successfully executed commands": a client that finds
      // one looks the update up and takes its rejected command for committed.
      if (typeof value.updateId === 'string' && value.updateId !== '') ctx.fail(`the rejected duplicate of command ${commandId} completed naming update ${value.updateId}: a completion names an update only for a command that was executed`, exchange);
      // Its offset is where it sits in the stream: a client resuming from the offset before it reads
      // it again, one resuming from its own offset does not. An offset of another position makes a
      // client that resumes from the last completion it saw skip the next one, or read one twice.
      const at = value.offset;
      if (typeof at !== 'number' || !Number.isInteger(at) || at <= begin.offset) return ctx.fail(`the duplicate's completion has offset ${JSON.stringify(at)}; it was read after offset ${begin.offset}, so its offset must be an integer above that`, exchange);
      const userId = userIdOf(ctx);
      const from = (beginExclusive: number) => listAfter(ctx, '/v2/commands/completions', { ...(userId === undefined ? {} : { userId }), parties: [party], beginExclusive }, {
        what: `completions after offset ${beginExclusive}`, enough: (xs) => completionsOf(xs).some((c) => c.commandId === commandId),
      });
      const before = await from(at - 1);
      const reread = completionsOf(before.items).find((c) => c.commandId === commandId);
      if (reread === undefined || reread.offset !== at) {
        return ctx.fail(`the duplicate's completion has offset ${at}, but the completions after offset ${at - 1} ${reread === undefined ? 'do not include it' : `show it at offset ${JSON.stringify(reread.offset)}`}: a completion must be read from the offset before its own`, before.e);
      }
      const past = await from(at);
      if (completionsOf(past.items).some((c) => c.commandId === commandId)) ctx.fail(`the completions after offset ${at} include the duplicate's completion again, whose offset is ${at}: beginExclusive leaves out the completion at that offset`, past.e);
    },
  }),
  check({
    id: 'ledger.users.delete-then-404',
    title: 'Deleting a user answers 200 {}; deleting it again is 404 USER_NOT_FOUND',
    operationId: LedgerOp.deleteUser,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: DELETE /v2/users/{user-id} (200, empty JSON object); ${UPSTREAM_B} USER_NOT_FOUND 404`,
    requires: { writes: true },
    async run(ctx) {
      const id = ctx.unique('cc-user').replace(/[^a-z0-9_-]/g, '-');
      const create = await ctx.http.request('ledger', { method: 'POST', path: '/v2/users', json: { user: { id, isDeactivated: false, identityProviderId: '' }, rights: [] } });
      expectStatus(ctx, create, 200, `creating user ${id}`);
      const del = await ctx.http.request('ledger', { method: 'DELETE', path: `/v2/users/${encodeURIComponent(id)}` });
      expectStatus(ctx, del, 200, `deleting user ${id}`);
      const body = objectBody(ctx, del, 'delete user');
      if (!jsonEqual(body, {})) ctx.warn(`DELETE answered ${snippet(del)}; the documented answer is {}`);
      const again = await ctx.http.request('ledger', { method: 'DELETE', path: `/v2/users/${encodeURIComponent(id)}` });
      expectStatus(ctx, again, 404, `deleting user ${id} a second time`);
      expectCantonError(ctx, again, 'deleted user', ['USER_NOT_FOUND']);
    },
  }),
  check({
    id: 'ledger.users.delete-unknown-404',
    title: 'Deleting random unknown users is 404 USER_NOT_FOUND (property)',
    operationId: LedgerOp.deleteUser,
    level: 'MUST',
    kind: 'property',
    specRef: `${UPSTREAM_B}: unknown user, 404 USER_NOT_FOUND`,
    requires: { writes: true },
    async run(ctx) {
      await forAll(ctx, userIdArb().map((u) => `cc-absent-${u}`), async (id) => {
        const e = await ctx.http.request('ledger', { method: 'DELETE', path: `/v2/users/${encodeURIComponent(id)}` });
        expectStatus(ctx, e, 404, `deleting unknown user ${id}`);
        expectCantonError(ctx, e, 'unknown user', ['USER_NOT_FOUND']);
      });
    },
  }),
];
