import { jsonOf, type Exchange } from '../target/exchange.js';
import { executeBody, externalParty, needInteractive, prepare, signature } from './ledgerInteractive.js';
import { LedgerOp, UPSTREAM_B } from './ledgerOps.js';
import { bodyOf, expectCantonError, expectStatus, firstDifference, isObject, jsonEqual, objectBody, type Json } from './support/expect.js';
import { createCommand, createContract, eventFormat, jsCommands, ledgerEnd, neverExistedContractId, readParty, suiteParty, transactionJsonOf, updates, userIdOf } from './support/ledger.js';
import { firstSynchronizer, listVetted, ownParticipantId, skipUnlessAdmin, unvetChange, uploadFreshDar, vetChange, vettingUpdate } from './support/packages.js';
import type { CheckDefinition } from './types.js';

/**
 * Ledger answers judged by what they say, not their shape: transaction trees whose node ids and
 * subtree bounds describe the tree, write answers that show the write, the hash recorded on an
 * externally signed transaction, error metadata that agrees with Canton's error catalogue, and
 * point lookups that agree with the lists.
 */
const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });
const mask = (...paths: string[]) => ({ paths, unknownFields: { fields: {} } });

/** A transaction's events as tree nodes: node id, and for exercises the last descendant's. */
interface TreeNode {
  readonly kind: string;
  readonly nodeId: unknown;
  readonly last?: unknown;
}

function nodesOf(tx: Json): TreeNode[] {
  return (Array.isArray(tx.events) ? tx.events : []).filter(isObject).map((e) => {
    const [kind, value] = Object.entries(e)[0] ?? ['?', undefined];
    const v = isObject(value) ? value : {};
    return kind === 'ExercisedEvent' ? { kind, nodeId: v.nodeId, last: v.lastDescendantNodeId } : { kind, nodeId: v.nodeId };
  });
}

/**
 * What the node ids of one command's LEDGER_EFFECTS transaction must say (Canton's ExercisedEvent.
 * last_descendant_node_id): ids are integers, increasing in event order (pre-order); an exercise's
 * descendants are exactly the events after it up to its last descendant, so subtrees nest; and
 * with one command there is one root, every other event inside its subtree. A problem, or undefined.
 */
export function treeProblem(nodes: readonly TreeNode[], roots: number): string | undefined {
  let previous = -1;
  for (const n of nodes) {
    if (typeof n.nodeId !== 'number' || !Number.isInteger(n.nodeId)) return `a ${n.kind} has nodeId ${JSON.stringify(n.nodeId)}, not an integer`;
    if (n.nodeId <= previous) return `node ids do not increase in event order: ${n.nodeId} follows ${previous}`;
    previous = n.nodeId;
  }
  const open: { nodeId: number; last: number }[] = [];
  let found = 0;
  for (const n of nodes) {
    const id = n.nodeId as number;
    while (open.length > 0 && id > open.at(-1)!.last) open.pop();
    if (open.length === 0) found++;
    if (n.kind !== 'ExercisedEvent') continue;
    if (typeof n.last !== 'number' || !Number.isInteger(n.last) || n.last < id) return `the exercise at node ${id} has lastDescendantNodeId ${JSON.stringify(n.last)}: it must be an integer no smaller than its node id`;
    const parent = open.at(-1);
    if (parent && n.last > parent.last) return `the exercise at node ${id} (descendants up to ${n.last}) sits inside the exercise at node ${parent.nodeId} (descendants up to ${parent.last}) yet reaches past it: subtrees must nest`;
    open.push({ nodeId: id, last: n.last });
  }
  return found === roots ? undefined : `the transaction of ${roots} command(s) has ${found} root node(s): the subtree bounds (lastDescendantNodeId) leave ${found - roots > 0 ? 'consequences outside the exercise that caused them' : 'too few roots'}`;
}

