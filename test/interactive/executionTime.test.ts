import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { beforeEach, describe, expect, it } from 'vitest';
import { interactiveSubmissionOf, type InteractiveSubmission } from '../../reference-server/src/ledger/interactive/index.js';
import { createLedger, ManualClock, ok, type Ledger, type LedgerError, type Result } from '../../reference-server/src/ledger/index.js';
import { toTimestamp } from '../../reference-server/src/ledger/clock.js';
import { must } from '../ledger/helpers.js';
import { ASSET, createAssetCommand, executeRequestOf, freshId } from './support/externalParties.js';
import { newKey, type TestKey } from './support/keys.js';

/**
 * When an externally signed transaction commits, and how often. Canton chooses the ledger time at
 * execution, within the bounds the prepared transaction carries (pinned, min = max, only when it
 * read the time), and the confirmers refuse it unless that time is within 60 s of the record time;
 * its mediator refuses a second request with the same transaction UUID. So a transaction executed
 * late never commits in the past, and one signature commits at most once, whoever submits it.
 */
const STAMP = '#canton-conformance-clock:Test.Clock:Stamp';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let clock: ManualClock;
let ledger: Ledger;
let service: InteractiveSubmission;
let key: TestKey;
let ext: string;

beforeEach(() => {
  clock = new ManualClock(Date.UTC(2026, 0, 1));
  ledger = createLedger({ clock });
  // A template whose nonconsuming choice reads the time (Daml getTime) and one that does not: both create nothing.
  const added = ledger.catalogue.addTemplate({
    packageName: 'canton-conformance-clock',
    module: 'Test.Clock',
    entity: 'Stamp',
    fields: { owner: 'Party' },
    signatories: ['owner'],
    observers: [],
    choices: {
      ReadTime: { consuming: false, controllers: (self) => [self.argument.owner as string], body: (ctx) => ok(toTimestamp(ctx.now)) },
      Touch: { consuming: false, controllers: (self) => [self.argument.owner as string], body: () => ok('touched') },
    },
  });
  if (!added.ok) throw new Error(added.error.cause);
  service = interactiveSubmissionOf(ledger);
  key = newKey('ed25519');
  ext = must(ledger.allocateExternalParty('ext', key.publicKey)).party;
  for (const id of ['wallet', 'second-wallet']) must(ledger.createUser({ user: { id, isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanActAs: { value: { party: ext } } } }] }));
});

interface Prepared {
  readonly preparedTransaction: string;
  readonly preparedTransactionHash: string;
}

function prepare(commands: unknown[], extra: Record<string, unknown> = {}): Prepared {
  return must(service.prepare({ userId: 'wallet', commandId: freshId('prep'), commands, actAs: [ext], readAs: [], disclosedContracts: [], packageIdSelectionPreference: [], verboseHashing: false, ...extra } as never));
}

const executeRequest = (p: Prepared, extra: Record<string, unknown> = {}) => executeRequestOf(key, ext, p, extra);

/** Executes and answers the committed transaction's ledger time, or the refusal. */
function execute(p: Prepared, extra: Record<string, unknown> = {}): Result<number, LedgerError> {
  const r = service.executeAndWaitForTransaction({ ...(executeRequest(p, extra) as object), transactionFormat: { eventFormat: { filtersByParty: { [ext]: {} }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } } as never);
  return r.ok ? { ok: true, value: Date.parse(r.value.transaction.effectiveAt) } : r;
}

/** A prepared transaction the signer edited and signed anew (hash recomputed with Canton's own tooling). */
async function resigned(p: Prepared, change: (d: PreparedTransaction) => void): Promise<Prepared> {
  const d = PreparedTransaction.fromBinary(Buffer.from(p.preparedTransaction, 'base64'));
  change(d);
  const preparedTransaction = Buffer.from(PreparedTransaction.toBinary(d)).toString('base64');
  return { preparedTransaction, preparedTransactionHash: await hashPreparedTransaction(preparedTransaction, 'base64') };
}

const metadataOf = (p: Prepared) => PreparedTransaction.fromBinary(Buffer.from(p.preparedTransaction, 'base64')).metadata!;
const micros = (ms: number) => BigInt(ms) * 1000n;
const codeOf = (r: Result<unknown, LedgerError>) => (r.ok ? 'committed' : r.error.code);
/** How many transactions the party sees (checkpoints aside). */
const transactionsOf = (party: string) =>
  [...must(ledger.updates({ beginExclusive: 0, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [party]: {} }, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } } } as never))].filter(
    (u) => 'Transaction' in (u as { update: object }).update,
  ).length;

