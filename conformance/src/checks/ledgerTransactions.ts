import { completionOf, createCommand, createContract, eventsOf, jsCommands, ledgerEnd, suiteParty, transactionsOf, updates, updatesRequest, activeContracts, type TransactionView } from './support/ledger.js';
import { bodyOf, expectStatus, firstDifference, isObject, jsonEqual, objectBody, qualifiedName, type Json } from './support/expect.js';
import { UPDATE_LOOKUPS } from './support/updateLookups.js';
import { sameDamlValue } from './support/values.js';
import { externalParty, needInteractive, prepare, signedExecution } from './ledgerInteractive.js';
import { expectListedOnce, listAllParties } from './ledgerParties.js';
import { LedgerOp, SD_B, UPSTREAM_B } from './ledgerOps.js';
import type { Exchange } from '../target/exchange.js';
import type { CheckContext, CheckDefinition } from './types.js';

const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });

/** Contract ids named anywhere in a Daml value (exercise results). */
function contractIdsIn(v: unknown, known: ReadonlySet<string>): string[] {
  if (typeof v === 'string') return known.has(v) || /^00[0-9a-f]{64,}$/.test(v) ? [v] : [];
  if (Array.isArray(v)) return v.flatMap((x) => contractIdsIn(x, known));
  return isObject(v) ? Object.values(v).flatMap((x) => contractIdsIn(x, known)) : [];
}

const eventOf = (e: Json, kind: string): Json | undefined => (isObject(e[kind]) ? (e[kind] as Json) : undefined);

/** Exercises the profile's consuming choice on a fresh contract, answering the transaction in `shape`. */
export async function exerciseChoice(ctx: CheckContext, shape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' | 'TRANSACTION_SHAPE_ACS_DELTA') {
  const t = ctx.profile.ledger?.template;
  const ex = t?.exercise ?? ctx.skip(`profile '${ctx.profile.name}' names no consuming choice to exercise (ledger.template.exercise)`);
  const party = await suiteParty(ctx);
  const created = await createContract(ctx, party);
  const commandId = ctx.unique('cc-exercise');
  const command = { ExerciseCommand: { templateId: t!.templateId, contractId: created.contractId, choice: ex.choice, choiceArgument: ex.choiceArgument } };
  const e = await ctx.http.request('ledger', {
    method: 'POST',
    path: '/v2/commands/submit-and-wait-for-transaction',
    json: {
      commands: jsCommands(ctx, party, command, commandId),
      transactionFormat: { eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } }, verbose: true }, transactionShape: shape },
    },
  });
  expectStatus(ctx, e, 200, `exercising ${ex.choice} (submit-and-wait-for-transaction)`);
  const tx = objectBody(ctx, e, 'exercise').transaction;
  if (!isObject(tx) || typeof tx.updateId !== 'string' || typeof tx.offset !== 'number' || !Array.isArray(tx.events)) return ctx.fail('submit-and-wait-for-transaction must answer {transaction: {updateId, offset, events}}', e);
  return { e, tx: tx as Json & { updateId: string; offset: number; events: Json[] }, party, created, commandId, choice: ex.choice, choiceArgument: ex.choiceArgument };
}

