import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../conformance/src/cli/main.js';
import type { Report } from '../../conformance/src/report/model.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import type { ReferenceServer } from '../../reference-server/src/server.js';
import { jsonResponse, pathOf, startMutant, type Fault, type MutantServer } from '../mutants/mutantProxy.js';

/**
 * A participant hosting more parties (or users, or a registry more instruments) than the party walk reads (200 pages) is not at fault: the
 * checks that look for a party in GET /v2/parties judge what the pages read show, and skip when
 * the party is beyond them. A page token that loops still fails them (the party listed again).
 */
const ONLY = 'ledger.parties.list-includes-known';

async function run(target: string, only = ONLY): Promise<Report> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-parties-'));
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    await main(['run', '--target', target, '--profile', 'reference', '--only', only, '--oracle', 'none', '--seed', '5', '--report-dir', dir, '--quiet']);
    return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const party = (n: number) => ({ party: `aaa-${n}::1220${'ab'.repeat(32)}`, isLocal: true, localMetadata: { resourceVersion: '0', annotations: {} }, identityProviderId: '' });
const isList = (req: { method: string; url: string }) => req.method === 'GET' && pathOf(req.url) === '/v2/parties';
const pageOf = (url: string) => Number(new URL(url, 'http://x').searchParams.get('pageToken') || '0');

/** Page after page of other parties (names sorting before the suite's), always one more. */
const manyParties: Fault = { request: (req) => (isList(req) ? jsonResponse(200, { partyDetails: [party(pageOf(req.url))], nextPageToken: String(pageOf(req.url) + 1) }) : req) };

/** Page after page of other users, always one more (the check's own user is never reached). */
const manyUsers: Fault = {
  request: (req) => (req.method === 'GET' && pathOf(req.url) === '/v2/users'
    ? jsonResponse(200, { users: [{ id: `aaa-user-${pageOf(req.url)}`, primaryParty: '', isDeactivated: false, metadata: { resourceVersion: '0', annotations: {} }, identityProviderId: '' }], nextPageToken: String(pageOf(req.url) + 1) })
    : req),
};

/** The registry's real first page of instruments, then empty pages that always offer one more. */
const endlessInstruments: Fault = {
  request: async (req, upstream) => {
    if (req.method !== 'GET' || pathOf(req.url) !== '/registry/metadata/v1/instruments') return req;
    const token = new URL(req.url, 'http://x').searchParams.get('pageToken');
    if (token?.startsWith('more-')) return jsonResponse(200, { instruments: [], nextPageToken: `more-${Number(token.slice(5)) + 1}` });
    const first = await upstream.send(req);
    return jsonResponse(200, { ...(JSON.parse(first.body) as Record<string, unknown>), nextPageToken: 'more-1' });
  },
};

/** The real first page, then the same page again and again: a token that never moves. */
const loopingToken: Fault = {
  request: async (req, upstream) => {
    if (!isList(req)) return req;
    const first = await upstream.send({ ...req, url: '/v2/parties?pageSize=1000' });
    const body = JSON.parse(first.body) as Record<string, unknown>;
    return jsonResponse(200, { ...body, nextPageToken: 'again' });
  },
};

let reference: ReferenceServer;
let many: MutantServer;
let looping: MutantServer;
let users: MutantServer;
let instruments: MutantServer;
beforeAll(async () => {
  reference = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined });
  many = await startMutant(reference.url, manyParties);
  looping = await startMutant(reference.url, loopingToken);
  users = await startMutant(reference.url, manyUsers);
  instruments = await startMutant(reference.url, endlessInstruments);
}, 60_000);
afterAll(async () => {
  await many?.close();
  await looping?.close();
  await users?.close();
  await instruments?.close();
  await reference?.close();
});

describe('GET /v2/users on a participant with very many users', () => {
  it('a user beyond the pages read is not judged (skip, the user deleted again), not failed', async () => {
    const check = (await run(users.url, 'ledger.users.list-includes-created')).checks.find((c) => c.id === 'ledger.users.list-includes-created');
    expect(check?.status, check?.message).toBe('skip');
    expect(check?.message).toMatch(/offered more pages after 200 pages of users/);
  }, 120_000);
});

describe('the instrument list of a registry with very many instruments', () => {
  it('is judged on the instruments of the pages read, not failed for offering more', async () => {
    const id = 'registry.metadata.instrument-read-equals-list-entry';
    const check = (await run(instruments.url, id)).checks.find((c) => c.id === id);
    expect(check?.status, check?.message).toBe('pass');
  }, 120_000);
});

describe('GET /v2/parties on a participant with very many parties', () => {
  it('a party beyond the pages read is not judged (skip), not failed', async () => {
    const check = (await run(many.url)).checks.find((c) => c.id === ONLY);
    expect(check?.status, check?.message).toBe('skip');
    expect(check?.message).toMatch(/offered more pages after 200 parties/);
  }, 120_000);

  it('a page token that never moves still fails: the party is listed again and again', async () => {
    const check = (await run(looping.url)).checks.find((c) => c.id === ONLY);
    expect(check?.status).toBe('fail');
    // The walk stops at the token it was handed before (pageWalk), rather than reading 200 pages of the same party.
    expect(check?.message).toMatch(/was already handed out on page 1: a client walking the pages never reaches the end/);
  }, 120_000);
});