/** The party's active contract ids. */
function activeIds(): string[] {
  const acs = [...must(ledger.activeContracts({ activeAtOffset: ledger.ledgerEnd().offset, eventFormat: { filtersByParty: { [ext]: {} } } } as never))];
  return acs.map((e) => (e.contractEntry as { JsActiveContract: { createdEvent: { contractId: string } } }).JsActiveContract.createdEvent.contractId);
}

function stamp(): string {
  const created = prepare([{ CreateCommand: { templateId: STAMP, createArguments: { owner: ext } } }]);
  const before = activeIds();
  expect(codeOf(execute(created))).toBe('committed');
  return activeIds().find((id) => !before.includes(id))!;
}
const exercise = (contractId: string, choice: string) => ({ ExerciseCommand: { templateId: STAMP, contractId, choice, choiceArgument: {} } });

describe('ledger time is chosen at execution', () => {
  it('an unchanged transaction executed 75 s after preparation commits at its execution time, not 75 s in the past', () => {
    const p = prepare([createAssetCommand(ext, ext)]);
    expect(metadataOf(p).minLedgerEffectiveTime).toBeUndefined();
    clock.advance(75_000);
    expect(must(execute(p))).toBe(clock.now());
  });

  it('a transaction prepared 23 h ago (within the preparation-time tolerance) commits now, not 23 h in the past', () => {
    const p = prepare([createAssetCommand(ext, ext)]);
    clock.advance(23 * HOUR);
    expect(must(execute(p))).toBe(clock.now());
  });

  it('a create re-signed with another preparation time is refused and commits nothing: its contract id no longer derives from its node seed and that time', async () => {
    const p = await resigned(prepare([createAssetCommand(ext, ext)]), (d) => (d.metadata!.preparationTime -= micros(HOUR)));
    const before = transactionsOf(ext);
    expect(codeOf(execute(p))).toBe('FAILED_TO_EXECUTE_TRANSACTION');
    expect(transactionsOf(ext)).toBe(before);
  });

  it('a transaction re-signed with ledger time bounds 23 h back is refused by the record-time check and commits nothing', async () => {
    const back = micros(clock.now() - 23 * HOUR);
    const p = await resigned(prepare([createAssetCommand(ext, ext)]), (d) => {
      d.metadata!.minLedgerEffectiveTime = back;
      d.metadata!.maxLedgerEffectiveTime = back;
    });
    const before = transactionsOf(ext);
    expect(codeOf(execute(p))).toBe('LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND');
    expect(transactionsOf(ext)).toBe(before);
  });

  it('an execute-time minLedgerTime an hour ahead is refused by the record-time check', () => {
    const p = prepare([createAssetCommand(ext, ext)]);
    expect(codeOf(execute(p, { minLedgerTime: { time: { MinLedgerTimeRel: { value: { seconds: 3600, nanos: 0 } } } } }))).toBe('LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND');
    // Within the tolerance, the execution's minimum is the ledger time.
    expect(must(execute(p, { minLedgerTime: { time: { MinLedgerTimeRel: { value: { seconds: 30, nanos: 0 } } } } }))).toBe(clock.now() + 30_000);
  });

  it('a transaction that does not read the time ignores a prepare-time minLedgerTime: no bounds, the preparation time is that minimum', () => {
    const at = clock.now() + 20_000;
    const m = metadataOf(prepare([createAssetCommand(ext, ext)], { minLedgerTime: { time: { MinLedgerTimeAbs: { value: new Date(at).toISOString() } } } }));
    expect([m.minLedgerEffectiveTime, m.maxLedgerEffectiveTime, m.preparationTime]).toEqual([undefined, undefined, micros(at)]);
  });

  it('a transaction that reads the time is pinned to it: executed 10 s later it commits at that time, 75 s later it is refused', () => {
    const cid = stamp();
    const p = prepare([exercise(cid, 'ReadTime')]);
    const m = metadataOf(p);
    expect([m.minLedgerEffectiveTime, m.maxLedgerEffectiveTime]).toEqual([micros(clock.now()), micros(clock.now())]);
    const pinned = clock.now();
    clock.advance(10_000);
    expect(must(execute(p))).toBe(pinned);
    const late = prepare([exercise(cid, 'ReadTime')]);
    clock.advance(75_000);
    expect(codeOf(execute(late))).toBe('LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND');
  });

  it('a transaction that reads the time, prepared for an hour ahead, commits only an hour later, at that time', () => {
    const cid = stamp();
    const at = clock.now() + HOUR;
    const p = prepare([exercise(cid, 'ReadTime')], { minLedgerTime: { time: { MinLedgerTimeAbs: { value: new Date(at).toISOString() } } } });
    expect(codeOf(execute(p))).toBe('LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND');
    clock.advance(HOUR);
    expect(must(execute(p))).toBe(at);
  });
});

