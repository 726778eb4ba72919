import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../conformance/src/cli/run.js';
import type { Report } from '../../conformance/src/report/model.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import type { ReferenceServer } from '../../reference-server/src/server.js';
import { ES256_PUBLIC_PEM, userToken } from '../auth/support/tokens.js';
import { SuitePacer } from '../support/suitePacer.js';

/**
 * A new user certifies a conformant participant that differs legitimately from the in-process
 * reference the oracle replays on: its own participant id and synchronizers (so its parties' namespace), secured with its own vendor user and token (a user that exists
 * only there), a lower http-list-max-elements-limit, a short offset-checkpoint interval, 100 earlier transactions by other parties (pruned), more parties than a walk of the party
 * list in pages of two reaches within the suite's page bound, the suite run twice in a row and once
 * more after a restart on its data directory, with the `participant` profile as shipped, while two
 * other applications keep writing (one as its own party, one as the vendor's party through a user
 * of its own), as on a participant in service: each writes once after every request of the suite's,
 * so its reads and writes interleave with theirs all through the run, at a load that follows the
 * run rather than a clock (writing flat out, they made a run 15 times slower; a ledger that never
 * goes quiet is streamFollow.test.ts's). Nothing of that may fail a check or warn because of
 * the reference (issue 28, "Precision").
 */
const TEMPLATE = '#canton-conformance-samples:Sample.Asset:Asset';
const dataDir = mkdtempSync(join(tmpdir(), 'cc-conformant-'));
const auth = { mode: 'es256' as const, key: { kind: 'public-key-file' as const, path: ES256_PUBLIC_PEM } };
let server: ReferenceServer;
let vendorToken: string;
let vendorParty: string;
/** Writes by the other applications so far. */
const writers = { writes: 0, running: [] as Promise<void>[] };
/** The other applications write once after each of the suite's requests (their tokens excepted). */
const pacer = new SuitePacer();

// http-list-max-elements-limit 50 (the participant's default is 200): lists the suite reads in pages of 100 get 413 and are read in smaller pages.
// offset-checkpoint-cache-update-interval 50 ms (default 15 s): with the other applications writing, live streams get a checkpoint every 50 ms and never go quiet.
// Its own identity, as any participant has: another participant id (so its parties' namespace) and other synchronizer ids.
const identity = {
  participantId: `vendor-participant::1220${'7a'.repeat(32)}`,
  synchronizers: [{ id: `vendor-global::1220${'1b'.repeat(32)}`, alias: 'global' }, { id: `vendor-private::1220${'2c'.repeat(32)}`, alias: 'private' }],
} as const;
const start = async () => pacer.follow(await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, auth, dataDir, identity, listMaxElements: 50, checkpointIntervalMs: 50, log: { error: () => undefined, warn: () => undefined, info: () => undefined } }));

