import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseServeArgs, run } from '../../conformance/src/cli/serve.js';
import { UsageError } from '../../conformance/src/cli/exitCodes.js';

describe('canton-conformance serve: arguments', () => {
  it('defaults to 127.0.0.1:7575 and the shipped fixtures', () => {
    expect(parseServeArgs([], {})).toMatchObject({ port: 7575, host: '127.0.0.1', fixtures: undefined, rewardAccounting: true });
    expect(parseServeArgs(['--no-reward-accounting'], {})).toMatchObject({ rewardAccounting: false });
    expect(parseServeArgs(['--list-max-elements', '50'], {})).toMatchObject({ listMaxElements: 50 });
    expect(() => parseServeArgs(['--list-max-elements', '0'], {})).toThrow(/positive whole number/);
    expect(() => parseServeArgs(['--list-max-elements', 'many'], {})).toThrow(UsageError);
  });
  it('takes the engine limits (README "Resource limits"), none by default', () => {
    expect(parseServeArgs([], {})).toMatchObject({ engineLimits: {} });
    expect(parseServeArgs(['--step-budget', '500', '--allocation-budget-mib', '64', '--max-transaction-mib', '2', '--view-step-budget', '1000'], {})).toMatchObject({
      engineLimits: { stepBudget: 500, allocationBudget: 64 * 1024 * 1024, maxTransactionBytes: 2 * 1024 * 1024, viewStepBudget: 1000 },
    });
    expect(() => parseServeArgs(['--allocation-budget-mib', '0'], {})).toThrow(/--allocation-budget-mib must be a positive whole number/);
    expect(() => parseServeArgs(['--step-budget', 'lots'], {})).toThrow(UsageError);
  });
  it('runs commands on uploaded packages on an engine thread unless --no-engine-thread', () => {
    expect(parseServeArgs([], {})).toMatchObject({ engineThread: true });
    expect(parseServeArgs(['--no-engine-thread'], {})).toMatchObject({ engineThread: false });
    expect(parseServeArgs(['--localnet', '--no-engine-thread'], {})).toMatchObject({ engineThread: false });
  });
  it('takes PORT and HOST from the environment, and flags over both', () => {
    expect(parseServeArgs([], { PORT: '8080', HOST: '0.0.0.0' })).toMatchObject({ port: 8080, host: '0.0.0.0', fixtures: undefined });
    expect(parseServeArgs(['--port', '9000', '--host', '::1'], { PORT: '8080', HOST: '0.0.0.0' })).toMatchObject({ port: 9000, host: '::1' });
  });
  it('refuses bad values as usage errors', () => {
    expect(() => parseServeArgs(['--port', 'http'], {})).toThrow(UsageError);
    expect(() => parseServeArgs(['--port', '70000'], {})).toThrow(/invalid port/);
    expect(() => parseServeArgs(['--colour'], {})).toThrow(UsageError);
    expect(parseServeArgs(['--auth', 'none'], {})).toMatchObject({ port: 7575 });
  });
  it('answers --help', () => {
    expect(parseServeArgs(['--help'], {})).toBe('help');
  });
});

describe('canton-conformance serve: running', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prints one line with the URL, serves the default world, and stops on SIGTERM', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const exit = run(['--port', '0']);
    await vi.waitFor(() => expect(lines).toHaveLength(1), { timeout: 10_000 });
    const url = /(http:\/\/127\.0\.0\.1:\d+)(?=\s|$)/.exec(lines[0] ?? '')?.[1];
    expect(url).toBeDefined();

    const users = (await (await fetch(`${url}/v2/users`)).json()) as { users: { id: string }[] };
    expect(users.users.map((u) => u.id)).toEqual(expect.arrayContaining(['participant_admin', 'alice', 'bob']));

    process.emit('SIGTERM');
    await expect(exit).resolves.toBe(0);
    await expect(fetch(`${url}/livez`)).rejects.toThrow();
    expect(lines).toHaveLength(1);
  });

  it('--no-reward-accounting: Scan answers the earliest round with 404 "not enabled"', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const exit = run(['--port', '0', '--no-reward-accounting']);
    await vi.waitFor(() => expect(lines).toHaveLength(1), { timeout: 10_000 });
    const url = /(http:\/\/127\.0\.0\.1:\d+)(?=\s|$)/.exec(lines[0] ?? '')?.[1];
    for (const path of ['/v0/internal/reward-accounting-process/rounds/earliest-available', '/v0/reward-accounting-process/rounds/earliest-available']) {
      const res = await fetch(`${url}${path}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: expect.stringMatching(/Reward accounting is not enabled/) });
    }
    // The rest of Scan is unaffected.
    const parties = (await (await fetch(`${url}/v2/parties`)).json()) as { partyDetails: { party: string }[] };
    const alice = parties.partyDetails.find((p) => p.party.startsWith('alice::'))?.party ?? '';
    expect((await fetch(`${url}/v0/transfer-preapprovals/by-party/${encodeURIComponent(alice)}`)).status).toBe(200);
    process.emit('SIGTERM');
    await expect(exit).resolves.toBe(0);
  });

  it('--list-max-elements: a list above the limit is 413 unless ?limit= asks for fewer', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const exit = run(['--port', '0', '--list-max-elements', '1']);
    await vi.waitFor(() => expect(lines).toHaveLength(1), { timeout: 10_000 });
    const url = /(http:\/\/127\.0\.0\.1:\d+)(?=\s|$)/.exec(lines[0] ?? '')?.[1];
    const end = ((await (await fetch(`${url}/v2/state/ledger-end`)).json()) as { offset: number }).offset;
    const query = JSON.stringify({ activeAtOffset: end, eventFormat: { filtersForAnyParty: { cumulative: [] } } });
    const all = await fetch(`${url}/v2/state/active-contracts`, { method: 'POST', body: query });
    expect(all.status).toBe(413);
    const one = await fetch(`${url}/v2/state/active-contracts?limit=1`, { method: 'POST', body: query });
    expect(one.status).toBe(200);
    expect(((await one.json()) as unknown[]).length).toBe(1);
    process.emit('SIGTERM');
    await expect(exit).resolves.toBe(0);
  });

  it('refuses an invalid fixtures file with every problem, before listening', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-serve-'));
    const file = join(dir, 'broken.json');
    writeFileSync(file, JSON.stringify({ version: 1, parties: [42], colour: 'red' }));
    const failure = run(['--port', '0', '--fixtures', file]);
    await expect(failure).rejects.toThrow(UsageError);
    await expect(failure).rejects.toThrow(/broken\.json/);
  });

  it('refuses a port in use as a usage error', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as { port: number }).port;
    await expect(run(['--port', String(port)])).rejects.toThrow(/already in use/);
    blocker.close();
  });
});