describe('a signature commits at most once', () => {
  const REPLAYED = 'DUPLICATE_CONFIRMATION_REQUEST_UUID';

  it('a nonconsuming choice executed again by a second user commits nothing', () => {
    const p = prepare([exercise(stamp(), 'Touch')]);
    expect(codeOf(execute(p))).toBe('committed');
    const before = transactionsOf(ext);
    const again = execute(p, { userId: 'second-wallet' });
    expect(codeOf(again)).toBe(REPLAYED);
    expect(!again.ok && again.error.cause).toMatch(/^The request UUID \([0-9a-f-]{36}\) is a duplicate of a previous request with an identical UUID\. It cannot be re-used until /);
    expect(transactionsOf(ext)).toBe(before);
  });

  it('executed again after the command deduplication window, or re-signed with another preparation time, it commits nothing', async () => {
    const p = prepare([exercise(stamp(), 'Touch')]);
    const shortWindow = { deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 1, nanos: 0 } } } };
    expect(codeOf(execute(p, shortWindow))).toBe('committed');
    const before = transactionsOf(ext);
    clock.advance(2 * HOUR);
    expect(codeOf(execute(p, shortWindow))).toBe(REPLAYED);
    const moved = await resigned(p, (d) => (d.metadata!.preparationTime += micros(MINUTE)));
    expect(codeOf(execute(moved, shortWindow))).toBe(REPLAYED);
    expect(transactionsOf(ext)).toBe(before);
  });

  it('executed again by the same user with a zero deduplication period (what the suite does), it is refused as a replay', () => {
    const p = prepare([exercise(stamp(), 'Touch')]);
    const zero = { deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 0, nanos: 0 } } } };
    expect(codeOf(execute(p, zero))).toBe('committed');
    clock.advance(1);
    expect(codeOf(execute(p, zero))).toBe(REPLAYED);
  });

  it('an asynchronous replay is accepted and refused on its completion', async () => {
    const p = prepare([exercise(stamp(), 'Touch')]);
    expect(codeOf(execute(p))).toBe('committed');
    const begin = ledger.ledgerEnd().offset;
    must(service.execute(executeRequest(p, { userId: 'second-wallet' })));
    await new Promise((r) => setImmediate(r));
    const completions = [...must(ledger.completions({ userId: 'second-wallet', parties: [ext], beginExclusive: begin }))];
    const c = completions[0]?.completionResponse;
    expect(c && 'Completion' in c && c.Completion.value.status).toMatchObject({ code: 3, message: expect.stringContaining(REPLAYED) });
  });

  it('two users executing the same transaction at once: one commits, the other is refused', async () => {
    const p = prepare([exercise(stamp(), 'Touch')]);
    const before = transactionsOf(ext);
    must(service.execute(executeRequest(p)));
    must(service.execute(executeRequest(p, { userId: 'second-wallet' })));
    await new Promise((r) => setImmediate(r));
    expect(transactionsOf(ext)).toBe(before + 1);
  });

  it('a consuming transaction executed again is refused as a replay, before its archived input is looked at', () => {
    const before = activeIds();
    expect(codeOf(execute(prepare([createAssetCommand(ext, ext)])))).toBe('committed');
    const asset = activeIds().find((id) => !before.includes(id))!;
    const archive = prepare([{ ExerciseCommand: { templateId: ASSET, contractId: asset, choice: 'Archive', choiceArgument: {} } }]);
    expect(codeOf(execute(archive))).toBe('committed');
    expect(codeOf(execute(archive, { userId: 'second-wallet' }))).toBe(REPLAYED);
  });
});
