import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../conformance/src/cli/run.js';
import { buildDalf, buildDar } from '../../conformance/src/generators/dar.js';
import type { Report } from '../../conformance/src/report/model.js';
import { OPEN_MINING_ROUND_TEMPLATE } from '../../reference-server/src/apps/templateIds.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import type { ReferenceServer } from '../../reference-server/src/server.js';
import { ES256_PUBLIC_PEM, userToken } from '../auth/support/tokens.js';
import { SuitePacer } from '../support/suitePacer.js';

/**
 * The whole suite as a vendor runs it (`run --profile reference-secured`: every group, writes,
 * the oracle, the judge) against a target in service, which it must judge by what it did and
 * what the target showed:
 * - a busy participant: while the run lasts, an operator's automation allocates parties, creates
 *   users, grants them rights and deletes them, uploads DARs (vetted or not); another application
 *   and alice's own wallet (the registry's seeded party, which the suite did not create) create and
 *   archive contracts. Each writes once after every request of the suite's (a load that follows the
 *   run, not a clock), so lists, vetting state, ledger end and alice's contracts move under it.
 *   conformantTargets.test.ts has the participant profile's run beside two writers of contracts.
 * - a Scan with its three open rounds, as Splice's DSO automation keeps them: one open now, one
 *   opened half a tick ago, one opening half a tick from now (the reference opens one on demand).
 */
const TEMPLATE = '#canton-conformance-samples:Sample.Asset:Asset';
const auth = { mode: 'es256' as const, key: { kind: 'public-key-file' as const, path: ES256_PUBLIC_PEM } };
const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };
const start = (systemTime?: () => number) => startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, auth, log: quiet, ...(systemTime === undefined ? {} : { systemTime }) });

async function call(server: ReferenceServer, token: string, method: string, path: string, body?: unknown, bytes?: Uint8Array): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': bytes === undefined ? 'application/json' : 'application/octet-stream' },
    ...(bytes !== undefined ? { body: Buffer.from(bytes) } : body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function certify(server: ReferenceServer, seed: number, more: readonly string[] = []): Promise<Report> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-busy-report-'));
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    await run(['--target', server.url, '--profile', 'reference-secured', '--report-dir', dir, '--seed', String(seed), '--quiet', ...more]);
    return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  } finally {
    log.mockRestore();
  }
}

/** Everything a run reports beyond passing, but the skips of checks of other Canton lines. */
function findings(r: Report): string[] {
  return [
    ...r.checks.filter((c) => c.status !== 'pass' && !(c.status === 'skip' && c.notOnLine !== undefined)).map((c) => `${c.id}: ${c.status}: ${(c.message ?? '').slice(0, 600)}`),
    ...(r.warnings ?? []).map((w) => `warning: ${typeof w === 'string' ? w : JSON.stringify(w)}`),
  ];
}

const rightsOf = (p: string) => [{ kind: { CanActAs: { value: { party: p } } } }, { kind: { CanReadAs: { value: { party: p } } } }];

