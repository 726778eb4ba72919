import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { run } from '../../conformance/src/cli/run.js';
import type { Report } from '../../conformance/src/report/model.js';
import type { Ledger } from '../../reference-server/src/ledger/index.js';
import { startReferenceServer, type StartedServer } from '../../reference-server/src/startReferenceServer.js';
import { ES256_PUBLIC_PEM, userToken } from '../auth/support/tokens.js';
import { OTHER_IDENTITY, profileTextFor, THEIR_NAMESPACE } from '../support/otherIdentity.js';

/**
 * Another operator's node (test/support/otherIdentity.ts) certified with the reference-secured
 * profile rewritten for its own ids, as they would write theirs. Nothing may fail, warn or skip for
 * differing from the reference in ids ("judge a target by its own ledger").
 */
const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };
const auth = { mode: 'es256' as const, key: { kind: 'public-key-file' as const, path: ES256_PUBLIC_PEM } };

/** reference-secured.yaml with the other node's parties and contract ids, written into `dir`. */
function theirProfile(ours: Ledger, theirs: Ledger, dir: string): string {
  const out = join(dir, 'vendor.yaml');
  writeFileSync(out, profileTextFor('reference-secured', ours, theirs));
  return out;
}

async function certify(target: StartedServer, profile: string): Promise<Report> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-other-participant-'));
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    await run(['--target', target.url, '--profile', profile, '--report-dir', dir, '--seed', '7', '--quiet']);
    return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  } finally {
    log.mockRestore();
  }
}

describe('another operator\'s node (another participant id and synchronizers) fails nothing for its own ids', () => {
  it('the reference-secured profile, rewritten with its ids, passes as against the reference', async () => {
    const ours = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, auth, log: quiet });
    const theirs = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, auth, log: quiet, identity: OTHER_IDENTITY });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'cc-other-profile-'));
      const profile = theirProfile(ours.ledger, theirs.ledger, dir);
      const report = await certify(theirs, profile);
      // As against the reference itself, only the checks of another Canton line skip.
      const findings = report.checks
        .filter((c) => c.status !== 'pass' && !(c.status === 'skip' && /^Canton 3\.5('s document)? has no /.test(c.message ?? '')))
        .map((c) => `${c.id}: ${c.status}: ${(c.message ?? '').slice(0, 400)}`);
      expect(findings).toEqual([]);
      expect(report.warnings ?? []).toEqual([]);
      // The oracle replayed the run on its reference, the target's ids translated into its own: the
      // parties the run allocated, in values and in the keys of filtersByParty alike. Left out are
      // the registry's and Scan's scenarios on the operator's own world (the profile's ids), and
      // what the oracle never replays (signatures over what the target prepared, auth, whole lists).
      expect(report.oracle?.compared ?? 0).toBeGreaterThan(1000);
      const left = report.checks.flatMap((c) => (c.oracle?.notReplayed === undefined ? [] : [`${c.id}: ${c.oracle.notReplayed}`]));
      expect(left.filter((l) => /refused the replayed/.test(l))).toEqual([]);
      expect(left.filter((l) => l.startsWith('ledger.') && l.includes(`::${THEIR_NAMESPACE}`))).toEqual([]);
      // The rest of the run's machinery judged it as much: the judge, the engine re-running its
      // transactions (on its own package ids), the history parser.
      expect(report.judge?.answers ?? 0).toBeGreaterThan(1000);
      expect(report.reinterpretation?.reinterpreted ?? 0).toBeGreaterThan(100);
      expect(report.history?.transactions ?? 0).toBeGreaterThan(20);
    } finally {
      await theirs.close();
      await ours.close();
    }
  }, 240_000);
});

describe('a participant connected to one synchronizer (a validator on the global synchronizer alone)', () => {
  it('passes the participant profile: the reassignment checks skip, naming why, and nothing fails or warns', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-one-synchronizer-'));
    const fixtures = join(dir, 'world.json');
    // No sample world (its registry moves a contract to a second synchronizer): the node's own parties only.
    writeFileSync(fixtures, JSON.stringify({ version: 1, appWorld: false }));
    const node = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures, auth, log: quiet, identity: { participantId: OTHER_IDENTITY.participantId, synchronizers: [OTHER_IDENTITY.synchronizers[0]] } });
    const env = { CC_USER_ID: 'participant_admin', CC_PARTY: '', CC_TEMPLATE_ID: '#canton-conformance-samples:Sample.Asset:Asset' };
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const admin = await userToken('participant_admin', 'ES256');
      const allocated = await fetch(`${node.url}/v2/parties`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ partyIdHint: 'vendor-ci-party', identityProviderId: '' }) });
      env.CC_PARTY = ((await allocated.json()) as { partyDetails: { party: string } }).partyDetails.party;
      const rights = [{ kind: { CanActAs: { value: { party: env.CC_PARTY } } } }, { kind: { CanReadAs: { value: { party: env.CC_PARTY } } } }];
      const granted = await fetch(`${node.url}/v2/users/participant_admin/rights`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ userId: 'participant_admin', rights, identityProviderId: '' }) });
      expect(granted.status).toBe(200);
      Object.assign(process.env, env);
      await run(['--target', node.url, '--profile', 'participant', '--token', admin, '--report-dir', dir, '--seed', '5', '--quiet']);
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
      expect(report.checks.filter((c) => c.status === 'fail' || c.status === 'error' || c.status === 'warn').map((c) => `${c.id}: ${c.status}: ${c.message ?? ''}`)).toEqual([]);
      const reassignment = report.checks.filter((c) => c.id.startsWith('ledger.reassignment.'));
      expect(reassignment.length).toBeGreaterThan(0);
      for (const c of reassignment) expect(`${c.id}: ${c.status}: ${c.message ?? ''}`).toMatch(/: skip: .*fewer than two synchronizers/);
      expect(report.summary.passed).toBeGreaterThan(150);
    } finally {
      log.mockRestore();
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
      else process.env[k] = v;
      await node.close();
    }
  }, 240_000);
});