async function call(token: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function party(admin: string, hint: string): Promise<string> {
  return ((await call(admin, 'POST', '/v2/parties', { partyIdHint: hint, identityProviderId: '' })).partyDetails as { party: string }).party;
}

async function user(admin: string, id: string, p: string, extra: unknown[] = []): Promise<void> {
  await call(admin, 'POST', '/v2/users', {
    user: { id, primaryParty: p, isDeactivated: false, identityProviderId: '' },
    rights: [{ kind: { CanActAs: { value: { party: p } } } }, { kind: { CanReadAs: { value: { party: p } } } }, ...extra],
  });
}

beforeAll(async () => {
  server = await start();
  const admin = await userToken('participant_admin', 'ES256');
  vendorParty = await party(admin, 'vendor-ci-party');
  // The vendor's CI user: exists on this participant only, administers it and acts as its own party.
  await user(admin, 'vendor-ci', vendorParty, [{ kind: { ParticipantAdmin: { value: {} } } }]);
  vendorToken = await userToken('vendor-ci', 'ES256');
  // History the reference never had: 100 transactions by another application's party.
  const other = await party(admin, 'other-app-party');
  await user(admin, 'other-app', other);
  const otherToken = await userToken('other-app', 'ES256');
  pacer.writerTokens.add(otherToken);
  for (let i = 0; i < 100; i++) {
    await call(otherToken, 'POST', '/v2/commands/submit-and-wait', {
      commands: [{ CreateCommand: { templateId: TEMPLATE, createArguments: { issuer: other, owner: other, amount: `${i + 1}.0`, observers: null } } }],
      commandId: `earlier-${i}`,
      userId: 'other-app',
      actAs: [other],
    });
  }
  // A busy participant: 1,050 parties of other applications (a walk in pages of two would take
  // more than the suite's 500-page bound; ledger.lists.complete-on-every-page once failed here).
  for (let i = 0; i < 1050; i++) await party(admin, `tenant-${i}`);
  // A participant that prunes: its history before the runs is gone (reads from before answer PARTICIPANT_PRUNED_DATA_ACCESSED).
  const pruned = server.ledger.prune(server.ledger.ledgerEnd().offset);
  if (!pruned.ok) throw new Error(`pruning: ${pruned.error.cause}`);
  // Two applications write all through the runs: the other one as its party, and the vendor's own
  // automation as the vendor's party (a user of its own), so the suite's party sees writes it did not make.
  await user(admin, 'vendor-automation', vendorParty);
  const automationToken = await userToken('vendor-automation', 'ES256');
  pacer.writerTokens.add(automationToken);
  writers.running.push(keepWriting(otherToken, 'other-app', other), keepWriting(automationToken, 'vendor-automation', vendorParty));
}, 120_000);
afterAll(async () => {
  pacer.stop();
  await Promise.all(writers.running);
  await server?.close();
});

/**
 * Another application in service: creates and archives its contracts one after another until
 * told to stop, each next write after the suite's next request (no timer decides what the run sees).
 * A write refused while the server restarts is simply not counted.
 */
async function keepWriting(token: string, userId: string, actAs: string): Promise<void> {
  const live: string[] = [];
  for (let i = 0; !pacer.stopped; i++) {
    await pacer.next();
    if (pacer.stopped) break;
    try {
      const cid = live.shift();
      if (cid !== undefined && i % 3 === 0) {
        await call(token, 'POST', '/v2/commands/submit-and-wait', {
          commands: [{ ExerciseCommand: { templateId: TEMPLATE, contractId: cid, choice: 'Archive', choiceArgument: {} } }],
          commandId: `${userId}-archive-${i}`, userId, actAs: [actAs],
        });
      } else {
        if (cid !== undefined) live.unshift(cid);
        const answer = await call(token, 'POST', '/v2/commands/submit-and-wait-for-transaction', {
          commands: { commands: [{ CreateCommand: { templateId: TEMPLATE, createArguments: { issuer: actAs, owner: actAs, amount: `${i + 1}.0`, observers: null } } }], commandId: `${userId}-create-${i}`, userId, actAs: [actAs] },
        });
        const created = (answer.transaction as { events: { CreatedEvent?: { contractId: string } }[] }).events[0]?.CreatedEvent;
        if (created) live.push(created.contractId);
      }
      writers.writes++;
    } catch {
      // Refused while the server restarts: the suite's next request tries again.
    }
  }
}

async function certify(seed: number): Promise<{ code: number; report: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-conformant-report-'));
  const env = { CC_USER_ID: 'vendor-ci', CC_PARTY: vendorParty, CC_TEMPLATE_ID: TEMPLATE };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    const code = await run(['--target', server.url, '--profile', 'participant', '--token', vendorToken, '--report-dir', dir, '--seed', String(seed), '--quiet']);
    return { code, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report };
  } finally {
    log.mockRestore();
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}

/** Everything a run reports as not passing (skips aside), with its message. */
const bad = (r: Report) => r.checks.filter((c) => c.status === 'fail' || c.status === 'error' || c.status === 'warn').map((c) => `${c.id}: ${c.status}: ${c.message ?? ''}`);

describe('certifying a conformant participant that is not the reference (participant profile as shipped)', () => {
  it('passes with no failure and no warning: twice in a row, then after a restart on its data directory', async () => {
    for (const seed of [11, 12]) {
      const before = writers.writes;
      const { code, report } = await certify(seed);
      // The other applications wrote while the suite ran.
      expect(writers.writes).toBeGreaterThan(before);
      expect(bad(report)).toEqual([]);
      expect(code).toBe(0);
      expect(report.oracle?.compared ?? 0).toBeGreaterThan(0);
      // The judge saw the run's answers (and found nothing to hold against a conformant target).
      expect(report.judge?.answers ?? 0).toBeGreaterThan(500);
      // It followed the target's update stream from where the run started, and judged the run's writes there.
      expect(report.judge?.stream?.filter).not.toBe('off');
      expect(report.judge?.stream?.writes ?? 0).toBeGreaterThan(0);
      expect(report.judge?.stream?.updates ?? 0).toBeGreaterThanOrEqual(report.judge?.stream?.writes ?? 1);
      // And the run's completions, in pages the target's lower list limit allows.
      expect(report.judge?.stream?.completions ?? 0).toBeGreaterThanOrEqual(report.judge?.stream?.writes ?? 1);
    }
    await server.close();
    server = await start();
    const { code, report } = await certify(13);
    expect(bad(report)).toEqual([]);
    expect(code).toBe(0);
  }, 900_000);
});