describe('a busy participant: other applications allocate parties, manage users, upload packages and submit commands all through the run', () => {
  let server: ReferenceServer;
  const writers = { writes: 0, refused: [] as string[], running: [] as Promise<void>[] };
  /** The writers act once after each of the suite's requests (their tokens excepted). */
  const pacer = new SuitePacer();
  /** One write; a refusal is kept to be shown (the writers must have written, not failed). */
  const step = async (what: string, f: () => Promise<unknown>) => {
    try {
      await f();
      writers.writes++;
    } catch (e) {
      writers.refused.push(`${what}: ${(e as Error).message.slice(0, 300)}`);
    }
  };
  const party = async (token: string, hint: string) => ((await call(server, token, 'POST', '/v2/parties', { partyIdHint: hint, identityProviderId: '' })).partyDetails as { party: string }).party;

  /** An operator's automation: parties, users with rights, more rights, users deleted, DARs (vetted every other time). */
  async function keepAdministering(token: string): Promise<void> {
    const users: string[] = [];
    const sync = ((await call(server, token, 'GET', '/v2/state/connected-synchronizers')).connectedSynchronizers as { synchronizerId: string }[])[0]!.synchronizerId;
    for (let i = 0; !pacer.stopped; i++) {
      await pacer.next();
      if (pacer.stopped) break;
      const kind = i % 5;
      if (kind === 0) await step('party', () => party(token, `tenant-${i}`));
      else if (kind === 1) {
        await step('user', async () => {
          const p = await party(token, `tenant-user-${i}`);
          await call(server, token, 'POST', '/v2/users', { user: { id: `tenant-${i}`, primaryParty: p, isDeactivated: false, identityProviderId: '' }, rights: rightsOf(p) });
          users.push(`tenant-${i}`);
        });
      } else if (kind === 2) {
        const dar = buildDar({ main: buildDalf({ name: `tenant-pkg-${i}`, version: '1.0.0' }) });
        const query = i % 2 === 0 ? `vetAllPackages=true&synchronizerId=${encodeURIComponent(sync)}` : 'vetAllPackages=false';
        await step('dar', () => call(server, token, 'POST', `/v2/dars?${query}`, undefined, dar));
      } else if (kind === 3) {
        const u = users.at(-1);
        if (u !== undefined) await step('grant', () => call(server, token, 'POST', `/v2/users/${u}/rights`, { userId: u, rights: [{ kind: { CanReadAsAnyParty: { value: {} } } }], identityProviderId: '' }));
      } else {
        const u = users.length > 3 ? users.shift() : undefined;
        if (u !== undefined) await step('delete', () => call(server, token, 'DELETE', `/v2/users/${u}`));
      }
    }
  }

  /** An application creating and archiving its contracts as `actAs`. */
  async function keepTrading(token: string, userId: string, actAs: string): Promise<void> {
    const live: string[] = [];
    for (let i = 0; !pacer.stopped; i++) {
      await pacer.next();
      if (pacer.stopped) break;
      const cid = live.shift();
      if (cid !== undefined && i % 3 === 0) {
        await step('archive', () => call(server, token, 'POST', '/v2/commands/submit-and-wait', {
          commands: [{ ExerciseCommand: { templateId: TEMPLATE, contractId: cid, choice: 'Archive', choiceArgument: {} } }],
          commandId: `${userId}-archive-${i}`, userId, actAs: [actAs],
        }));
      } else {
        if (cid !== undefined) live.unshift(cid);
        await step('create', async () => {
          const answer = await call(server, token, 'POST', '/v2/commands/submit-and-wait-for-transaction', {
            commands: { commands: [{ CreateCommand: { templateId: TEMPLATE, createArguments: { issuer: actAs, owner: actAs, amount: `${i + 1}.0`, observers: null } } }], commandId: `${userId}-create-${i}`, userId, actAs: [actAs] },
          });
          const created = (answer.transaction as { events: { CreatedEvent?: { contractId: string } }[] }).events[0]?.CreatedEvent;
          if (created) live.push(created.contractId);
        });
      }
    }
  }

  beforeAll(async () => {
    server = await start();
    // The writers follow every request and WebSocket upgrade but their own (they send their tokens).
    pacer.follow(server);
    const admin = await userToken('participant_admin', 'ES256');
    const opsParty = await party(admin, 'ops-party');
    await call(server, admin, 'POST', '/v2/users', { user: { id: 'ops-bot', primaryParty: opsParty, isDeactivated: false, identityProviderId: '' }, rights: [...rightsOf(opsParty), { kind: { ParticipantAdmin: { value: {} } } }] });
    const traderParty = await party(admin, 'trader-party');
    await call(server, admin, 'POST', '/v2/users', { user: { id: 'trader', primaryParty: traderParty, isDeactivated: false, identityProviderId: '' }, rights: rightsOf(traderParty) });
    const alice = ((await call(server, admin, 'GET', '/v2/users/alice')).user as { primaryParty: string }).primaryParty;
    const [ops, trader, aliceWallet] = await Promise.all(['ops-bot', 'trader', 'alice'].map((u) => userToken(u, 'ES256')));
    for (const t of [ops!, trader!, aliceWallet!]) pacer.writerTokens.add(t);
    writers.running.push(keepAdministering(ops!), keepTrading(trader!, 'trader', traderParty), keepTrading(aliceWallet!, 'alice', alice));
  }, 60_000);
  afterAll(async () => {
    pacer.stop();
    await Promise.all(writers.running);
    await server?.close();
  });

  it('fails, warns and skips nothing (but the checks of other Canton lines)', async () => {
    const before = writers.writes;
    const report = await certify(server, 7);
    expect(findings(report)).toEqual([]);
    // The others wrote all through the run, and none of their writes was refused.
    expect(writers.refused).toEqual([]);
    expect(writers.writes - before).toBeGreaterThan(1000);
    expect(report.oracle?.compared ?? 0).toBeGreaterThan(0);
    expect(report.judge?.answers ?? 0).toBeGreaterThan(500);
    expect(report.judge?.stream?.writes ?? 0).toBeGreaterThan(0);
  }, 600_000);
});

