import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../conformance/src/cli/run.js';
import type { Report } from '../../conformance/src/report/model.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import type { ReferenceServer } from '../../reference-server/src/server.js';
import { ES256_PUBLIC_PEM, userToken } from '../auth/support/tokens.js';

/**
 * A new user's first look at their participant: `run --target URL --token T` without a profile,
 * which reads only. The participant has pruned its history, and the token's user reads as one
 * party only (no CanReadAsAnyParty). The preflight says so and lets the run start (the default
 * profile claims nothing); reads for any party then answer 403, which is the user's rights, not
 * the participant's conformance: those checks skip, naming the right, and nothing fails.
 */
const TEMPLATE = '#canton-conformance-samples:Sample.Asset:Asset';
const auth = { mode: 'es256' as const, key: { kind: 'public-key-file' as const, path: ES256_PUBLIC_PEM } };
let server: ReferenceServer;

async function call(token: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

beforeAll(async () => {
  server = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, auth, log: { error: () => undefined, warn: () => undefined, info: () => undefined } });
  const admin = await userToken('participant_admin', 'ES256');
  const party = ((await call(admin, 'POST', '/v2/parties', { partyIdHint: 'looker', identityProviderId: '' })).partyDetails as { party: string }).party;
  for (const [id, rights] of [
    ['looker', [{ kind: { CanActAs: { value: { party } } } }]],
    ['any-reader', [{ kind: { CanReadAsAnyParty: { value: {} } } }]],
  ] as const) {
    await call(admin, 'POST', '/v2/users', { user: { id, primaryParty: party, isDeactivated: false, identityProviderId: '' }, rights });
  }
  const looker = await userToken('looker', 'ES256');
  for (let i = 0; i < 20; i++) {
    await call(looker, 'POST', '/v2/commands/submit-and-wait', {
      commands: [{ CreateCommand: { templateId: TEMPLATE, createArguments: { issuer: party, owner: party, amount: `${i + 1}.0`, observers: null } } }],
      commandId: `history-${i}`, userId: 'looker', actAs: [party],
    });
  }
  // History before the last few transactions is pruned.
  const pruned = server.ledger.prune(server.ledger.ledgerEnd().offset - 3);
  if (!pruned.ok) throw new Error(`pruning: ${pruned.error.cause}`);
}, 60_000);
afterAll(() => server?.close());

async function readOnlyRun(user: string): Promise<{ code: number; report: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-read-only-'));
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const code = await run(['--target', server.url, '--token', await userToken(user, 'ES256'), '--only', 'ledger', '--report-dir', dir, '--seed', '5', '--quiet']);
    return { code, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const notPassing = (r: Report) => r.checks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => `${c.id}: ${c.message ?? ''}`);

describe('a read-only first run against a pruned participant', () => {
  it("with a user who reads as one party only: reads for any party skip naming the right, nothing fails", async () => {
    const { code, report } = await readOnlyRun('looker');
    expect(report.preflight?.missingRights).toContain('CanReadAsAnyParty');
    expect(notPassing(report)).toEqual([]);
    expect(code).toBe(0);
    const refused = report.checks.filter((c) => c.status === 'skip' && /lacks CanReadAsAnyParty/.test(c.message ?? ''));
    // The reads for any party that would have failed on a 403 (the active contracts, the update stream, ...).
    expect(refused.map((c) => c.id)).toEqual(expect.arrayContaining(['ledger.acs.offset-zero-empty', 'ledger.updates.ordered']));
    expect(refused[0]?.message).toMatch(/answered 403/);
    // Party and user management needs ParticipantAdmin, which neither user has: those skip too, naming it.
    expect(report.checks.find((c) => c.id === 'ledger.users.get-unknown-404')).toMatchObject({ status: 'skip', message: expect.stringContaining('lacks ParticipantAdmin') });
  }, 300_000);

  it('with a user who may read as any party: the same checks run and pass, from where the history starts', async () => {
    const { code, report } = await readOnlyRun('any-reader');
    expect(report.preflight?.missingRights ?? []).not.toContain('CanReadAsAnyParty');
    expect(notPassing(report)).toEqual([]);
    expect(code).toBe(0);
    const ran = new Map(report.checks.map((c) => [c.id, c.status]));
    expect(ran.get('ledger.acs.offset-zero-empty')).toBe('pass');
    expect(ran.get('ledger.updates.ordered')).toBe('pass');
    expect(report.checks.some((c) => /lacks CanReadAsAnyParty/.test(c.message ?? ''))).toBe(false);
  }, 300_000);
});