export const ledgerTransactionChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.ids.agree-across-apis',
    title: 'One command, one update: submit-and-wait, its completion and the update stream (HTTP and WebSocket) give the same updateId and offset; the transaction echoes the command id and workflow id submitted',
    operationId: LedgerOp.completions,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: Completion.update_id and offset identify the transaction the command produced; Transaction.command_id and workflow_id (the ids used in the command submission); ${SD_B}: POST /v2/commands/completions, POST /v2/updates`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const begin = (await ledgerEnd(ctx)).offset;
      // A workflow id set on the command is echoed by its transaction (apps correlate by it).
      const workflowId = ctx.unique('cc-workflow');
      const body: Json = { ...jsCommands(ctx, party, { CreateCommand: createCommand(ctx, party) }, ctx.unique('cc-ids')), workflowId };
      const submit = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait', json: body });
      expectStatus(ctx, submit, 200, 'submit-and-wait');
      const s = objectBody(ctx, submit, 'submit-and-wait');
      if (typeof s.updateId !== 'string' || typeof s.completionOffset !== 'number') return ctx.fail('submit-and-wait must answer {updateId, completionOffset}', submit);
      const commandId = body.commandId as string;
      const { e: ce, completion } = await completionOf(ctx, party, begin, commandId);
      if (completion.updateId !== s.updateId) ctx.fail(`the completion names update ${JSON.stringify(completion.updateId)}, submit-and-wait answered ${s.updateId}`, ce);
      if (completion.offset !== s.completionOffset) ctx.fail(`the completion is at offset ${JSON.stringify(completion.offset)}, submit-and-wait answered ${s.completionOffset}`, ce);
      const end = (await ledgerEnd(ctx)).offset;
      const http = await updates(ctx, party, begin, end);
      const tx = http.transactions.find((t) => t.updateId === s.updateId);
      if (!tx) return ctx.fail(`update ${s.updateId} is not in the updates (${begin}, ${end}]`, http.exchange);
      if (tx.offset !== s.completionOffset) ctx.fail(`the update stream has ${s.updateId} at offset ${tx.offset}, submit-and-wait said ${s.completionOffset}`, http.exchange);
      const raw = http.items.map((i) => (isObject(i) && isObject(i.update) && isObject(i.update.Transaction) ? (isObject(i.update.Transaction.value) ? i.update.Transaction.value : i.update.Transaction) : undefined)).find((t) => t?.updateId === s.updateId);
      if (raw && raw.commandId !== undefined && raw.commandId !== commandId) ctx.fail(`the submitter's view of the transaction carries commandId ${JSON.stringify(raw.commandId)}, submitted ${commandId}`, http.exchange);
      if (raw && raw.workflowId !== workflowId) ctx.fail(`the transaction carries workflowId ${JSON.stringify(raw.workflowId)}, the command was submitted with ${workflowId}`, http.exchange);
      if (ctx.profile.ledger?.websocket !== false) {
        const ws = await ctx.http.stream('ledger', '/v2/updates', { request: updatesRequest(party, begin, end), operationId: LedgerOp.updates, until: (m) => transactionsOf(m).some((t) => t.offset >= end), idleMs: 3000 });
        const wtx = transactionsOf(ws.messages).find((t) => t.updateId === s.updateId);
        if (!wtx || wtx.offset !== s.completionOffset) ctx.fail(`the WebSocket stream has ${wtx ? `${s.updateId} at offset ${wtx.offset}` : `no update ${s.updateId}`}; submit-and-wait said offset ${s.completionOffset}`, ws.exchange);
      }
      for (const lookup of UPDATE_LOOKUPS) await lookup(ctx, { updateId: s.updateId, offset: s.completionOffset, commandId, party });
    },
  }),
  check({
    id: 'ledger.submit-for-transaction.matches-stream',
    title: 'The transaction answered by submit-and-wait-for-transaction is the one the update stream shows: same id, offset and events',
    operationId: LedgerOp.submitAndWaitForTransaction,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: submit-and-wait-for-transaction answers the committed transaction; ${UPSTREAM_B}: default transaction format (ACS delta, wildcard for actAs, verbose)`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const begin = (await ledgerEnd(ctx)).offset;
      const created = await createContract(ctx, party);
      const answered = objectBody(ctx, created.exchange, 'submit-and-wait-for-transaction').transaction as Json;
      const stream = await updates(ctx, party, begin, (await ledgerEnd(ctx)).offset);
      const raw = stream.items
        .map((i) => (isObject(i) && isObject(i.update) && isObject(i.update.Transaction) ? ((isObject(i.update.Transaction.value) ? i.update.Transaction.value : i.update.Transaction) as Json) : undefined))
        .find((t) => t?.updateId === created.updateId);
      if (!raw) return ctx.fail(`transaction ${created.updateId} is not on the update stream`, stream.exchange);
      if (raw.offset !== answered.offset) ctx.fail(`offset ${String(answered.offset)} in the answer, ${String(raw.offset)} on the stream`, stream.exchange);
      if (!jsonEqual(answered.events, raw.events)) ctx.fail(`the events differ from the stream's, first at /events${firstDifference(answered.events, raw.events)}`, created.exchange);
    },
  }),
  check({
    id: 'ledger.exercise.result-and-events',
    title: "An exercise's transaction (LEDGER_EFFECTS) holds the exercised event of the command, and its exerciseResult names exactly the contracts the choice created",
    operationId: LedgerOp.submitAndWaitForTransaction,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: ExercisedEvent (contract_id, choice, choice_argument, acting_parties, consuming, exercise_result; witness_parties: the requesting parties that witnessed it, acting parties and stakeholders among them); CreatedEvent`,
    requires: { writes: true },
    async run(ctx) {
      const x = await exerciseChoice(ctx, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
      const { e, tx } = x;
      if (tx.commandId !== undefined && tx.commandId !== x.commandId) ctx.fail(`the transaction carries commandId ${JSON.stringify(tx.commandId)}, submitted ${x.commandId}`, e);
      const exercised = tx.events.map((ev) => eventOf(ev, 'ExercisedEvent')).filter((v) => v !== undefined);
      const root = exercised.find((v) => v.contractId === x.created.contractId);
      if (!root) return ctx.fail(`no ExercisedEvent on the exercised contract ${x.created.contractId} (${exercised.length} exercised event(s))`, e);
      if (root.choice !== x.choice) ctx.fail(`the ExercisedEvent names choice ${JSON.stringify(root.choice)}, the command exercised ${x.choice}`, e);
      if (root.consuming !== true) ctx.fail(`${x.choice} is consuming but the ExercisedEvent says consuming ${JSON.stringify(root.consuming)}`, e);
      if (!Array.isArray(root.actingParties) || !root.actingParties.includes(x.party)) ctx.fail(`actingParties ${JSON.stringify(root.actingParties)} lack the submitting controller ${x.party}`, e);
      // The acting party is a stakeholder of the consumed contract and the party the request reads as: it witnessed the exercise.
      if (!Array.isArray(root.witnessParties) || !root.witnessParties.includes(x.party)) ctx.fail(`witnessParties ${JSON.stringify(root.witnessParties)} lack the acting party ${x.party}, who witnessed its own exercise`, e);
      if (!sameDamlValue(root.choiceArgument, x.choiceArgument)) ctx.fail(`choiceArgument ${JSON.stringify(root.choiceArgument)} differs from the command's ${JSON.stringify(x.choiceArgument)}`, e);
      const created = tx.events.map((ev) => eventOf(ev, 'CreatedEvent')).filter((v) => v !== undefined).map((c) => String(c.contractId));
      const named = [...new Set(contractIdsIn(root.exerciseResult, new Set(created)))].sort();
      if (created.length === 0) ctx.fail(`${x.choice} created no contract, so its result cannot be checked against the events`, e);
      if (named.join() !== [...created].sort().join()) ctx.fail(`exerciseResult names [${named.join(', ')}], the transaction creates [${created.join(', ')}]`, e);
      const end = (await ledgerEnd(ctx)).offset;
      const acs = await activeContracts(ctx, x.party, end, { templateId: ctx.profile.ledger?.template?.templateId });
      const active = new Set(acs.contracts.map((c) => c.createdEvent.contractId));
      if (active.has(x.created.contractId)) ctx.fail(`the consumed contract ${x.created.contractId} is still active`, acs.exchange);
      const missing = created.filter((id) => !active.has(id));
      if (missing.length > 0) ctx.fail(`contract(s) the exercise created are not active: ${missing.join(', ')}`, acs.exchange);
    },
  }),
  check({
    id: 'ledger.commands.create-and-exercise',
    title: 'CreateAndExerciseCommand creates a contract and exercises the choice on it in one transaction: LEDGER_EFFECTS shows both, ACS_DELTA shows neither for a consuming choice (the contract never outlives the transaction)',
    operationId: LedgerOp.submitAndWaitForTransaction,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: CreateAndExerciseCommand; TransactionShape (ACS_DELTA: only creates of contracts active after the transaction and archives of contracts that existed before it)`,
    requires: { writes: true },
    async run(ctx) {
      const ex = ctx.profile.ledger?.template?.exercise ?? ctx.skip(`profile '${ctx.profile.name}' names no consuming choice to exercise (ledger.template.exercise)`);
      const party = await suiteParty(ctx);
      const { templateId, createArguments } = createCommand(ctx, party);
      const command = { CreateAndExerciseCommand: { templateId, createArguments, choice: ex.choice, choiceArgument: ex.choiceArgument } };
      const filter = { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } };
      const e = await ctx.http.request('ledger', {
        method: 'POST',
        path: '/v2/commands/submit-and-wait-for-transaction',
        json: { commands: jsCommands(ctx, party, command, ctx.unique('cc-create-exercise')), transactionFormat: { eventFormat: { filtersByParty: filter, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } },
      });
      expectStatus(ctx, e, 200, `create-and-exercise ${ex.choice}`);
      const tx = objectBody(ctx, e, 'create-and-exercise').transaction;
      if (!isObject(tx) || typeof tx.updateId !== 'string' || !Array.isArray(tx.events)) return ctx.fail('submit-and-wait-for-transaction must answer {transaction: {updateId, events}}', e);
      const events = tx.events.filter(isObject);
      const created = events.map((ev) => eventOf(ev, 'CreatedEvent')).find((c) => c !== undefined && qualifiedName(String(c.templateId)) === qualifiedName(templateId));
      if (created === undefined) return ctx.fail(`no CreatedEvent of ${templateId}: the command's create is missing`, e);
      const exercised = events.map((ev) => eventOf(ev, 'ExercisedEvent')).find((x) => x !== undefined && x.contractId === created.contractId);
      if (exercised === undefined) return ctx.fail(`no ExercisedEvent on the contract the command created (${String(created.contractId)})`, e);
      if (exercised.choice !== ex.choice || exercised.consuming !== true) ctx.fail(`the exercise on the new contract is ${JSON.stringify(exercised.choice)} (consuming ${JSON.stringify(exercised.consuming)}); the command exercised ${ex.choice}, a consuming choice`, e);
      if (typeof created.nodeId === 'number' && typeof exercised.nodeId === 'number' && exercised.nodeId <= created.nodeId) ctx.fail(`the exercise (node ${exercised.nodeId}) comes before the create it exercises (node ${created.nodeId})`, e);
      // The same transaction as an ACS delta: the contract was created and consumed within it.
      const delta = await ctx.http.request('ledger', {
        method: 'POST',
        path: '/v2/updates/update-by-id',
        json: { updateId: tx.updateId, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: filter, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } },
      });
      // A transaction whose ACS delta holds nothing for the party may be not found in that shape (UPDATE_NOT_FOUND): nothing shown, as the rule asks.
      if (expectStatus(ctx, delta, [200, 404], `update-by-id ${tx.updateId} (ACS_DELTA)`).status === 404) return;
      const dtx = objectBody(ctx, delta, 'update-by-id').update;
      const value = isObject(dtx) && isObject(dtx.Transaction) && isObject(dtx.Transaction.value) ? dtx.Transaction.value : undefined;
      const shown = Array.isArray(value?.events) ? value.events.filter(isObject).filter((ev) => [eventOf(ev, 'CreatedEvent'), eventOf(ev, 'ArchivedEvent')].some((x) => x?.contractId === created.contractId)) : [];
      if (shown.length > 0) ctx.fail(`as an ACS delta the transaction shows ${shown.map((ev) => Object.keys(ev)[0]).join(' and ')} of ${String(created.contractId)}, which it created and consumed: it never changed the active contracts`, delta);
    },
  }),
  check({
    id: 'ledger.updates.transaction-shape',
    title: 'TRANSACTION_SHAPE_ACS_DELTA shows a consuming exercise as created + archived events; LEDGER_EFFECTS as the exercised event and its creates, never archived events; both list events in node order; read through an interface filter, the archive and the consuming exercise name the interface in implementedInterfaces',
    operationId: LedgerOp.updates,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: TransactionShape (ACS_DELTA: created and archived events; LEDGER_EFFECTS: created and exercised events); Event.nodeId (the position of the event in the transaction); ArchivedEvent.implemented_interfaces, ExercisedEvent.implemented_interfaces (if consuming: the interfaces of the template matched by the interface filter, with include_interface_view)`,
    requires: { writes: true },
    async run(ctx) {
      const x = await exerciseChoice(ctx, 'TRANSACTION_SHAPE_ACS_DELTA');
      const inShape = async (shape: string, eventFormat?: Json, through = ''): Promise<{ e: Exchange; tx: TransactionView }> => {
        const req = updatesRequest(x.party, x.tx.offset - 1, x.tx.offset) as { updateFormat: { includeTransactions: Json } };
        req.updateFormat.includeTransactions.transactionShape = shape;
        if (eventFormat) req.updateFormat.includeTransactions.eventFormat = eventFormat;
        const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates', query: { stream_idle_timeout_ms: 1000 }, json: req });
        expectStatus(ctx, e, 200, `updates in ${shape}${through}`);
        const list = bodyOf(ctx, e, 'updates');
        const tx = Array.isArray(list) ? transactionsOf(list).find((t) => t.updateId === x.tx.updateId) : undefined;
        if (!tx) return ctx.fail(`the exercise's update ${x.tx.updateId} is missing from the ${shape} updates${through}`, e);
        return { e, tx };
      };
      const kinds = (t: TransactionView) => t.events.map((ev) => Object.keys(ev)[0]);
      const delta = await inShape('TRANSACTION_SHAPE_ACS_DELTA');
      const dk = kinds(delta.tx);
      if (dk.includes('ExercisedEvent')) ctx.fail(`ACS_DELTA holds an ExercisedEvent (${dk.join(', ')})`, delta.e);
      if (!eventsOf(delta.tx).archived.includes(x.created.contractId)) ctx.fail(`ACS_DELTA has no ArchivedEvent for the consumed contract ${x.created.contractId} (${dk.join(', ')})`, delta.e);
      const effects = await inShape('TRANSACTION_SHAPE_LEDGER_EFFECTS');
      const ek = kinds(effects.tx);
      if (ek.includes('ArchivedEvent')) ctx.fail(`LEDGER_EFFECTS holds an ArchivedEvent (${ek.join(', ')})`, effects.e);
      if (!effects.tx.events.some((ev) => isObject(ev.ExercisedEvent) && ev.ExercisedEvent.contractId === x.created.contractId)) ctx.fail(`LEDGER_EFFECTS has no ExercisedEvent on ${x.created.contractId} (${ek.join(', ')})`, effects.e);
      // nodeId is an event's position in the transaction, and the events are listed in that order
      // (LEDGER_EFFECTS in pre-order): a client folding them (the token-standard history parser)
      // must meet a create before the exercise or archive that uses it.
      for (const [shape, got] of [['ACS_DELTA', delta], ['LEDGER_EFFECTS', effects]] as const) {
        const ids = got.tx.events.map((ev) => { const inner = Object.values(ev)[0]; return isObject(inner) ? inner.nodeId : undefined; });
        if (ids.some((n) => typeof n !== 'number')) ctx.fail(`${shape}: every event needs its nodeId (${JSON.stringify(ids)})`, got.e);
        if (ids.some((n, i) => i > 0 && (n as number) <= (ids[i - 1] as number))) ctx.fail(`${shape} lists its events out of node order: nodeIds ${ids.join(', ')} (${kinds(got.tx).join(', ')})`, got.e);
      }
      const createdIn = (t: TransactionView) => eventsOf(t).created.sort().join();
      if (createdIn(delta.tx) !== createdIn(effects.tx)) ctx.fail(`the two shapes create different contracts: [${createdIn(delta.tx)}] vs [${createdIn(effects.tx)}]`, effects.e);
      // Read through an interface the template implements, with its view (when Canton fills
      // implementedInterfaces): the archive (ACS_DELTA) and the consuming exercise (LEDGER_EFFECTS)
      // name the interface, so a wallet reading holdings through the Holding interface knows an
      // archive concerns a holding.
      const iface = ctx.profile.ledger?.template?.interfaceId;
      if (iface === undefined) return;
      const through = ` through the InterfaceFilter ${iface} (includeInterfaceView)`;
      const format = { filtersByParty: { [x.party]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: iface, includeInterfaceView: true, includeCreatedEventBlob: false } } } }] } }, verbose: true };
      for (const [shape, kind] of [['TRANSACTION_SHAPE_ACS_DELTA', 'ArchivedEvent'], ['TRANSACTION_SHAPE_LEDGER_EFFECTS', 'ExercisedEvent']] as const) {
        const got = await inShape(shape, format, through);
        const ev = got.tx.events.map((e) => eventOf(e, kind)).find((e) => e?.contractId === x.created.contractId && (kind === 'ArchivedEvent' || e.consuming === true));
        if (!ev) {
          ctx.fail(`${shape}${through} has no ${kind === 'ArchivedEvent' ? 'ArchivedEvent' : 'consuming ExercisedEvent'} of ${x.created.contractId}, whose template implements the interface (${kinds(got.tx).join(', ')})`, got.e);
          continue;
        }
        const named = Array.isArray(ev.implementedInterfaces) ? ev.implementedInterfaces.map(String) : [];
        if (!named.some((i) => qualifiedName(i) === qualifiedName(iface))) ctx.fail(`${shape}${through}: the ${kind} of ${x.created.contractId} names implementedInterfaces ${JSON.stringify(ev.implementedInterfaces ?? null)}, not the interface the filter matched`, got.e);
      }
    },
  }),
  check({
    id: 'ledger.interactive.execute-and-wait-for-transaction',
    title: 'executeAndWaitForTransaction answers the committed transaction: the prepared create, for the external party, on the update stream under the same id',
    operationId: LedgerOp.executeAndWaitForTransaction,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: interactive-submission executeAndWaitForTransaction; ${UPSTREAM_B} interactive submission`,
    requires: { writes: true },
    async run(ctx) {
      const { ext, body, begin } = await signedExecution(ctx);
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/interactive-submission/executeAndWaitForTransaction', json: body });
      expectStatus(ctx, e, 200, 'executeAndWaitForTransaction');
      const tx = objectBody(ctx, e, 'executeAndWaitForTransaction').transaction;
      if (!isObject(tx) || typeof tx.updateId !== 'string' || typeof tx.offset !== 'number' || !Array.isArray(tx.events)) return ctx.fail('executeAndWaitForTransaction must answer {transaction: {updateId, offset, events}}', e);
      const created = tx.events.map((ev) => (isObject(ev) ? eventOf(ev, 'CreatedEvent') : undefined)).find((c) => c !== undefined);
      const templateId = ctx.profile.ledger?.template?.templateId ?? '';
      if (!created || qualifiedName(String(created.templateId)) !== qualifiedName(templateId)) return ctx.fail(`the transaction holds no CreatedEvent of ${templateId}`, e);
      if (!Array.isArray(created.signatories) || !created.signatories.includes(ext.party)) ctx.fail(`the created contract's signatories ${JSON.stringify(created.signatories)} lack the external party ${ext.party}`, e);
      const stream = await updates(ctx, ext.party, begin, (await ledgerEnd(ctx)).offset);
      const onStream = stream.transactions.find((t) => t.updateId === tx.updateId);
      if (!onStream || onStream.offset !== tx.offset) ctx.fail(`the update stream ${onStream ? `has ${tx.updateId} at offset ${onStream.offset}` : `lacks ${tx.updateId}`}; the answer said offset ${tx.offset}`, stream.exchange);
      if (onStream && !eventsOf(onStream).created.includes(String(created.contractId))) ctx.fail(`the update on the stream does not create ${String(created.contractId)}`, stream.exchange);
    },
  }),
  check({
    id: 'ledger.interactive.prepare-shape',
    title: 'prepare answers a prepared transaction, a SHA-256 hash (32 bytes, or 34 with its multihash prefix) and a hashing scheme version; preparing commits nothing',
    operationId: LedgerOp.prepare,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: InteractiveSubmissionService PrepareSubmission (prepared_transaction_hash: SHA-256, nothing committed before execute)`,
    requires: { writes: true },
    async run(ctx) {
      needInteractive(ctx);
      const ext = await externalParty(ctx);
      const before = (await ledgerEnd(ctx)).offset;
      const p = await prepare(ctx, ext);
      const multihash = p.hash.length === 34 && p.hash[0] === 0x12 && p.hash[1] === 0x20;
      if (p.hash.length !== 32 && !multihash) ctx.fail(`preparedTransactionHash decodes to ${p.hash.length} bytes: neither a SHA-256 digest (32) nor one with its multihash prefix 0x12 0x20 (34)`);
      if (!/^HASHING_SCHEME_VERSION_V\d+$/.test(p.hashingSchemeVersion)) ctx.fail(`hashingSchemeVersion ${p.hashingSchemeVersion} is not HASHING_SCHEME_VERSION_V<n>`);
      const acs = await activeContracts(ctx, ext.party, (await ledgerEnd(ctx)).offset);
      if (acs.contracts.length > 0) ctx.fail(`after prepare alone (ledger end was ${before}), ${acs.contracts.length} contract(s) of ${ext.party} are active`, acs.exchange);
    },
  }),
  check({
    id: 'ledger.parties.external-allocate',
    title: "An external party's id is <hint>::<fingerprint of its key> as generate-topology said, and it is then known to the participant: looked up and listed",
    operationId: LedgerOp.allocateExternal,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: GenerateExternalPartyTopology, AllocateExternalParty (party namespace = the key's fingerprint: SHA-256 over hash purpose 12 and the key, as the wallet SDK computes it), ListKnownParties (the parties the participant knows)`,
    requires: { writes: true },
    async run(ctx) {
      needInteractive(ctx);
      const ext = await externalParty(ctx);
      // Both are what the wallet SDK computes from the key alone (its fingerprint(), then the party it signs as).
      if (ext.fingerprint !== ext.keyFingerprint) ctx.fail(`generate-topology answered publicKeyFingerprint ${ext.fingerprint}; the key's fingerprint (SHA-256 over hash purpose 12 and the key, as a multihash) is ${ext.keyFingerprint}`);
      if (ext.party.split('::')[1] !== ext.keyFingerprint) ctx.fail(`the external party ${ext.party} is not in the namespace of its key's fingerprint ${ext.keyFingerprint}`);
      const e = await ctx.http.request('ledger', { method: 'GET', path: `/v2/parties/${encodeURIComponent(ext.party)}` });
      expectStatus(ctx, e, 200, `GET /v2/parties/${ext.party}`);
      const list = objectBody(ctx, e, 'party details').partyDetails;
      if (!Array.isArray(list) || !list.some((d) => isObject(d) && d.party === ext.party)) ctx.fail(`the allocated external party ${ext.party} is unknown to GET /v2/parties/{party}`, e);
      // Known is listed: the pages of GET /v2/parties name it once, as the lookup does.
      expectListedOnce(ctx, await listAllParties(ctx), ext.party, 'the external party (GET /v2/parties/{party} knows it)');
    },
  }),
  check({
    id: 'ledger.parties.generate-topology-deterministic',
    title: 'generate-topology for the same hint and key answers the same party id and multiHash twice, and a different id for another hint',
    operationId: LedgerOp.generateTopology,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: GenerateExternalPartyTopology (party id and multi-hash derive from the hint and key)`,
    requires: { writes: true },
    async run(ctx) {
      needInteractive(ctx);
      const syncs = await ctx.http.request('ledger', { method: 'GET', path: '/v2/state/connected-synchronizers' });
      expectStatus(ctx, syncs, 200, 'connected synchronizers');
      const first = (objectBody(ctx, syncs, 'connected synchronizers').connectedSynchronizers as unknown[] | undefined)?.find(isObject);
      if (!first || typeof first.synchronizerId !== 'string') return ctx.fail('no connected synchronizer', syncs);
      const { generateKeyPairSync } = await import('node:crypto');
      const raw = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
      const gen = async (hint: string) => {
        const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/parties/external/generate-topology', json: { synchronizer: first.synchronizerId, partyHint: hint, publicKey: { format: 'CRYPTO_KEY_FORMAT_RAW', keyData: raw, keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' } } });
        expectStatus(ctx, e, 200, 'generate-topology');
        const b = objectBody(ctx, e, 'generate-topology');
        return { e, partyId: b.partyId, multiHash: b.multiHash };
      };
      const hint = ctx.unique('cc-topo').replace(/[^a-zA-Z0-9_-]/g, '-');
      const a = await gen(hint);
      const b = await gen(hint);
      if (a.partyId !== b.partyId || a.multiHash !== b.multiHash) ctx.fail(`the same hint and key gave ${String(a.partyId)}/${String(a.multiHash)} then ${String(b.partyId)}/${String(b.multiHash)}`, b.e);
      if (typeof a.partyId !== 'string' || !a.partyId.startsWith(`${hint}::`)) ctx.fail(`partyId ${String(a.partyId)} does not start with the hint ${hint}::`, a.e);
      const c = await gen(`${hint}-other`);
      if (c.partyId === a.partyId) ctx.fail('another hint gave the same party id', c.e);
    },
  }),
];