describe("a Scan with Splice's three open rounds, two open now and one opening later", () => {
  let server: ReferenceServer;
  /**
   * The ledger's time, which stays where it is for the whole run: the third round opens half a
   * tick after it, and no machine, however slow, carries the run past that.
   */
  const now = Date.now();
  type Round = { contract: { payload: { dso: string; round: { number: string }; amuletPrice: string; tickDuration: { microseconds: string } } } };

  beforeAll(async () => {
    server = await start(() => now);
    const admin = await userToken('participant_admin', 'ES256');
    // Scan's read brings the DSO's rounds up to now: the round open now, the newest.
    const rounds = await call(server, admin, 'POST', '/v0/open-and-issuing-mining-rounds', { cached_open_mining_round_contract_ids: [], cached_issuing_round_contract_ids: [] });
    const latest = Object.values(rounds.open_mining_rounds as Record<string, Round>).map((r) => r.contract.payload).sort((a, b) => Number(b.round.number) - Number(a.round.number))[0]!;
    const tickMs = Number(latest.tickDuration.microseconds) / 1000;
    const n = Number(latest.round.number);
    // As AmuletRules_AdvanceOpenMiningRounds leaves them: each round open for two ticks, the next a tick later.
    const round = (k: number, opensAt: number) => ({
      CreateCommand: {
        templateId: OPEN_MINING_ROUND_TEMPLATE,
        createArguments: {
          dso: latest.dso, round: { number: String(n + k) }, amuletPrice: latest.amuletPrice,
          opensAt: new Date(opensAt).toISOString(), targetClosesAt: new Date(opensAt + 2 * tickMs).toISOString(),
          issuingFor: { microseconds: String(BigInt(latest.tickDuration.microseconds) * BigInt(n + k)) }, tickDuration: latest.tickDuration,
        },
      },
    });
    const opened = server.ledger.submitAndWait({ userId: 'participant_admin', commandId: 'dso-opens-rounds-ahead', actAs: [latest.dso], commands: [round(1, now - tickMs / 2), round(2, now + tickMs / 2)] });
    if (!opened.ok) throw new Error(`opening rounds: ${opened.error.cause}`);
  }, 60_000);
  afterAll(() => server?.close());

  it('fails, warns and skips nothing (but the checks of other Canton lines)', async () => {
    // The one check that needs ledger time to pass (a deduplication period running out) is left out.
    const report = await certify(server, 8, ['--skip', 'ledger.dedup.reuse-after-period']);
    expect(findings(report)).toEqual([]);
    // Scan still shows the three, the newest opening after the ledger's time.
    const after = await call(server, await userToken('participant_admin', 'ES256'), 'POST', '/v0/open-and-issuing-mining-rounds', { cached_open_mining_round_contract_ids: [], cached_issuing_round_contract_ids: [] });
    const opens = Object.values(after.open_mining_rounds as Record<string, { contract: { payload: { opensAt: string } } }>).map((r) => Date.parse(r.contract.payload.opensAt));
    expect(opens.length).toBe(3);
    expect(opens.filter((t) => t > now)).toHaveLength(1);
  }, 600_000);
});