/**
 * Canton's ErrorCategory (base/error/ErrorCategory.scala): its integer, the gRPC code it is sent with
 * (none for 13). 5 is (Unredacted)SecurityAlert, sent as INVALID_ARGUMENT since Canton 3.
 */
const GRPC_OF_CATEGORY: Readonly<Record<number, number | undefined>> = { 1: 14, 2: 10, 3: 4, 4: 13, 5: 3, 6: 16, 7: 7, 8: 3, 9: 9, 10: 6, 11: 5, 12: 11, 13: undefined, 14: 12 };
/** The JSON Ledger API's HTTP status for a gRPC code (GrpcHttpErrorCodes). */
const HTTP_OF_GRPC: Readonly<Record<number, number>> = { 1: 499, 2: 500, 3: 400, 4: 504, 5: 404, 6: 409, 7: 403, 8: 429, 9: 400, 10: 409, 11: 400, 12: 501, 13: 500, 14: 503, 15: 500, 16: 401 };
/** Error codes whose category the catalogue fixes. */
const CATEGORY_OF_CODE: Readonly<Record<string, number>> = {
  DUPLICATE_COMMAND: 10,
  SUBMISSION_ALREADY_IN_FLIGHT: 2,
  CONTRACT_NOT_FOUND: 11,
  CONTRACT_EVENTS_NOT_FOUND: 11,
  CONTRACT_PAYLOAD_NOT_FOUND: 11,
  USER_NOT_FOUND: 11,
  USER_ALREADY_EXISTS: 10,
  OFFSET_AFTER_LEDGER_END: 12,
  INVALID_ARGUMENT: 8,
  INVALID_FIELD: 8,
  MISSING_FIELD: 8,
  // The mediator's AlarmErrorCode for a replayed confirmation request (MediatorError.scala).
  DUPLICATE_CONFIRMATION_REQUEST_UUID: 5,
};

/** Why a JsCantonError answer's metadata disagree with each other, or undefined. */
export function errorMetadataProblem(status: number, body: Json): string | undefined {
  const cat = body.errorCategory;
  const grpc = body.grpcCodeValue ?? undefined;
  if (typeof cat !== 'number' || !Number.isInteger(cat)) return `errorCategory ${JSON.stringify(cat)} is not an integer`;
  if (grpc !== undefined && grpc !== null && (typeof grpc !== 'number' || !Number.isInteger(grpc))) return `grpcCodeValue ${JSON.stringify(grpc)} is not an integer`;
  if (cat === -1) {
    // A legacy gRPC error: no category, the code travels alone.
    if (typeof grpc !== 'number') return 'errorCategory -1 (a legacy error) needs the grpcCodeValue';
    return HTTP_OF_GRPC[grpc] === status ? undefined : `grpcCodeValue ${grpc} is sent as HTTP ${HTTP_OF_GRPC[grpc] ?? '?'}, not ${status}`;
  }
  if (!(cat in GRPC_OF_CATEGORY)) return `errorCategory ${cat} is not one of Canton's categories (1-14)`;
  const expected = GRPC_OF_CATEGORY[cat];
  if (typeof grpc === 'number' && grpc !== expected) return `errorCategory ${cat} goes with gRPC code ${expected ?? 'none'}, not grpcCodeValue ${grpc}`;
  if (expected !== undefined && HTTP_OF_GRPC[expected] !== status) return `errorCategory ${cat} (gRPC ${expected}) is sent as HTTP ${HTTP_OF_GRPC[expected] ?? '?'}, not ${status}`;
  const known = typeof body.code === 'string' ? CATEGORY_OF_CODE[body.code] : undefined;
  if (known !== undefined && known !== cat) return `${String(body.code)} is an error of category ${known}, not ${cat}`;
  return undefined;
}

/** A group-B error answer with a JsCantonError body; undefined for anything else. */
function cantonErrorOf(e: Exchange): { status: number; body: Json } | undefined {
  const status = e.response?.status;
  if (e.group !== 'ledger' || e.websocket === true || status === undefined || status < 400) return undefined;
  const parsed = jsonOf(e);
  const body = parsed.ok ? parsed.value : undefined;
  return isObject(body) && typeof body.code === 'string' && 'errorCategory' in body ? { status, body } : undefined;
}

