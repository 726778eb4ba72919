import { activeContracts, completionOf, createContract, ledgerEnd, readActiveContracts, readParty, suiteParty, updatesRequest, userIdOf } from './support/ledger.js';
import { bodyOf, expectCantonError, expectStatus, isObject, objectBody, type Json } from './support/expect.js';
import { LedgerOp, SD_B, UPSTREAM_B } from './ledgerOps.js';
import { jsonOf, type Exchange } from '../target/exchange.js';
import type { CheckContext, CheckDefinition } from './types.js';

const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });

async function synchronizers(ctx: CheckContext): Promise<{ e: Exchange; list: Json[]; ids: string[] }> {
  const e = await ctx.http.request('ledger', { method: 'GET', path: '/v2/state/connected-synchronizers' });
  expectStatus(ctx, e, 200, 'GET /v2/state/connected-synchronizers');
  // GetConnectedSynchronizersResponse requires no member: none connected may be answered {}.
  const answered = objectBody(ctx, e, 'connected synchronizers').connectedSynchronizers ?? [];
  if (!Array.isArray(answered)) return ctx.fail('connected-synchronizers must answer {connectedSynchronizers: [...]} (a list)', e);
  const list = answered.filter(isObject);
  return { e, list, ids: list.map((s) => String(s.synchronizerId)) };
}

/**
 * The synchronizers the participant's package vetting names (POST /v2/package-vetting/list, all
 * pages), or undefined where the target does not list vetting (an older API, or not to this user).
 */
async function vettingSynchronizers(ctx: CheckContext): Promise<{ e: Exchange; ids: string[] } | undefined> {
  const ids = new Set<string>();
  let token = '';
  for (let page = 0; page < 50; page++) {
    const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/package-vetting/list', json: token === '' ? {} : { pageToken: token } });
    if (e.response?.status !== 200) return undefined;
    const b = objectBody(ctx, e, 'vetted packages');
    for (const v of Array.isArray(b.vettedPackages) ? b.vettedPackages : []) if (isObject(v) && typeof v.synchronizerId === 'string' && v.synchronizerId !== '') ids.add(v.synchronizerId);
    token = typeof b.nextPageToken === 'string' ? b.nextPageToken : '';
    if (token === '') return { e, ids: [...ids] };
  }
  return undefined;
}

/** The ACS entry (any kind) of one contract at the ledger end, as `party`. */
async function entryOf(ctx: CheckContext, party: string, contractId: string): Promise<{ e: Exchange; kind?: string; entry?: Json }> {
  const end = (await ledgerEnd(ctx)).offset;
  const { exchange: e, entries } = await readActiveContracts(ctx, { activeAtOffset: end, eventFormat: { filtersByParty: { [party]: {} }, verbose: false } }, 'active contracts');
  for (const item of entries) {
    const entry = isObject(item) && isObject(item.contractEntry) ? item.contractEntry : undefined;
    const [kind] = entry ? Object.keys(entry) : [];
    const v = kind && isObject(entry![kind]) ? (entry![kind] as Json) : undefined;
    const ev = v && (isObject(v.createdEvent) ? v.createdEvent : isObject(v.unassignedEvent) ? v.unassignedEvent : isObject(v.assignedEvent) && isObject(v.assignedEvent.createdEvent) ? v.assignedEvent.createdEvent : undefined);
    if (isObject(ev) && ev.contractId === contractId) return { e, kind, entry: v };
  }
  return { e };
}

function reassignmentBody(ctx: CheckContext, party: string, command: Json): Json {
  const userId = userIdOf(ctx);
  return { reassignmentCommands: { commandId: ctx.unique('cc-reassign'), ...(userId === undefined ? {} : { userId }), submitter: party, commands: [{ command }] } };
}

