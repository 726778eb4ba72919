import { describe, expect, it, vi } from 'vitest';
import { main } from '../../conformance/src/cli/main.js';
import { validateReport } from '../../conformance/src/report/validateReport.js';
import { report, result } from '../conformance/helpers/fakeReport.js';
import { allocatedParties, committedSubmissions } from '../../conformance/src/history/committedSubmissions.js';
import { sameDecimal, sumDecimals } from '../../conformance/src/history/decimals.js';
import { JUDGE_HISTORY } from '../../conformance/src/history/historyIds.js';
import { historyVerdictOf, HistoryTally, mergeHistory } from '../../conformance/src/history/historyTally.js';
import { HOLDING_V1, holdingChangesOf } from '../../conformance/src/history/holdingChanges.js';
import { asV1Transfers, judgeHistory } from '../../conformance/src/history/judgeHistory.js';
import type { TargetClient } from '../../conformance/src/target/createTarget.js';
import type { Exchange, RequestSpec } from '../../conformance/src/target/exchange.js';

/** The history judge's parts, on hand-built ledger answers (a scripted target client). */

const ALICE = 'alice::1220aa';
const BOB = 'bob::1220bb';
const ADMIN = 'dso::1220dd';
let seq = 0;

function exchange(path: string, requestBody: unknown, status: number, body: unknown): Exchange {
  const text = JSON.stringify(body);
  return {
    seq: ++seq, checkId: 'history-test', group: 'ledger', operationId: undefined, path,
    request: { method: 'POST', url: `http://target${path}`, headers: {}, body: JSON.stringify(requestBody) },
    response: { status, headers: {}, contentType: 'application/json', text, truncated: false, size: text.length },
    startedAt: new Date(0).toISOString(), durationMs: 1, curl: `curl http://target${path}`,
  };
}

/** A client answering each path with `answer(path, body)`; the requests it saw are kept. */
function scripted(answer: (path: string, body: Record<string, unknown>) => { status: number; body: unknown }) {
  const seen: RequestSpec[] = [];
  const client: TargetClient = {
    request: (_group, spec) => {
      seen.push(spec);
      const a = answer(spec.path, spec.json as Record<string, unknown>);
      return Promise.resolve(exchange(spec.path, spec.json, a.status, a.body));
    },
    stream: () => Promise.reject(new Error('no streams here')),
    baseUrl: () => 'http://target',
  };
  return { client, seen };
}

const holdingView = (owner: string, amount: string) => ({ interfaceId: HOLDING_V1.replace('#splice-api-token-holding-v1', 'aa11'), viewStatus: { code: 0, message: '' }, viewValue: { owner, instrumentId: { admin: ADMIN, id: 'Amulet' }, amount, lock: null, meta: { values: {} } } });
const created = (nodeId: number, contractId: string, owner: string, amount: string) => ({ CreatedEvent: { nodeId, offset: 7, contractId, templateId: 'pkg:Token:Coin', packageName: 'token', createArgument: {}, interfaceViews: [holdingView(owner, amount)], witnessParties: [owner], signatories: [ADMIN, owner], observers: [] } });
const archiveOf = (nodeId: number, contractId: string, actor: string) => ({ ExercisedEvent: { nodeId, lastDescendantNodeId: nodeId, offset: 7, contractId, templateId: 'pkg:Token:Coin', choice: 'Archive', consuming: true, actingParties: [actor], witnessParties: [actor], implementedInterfaces: [HOLDING_V1], choiceArgument: {}, exerciseResult: {} } });
const transferArgs = (amount: string) => ({ transfer: { sender: ALICE, receiver: BOB, amount, instrumentId: { admin: ADMIN, id: 'Amulet' }, requestedAt: '2026-01-01T00:00:00Z', executeBefore: '2026-01-02T00:00:00Z', inputHoldingCids: ['in-1'], meta: { values: {} } }, extraArgs: { context: { values: {} }, meta: { values: {} } } });
const transferExercise = (last: number, amount: string) => ({ ExercisedEvent: { nodeId: 0, lastDescendantNodeId: last, offset: 7, contractId: 'factory', templateId: 'pkg:Token:Rules', choice: 'TransferFactory_Transfer', consuming: false, actingParties: [ALICE], witnessParties: [ALICE], implementedInterfaces: [], choiceArgument: transferArgs(amount), exerciseResult: { output: { tag: 'TransferInstructionResult_Completed', value: { receiverHoldingCids: ['out-bob'] } }, senderChangeCids: ['out-alice'], meta: { values: {} } } } });
/** alice sends 3 of her 5 to bob: her input archived, 3 to bob, 2 back to her. */
const transferTx = (events: unknown[]) => ({ updateId: 'u-1', offset: 7, recordTime: '2026-01-01T00:00:00Z', synchronizerId: 'sync', commandId: 'c', workflowId: '', effectiveAt: '2026-01-01T00:00:00Z', events });
const goodEvents = () => [transferExercise(3, '3.0000000000'), archiveOf(1, 'in-1', ALICE), created(2, 'out-bob', BOB, '3.0000000000'), created(3, 'out-alice', ALICE, '2.0000000000')];
const inputEvents = { created: { createdEvent: created(0, 'in-1', ALICE, '5.0000000000').CreatedEvent, synchronizerId: 'sync' }, archived: { archivedEvent: { nodeId: 1, offset: 7, contractId: 'in-1', templateId: 'pkg:Token:Coin', witnessParties: [ALICE], implementedInterfaces: [HOLDING_V1] }, synchronizerId: 'sync' } };