export const ledgerMeaningChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.trees.node-ids-describe-tree',
    title: "An exercise's transaction (LEDGER_EFFECTS): node ids increase in event order and lastDescendantNodeId bounds each subtree, so the command's exercise is the one root over its consequences",
    operationId: LedgerOp.submitAndWaitForTransaction,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: ExercisedEvent.last_descendant_node_id (the upper bound of the node ids of the events that appeared as a result of this exercise); Event.node_id`,
    requires: { writes: true },
    async run(ctx) {
      const exercise = ctx.profile.ledger?.template?.exercise ?? ctx.skip(`profile '${ctx.profile.name}' names no choice with consequences to exercise (ledger.template.exercise)`);
      const party = await suiteParty(ctx);
      const contract = await createContract(ctx, party);
      const format = { eventFormat: eventFormat(party, { verbose: true }), transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' };
      const e = await ctx.http.request('ledger', {
        method: 'POST',
        path: '/v2/commands/submit-and-wait-for-transaction',
        json: { commands: jsCommands(ctx, party, { ExerciseCommand: { templateId: contract.templateId, contractId: contract.contractId, choice: exercise.choice, choiceArgument: exercise.choiceArgument } }), transactionFormat: format },
      });
      expectStatus(ctx, e, 200, `exercising ${exercise.choice}`);
      const tx = objectBody(ctx, e, 'exercise').transaction;
      if (!isObject(tx) || typeof tx.updateId !== 'string') return ctx.fail('submit-and-wait-for-transaction answered no transaction', e);
      const nodes = nodesOf(tx);
      if (!nodes.some((n) => n.kind === 'ExercisedEvent')) return ctx.fail('the LEDGER_EFFECTS transaction of an exercise holds no ExercisedEvent', e);
      if (nodes.length < 2) ctx.skip(`${exercise.choice} has no consequence visible to the party: there is no subtree to judge`);
      const answered = treeProblem(nodes, 1);
      if (answered !== undefined) ctx.fail(`the submission answer: ${answered}`, e);
      // The same transaction read back by id carries the same tree.
      const byId = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/update-by-id', json: { updateId: tx.updateId, updateFormat: { includeTransactions: format } } });
      expectStatus(ctx, byId, 200, `update-by-id ${tx.updateId}`);
      const u = objectBody(ctx, byId, 'update-by-id').update;
      const read = isObject(u) && isObject(u.Transaction) ? (isObject(u.Transaction.value) ? u.Transaction.value : u.Transaction) : undefined;
      if (!read) return ctx.fail('update-by-id answered no Transaction', byId);
      const stored = treeProblem(nodesOf(read), 1);
      if (stored !== undefined) ctx.fail(`update-by-id: ${stored}`, byId);
    },
  }),
  check({
    id: 'ledger.writes.answer-reflects-write',
    title: 'Write answers show the write: an identity provider update answers the updated config, a vetting update the vetted state before and after the change',
    operationId: LedgerOp.updateIdp,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: UpdateIdentityProviderConfigResponse.identity_provider_config (the config after the update); UpdateVettedPackagesResponse.past_vetted_packages / new_vetted_packages`,
    requires: { writes: true },
    async run(ctx) {
      // Identity provider config: the answer is the config as updated, and the read that follows agrees.
      const id = ctx.unique('cc-idp-answer').replace(/[^a-zA-Z0-9_-]/g, '-');
      const config = { identityProviderId: id, issuer: `https://${id}.conformance.invalid`, jwksUrl: `https://${id}.conformance.invalid/jwks.json`, audience: '' };
      const created = await ctx.http.request('ledger', { method: 'POST', path: '/v2/idps', json: { identityProviderConfig: config }, operationId: LedgerOp.createIdp });
      skipUnlessAdmin(ctx, created, 'POST /v2/idps');
      expectStatus(ctx, created, 200, 'creating an identity provider config');
      try {
        const changed = { ...config, isDeactivated: true, audience: `${id}-audience` };
        const e = await ctx.http.request('ledger', { method: 'PATCH', path: `/v2/idps/${id}`, json: { identityProviderConfig: changed, updateMask: mask('is_deactivated', 'audience') }, operationId: LedgerOp.updateIdp });
        expectStatus(ctx, e, 200, 'updating an identity provider config');
        const answered = objectBody(ctx, e, 'update').identityProviderConfig;
        if (!isObject(answered) || answered.isDeactivated !== true || answered.audience !== changed.audience) {
          ctx.fail(`the update answer shows isDeactivated ${JSON.stringify(isObject(answered) ? answered.isDeactivated : undefined)} and audience ${JSON.stringify(isObject(answered) ? answered.audience : undefined)}; the update set true and ${changed.audience}`, e);
        }
        const read = await ctx.http.request('ledger', { method: 'GET', path: `/v2/idps/${id}`, operationId: LedgerOp.getIdp });
        expectStatus(ctx, read, 200, 'reading the config back');
        const stored = objectBody(ctx, read, 'get').identityProviderConfig;
        if (!jsonEqual(answered, stored)) ctx.fail(`the update answer differs from the config read back, at ${firstDifference(answered, stored) ?? '?'}`, e);
      } finally {
        await ctx.http.request('ledger', { method: 'DELETE', path: `/v2/idps/${id}` });
      }
      // Vetting: the answer's past and new states bracket the change, and the new one is what the list then shows.
      const sync = await firstSynchronizer(ctx);
      const { main } = await uploadFreshDar(ctx);
      const has = (v: unknown) => isObject(v) && Array.isArray(v.packages) && v.packages.some((p) => isObject(p) && p.packageId === main.packageId);
      const update = vettingUpdate(ctx);
      const vet = await ctx.http.request('ledger', { method: 'POST', path: update.path, json: { changes: [vetChange(main.packageId)], synchronizerId: sync }, operationId: update.operationId });
      skipUnlessAdmin(ctx, vet, `POST ${update.path}`);
      expectStatus(ctx, vet, 200, 'vetting an uploaded package');
      const v = objectBody(ctx, vet, 'vetting update');
      if (!has(v.newVettedPackages)) ctx.fail(`the vetting answer's newVettedPackages lack ${main.packageId}, the package just vetted`, vet);
      if (has(v.pastVettedPackages)) ctx.fail(`the vetting answer's pastVettedPackages already hold ${main.packageId}, which was not vetted before`, vet);
      // This participant's entry: the synchronizer's other participants vet packages of their own.
      const me = await ownParticipantId(ctx);
      const listed = await listVetted(ctx, { topologyStateFilter: { synchronizerIds: [sync], participantIds: [me] } });
      const now = listed.entries.find((x) => x.synchronizerId === sync && x.participantId === me);
      const ids = (x: unknown) => (isObject(x) && Array.isArray(x.packages) ? x.packages.map((p) => (isObject(p) ? String(p.packageId) : '')).sort() : []);
      if (now && !jsonEqual(ids(v.newVettedPackages), ids(now))) ctx.fail(`the vetting answer's newVettedPackages (${ids(v.newVettedPackages).length} packages) differ from the vetted state then listed (${ids(now).length})`, vet);
      const unvet = await ctx.http.request('ledger', { method: 'POST', path: update.path, json: { changes: [unvetChange(main.packageId)], synchronizerId: sync }, operationId: update.operationId });
      expectStatus(ctx, unvet, 200, 'unvetting it');
      const u = objectBody(ctx, unvet, 'unvetting');
      if (has(u.newVettedPackages) || !has(u.pastVettedPackages)) ctx.fail(`the unvetting answer shows ${main.packageId} ${has(u.newVettedPackages) ? 'still vetted after' : 'not vetted before'} the change`, unvet);
    },
  }),
  check({
    id: 'ledger.interactive.committed-hash-is-signed-hash',
    title: 'An externally signed transaction, once committed, records as externalTransactionHash the hash the party signed: in the execute answer, read back by id and on the update stream',
    operationId: LedgerOp.executeAndWaitForTransaction,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: Transaction.external_transaction_hash (for a transaction externally signed, the transaction hash signed by the external party)`,
    requires: { writes: true },
    async run(ctx) {
      needInteractive(ctx);
      const ext = await externalParty(ctx);
      const prepared = await prepare(ctx, ext);
      const begin = (await ledgerEnd(ctx)).offset;
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/interactive-submission/executeAndWaitForTransaction', json: executeBody(ctx, ext, prepared, signature(ext.privateKey, prepared.hash, ext.fingerprint)) });
      expectStatus(ctx, e, 200, 'executeAndWaitForTransaction');
      const tx = objectBody(ctx, e, 'executeAndWaitForTransaction').transaction;
      if (!isObject(tx) || typeof tx.updateId !== 'string') return ctx.fail('executeAndWaitForTransaction answered no transaction', e);
      const judge = (recorded: unknown, what: string, at: Exchange) => {
        if (typeof recorded !== 'string' || recorded === '') return ctx.fail(`${what}: the externally signed transaction has no externalTransactionHash`, at);
        // Hex or base64, as long as the bytes are the signed hash.
        const bytes = /^([0-9a-f]{2})+$/i.test(recorded) ? Buffer.from(recorded, 'hex') : Buffer.from(recorded, 'base64');
        if (!bytes.equals(prepared.hash)) ctx.fail(`${what}: externalTransactionHash ${recorded} is not the hash the party signed (${prepared.hash.toString('base64')})`, at);
      };
      judge(tx.externalTransactionHash, 'the execute answer', e);
      const byId = await ctx.http.request('ledger', {
        method: 'POST',
        path: '/v2/updates/update-by-id',
        json: { updateId: tx.updateId, updateFormat: { includeTransactions: { eventFormat: eventFormat(ext.party), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } },
      });
      expectStatus(ctx, byId, 200, `update-by-id ${tx.updateId}`);
      const u = objectBody(ctx, byId, 'update-by-id').update;
      const read = isObject(u) && isObject(u.Transaction) ? (isObject(u.Transaction.value) ? u.Transaction.value : u.Transaction) : {};
      judge(read.externalTransactionHash, 'the transaction read back by id', byId);
      // A wallet's history comes from the update stream: the transaction there records the hash too.
      const stream = await updates(ctx, ext.party, begin, (await ledgerEnd(ctx)).offset);
      const streamed = stream.items.map(transactionJsonOf).find((t) => t?.updateId === tx.updateId);
      if (streamed === undefined) return ctx.fail(`the update stream of ${ext.party} from offset ${begin} lacks the executed transaction ${tx.updateId}`, stream.exchange);
      judge(streamed.externalTransactionHash, 'the transaction on the update stream', stream.exchange);
    },
  }),
  check({
    id: 'ledger.errors.metadata-agree',
    title: "Error answers: errorCategory, grpcCodeValue, the error code and the HTTP status agree as Canton's error catalogue defines, on provoked errors and every error seen in the run",
    operationId: LedgerOp.getUser,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: JsCantonError; Canton ErrorCategory (category to gRPC code) and GrpcHttpErrorCodes (gRPC code to HTTP status)`,
    async run(ctx) {
      const end = (await ledgerEnd(ctx)).offset;
      const party = await readParty(ctx);
      const provoked: Exchange[] = [
        await ctx.http.request('ledger', { method: 'GET', path: `/v2/users/${ctx.unique('cc-nobody').replace(/[^a-zA-Z0-9_-]/g, '-')}`, operationId: LedgerOp.getUser }),
        await ctx.http.request('ledger', { method: 'GET', path: '/v2/parties/not%20a%20party', operationId: LedgerOp.getParty }),
        await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates', query: { stream_idle_timeout_ms: 300 }, json: { beginExclusive: end + 1000, endInclusive: end + 1001, updateFormat: { includeTransactions: { eventFormat: eventFormat(party), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }, operationId: LedgerOp.updates }),
        await ctx.http.request('ledger', { method: 'POST', path: '/v2/events/events-by-contract-id', json: { contractId: `00${'ef'.repeat(33)}`, eventFormat: eventFormat(party) } }),
      ];
      if (ctx.profile.writes && party !== undefined) {
        const body = jsCommands(ctx, party, { CreateCommand: createCommand(ctx, party) });
        expectStatus(ctx, await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait', json: body }), 200, 'a command');
        provoked.push(await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait', json: body }));
      }
      let judged = 0;
      for (const e of provoked) {
        const status = e.response?.status ?? 0;
        if (status < 400) ctx.fail(`a request that must be refused was answered ${status}`, e);
        const err = cantonErrorOf(e);
        if (!err) return ctx.fail(`the refusal (HTTP ${status}) is not a JsCantonError: ${String(bodyOf(ctx, e, 'refusal')).slice(0, 120)}`, e);
        const problem = errorMetadataProblem(err.status, err.body);
        if (problem !== undefined) ctx.fail(`${String(err.body.code)} (HTTP ${err.status}): ${problem}`, e);
        judged++;
      }
      // Every other ledger error the run has seen so far (413 is the list limit's own answer, outside the table).
      for (const e of ctx.seen) {
        const err = cantonErrorOf(e);
        if (!err || err.status === 413) continue;
        const problem = errorMetadataProblem(err.status, err.body);
        if (problem !== undefined) ctx.fail(`${String(err.body.code)} (HTTP ${err.status}, seen by ${e.checkId}): ${problem}`, e);
        judged++;
      }
      if (judged === 0) ctx.fail('no error answer to judge');
    },
  }),
  check({
    id: 'ledger.errors.not-found-not-retryable',
    title: 'A command on a contract that does not exist, or naming a package the participant does not know, is refused with 404 and errorCategory 11 (a missing resource), not as a transient or internal error a client would retry',
    operationId: LedgerOp.submitAndWait,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: JsCantonError; Canton ConsistencyErrors.ContractNotFound, CommandExecutionErrors.PackageNameNotFound / TemplatesOrInterfacesNotFound (InvalidGivenCurrentSystemStateResourceMissing, not retryable); GrpcHttpErrorCodes (NOT_FOUND: 404)`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const { templateId } = createCommand(ctx, party);
      const cases: [string, Json, readonly string[]][] = [
        ['an exercise on a contract that never existed', { ExerciseCommand: { templateId, contractId: neverExistedContractId('6d'), choice: 'Archive', choiceArgument: {} } }, ['CONTRACT_NOT_FOUND']],
        ['a create of a template in a package the participant does not know', { CreateCommand: { templateId: `#${ctx.unique('cc-no-such-package').replace(/[^a-z0-9-]/g, '-')}:Main:Nothing`, createArguments: {} } }, ['PACKAGE_NAMES_NOT_FOUND', 'TEMPLATES_OR_INTERFACES_NOT_FOUND', 'PACKAGE_NOT_FOUND']],
      ];
      for (const [what, command, codes] of cases) {
        const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait', json: jsCommands(ctx, party, command) });
        expectStatus(ctx, e, 404, what);
        const body = expectCantonError(ctx, e, what, codes);
        if (body.errorCategory !== 11) ctx.fail(`${what}: ${body.code} came with errorCategory ${body.errorCategory}, not 11 (InvalidGivenCurrentSystemStateResourceMissing): clients read the category to decide whether to retry`, e);
      }
    },
  }),
  check({
    id: 'ledger.lookups.agree-with-lists',
    title: "A party or user looked up alone equals its entry in the list (GET /v2/parties/{party}, GET /v2/users/{id})",
    operationId: LedgerOp.getParty,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: GetParties and ListKnownParties answer the same PartyDetails; GetUser and ListUsers the same User`,
    readsTargetState: 'it looks up entries of whole lists, which on a target hold parties and users the reference never saw; the check compares each lookup with the target\'s own list',
    async run(ctx) {
      const party = await readParty(ctx);
      const list = await ctx.http.request('ledger', { method: 'GET', path: '/v2/parties', query: { pageSize: 1000 }, operationId: LedgerOp.listParties });
      expectStatus(ctx, list, 200, 'GET /v2/parties');
      const listed = (objectBody(ctx, list, 'parties').partyDetails as unknown[] | undefined)?.filter(isObject) ?? [];
      const sample = [...listed.filter((p) => p.party === party), ...listed.filter((p) => p.party !== party).slice(0, 8)];
      if (sample.length === 0) ctx.skip('the participant lists no party');
      for (const entry of sample) {
        const p = String(entry.party);
        const one = await ctx.http.request('ledger', { method: 'GET', path: `/v2/parties/${encodeURIComponent(p)}`, operationId: LedgerOp.getParty });
        expectStatus(ctx, one, 200, `GET /v2/parties/${p}`);
        const alone = ((objectBody(ctx, one, 'party').partyDetails as unknown[] | undefined) ?? []).find((d) => isObject(d) && d.party === p);
        if (jsonEqual(alone, entry)) continue;
        // Another client may have updated the party between the two reads: judge against a fresh list too.
        const again = await ctx.http.request('ledger', { method: 'GET', path: '/v2/parties', query: { pageSize: 1000 }, operationId: LedgerOp.listParties });
        const fresh = ((isObject(bodyOf(ctx, again, 'parties')) ? (objectBody(ctx, again, 'parties').partyDetails as unknown[] | undefined) : undefined) ?? []).find((d) => isObject(d) && d.party === p);
        if (!jsonEqual(alone, fresh)) ctx.fail(`${p} looked up alone differs from its list entry at ${firstDifference(alone, fresh ?? entry) ?? '?'}`, one);
      }
      const users = await ctx.http.request('ledger', { method: 'GET', path: '/v2/users', query: { pageSize: 1000 }, operationId: LedgerOp.listUsers });
      if (users.response?.status === 403) return;
      expectStatus(ctx, users, 200, 'GET /v2/users');
      const runUser = userIdOf(ctx);
      const userList = (objectBody(ctx, users, 'users').users as unknown[] | undefined)?.filter(isObject) ?? [];
      for (const entry of [...userList.filter((u) => u.id === runUser), ...userList.filter((u) => u.id !== runUser).slice(0, 8)]) {
        const id = String(entry.id);
        const one = await ctx.http.request('ledger', { method: 'GET', path: `/v2/users/${encodeURIComponent(id)}`, operationId: LedgerOp.getUser });
        if (one.response?.status === 404) continue; // deleted meanwhile by another check
        expectStatus(ctx, one, 200, `GET /v2/users/${id}`);
        const alone = objectBody(ctx, one, 'user').user;
        if (jsonEqual(alone, entry)) continue;
        const again = await ctx.http.request('ledger', { method: 'GET', path: '/v2/users', query: { pageSize: 1000 }, operationId: LedgerOp.listUsers });
        const fresh = ((isObject(bodyOf(ctx, again, 'users')) ? (objectBody(ctx, again, 'users').users as unknown[] | undefined) : undefined) ?? []).find((u) => isObject(u) && u.id === id);
        if (!jsonEqual(alone, fresh)) ctx.fail(`user ${id} looked up alone differs from its list entry at ${firstDifference(alone, fresh ?? entry) ?? '?'}`, one);
      }
    },
  }),
];