/** A fresh contract, where it lives, and the synchronizer to move it to. */
async function movable(ctx: CheckContext): Promise<{ party: string; contractId: string; source: string; target: string }> {
  const { ids } = await synchronizers(ctx);
  if (ids.length < 2) ctx.skip('the target is connected to fewer than two synchronizers: nothing to reassign between');
  const party = await suiteParty(ctx);
  const created = await createContract(ctx, party);
  const acs = await activeContracts(ctx, party, created.completionOffset, { templateId: ctx.profile.ledger?.template?.templateId });
  const source = acs.contracts.find((c) => c.createdEvent.contractId === created.contractId)?.synchronizerId ?? ids[0]!;
  return { party, contractId: created.contractId, source, target: ids.find((s) => s !== source)! };
}

export const ledgerSynchronizerChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.synchronizers.connected',
    title: 'Connected synchronizers: each has an id (and, asked for a party, that party\'s permission), every active contract and every synchronizer of the package vetting is on one of them, and a party that submits is hosted there with submission permission',
    operationId: LedgerOp.connectedSynchronizers,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: StateService GetConnectedSynchronizers; JsActiveContract.synchronizer_id; PackageService ListVettedPackages (VettedPackages.synchronizer_id: the topology state of connected synchronizers); topology ParticipantPermission (only Submission lets the participant submit for a party)`,
    async run(ctx) {
      const { e, list, ids } = await synchronizers(ctx);
      if (ids.length === 0) ctx.fail('a participant serving the ledger API is connected to no synchronizer', e);
      // ConnectedSynchronizer.permission is "set if a party was used in the request, otherwise
      // unspecified" (optional since 3.5.1): asked without a party, it may be absent, never another value.
      const bad = list.find((s) => typeof s.synchronizerId !== 'string' || !String(s.synchronizerId).includes('::') || (s.permission !== undefined && (typeof s.permission !== 'string' || !String(s.permission).startsWith('PARTICIPANT_PERMISSION_'))));
      if (bad) ctx.fail(`entry ${JSON.stringify(bad)} lacks synchronizerId <alias>::<namespace>, or has a permission other than PARTICIPANT_PERMISSION_*`, e);
      // The vetting state the participant lists is read from the topology of the synchronizers it is connected to.
      const vetted = await vettingSynchronizers(ctx);
      const unlisted = vetted?.ids.find((id) => !ids.includes(id));
      if (vetted && unlisted !== undefined) ctx.fail(`the participant's package vetting names synchronizer ${unlisted}, which is not among the connected synchronizers [${ids.join(', ')}]`, vetted.e);
      const party = await readParty(ctx);
      if (party === undefined) return;
      if (ctx.profile.writes && ctx.profile.ledger?.template) {
        // The participant just submitted for `party` on a synchronizer: it hosts the party there with
        // submission permission (Canton refuses a submission through a participant that only confirms or observes).
        const created = await createContract(ctx, party);
        const tx = objectBody(ctx, created.exchange, 'submit-and-wait-for-transaction').transaction;
        const on = isObject(tx) && typeof tx.synchronizerId === 'string' ? tx.synchronizerId : undefined;
        const hosted = await ctx.http.request('ledger', { method: 'GET', path: '/v2/state/connected-synchronizers', query: { party } });
        expectStatus(ctx, hosted, 200, 'GET /v2/state/connected-synchronizers?party=');
        const entries = objectBody(ctx, hosted, 'connected synchronizers of a party').connectedSynchronizers;
        const entry = Array.isArray(entries) ? entries.filter(isObject).find((s) => s.synchronizerId === on) : undefined;
        if (on !== undefined && entry === undefined) ctx.fail(`${party} just submitted a transaction on ${on}, which the party's connected synchronizers do not name`, hosted);
        if (entry !== undefined && entry.permission !== 'PARTICIPANT_PERMISSION_SUBMISSION') {
          ctx.fail(`${party} just submitted a transaction through this participant on ${on}, yet its permission there is ${String(entry.permission)}, not PARTICIPANT_PERMISSION_SUBMISSION`, hosted);
        }
      }
      const acs = await activeContracts(ctx, party, (await ledgerEnd(ctx)).offset);
      const stray = acs.contracts.find((c) => c.synchronizerId !== undefined && !ids.includes(c.synchronizerId));
      if (stray) ctx.fail(`contract ${stray.createdEvent.contractId} lives on ${stray.synchronizerId}, which is not among the connected synchronizers [${ids.join(', ')}]`, acs.exchange);
    },
  }),
  check({
    id: 'ledger.pruned-offsets.shape',
    title: 'Latest pruned offsets are non-negative, at most the ledger end, and what follows the pruned offset is answerable: active contracts at it and one offset on, the updates after it',
    operationId: LedgerOp.prunedOffsets,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: StateService GetLatestPrunedOffsets; activeAtOffset must be >= the last pruning offset`,
    async run(ctx) {
      const e = await ctx.http.request('ledger', { method: 'GET', path: '/v2/state/latest-pruned-offsets' });
      expectStatus(ctx, e, 200, 'GET /v2/state/latest-pruned-offsets');
      const b = objectBody(ctx, e, 'latest pruned offsets');
      const end = (await ledgerEnd(ctx)).offset;
      const values: Record<string, number> = {};
      for (const k of ['participantPrunedUpToInclusive', 'allDivulgedContractsPrunedUpToInclusive']) {
        const v = b[k] ?? 0;
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > end) return ctx.fail(`${k} must be an integer between 0 and the ledger end ${end}, got ${JSON.stringify(b[k])}`, e);
        values[k] = v;
      }
      if (values.allDivulgedContractsPrunedUpToInclusive! > values.participantPrunedUpToInclusive!) ctx.fail('divulged contracts are pruned further than the participant itself', e);
      const at = values.participantPrunedUpToInclusive!;
      const party = await readParty(ctx);
      const eventFormat = party === undefined ? { filtersForAnyParty: {}, verbose: false } : { filtersByParty: { [party]: {} }, verbose: false };
      const acs = await ctx.http.request('ledger', { method: 'POST', path: '/v2/state/active-contracts', json: { activeAtOffset: at, eventFormat } });
      if (acs.response?.status === 403) return;
      // 413 (more than http-list-max-elements-limit) also says the offset itself was accepted.
      expectStatus(ctx, acs, [200, 413], `active contracts at the pruned offset ${at}`);
      // What a client starting its history at the pruned offset the participant reports reads next
      // (PQS, a wallet's history): the updates after it and the active contracts one offset on. A
      // participant pruned further than it says refuses them (PARTICIPANT_PRUNED_DATA_ACCESSED).
      if (at >= end) return;
      // Pruning may run meanwhile: a refusal as pruned counts only while the participant still
      // reports the offset it said before.
      const prunedSince = async (x: Exchange): Promise<boolean> => {
        const refusal = jsonOf(x);
        if ((x.response?.status ?? 0) < 400 || !refusal.ok || !isObject(refusal.value) || refusal.value.code !== 'PARTICIPANT_PRUNED_DATA_ACCESSED') return false;
        const again = await ctx.http.request('ledger', { method: 'GET', path: '/v2/state/latest-pruned-offsets' });
        const reported = jsonOf(again);
        const now = again.response?.status === 200 && reported.ok && isObject(reported.value) ? reported.value.participantPrunedUpToInclusive : undefined;
        return typeof now === 'number' && now > at;
      };
      const after = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates', query: { limit: 1, stream_idle_timeout_ms: 300 }, json: updatesRequest(party, at, end) });
      if (after.response?.status === 403 || await prunedSince(after)) return;
      expectStatus(ctx, after, [200, 413], `the updates after the pruned offset ${at} (beginExclusive ${at})`);
      const next = await ctx.http.request('ledger', { method: 'POST', path: '/v2/state/active-contracts', json: { activeAtOffset: at + 1, eventFormat } });
      if (await prunedSince(next)) return;
      expectStatus(ctx, next, [200, 413], `active contracts at offset ${at + 1}, after the pruned offset ${at}`);
    },
  }),
  check({
    id: 'ledger.health.readyz',
    title: 'GET /readyz needs no token: 200 when ready (503 while not, 404 where health is served elsewhere), never 401/403',
    operationId: LedgerOp.readyz,
    level: 'MUST',
    kind: 'example',
    specRef: 'Canton 3.5 JSON API: /readyz (health endpoints are probed without credentials, e.g. by Kubernetes)',
    async run(ctx) {
      const e = await ctx.http.request('ledger', { method: 'GET', path: '/readyz', auth: 'none' });
      const r = expectStatus(ctx, e, [200, 404, 503], 'GET /readyz without a token');
      if (r.status !== 200) ctx.warn(`GET /readyz answered ${r.status}: readiness cannot be probed on this address`);
    },
  }),
  check({
    id: 'ledger.reassignment.unassign-assign',
    title: 'Unassign then assign moves a contract: both events name its source and target, in flight it shows as JsIncompleteUnassigned, afterwards active on the target synchronizer',
    operationId: LedgerOp.submitAndWaitForReassignment,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: reassignment; ${UPSTREAM_B}: UnassignCommand, AssignCommand, UnassignedEvent/AssignedEvent source and target, JsIncompleteUnassigned`,
    requires: { writes: true },
    async run(ctx) {
      const m = await movable(ctx);
      // Reassignment counters (reassignment.proto): 0 at creation, the same on an unassignment and its
      // assignment, one more with each unassignment; an active contract shows its latest activation's.
      const before = await entryOf(ctx, m.party, m.contractId);
      if (before.kind === 'JsActiveContract' && before.entry?.reassignmentCounter !== 0) {
        ctx.fail(`the contract was just created and never reassigned, yet its active-contract entry has reassignmentCounter ${JSON.stringify(before.entry?.reassignmentCounter)}, not 0`, before.e);
      }
      const un = await ctx.http.request('ledger', {
        method: 'POST',
        path: '/v2/commands/submit-and-wait-for-reassignment',
        json: { ...reassignmentBody(ctx, m.party, { UnassignCommand: { value: { contractId: m.contractId, source: m.source, target: m.target } } }), eventFormat: { filtersByParty: { [m.party]: {} }, verbose: false } },
      });
      expectStatus(ctx, un, 200, 'unassign');
      const r = objectBody(ctx, un, 'unassign').reassignment;
      const ev = isObject(r) && Array.isArray(r.events) ? r.events.find((x) => isObject(x) && isObject(x.JsUnassignedEvent)) : undefined;
      const value = isObject(ev) && isObject(ev.JsUnassignedEvent) ? (isObject(ev.JsUnassignedEvent.value) ? ev.JsUnassignedEvent.value : ev.JsUnassignedEvent) : undefined;
      if (!value || value.contractId !== m.contractId || typeof value.reassignmentId !== 'string' || value.target !== m.target) return ctx.fail(`the unassignment answered no JsUnassignedEvent of ${m.contractId} to ${m.target} with a reassignmentId`, un);
      if (value.reassignmentCounter !== 1) ctx.fail(`the first unassignment of a contract created with reassignmentCounter 0 has reassignmentCounter ${JSON.stringify(value.reassignmentCounter)}, not 1`, un);
      const inFlight = await entryOf(ctx, m.party, m.contractId);
      if (inFlight.kind !== 'JsIncompleteUnassigned') ctx.fail(`while in flight the contract shows as ${inFlight.kind ?? 'nothing'} in the active contracts, not JsIncompleteUnassigned`, inFlight.e);
      else if (isObject(inFlight.entry?.unassignedEvent) && inFlight.entry.unassignedEvent.reassignmentCounter !== value.reassignmentCounter) {
        ctx.fail(`in flight, the unassigned event in the active contracts has reassignmentCounter ${JSON.stringify(inFlight.entry.unassignedEvent.reassignmentCounter)}; the unassignment answered ${JSON.stringify(value.reassignmentCounter)}`, inFlight.e);
      }
      const as = await ctx.http.request('ledger', {
        method: 'POST',
        path: '/v2/commands/submit-and-wait-for-reassignment',
        json: { ...reassignmentBody(ctx, m.party, { AssignCommand: { value: { reassignmentId: value.reassignmentId, source: m.source, target: m.target } } }), eventFormat: { filtersByParty: { [m.party]: {} }, verbose: false } },
      });
      expectStatus(ctx, as, 200, 'assign');
      const ar = objectBody(ctx, as, 'assign').reassignment;
      const aev = isObject(ar) && Array.isArray(ar.events) ? ar.events.find((x) => isObject(x) && isObject(x.JsAssignmentEvent)) : undefined;
      const assigned = isObject(aev) && isObject(aev.JsAssignmentEvent) ? (isObject(aev.JsAssignmentEvent.value) ? aev.JsAssignmentEvent.value : aev.JsAssignmentEvent) : undefined;
      // Both halves name where the contract left and where it went, as the commands did.
      if (value.source !== m.source) ctx.fail(`the unassigned event names source ${JSON.stringify(value.source)}; the contract left ${m.source}`, un);
      if (assigned !== undefined && (assigned.source !== m.source || assigned.target !== m.target)) {
        ctx.fail(`the assigned event names source ${JSON.stringify(assigned.source)} and target ${JSON.stringify(assigned.target)}; the contract moved from ${m.source} to ${m.target}`, as);
      }
      // reassignment.proto: an AssignedEvent's reassignment_id is "the ID from the unassigned event": clients pair the two halves by it.
      if (assigned !== undefined && assigned.reassignmentId !== value.reassignmentId) {
        ctx.fail(`the assigned event has reassignmentId ${JSON.stringify(assigned.reassignmentId)}; the unassignment it completes had ${JSON.stringify(value.reassignmentId)} (an assignment carries its unassignment's id)`, as);
      }
      if (assigned !== undefined && assigned.reassignmentCounter !== value.reassignmentCounter) {
        ctx.fail(`the assignment has reassignmentCounter ${JSON.stringify(assigned.reassignmentCounter)}; its unassignment had ${JSON.stringify(value.reassignmentCounter)} (the two of one reassignment share it)`, as);
      }
      const after = await entryOf(ctx, m.party, m.contractId);
      if (after.kind !== 'JsActiveContract' || after.entry?.synchronizerId !== m.target) ctx.fail(`after the assignment the contract shows as ${after.kind ?? 'nothing'} on ${String(after.entry?.synchronizerId)}, expected JsActiveContract on ${m.target}`, after.e);
      else if (after.entry.reassignmentCounter !== value.reassignmentCounter) {
        ctx.fail(`after the assignment the active contract has reassignmentCounter ${JSON.stringify(after.entry.reassignmentCounter)}, not its assignment's ${JSON.stringify(value.reassignmentCounter)}`, after.e);
      }
    },
  }),
  check({
    id: 'ledger.reassignment.async-completion',
    title: 'async/submit-reassignment answers {} and the unassignment then completes on the completion stream; a second unassignment of it is refused',
    operationId: LedgerOp.asyncSubmitReassignment,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: POST /v2/commands/async/submit-reassignment (outcome on completions); ${UPSTREAM_B}: reassignment of a contract already in flight is refused`,
    requires: { writes: true },
    async run(ctx) {
      const m = await movable(ctx);
      const begin = (await ledgerEnd(ctx)).offset;
      const body = reassignmentBody(ctx, m.party, { UnassignCommand: { value: { contractId: m.contractId, source: m.source, target: m.target } } });
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/async/submit-reassignment', json: body });
      expectStatus(ctx, e, 200, 'async submit-reassignment');
      if (!isObject(bodyOf(ctx, e, 'async submit-reassignment'))) ctx.fail('async submit-reassignment must answer a JSON object ({})', e);
      const { e: ce, completion } = await completionOf(ctx, m.party, begin, String((body.reassignmentCommands as Json).commandId));
      const status = isObject(completion.status) ? completion.status.code ?? 0 : 0;
      if (status !== 0) ctx.fail(`the unassignment completed with status ${JSON.stringify(completion.status)}`, ce);
      const again = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait-for-reassignment', json: reassignmentBody(ctx, m.party, { UnassignCommand: { value: { contractId: m.contractId, source: m.source, target: m.target } } }) });
      const r = expectStatus(ctx, again, [400, 404, 409], 'unassigning a contract already in flight');
      if (r.status >= 400) expectCantonError(ctx, again, 'unassigning a contract in flight');
    },
  }),
];