/** The check's own submission, as `submitTx` makes and records it. */
const submitted = () => [exchange('/v2/commands/submit-and-wait-for-transaction', { commands: { commands: [], commandId: 'c', actAs: [ALICE] } }, 200, { transaction: { updateId: 'u-1', offset: 7 } })];

/** A target whose update stream answers `events` in alice's transfer (with or without filters), and the input's events by contract id. */
function target(events: unknown[], updates: { status: number; body?: unknown } = { status: 200 }) {
  return scripted((path) => {
    if (path === '/v2/updates') return { status: updates.status, body: updates.body ?? [{ update: { Transaction: { value: transferTx(events) } } }] };
    if (path === '/v2/events/events-by-contract-id') return { status: 200, body: inputEvents };
    return { status: 404, body: { code: 'NOT_FOUND' } };
  });
}

describe('history judge: a transfer as the parser reads it', () => {
  it('judges a faithful transfer with no violation, reading the update stream and the input by contract id', async () => {
    const { client, seen } = target(goodEvents());
    const o = await judgeHistory(client, submitted());
    expect(o).toMatchObject({ kind: 'judged', transactions: 1, holdings: 2, unlabelled: 0, violations: [] });
    expect(seen.map((s) => s.path)).toEqual(['/v2/updates', '/v2/updates', '/v2/events/events-by-contract-id']);
    // The second read is the wallet's: the standard's interfaces with views, and a wildcard, LEDGER_EFFECTS.
    const read = seen[1]!.json as { updateFormat: { includeTransactions: { eventFormat: { filtersByParty: Record<string, { cumulative: unknown[] }> }; transactionShape: string } }; beginExclusive: number; endInclusive: number };
    expect(read.updateFormat.includeTransactions.transactionShape).toBe('TRANSACTION_SHAPE_LEDGER_EFFECTS');
    expect(JSON.stringify(read.updateFormat.includeTransactions.eventFormat.filtersByParty[ALICE])).toContain('WildcardFilter');
    expect([read.beginExclusive, read.endInclusive]).toEqual([6, 7]);
  });

  it('a holding created under no token-standard choice breaks strict mode (judge.history.unexplained), naming update, offset and holding', async () => {
    const events = [...goodEvents().slice(1, 2), created(2, 'out-bob', BOB, '3.0000000000'), created(3, 'out-alice', ALICE, '2.0000000000')];
    const o = await judgeHistory(target(events).client, submitted());
    expect(o.kind).toBe('judged');
    const ids = o.kind === 'judged' ? o.violations.map((v) => [v.id, v.holding, v.updateId, v.offset]) : [];
    expect(ids).toContainEqual(['judge.history.unexplained', 'out-alice', 'u-1', 7]);
    expect(ids).toContainEqual(['judge.history.unexplained', 'in-1', 'u-1', 7]);
  });

  it("a holding the check's own command created or archived directly (its template implements Holding) is the command's, not the target's: counted, not failed", async () => {
    const mint = [created(0, 'minted', ALICE, '5.0000000000')];
    const byCreate = (commands: unknown[]) => [exchange('/v2/commands/submit-and-wait-for-transaction', { commands: { commands, commandId: 'c', actAs: [ALICE] } }, 200, { transaction: { updateId: 'u-1', offset: 7 } })];
    const create = { CreateCommand: { templateId: 'pkg:Token:Coin', createArguments: {} } };
    const minted = await judgeHistory(target(mint).client, byCreate([create]));
    expect(minted.kind === 'judged' ? minted.violations.map((v) => [v.id, v.holding, v.message]) : minted).toEqual([]);
    expect(minted).toMatchObject({ kind: 'judged', unlabelled: 1 });
    // Its Archive, exercised directly: the same.
    const archive = { ExerciseCommand: { templateId: 'pkg:Token:Coin', contractId: 'in-1', choice: 'Archive', choiceArgument: {} } };
    expect(await judgeHistory(target([archiveOf(0, 'in-1', ALICE)]).client, byCreate([archive]))).toMatchObject({ kind: 'judged', unlabelled: 1, violations: [] });
    // The same root create after a token-standard command is the target's: the exercise it was made under is missing.
    const transfer = { ExerciseCommand: { templateId: 'pkg:Token:Rules', contractId: 'factory', choice: 'TransferFactory_Transfer', choiceArgument: transferArgs('3.0') } };
    const o = await judgeHistory(target(mint).client, byCreate([transfer]));
    expect(o.kind === 'judged' ? o.violations.map((v) => [v.id, v.holding]) : []).toEqual([['judge.history.unexplained', 'minted']]);
  });

  it('a receiver credited more than the instruction says breaks judge.history.transfer-outcome', async () => {
    const events = goodEvents();
    events[2] = created(2, 'out-bob', BOB, '4.0000000000');
    const o = await judgeHistory(target(events).client, submitted());
    expect(o.kind === 'judged' ? o.violations.map((v) => v.id) : o).toEqual(['judge.history.transfer-outcome']);
    expect(o.kind === 'judged' ? o.violations[0]!.message : '').toContain('the receiver got 4');
  });

  it("the failure's `history` member and the run's summary are valid report.json", async () => {
    const events = goodEvents();
    events[2] = created(2, 'out-bob', BOB, '4.0000000000');
    const v = historyVerdictOf(await judgeHistory(target(events).client, submitted()));
    expect(v.failure?.message).toMatch(/^judge\.history\.transfer-outcome \(a transfer moves/);
    expect(v.failure?.result).toMatchObject({ violations: 1, id: 'judge.history.transfer-outcome', party: ALICE, updateId: 'u-1', offset: 7 });
    const tally = new HistoryTally('parser');
    const doc = report([result('registry.x.y', 'fail', { message: v.failure!.message, history: v.failure!.result })], { history: tally.summary() });
    expect(validateReport(JSON.parse(JSON.stringify(doc)))).toEqual([]);
    expect(validateReport(JSON.parse(JSON.stringify({ ...doc, history: { ...tally.summary(), mode: 'strict' } }))).length).toBeGreaterThan(0);
  });

  it('a holding owned by someone else than the receiver breaks judge.history.transfer-outcome', async () => {
    const events = goodEvents();
    events[2] = created(2, 'out-bob', 'mallory::1220ee', '3.0000000000');
    const o = await judgeHistory(target(events).client, submitted());
    expect(o.kind === 'judged' ? o.violations.map((v) => v.id) : o).toEqual(['judge.history.transfer-outcome']);
  });

  it('judges the receiver the check allocated too: its history must show the credit as a TransferIn of the amount', async () => {
    const events = goodEvents();
    const allocation = exchange('/v2/parties', { partyIdHint: 'bob' }, 200, { partyDetails: { party: BOB } });
    const { client, seen } = target(events);
    const good = await judgeHistory(client, [allocation, ...submitted()]);
    expect(good).toMatchObject({ kind: 'judged', transactions: 2, violations: [] });
    expect(seen.filter((s) => s.path === '/v2/updates').map((s) => Object.keys((s.json as { updateFormat: { includeTransactions: { eventFormat: { filtersByParty: object } } } }).updateFormat.includeTransactions.eventFormat.filtersByParty))).toEqual([[ALICE], [ALICE], [BOB], [BOB]]);
    events[2] = created(2, 'out-bob', BOB, '2.5000000000');
    const o = await judgeHistory(target(events).client, [allocation, ...submitted()]);
    const bob = o.kind === 'judged' ? o.violations.filter((v) => v.party === BOB) : [];
    expect(bob.map((v) => [v.id, v.message.includes("the receiver's new holdings add up to 2.5")])).toEqual([['judge.history.transfer-outcome', true]]);
  });

  it('judges a v2 transfer (accounts, not parties) as v1: faithful passes, a short credit fails', async () => {
    const v2 = (events: unknown[]) => events.map((e, i) => {
      if (i !== 0) return e;
      const x = (e as ReturnType<typeof transferExercise>).ExercisedEvent;
      const t = x.choiceArgument.transfer;
      return { ExercisedEvent: { ...x, templateId: 'pkg:Token:RulesV2', choiceArgument: { ...x.choiceArgument, transfer: { ...t, sender: { owner: ALICE, provider: null, id: '' }, receiver: { owner: BOB, provider: null, id: '' } }, actors: [ALICE] } } };
    });
    expect(await judgeHistory(target(v2(goodEvents())).client, submitted())).toMatchObject({ kind: 'judged', violations: [] });
    const short = goodEvents();
    short[2] = created(2, 'out-bob', BOB, '1.0000000000');
    const o = await judgeHistory(target(v2(short)).client, submitted());
    expect(o.kind === 'judged' ? o.violations.map((v) => v.id) : o).toEqual(['judge.history.transfer-outcome']);
  });

  it("an input archived at the update's offset (its own events say so) but not shown is judge.history.unseen", async () => {
    const events = goodEvents().filter((_, i) => i !== 1);
    const o = await judgeHistory(target(events).client, submitted());
    expect(o.kind === 'judged' ? o.violations.map((v) => [v.id, v.holding]) : o).toEqual([['judge.history.unseen', 'in-1']]);
  });

  it('the parser throwing on the history is judge.history.unparsable', async () => {
    const events = goodEvents();
    (events[0] as { ExercisedEvent: { choice: string; contractId: string; implementedInterfaces: string[]; exerciseResult: unknown } }).ExercisedEvent.choice = 'TransferInstruction_Accept';
    const o = await judgeHistory(target(events).client, submitted());
    expect(o.kind === 'judged' ? o.violations.map((v) => v.id) : o).toContain('judge.history.unparsable');
  });

  it("a tx-kind the parser does not know is the package's word, not the ledger's: counted as unlabelled, not failed", async () => {
    // Splice 0.1.22's v2 allocation settlement writes tx-kind 'settle-V2-allocation', which core-tx-parser 1.8 predates.
    const events = goodEvents();
    const x = (events[0] as ReturnType<typeof transferExercise>).ExercisedEvent;
    events[0] = { ExercisedEvent: { ...x, choice: 'Allocation_ExecuteTransfer', exerciseResult: { ...x.exerciseResult, meta: { values: { 'splice.lfdecentralizedtrust.org/tx-kind': 'settle-V2-allocation' } } } } };
    const o = await judgeHistory(target(events).client, submitted());
    expect(o).toMatchObject({ kind: 'judged', transactions: 1, holdings: 2, unlabelled: 2, violations: [] });
  });
});

describe('history judge: what cannot be judged is a skip with its reason, never a pass', () => {
  it('a target that refuses the read skips, naming the party and the status', async () => {
    const o = await judgeHistory(target(goodEvents(), { status: 403, body: { code: 'PERMISSION_DENIED' } }).client, submitted());
    expect(o).toEqual({ kind: 'skipped', reason: expect.stringContaining(`did not let the suite read ${ALICE}'s updates (POST /v2/updates answered HTTP 403)`) });
    expect(historyVerdictOf(o).warning).toContain('token-standard history not judged');
  });

  it('a Holding view the target failed to compute skips', async () => {
    const events = goodEvents();
    const c = (events[2] as { CreatedEvent: { interfaceViews: { viewStatus: unknown }[] } }).CreatedEvent;
    c.interfaceViews[0]!.viewStatus = { code: 13, message: 'view crashed' };
    const o = await judgeHistory(target(events).client, submitted());
    expect(o).toEqual({ kind: 'skipped', reason: expect.stringContaining('could not compute the Holding view of out-bob: view crashed') });
  });

  it('a check that committed nothing, or nothing with token-standard events, is not judged and reads at most the filtered stream', async () => {
    expect(await judgeHistory(target([]).client, [])).toEqual({ kind: 'none' });
    const { client, seen } = target([], { status: 200, body: [] });
    expect(await judgeHistory(client, submitted())).toEqual({ kind: 'none' });
    expect(seen).toHaveLength(1);
  });
});

describe('history judge: parts', () => {
  it('reads the committed submissions of every synchronous form, with their act-as parties', () => {
    const subs = committedSubmissions([
      ...submitted(),
      exchange('/v2/commands/submit-and-wait', { commands: [], actAs: [BOB] }, 200, { updateId: 'u-2', completionOffset: 9 }),
      exchange('/v2/commands/submit-and-wait', { commands: [], actAs: [BOB] }, 400, { code: 'X' }),
      exchange('/v2/interactive-submission/executeAndWait', { partySignatures: { signatures: [{ party: ALICE, signatures: [] }] } }, 200, { updateId: 'u-3', completionOffset: 11 }),
    ]);
    expect(subs.map((s) => [s.updateId, s.offset, s.actAs])).toEqual([['u-1', 7, [ALICE]], ['u-2', 9, [BOB]], ['u-3', 11, [ALICE]]]);
    expect(allocatedParties([exchange('/v2/parties', { partyIdHint: 'b' }, 200, { partyDetails: { party: BOB, isLocal: true } }), exchange('/v2/parties', {}, 400, { code: 'X' })])).toEqual([BOB]);
  });

  it('hands a v2 transfer (accounts) to the parser as v1 (their owners)', () => {
    const tx = transferTx([{ ExercisedEvent: { ...transferExercise(0, '1.0').ExercisedEvent, choiceArgument: { transfer: { sender: { owner: ALICE, provider: null, id: '' }, receiver: { owner: BOB, provider: null, id: '' }, amount: '1.0' } } } }]);
    const t = ((asV1Transfers(tx).events as { ExercisedEvent: { choiceArgument: { transfer: Record<string, unknown> } } }[])[0]!).ExercisedEvent.choiceArgument.transfer;
    expect([t.sender, t.receiver]).toEqual([ALICE, BOB]);
  });

  it('finds a party\'s holding changes from the update alone, transient contracts left out', async () => {
    const events = [...goodEvents(), created(4, 'transient', ALICE, '1.0'), archiveOf(5, 'transient', ALICE)];
    const t = await holdingChangesOf(transferTx(events), ALICE, () => Promise.resolve({ created: inputEvents.created.createdEvent, archivedAtOffset: 7 }));
    expect(t.changes.map((c) => [c.contractId, c.change])).toEqual([['out-alice', 'created'], ['in-1', 'archived']]);
  });

  it('compares and adds decimals exactly', () => {
    expect(sameDecimal('1.0000000000', '1')).toBe(true);
    expect(sameDecimal('0.1', '0.10000000001')).toBe(false);
    expect(sumDecimals(['0.1', '0.2', '-0.05'])).toBe('0.25');
    expect(sumDecimals(['x'])).toBeUndefined();
  });

  it('names every id with a rule, and the tally reports what it judged and skipped', () => {
    expect(JUDGE_HISTORY.every((r) => r.id.startsWith('judge.history.') && r.rule.length > 40)).toBe(true);
    const tally = new HistoryTally('parser');
    tally.record('a', { kind: 'judged', transactions: 2, holdings: 3, unlabelled: 1, violations: [] });
    tally.record('b', { kind: 'skipped', reason: 'no reads' });
    tally.record('c', { kind: 'none' });
    expect(tally.summary()).toEqual({ mode: 'parser', checks: 1, transactions: 2, holdings: 3, unlabelled: 1, violations: 0, skipped: [{ check: 'b', reason: 'no reads' }] });
    // Shards merged (`report merge`) add up.
    expect(mergeHistory([tally.summary(), undefined, new HistoryTally('none').summary()])).toEqual({ ...tally.summary(), skipped: [{ check: 'b', reason: 'no reads' }] });
    expect(mergeHistory([undefined])).toBeUndefined();
  });

  it('`list --invariants` prints the judge.history.* ids', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(await main(['list', '--invariants'])).toBe(0);
      const printed = log.mock.calls.map((c) => c.join(' ')).join('\n');
      for (const r of JUDGE_HISTORY) expect(printed).toContain(r.id);
    } finally {
      log.mockRestore();
    }
  });

  it('`run --history` takes parser or none', async () => {
    const { parseRunArgs } = await import('../../conformance/src/cli/run.js');
    expect(parseRunArgs(['--history', 'none'])).toMatchObject({ history: 'none' });
    expect(() => parseRunArgs(['--history', 'strict'])).toThrow(/--history takes parser or none/);
  });
});
