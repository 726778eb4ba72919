import { afterEach, describe, expect, it } from 'vitest';
import { AMULET_RULES_TEMPLATE, createApps, OPEN_MINING_ROUND_TEMPLATE, registerAppTemplates } from '../../reference-server/src/apps/index.js';
import { createLedger, ManualClock, type DamlRecord } from '../../reference-server/src/ledger/index.js';
import { EARLIEST_ROUND, EARLIEST_ROUND_LEGACY, expectError, getJson, startAppServer, startWorldServer, type AppServer } from './support/appServer.js';
import { allocateParty, create, exercise, mustSubmit } from './support/jsonApi.js';

let server: AppServer | undefined;
afterEach(async () => {
  expect(server?.errors ?? []).toEqual([]);
  await server?.close();
  server = undefined;
});

const PATHS = [EARLIEST_ROUND, EARLIEST_ROUND_LEGACY, `/api/scan${EARLIEST_ROUND}`, `/api/scan${EARLIEST_ROUND_LEGACY}`];

const openRound = (dso: string, n: number) =>
  create(OPEN_MINING_ROUND_TEMPLATE, {
    dso,
    round: { number: String(n) },
    amuletPrice: '0.005',
    opensAt: '2026-01-01T00:00:00Z',
    targetClosesAt: '2026-01-01T00:20:00Z',
    issuingFor: { microseconds: '0' },
    tickDuration: { microseconds: '600000000' },
  });

let submissions = 0;

/** The DSO's round automation, through the JSON API: bootstrap three open rounds, then advance and close them. */
class RoundDriver {
  open: string[] = [];
  readonly summarizing: string[] = [];
  rules = '';
  constructor(
    readonly s: AppServer,
    readonly dso: string,
  ) {}
  async bootstrap(first: number): Promise<void> {
    const r = await mustSubmit(this.s, [this.dso], [create(AMULET_RULES_TEMPLATE, { dso: this.dso, isDevNet: true }), openRound(this.dso, first), openRound(this.dso, first + 1), openRound(this.dso, first + 2)]);
    [this.rules = '', ...this.open] = r.created.map((c) => c.contractId);
  }
  async #rules(choice: string, argument: DamlRecord): Promise<Record<string, string>> {
    const res = await this.s.http
      .post('/v2/commands/submit-and-wait-for-transaction')
      .send(Buffer.from(JSON.stringify({ commands: { commands: [exercise(AMULET_RULES_TEMPLATE, this.rules, choice, argument)], commandId: `${choice}-${process.pid}-${++submissions}`, userId: 'participant_admin', actAs: [this.dso] }, transactionFormat: { eventFormat: { filtersForAnyParty: {}, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } })));
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    const root = (res.body.transaction.events as { ExercisedEvent?: { choice: string; exerciseResult: Record<string, string> } }[]).find((e) => e.ExercisedEvent?.choice === choice);
    return root?.ExercisedEvent?.exerciseResult ?? {};
  }
  async advance(): Promise<void> {
    const [a, b, c] = this.open.slice(-3) as [string, string, string];
    const r = await this.#rules('AmuletRules_AdvanceOpenMiningRounds', { amuletPrice: '0.005', roundToArchiveCid: a, middleRoundCid: b, latestRoundCid: c });
    this.summarizing.push(r.summarizingRoundCid as string);
    this.open.push(r.openRoundCid as string);
  }
  /** Takes the oldest summarizing round through issuing to closed; archives it unless told not to. */
  async close(archive = true): Promise<void> {
    const issuing = await this.#rules('AmuletRules_MiningRound_StartIssuing', { miningRoundCid: this.summarizing.shift() ?? '' });
    const closed = await this.#rules('AmuletRules_MiningRound_Close', { issuingRoundCid: issuing.issuingRoundCid ?? '' });
    if (archive) await this.#rules('AmuletRules_MiningRound_Archive', { closedRoundCid: closed.closedRoundCid ?? '' });
  }
}

async function expectEarliest(s: AppServer, expected: number | string): Promise<void> {
  for (const path of PATHS) {
    const res = await getJson(s, path);
    if (typeof expected === 'number') {
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      expect(res.body).toEqual({ earliest_round: expected });
    } else {
      expectError(res, 404, expected);
    }
  }
}

describe('GET /v0/internal/reward-accounting-process/rounds/earliest-available (and the pre-0.6.5 path)', () => {
  it('answers round 1 over the default world (round 0 first ingested, round 1 archived)', async () => {
    ({ server } = await startWorldServer());
    await expectEarliest(server, 1);
  });

  it('answers 404 "No reward accounting data available yet" before any round is complete', async () => {
    server = await startAppServer();
    await expectEarliest(server, 'No reward accounting data available yet');
  });

  it('answers 404 "Reward accounting is not enabled" when the configuration turns it off', async () => {
    ({ server } = await startWorldServer({ apps: { scan: { rewardAccounting: false } } }));
    await expectEarliest(server, 'Reward accounting is not enabled');
  });

  it('follows rounds closed through the JSON API: first ingested + 1, once that round is archived', async () => {
    server = await startAppServer();
    const dso = await allocateParty(server, 'dso');
    const rounds = new RoundDriver(server, dso);
    await rounds.bootstrap(5); // 5 is the first ingested round: possibly partial
    await expectEarliest(server, 'No reward accounting data available yet');
    await rounds.advance(); // 5 summarizing, 8 open
    await rounds.close(); // 5 archived: complete but partial, not reported
    await expectEarliest(server, 'No reward accounting data available yet');
    await rounds.advance(); // 6 summarizing
    await rounds.close(false); // 6 closed, not archived yet
    await expectEarliest(server, 'No reward accounting data available yet');
    const closed = server.ledger.activeContractsOf('#splice-amulet:Splice.Round:ClosedMiningRound').next().value;
    await mustSubmit(server, [dso], [exercise(AMULET_RULES_TEMPLATE, rounds.rules, 'AmuletRules_MiningRound_Archive', { closedRoundCid: closed?.contractId ?? '' })]);
    await expectEarliest(server, 6);
    // Later rounds do not move the answer.
    await rounds.advance();
    await rounds.close();
    await expectEarliest(server, 6);
  });

  it('counts from the first round opened after Scan attached to an empty ledger', async () => {
    server = await startAppServer();
    const rounds = new RoundDriver(server, await allocateParty(server, 'dso'));
    await rounds.bootstrap(10);
    await rounds.advance();
    await rounds.close();
    await expectEarliest(server, 'No reward accounting data available yet');
    await rounds.advance();
    await rounds.close();
    await expectEarliest(server, 11);
  });

  it('when attached to a ledger that already has rounds, ingests from the oldest round open at that moment', async () => {
    const ledger = createLedger({ clock: new ManualClock(Date.UTC(2026, 0, 1)) });
    registerAppTemplates(ledger); // templates only: Scan is not following yet
    const allocated = ledger.allocateParty({ partyIdHint: 'dso' });
    if (!allocated.ok) throw new Error(allocated.error.cause);
    const dso = allocated.value.partyDetails.party;
    const boot = ledger.submitAndWait({ userId: 'participant_admin', commandId: 'boot', actAs: [dso], commands: [openRound(dso, 20), openRound(dso, 21), openRound(dso, 22)] });
    expect(boot.ok).toBe(true);
    const apps = createApps(ledger);
    expect(apps.scan.rounds?.firstIngestedRound).toBe(20n);
    expect(apps.scan.earliestAvailableRound()).toMatchObject({ ok: false, error: { code: 'REWARD_ACCOUNTING_NO_DATA' } });
  });
});
