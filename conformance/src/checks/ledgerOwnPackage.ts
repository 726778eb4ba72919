import { BOARD_MODULE, GAUGE_MODULE, buildBoardPackage, buildGaugePackage, buildOwnPackage, buildShownInterface, buildUpgradePackage, OWN_MODULE, SHOWN_MODULE, UPGRADE_MODULE } from '../reinterpret/ownPackage.js';
import { judgeTransaction } from '../reinterpret/judgeTransaction.js';
import type { Exchange } from '../target/exchange.js';
import { expectCantonError, expectStatus, isObject, jsonEqual, objectBody, type Json } from './support/expect.js';
import { activeContracts, freshParty, jsCommands, ledgerEnd, readActiveContracts, userIdOf } from './support/ledger.js';
import { listPackageIds, listVetted, packageName, uploadVetted, vettedOn, vettingUpdate } from './support/packages.js';
import { decoded } from './ledgerInteractiveEncoding.js';
import { LedgerOp, UPSTREAM_B } from './ledgerOps.js';
import { LedgerReadOp } from './ledgerReadOps.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * A vendor's package the target has never seen, built by the suite at run time: uploaded, listed,
 * vetted, then created, exercised (a non-consuming choice with a result, a consuming one creating
 * a successor, the interface's own choice through the interface), read through its interface's
 * view and archived. What the transactions hold
 * (signatories, observers, payloads, results, consuming flags) is judged by re-interpreting them
 * with the engine (`conformance/src/reinterpret/`); this check judges the life cycle around them.
 */
const SPEC = `${UPSTREAM_B}: PackageManagementService.UploadDarFile, PackageService, CommandService; Daml-LF templates, choices and interfaces`;

/** LEDGER_EFFECTS for `parties`; with `viewOf`, created events also carry that interface's view. */
const ledgerEffects = (parties: readonly string[], viewOf?: string): Json => {
  const views = viewOf === undefined ? [] : [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: viewOf, includeInterfaceView: true, includeCreatedEventBlob: false } } } }];
  const filters = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }, ...views] };
  return { eventFormat: { filtersByParty: Object.fromEntries(parties.map((p) => [p, filters])), verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' };
};

/** One command as `actAs` to submit-and-wait-for-transaction (ledger effects), `preference` its packageIdSelectionPreference. */
function submitForTransaction(ctx: CheckContext, actAs: string, command: Json, o: { readonly viewOf?: string; readonly preference?: readonly string[] } = {}): Promise<Exchange> {
  const commands = { ...jsCommands(ctx, actAs, command, ctx.unique('cc-own')), ...(o.preference === undefined ? {} : { packageIdSelectionPreference: o.preference }) };
  return ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction', json: { commands, transactionFormat: ledgerEffects([actAs], o.viewOf) } });
}

/** Submits one command as `actAs`, re-interprets the answered transaction, returns its events. */
async function submitJudged(
  ctx: CheckContext, actAs: string, command: Json, what: string, o: { readonly viewOf?: string; readonly preference?: readonly string[] } = {},
): Promise<{ events: Json[]; exchange: Exchange }> {
  const exchange = await submitForTransaction(ctx, actAs, command, o);
  expectStatus(ctx, exchange, 200, what);
  const tx = objectBody(ctx, exchange, what).transaction;
  if (!isObject(tx) || !Array.isArray(tx.events)) return ctx.fail(`${what}: the answer holds no transaction with events`, exchange);
  await judgeTransaction(ctx, { commands: [command], actAs: [actAs], parties: [actAs], transaction: tx }, exchange);
  return { events: tx.events.filter(isObject), exchange };
}

/**
 * Submits `command` as `actAs`, which Daml must refuse: `status`, one of `codes`, and the category
 * Canton's catalogue gives them (a client decides from it whether retrying can help).
 */
async function expectRefused(ctx: CheckContext, actAs: string, command: Json, what: string, refusal: { status: number; codes: readonly string[]; category: number }): Promise<void> {
  const e = await submitForTransaction(ctx, actAs, command);
  expectStatus(ctx, e, refusal.status, what);
  const err = expectCantonError(ctx, e, what, refusal.codes);
  if (err.errorCategory !== refusal.category) ctx.fail(`${what}: ${err.code} came with errorCategory ${err.errorCategory}, not ${refusal.category}: clients read the category to decide whether to retry`, e);
}

const createdOf = (events: readonly Json[]) => events.map((e) => e.CreatedEvent).filter(isObject);
const exercisedOf = (events: readonly Json[], choice: string) => events.map((e) => e.ExercisedEvent).filter((x): x is Json => isObject(x) && x.choice === choice);

export const ledgerOwnPackageChecks: readonly CheckDefinition[] = [
  {
    id: 'ledger.daml.own-package',
    title: 'A package the suite builds at run time is uploaded, listed, vetted, created, exercised (a choice of its interface through the interface too), read through its interface view and archived; every transaction re-interpreted',
    group: 'ledger',
    operationId: LedgerOp.uploadDar,
    level: 'MUST',
    kind: 'example',
    specRef: SPEC,
    requires: { writes: true },
    async run(ctx) {
      const [issuer, holder, watcher] = [await freshParty(ctx, 'cc-issuer'), await freshParty(ctx, 'cc-holder'), await freshParty(ctx, 'cc-watcher')];
      const built = buildOwnPackage(packageName(ctx, 'cc-vendor'));
      const { sync } = await uploadVetted(ctx, built.dar(), "uploading the suite's own package");

      const { ids, exchange: listed } = await listPackageIds(ctx);
      if (!ids.includes(built.id)) ctx.fail(`the uploaded package ${built.name} (${built.id}) is not listed by GET /v2/packages`, listed);
      const status = await ctx.http.request('ledger', { method: 'GET', path: `/v2/packages/${built.id}/status` });
      expectStatus(ctx, status, 200, 'GET /v2/packages/{id}/status');
      if (objectBody(ctx, status, 'package status').packageStatus !== 'PACKAGE_STATUS_REGISTERED') ctx.fail(`the uploaded package is not PACKAGE_STATUS_REGISTERED`, status);
      const vetted = await listVetted(ctx, { packageMetadataFilter: { packageIds: [built.id] } });
      if (!vettedOn(vetted.entries, sync, built.id)) ctx.fail(`the package uploaded with vetAllPackages=true is not vetted on ${sync}`, vetted.exchange);

      const templateId = `${built.id}:${OWN_MODULE}:Ticket`;
      const interfaceId = `${built.id}:${OWN_MODULE}:Counted`;
      const note = 'ticket-';
      const created = await submitJudged(ctx, issuer, { CreateCommand: { templateId, createArguments: { issuer, holder, watchers: [watcher], count: '3', note } } }, 'creating a contract of the suite\'s package');
      const first = createdOf(created.events)[0];
      if (typeof first?.contractId !== 'string') return ctx.fail('the create answered no CreatedEvent', created.exchange);
      if (first.templateId !== templateId) ctx.fail(`the created event names template ${String(first.templateId)}, not ${templateId}`, created.exchange);

      // The holder, an observer, reads the contract through the interface, with its view.
      const end = await ledgerEnd(ctx);
      const viewFilter = { filtersByParty: { [holder]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: true, includeCreatedEventBlob: false } } } }] } }, verbose: true };
      const acs = await readActiveContracts(ctx, { activeAtOffset: end.offset, eventFormat: viewFilter }, 'the holder\'s contracts through the interface', { small: true });
      const entry = acs.entries.map((e) => (isObject(e) && isObject(e.contractEntry) && isObject(e.contractEntry.JsActiveContract) ? e.contractEntry.JsActiveContract.createdEvent : undefined))
        .find((c): c is Json => isObject(c) && c.contractId === first.contractId);
      if (!entry) return ctx.fail(`the holder (an observer) does not see ${first.contractId} through interface ${interfaceId}`, acs.exchange);
      const views = Array.isArray(entry.interfaceViews) ? entry.interfaceViews.filter(isObject) : [];
      const view = views.find((v) => v.interfaceId === interfaceId);
      const expected = { holder, total: '3', label: note };
      if (!view || !jsonEqual(view.viewValue, expected)) {
        ctx.fail(`the interface view of ${interfaceId} is ${view ? JSON.stringify(view.viewValue ?? view.viewStatus) : '(absent)'}, the template's view computes ${JSON.stringify(expected)}`, acs.exchange);
      }

      const described = await submitJudged(ctx, issuer, { ExerciseCommand: { templateId, contractId: first.contractId, choice: 'Describe', choiceArgument: { times: '2' } } }, 'a non-consuming choice');
      if (exercisedOf(described.events, 'Describe').length !== 1) ctx.fail('the exercise of Describe answered no ExercisedEvent', described.exchange);
      // The holder exercises the interface's own choice through the interface (as wallets exercise
      // token-standard choices): re-interpretation judges that its event names the interface.
      const tallied = await submitJudged(ctx, holder, { ExerciseCommand: { templateId: interfaceId, contractId: first.contractId, choice: 'Tally', choiceArgument: { reader: holder } } }, 'a choice exercised through the interface');
      const tally = exercisedOf(tallied.events, 'Tally');
      if (tally.length !== 1) ctx.fail('the exercise of Tally through the interface answered no ExercisedEvent', tallied.exchange);
      else if (tally[0]!.exerciseResult !== '3') ctx.fail(`Tally answered ${JSON.stringify(tally[0]!.exerciseResult)}; the view's total is "3"`, tallied.exchange);
      const bumped = await submitJudged(ctx, issuer, { ExerciseCommand: { templateId, contractId: first.contractId, choice: 'Bump', choiceArgument: { by: '4' } } }, 'a consuming choice', { viewOf: interfaceId });
      const next = createdOf(bumped.events)[0];
      if (exercisedOf(bumped.events, 'Bump').length !== 1 || typeof next?.contractId !== 'string') return ctx.fail('the exercise of Bump answered no ExercisedEvent and successor CreatedEvent', bumped.exchange);
      const archived = await submitJudged(ctx, issuer, { ExerciseCommand: { templateId, contractId: next.contractId, choice: 'Archive', choiceArgument: {} } }, 'archiving the successor');
      if (exercisedOf(archived.events, 'Archive').length !== 1) ctx.fail('the Archive answered no ExercisedEvent', archived.exchange);

      const after = await ledgerEnd(ctx);
      const active = await activeContracts(ctx, issuer, after.offset, { templateId });
      const still = active.contracts.filter((c) => c.createdEvent.contractId === first.contractId || c.createdEvent.contractId === next.contractId);
      if (still.length > 0) ctx.fail(`${still.map((c) => c.createdEvent.contractId).join(', ')} is still active after Bump and Archive consumed it`, active.exchange);
    },
  },
  {
    id: 'ledger.commands.read-as',
    title: "readAs lets a command use a contract only the read-as party sees (the public-party pattern); without it the contract is not found",
    group: 'ledger',
    operationId: LedgerOp.submitAndWaitForTransaction,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: Commands.read_as (parties the submission reads as: their contracts are visible to the command, they authorize nothing); CONTRACT_NOT_FOUND`,
    requires: { writes: true },
    async run(ctx) {
      const [publisher, audience, reader] = [await freshParty(ctx, 'cc-publisher'), await freshParty(ctx, 'cc-audience'), await freshParty(ctx, 'cc-reader')];
      const built = buildBoardPackage(packageName(ctx, 'cc-board'));
      await uploadVetted(ctx, built.dar(), "uploading the suite's board package");
      const templateId = `${built.id}:${BOARD_MODULE}:Board`;
      const text = ctx.unique('cc-news');
      const created = await submitJudged(ctx, publisher, { CreateCommand: { templateId, createArguments: { publisher, audience, text } } }, 'publishing a board');
      const board = createdOf(created.events)[0];
      if (typeof board?.contractId !== 'string') return ctx.fail('the create answered no CreatedEvent', created.exchange);
      const userId = userIdOf(ctx);
      const read = (readAs: readonly string[]) => ({
        commands: { commands: [{ ExerciseCommand: { templateId, contractId: board.contractId, choice: 'Read', choiceArgument: { reader } } }], commandId: ctx.unique('cc-read-as'), actAs: [reader], readAs, ...(userId === undefined ? {} : { userId }) },
        transactionFormat: ledgerEffects([reader]),
      });
      const seen = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction', json: read([audience]) });
      expectStatus(ctx, seen, 200, `${reader} reading the board as ${audience} (readAs)`);
      const tx = objectBody(ctx, seen, 'read as the audience').transaction;
      const result = isObject(tx) && Array.isArray(tx.events) ? exercisedOf(tx.events.filter(isObject), 'Read')[0]?.exerciseResult : undefined;
      if (result !== text) ctx.fail(`Read answered ${JSON.stringify(result)}; the board says ${JSON.stringify(text)}`, seen);
      // The reader alone is no stakeholder: the board is not visible to the command.
      const unseen = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction', json: read([]) });
      expectStatus(ctx, unseen, 404, `${reader} reading the board without readAs`);
      expectCantonError(ctx, unseen, 'reading without readAs', ['CONTRACT_NOT_FOUND']);
    },
  },
  {
    id: 'ledger.transactions.command-id-submitters-only',
    title: "A transaction's commandId shows to its submitting party only: another stakeholder reading the same transaction gets none",
    group: 'ledger',
    operationId: LedgerReadOp.updateById,
    level: 'SHOULD',
    kind: 'example',
    specRef: `${UPSTREAM_B}: Transaction.command_id ("Missing for everyone except the submitting party"); update-by-id`,
    requires: { writes: true },
    async run(ctx) {
      // The publisher creates a board the audience observes: both read the one transaction.
      const [publisher, audience] = [await freshParty(ctx, 'cc-cmd-publisher'), await freshParty(ctx, 'cc-cmd-audience')];
      const built = buildBoardPackage(packageName(ctx, 'cc-cmd-board'));
      await uploadVetted(ctx, built.dar(), "uploading the suite's board package");
      const userId = userIdOf(ctx);
      const commandId = ctx.unique('cc-cmd-id');
      const command = { CreateCommand: { templateId: `${built.id}:${BOARD_MODULE}:Board`, createArguments: { publisher, audience, text: 'whose command' } } };
      const submitted = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait', json: { commands: [command], commandId, actAs: [publisher], ...(userId === undefined ? {} : { userId }) } });
      expectStatus(ctx, submitted, 200, 'publishing a board');
      const updateId = objectBody(ctx, submitted, 'submit-and-wait').updateId;
      if (typeof updateId !== 'string') return ctx.fail('submit-and-wait answered no updateId', submitted);
      const readAs = async (party: string) => {
        const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/update-by-id', json: { updateId, updateFormat: { includeTransactions: ledgerEffects([party]) } } });
        expectStatus(ctx, e, 200, `update-by-id ${updateId} as ${party}`);
        const u = objectBody(ctx, e, 'update-by-id').update;
        const tx = isObject(u) && isObject(u.Transaction) && isObject(u.Transaction.value) ? u.Transaction.value : undefined;
        return tx === undefined ? ctx.fail(`update-by-id ${updateId} as ${party} answered no Transaction`, e) : { e, commandId: tx.commandId };
      };
      const own = await readAs(publisher);
      if (own.commandId !== commandId) ctx.fail(`the submitter reads the transaction with commandId ${JSON.stringify(own.commandId)}; it submitted ${commandId}`, own.e);
      // Absent, or empty on a line that writes defaults out (3.4).
      const theirs = await readAs(audience);
      if (theirs.commandId !== undefined && theirs.commandId !== '') ctx.fail(`the audience, an observer who did not submit, reads the transaction with commandId ${JSON.stringify(theirs.commandId)}: a command id is the submitter's alone`, theirs.e);
    },
  },
  {
    id: 'ledger.commands.contract-upgrade',
    title: 'A contract of version 1.0.0 exercised through the template of 2.0.0 (a valid upgrade) runs 2.0.0\'s choice on it, the field it lacks None, and the exercised event names 2.0.0; an interface choice on it, the submission preferring 2.0.0, runs 2.0.0\'s instance; a 2.0.0 contract whose added field holds Some cannot be exercised through 1.0.0 (INTERPRETATION_UPGRADE_ERROR_DOWNGRADE_DROP_DEFINED_FIELD)',
    group: 'ledger',
    operationId: LedgerOp.submitAndWaitForTransaction,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: smart contract upgrades; ExercisedEvent.template_id ("the template that defines the executed choice ... may differ from the target contract's package-id if the target contract has been upgraded or downgraded"); CommandExecutionErrors UpgradeError DowngradeDropDefinedField`,
    requires: { writes: true },
    async run(ctx) {
      const party = await freshParty(ctx, 'cc-upgrader');
      const name = packageName(ctx, 'cc-upgrades');
      const shown = buildShownInterface(packageName(ctx, 'cc-shown'));
      const [v1, v2] = [buildUpgradePackage(name, '1.0.0', shown), buildUpgradePackage(name, '2.0.0', shown)];
      const holding = (p: { id: string }) => `${p.id}:${UPGRADE_MODULE}:Holding`;
      // Every id names its package, and the interface call prefers 2.0.0: what runs is the
      // request's alone, whatever else the target vets.
      await uploadVetted(ctx, v1.dar({ dependencies: [shown.dalf] }), `uploading ${name} 1.0.0`);
      const created = await submitJudged(ctx, party, { CreateCommand: { templateId: holding(v1), createArguments: { owner: party, amount: '5' } } }, `creating ${holding(v1)}`);
      const older = createdOf(created.events)[0];
      if (typeof older?.contractId !== 'string') return ctx.fail(`creating ${holding(v1)} answered no created event`, created.exchange);
      await uploadVetted(ctx, v2.dar({ dependencies: [shown.dalf] }), `uploading ${name} 2.0.0, which adds an Optional field at the end of Holding`);
      const upgraded = await submitJudged(ctx, party, { ExerciseCommand: { templateId: holding(v2), contractId: older.contractId, choice: 'Memo', choiceArgument: {} } }, `exercising 2.0.0's Memo on a 1.0.0 contract`);
      const memo = exercisedOf(upgraded.events, 'Memo')[0];
      if (memo === undefined) return ctx.fail('exercising 2.0.0\'s Memo on a 1.0.0 contract answered no exercised event', upgraded.exchange);
      if (memo.templateId !== holding(v2)) ctx.fail(`the exercised event of 2.0.0's Memo on a 1.0.0 contract names ${JSON.stringify(memo.templateId)}: it names the template whose choice ran, ${holding(v2)}`, upgraded.exchange);
      if (memo.exerciseResult !== null) ctx.fail(`2.0.0's Memo on a 1.0.0 contract answered ${JSON.stringify(memo.exerciseResult)}: the field 1.0.0 lacks is None (null)`, upgraded.exchange);
      const viaInterface = await submitJudged(ctx, party, { ExerciseCommand: { templateId: `${shown.id}:${SHOWN_MODULE}:Shown`, contractId: older.contractId, choice: 'Show', choiceArgument: { reader: party } } }, 'exercising the interface choice Show on a 1.0.0 contract, preferring 2.0.0', { preference: [v2.id] });
      const show = exercisedOf(viaInterface.events, 'Show')[0];
      if (show === undefined) return ctx.fail('the interface choice Show on a 1.0.0 contract answered no exercised event', viaInterface.exchange);
      // 2.0.0's view is ten times the amount (5): 50 says its instance ran.
      if (String(show.exerciseResult) !== '50' || show.templateId !== holding(v2)) {
        ctx.fail(`Show through the interface on a 1.0.0 contract, the submission preferring 2.0.0, answered ${JSON.stringify(show.exerciseResult)} naming ${JSON.stringify(show.templateId)}: 2.0.0's instance (50, ${holding(v2)}) runs, the contract read as 2.0.0`, viaInterface.exchange);
      }
      const kept = await submitJudged(ctx, party, { CreateCommand: { templateId: holding(v2), createArguments: { owner: party, amount: '7', memo: 'kept' } } }, `creating ${holding(v2)} with a memo`);
      const newer = createdOf(kept.events)[0];
      if (typeof newer?.contractId !== 'string') return ctx.fail(`creating ${holding(v2)} answered no created event`, kept.exchange);
      const downgraded = await submitForTransaction(ctx, party, { ExerciseCommand: { templateId: holding(v1), contractId: newer.contractId, choice: 'Amount', choiceArgument: {} } });
      expectStatus(ctx, downgraded, 400, `exercising 1.0.0's Amount on a 2.0.0 contract whose memo holds Some`);
      expectCantonError(ctx, downgraded, '1.0.0 reading a 2.0.0 contract whose memo holds Some', ['INTERPRETATION_UPGRADE_ERROR_DOWNGRADE_DROP_DEFINED_FIELD']);
    },
  },
  {
    id: 'ledger.commands.package-selection',
    title: 'A command naming its template by package name runs the highest version of that name vetted now (not one vetted only from later), on submit and on prepare alike, an exercise on a contract of another version too; packageIdSelectionPreference picks another version, for creates and exercises; a template filter by package name reads the contracts of every version',
    group: 'ledger',
    operationId: LedgerOp.submitAndWaitForTransaction,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: Commands.package_id_selection_preference; smart contract upgrades (a #package-name reference resolves to the preferred package: the highest version vetted at the submission's time, unless the submission prefers one); UpdateVettedPackages Vet.new_valid_from_inclusive, VettedPackage.valid_from_inclusive; TemplateFilter.template_id (a package-name reference matches the template in all packages of that name)`,
    requires: { writes: true },
    async run(ctx) {
      const party = await freshParty(ctx, 'cc-selector');
      const name = packageName(ctx, 'cc-versions');
      // Two versions of one package, the same template (a valid upgrade): v1 uploaded first.
      const [v1, v2] = [buildBoardPackage(name, '1.0.0'), buildBoardPackage(name, '2.0.0')];
      let sync = '';
      for (const built of [v1, v2]) ({ sync } = await uploadVetted(ctx, built.dar(), `uploading ${name} ${built.version}`));
      const userId = userIdOf(ctx);
      const create = async (preference: readonly string[]) => {
        const commands = {
          commands: [{ CreateCommand: { templateId: `#${name}:${BOARD_MODULE}:Board`, createArguments: { publisher: party, audience: party, text: 'which version runs' } } }],
          commandId: ctx.unique('cc-select'), actAs: [party], ...(preference.length === 0 ? {} : { packageIdSelectionPreference: preference }), ...(userId === undefined ? {} : { userId }),
        };
        const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction', json: { commands, transactionFormat: ledgerEffects([party]) } });
        expectStatus(ctx, e, 200, `creating #${name}:${BOARD_MODULE}:Board${preference.length === 0 ? '' : ' preferring v1'}`);
        const tx = objectBody(ctx, e, 'create by package name').transaction;
        const created = isObject(tx) && Array.isArray(tx.events) ? createdOf(tx.events.filter(isObject))[0] : undefined;
        return { e, packageId: typeof created?.templateId === 'string' ? created.templateId.split(':')[0] : undefined, contractId: typeof created?.contractId === 'string' ? created.contractId : undefined };
      };
      const latest = await create([]);
      if (latest.packageId !== v2.id) ctx.fail(`a create of #${name} ran package ${String(latest.packageId)}; the highest vetted version is 2.0.0 (${v2.id})`, latest.e);
      const pinned = await create([v1.id]);
      if (pinned.packageId !== v1.id) ctx.fail(`a create of #${name} preferring ${v1.id} (1.0.0) ran package ${String(pinned.packageId)}`, pinned.e);
      // An exercise naming its template by package name resolves it as a create does (Daml's
      // CommandPreprocessor: an Exercise's TypeConRef goes through the same package resolution),
      // and the contract is read as that version: the event names the template whose choice ran.
      const exercise = async (contractId: string | undefined, preference: readonly string[], what: string) => {
        if (contractId === undefined) return undefined;
        const commands = {
          commands: [{ ExerciseCommand: { templateId: `#${name}:${BOARD_MODULE}:Board`, contractId, choice: 'Read', choiceArgument: { reader: party } } }],
          commandId: ctx.unique('cc-select-ex'), actAs: [party], ...(preference.length === 0 ? {} : { packageIdSelectionPreference: preference }), ...(userId === undefined ? {} : { userId }),
        };
        const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction', json: { commands, transactionFormat: ledgerEffects([party]) } });
        expectStatus(ctx, e, 200, what);
        const tx = objectBody(ctx, e, what).transaction;
        const read = isObject(tx) && Array.isArray(tx.events) ? exercisedOf(tx.events.filter(isObject), 'Read')[0] : undefined;
        return { e, packageId: typeof read?.templateId === 'string' ? read.templateId.split(':')[0] : undefined };
      };
      const upgraded = await exercise(pinned.contractId, [], `exercising #${name}:${BOARD_MODULE}:Board's Read on a 1.0.0 contract`);
      if (upgraded && upgraded.packageId !== v2.id) ctx.fail(`an exercise of #${name}:${BOARD_MODULE}:Board on a contract created in 1.0.0 ran package ${String(upgraded.packageId)}; a package name resolves to the highest vetted version, 2.0.0 (${v2.id}), whatever version the contract was created in`, upgraded.e);
      const downgraded = await exercise(latest.contractId, [v1.id], `exercising #${name}:${BOARD_MODULE}:Board's Read on a 2.0.0 contract preferring 1.0.0`);
      if (downgraded && downgraded.packageId !== v1.id) ctx.fail(`an exercise of #${name}:${BOARD_MODULE}:Board on a 2.0.0 contract preferring ${v1.id} (1.0.0) ran package ${String(downgraded.packageId)}: packageIdSelectionPreference holds for exercises as for creates`, downgraded.e);
      // Prepare resolves a package name as submit does: an external party's wallet names templates
      // by package name, and signs (then commits) the package the prepared transaction's create names.
      if (ctx.profile.ledger?.interactiveSubmission !== false) {
        const prepared = async (preference: readonly string[]) => {
          const e = await ctx.http.request('ledger', {
            method: 'POST', path: '/v2/interactive-submission/prepare', operationId: LedgerOp.prepare,
            json: {
              commands: [{ CreateCommand: { templateId: `#${name}:${BOARD_MODULE}:Board`, createArguments: { publisher: party, audience: party, text: 'which version is prepared' } } }],
              commandId: ctx.unique('cc-select-prep'), actAs: [party], synchronizerId: sync, ...(preference.length === 0 ? {} : { packageIdSelectionPreference: preference }), ...(userId === undefined ? {} : { userId }),
            },
          });
          expectStatus(ctx, e, 200, `preparing a create of #${name}:${BOARD_MODULE}:Board${preference.length === 0 ? '' : ' preferring v1'}`);
          const tx = decoded(ctx, String(objectBody(ctx, e, 'prepare').preparedTransaction), e);
          const create = tx.transaction?.nodes.map((n) => (n.versionedNode.oneofKind === 'v1' && n.versionedNode.v1.nodeType.oneofKind === 'create' ? n.versionedNode.v1.nodeType.create : undefined)).find((c) => c !== undefined);
          return { e, packageId: create?.templateId?.packageId };
        };
        const newest = await prepared([]);
        if (newest.packageId !== v2.id) ctx.fail(`a prepared create of #${name} names package ${String(newest.packageId)}; submit ran the highest vetted version, 2.0.0 (${v2.id}), and prepare must resolve the name as submit does`, newest.e);
        const older = await prepared([v1.id]);
        if (older.packageId !== v1.id) ctx.fail(`a prepared create of #${name} preferring ${v1.id} (1.0.0) names package ${String(older.packageId)}`, older.e);
      }
      // An upgrade scheduled for later (v2 vetted only from a year ahead) is not the one that runs now.
      const from = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();
      const { path, operationId } = vettingUpdate(ctx);
      const scheduled = await ctx.http.request('ledger', { method: 'POST', path, operationId, json: { changes: [{ operation: { Vet: { value: { packages: [{ packageId: v2.id }], newValidFromInclusive: from } } } }], synchronizerId: sync } });
      expectStatus(ctx, scheduled, 200, `vetting ${name} 2.0.0 only from ${from}`);
      const listed = await listVetted(ctx, { packageMetadataFilter: { packageIds: [v2.id] } });
      const bound = listed.entries.find((v) => v.synchronizerId === sync)?.packages.find((p) => p.packageId === v2.id)?.validFromInclusive;
      if (bound === undefined || Date.parse(bound) !== Date.parse(from)) ctx.fail(`${name} 2.0.0 was vetted from ${from}, the vetting lists validFromInclusive ${JSON.stringify(bound)}`, listed.exchange);
      const now = await create([]);
      if (now.packageId !== v1.id) ctx.fail(`with 2.0.0 vetted only from ${from}, a create of #${name} now ran package ${String(now.packageId)}, not 1.0.0 (${v1.id}), the highest version vetted now`, now.e);
      // A template filter by package name matches the template in every version of the package:
      // the party's contracts of 1.0.0 and 2.0.0 are all read through it.
      const acs = await activeContracts(ctx, party, (await ledgerEnd(ctx)).offset, { templateId: `#${name}:${BOARD_MODULE}:Board` });
      const read = new Set(acs.contracts.map((c) => c.createdEvent.contractId));
      const unread = [latest, pinned, now].filter((c) => c.contractId !== undefined && !read.has(c.contractId));
      if (unread.length > 0) ctx.fail(`the template filter #${name}:${BOARD_MODULE}:Board leaves out ${unread.map((c) => `${String(c.contractId)} (package ${String(c.packageId)})`).join(', ')}: a package-name filter matches every version of the package`, acs.exchange);
    },
  },
  {
    id: 'ledger.daml.refusals',
    title: "What Daml refuses is refused, with Canton's error: a create breaking its template's ensure (at the root and inside a choice), a choice exercised by a party that is not its controller, an exception nothing catches, an exercise of an archived contract; a refused command changes nothing",
    group: 'ledger',
    operationId: LedgerOp.submitAndWaitForTransaction,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: Daml-LF templates (ensure), choices (controllers, consuming), exceptions; CommandExecutionErrors.Interpreter TemplatePreconditionViolated (TEMPLATE_PRECONDITION_VIOLATED), AuthorizationError (DAML_AUTHORIZATION_ERROR), UnhandledException (UNHANDLED_EXCEPTION); ConsistencyErrors.ContractNotFound (CONTRACT_NOT_FOUND)`,
    requires: { writes: true },
    async run(ctx) {
      const [owner, reader] = [await freshParty(ctx, 'cc-gauge-owner'), await freshParty(ctx, 'cc-gauge-reader')];
      const built = buildGaugePackage(packageName(ctx, 'cc-gauge'));
      await uploadVetted(ctx, built.dar(), "uploading the suite's gauge package");
      const templateId = `${built.id}:${GAUGE_MODULE}:Gauge`;
      const precondition = { status: 400, codes: ['TEMPLATE_PRECONDITION_VIOLATED'], category: 8 };
      const created = await submitJudged(ctx, owner, { CreateCommand: { templateId, createArguments: { owner, reader, level: '5' } } }, 'creating a gauge at level 5');
      const gauge = createdOf(created.events)[0];
      if (typeof gauge?.contractId !== 'string') return ctx.fail('the create answered no CreatedEvent', created.exchange);
      await expectRefused(ctx, owner, { CreateCommand: { templateId, createArguments: { owner, reader, level: '-1' } } }, 'a create whose level breaks the ensure (0 <= level)', precondition);
      const exercise = (contractId: string, choice: string, choiceArgument: Json) => ({ ExerciseCommand: { templateId, contractId, choice, choiceArgument } });
      await expectRefused(ctx, owner, exercise(gauge.contractId, 'Lower', { by: '9' }), 'Lower by 9 of a gauge at 5 (its successor breaks the ensure)', precondition);
      await expectRefused(ctx, reader, exercise(gauge.contractId, 'Lower', { by: '2' }), 'Lower exercised by the reader, an observer and not its controller', { status: 400, codes: ['DAML_AUTHORIZATION_ERROR'], category: 8 });
      await expectRefused(ctx, owner, exercise(gauge.contractId, 'Check', { at: '9' }), 'Check at 9 of a gauge at 5 (it throws Overdrawn, which nothing catches)', { status: 400, codes: ['UNHANDLED_EXCEPTION'], category: 9 });

      // The refusals consumed nothing: the gauge is still there, at its level, for the owner to use.
      const checked = await submitJudged(ctx, owner, exercise(gauge.contractId, 'Check', { at: '5' }), 'Check at 5 after the refused commands');
      const result = exercisedOf(checked.events, 'Check')[0]?.exerciseResult;
      if (result !== '5') ctx.fail(`Check answered ${JSON.stringify(result)}; the gauge's level is "5", which no refused command may have changed`, checked.exchange);
      const lowered = await submitJudged(ctx, owner, exercise(gauge.contractId, 'Lower', { by: '2' }), 'Lower by 2');
      const successor = createdOf(lowered.events)[0];
      if (typeof successor?.contractId !== 'string') return ctx.fail('Lower answered no successor CreatedEvent', lowered.exchange);
      await expectRefused(ctx, owner, exercise(gauge.contractId, 'Lower', { by: '1' }), 'Lower of the gauge Lower archived', { status: 404, codes: ['CONTRACT_NOT_FOUND', 'CONTRACT_NOT_ACTIVE'], category: 11 });

      // Both stakeholders, the observer too, see the successor active and the consumed gauge gone.
      const end = await ledgerEnd(ctx);
      for (const party of [owner, reader]) {
        const active = await activeContracts(ctx, party, end.offset, { templateId });
        const ids = active.contracts.map((c) => c.createdEvent.contractId);
        if (ids.includes(gauge.contractId)) ctx.fail(`${party} still sees ${gauge.contractId} active after Lower consumed it`, active.exchange);
        if (!ids.includes(successor.contractId)) ctx.fail(`${party}, a stakeholder, does not see the successor ${successor.contractId} active`, active.exchange);
      }
    },
  },
];
