import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseServeArgs, run } from '../../conformance/src/cli/serve.js';
import { readableCopy, type ReadableCopy } from '../support/readableCopy.js';
import { childrenKilledAfterEach, spawnServe, type ServedChild } from '../support/spawnServe.js';

// The server runs as a child process (the published CLI, from dist/: `npm run build`), so that
// it can be killed the hard way.
const bin = new URL('../../bin/canton-conformance.js', import.meta.url).pathname;
const ASSET = '#canton-conformance-samples:Sample.Asset:Asset';
const root = mkdtempSync(join(tmpdir(), 'cc-datadir-'));
const children = childrenKilledAfterEach();
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Served = ServedChild;

/** `serve --data-dir DIR` on a free port; resolves with its URL once it listens. */
const serve = (dir: string, ...extra: string[]): Promise<Served> => spawnServe(['--data-dir', dir, '--list-max-elements', '1000000', ...extra], children);

/** Runs `serve` to its end (Node given `nodeArgs` first): exit code and stderr. */
function serveFails(dir: string, nodeArgs: readonly string[] = []): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [...nodeArgs, bin, 'serve', '--port', '0', '--data-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let err = '';
  child.stderr?.on('data', (d: Buffer) => void (err += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr: err })));
}

async function post(url: string, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}
const get = async (url: string, path: string) => (await fetch(`${url}${path}`)).json() as Promise<Record<string, unknown>>;

const submit = (url: string, party: string, commandId: string, amount: string) =>
  post(url, '/v2/commands/submit-and-wait', {
    commands: [{ CreateCommand: { templateId: ASSET, createArguments: { issuer: party, owner: party, amount, observers: null } } }],
    commandId,
    userId: 'loader',
    actAs: [party],
  });

interface Acked {
  readonly commandId: string;
  readonly amount: string;
  readonly updateId: string;
  readonly offset: number;
}

type Update = { update: { Transaction?: { value: { updateId: string; offset: number; events: { CreatedEvent?: { createArgument: { amount: string } } }[] } } } };

describe('serve --data-dir: the flag', () => {
  it('is read, refused when empty, and absent means in memory (as --help says)', async () => {
    expect(parseServeArgs(['--data-dir', 'some/dir'], {})).toMatchObject({ dataDir: 'some/dir' });
    expect(parseServeArgs([], {})).toMatchObject({ dataDir: undefined });
    expect(() => parseServeArgs(['--data-dir', ''], {})).toThrow(/--data-dir must not be empty/);
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    expect(await run(['--help'])).toBe(0);
    vi.restoreAllMocks();
    expect(lines.join('\n')).toMatch(/--data-dir DIR +keep the ledger in an SQLite database[\s\S]*Without it the ledger lives\s+in memory/);
  });
});

describe('serve --data-dir: a ledger that survives kill -9', () => {
  it('keeps every acknowledged command exactly once, continues offsets and update ids, remembers dedup, users, parties and rights', async () => {
    const dir = join(root, 'killed');
    const first = await serve(dir);
    const party = ((await post(first.url, '/v2/parties', { partyIdHint: 'loader-party', identityProviderId: '' })).body as { partyDetails: { party: string } }).partyDetails.party;
    const created = await post(first.url, '/v2/users', { user: { id: 'loader', primaryParty: party, isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanActAs: { value: { party } } } }] });
    expect(created.status).toBe(200);
    const rightsBefore = await get(first.url, '/v2/users/loader/rights');

    // Write load from several clients; stop it by killing the server mid-flight.
    const acked: Acked[] = [];
    let stop = false;
    // Killed once enough writes were acknowledged, however long a busy machine takes for them.
    let enough!: () => void;
    const acknowledged = new Promise<void>((resolve) => (enough = resolve));
    const client = async (k: number) => {
      for (let n = 0; !stop; n++) {
        const commandId = `load-${k}-${n}`;
        const amount = `${k * 1_000_000 + n + 1}.0000000000`;
        try {
          const r = await submit(first.url, party, commandId, amount);
          if (r.status === 200) {
            const b = r.body as { updateId: string; completionOffset: number };
            acked.push({ commandId, amount, updateId: b.updateId, offset: b.completionOffset });
            if (acked.length >= 60) enough();
          }
        } catch {
          return; // the connection died with the server: not acknowledged
        }
      }
    };
    const load = [0, 1, 2, 3, 4, 5].map(client);
    await acknowledged;
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(load);
    expect(acked.length).toBeGreaterThan(50);

    const second = await serve(dir);
    expect(second.stderr()).toMatch(/restored the ledger from .*: ledger end \d+/);
    const end = (await get(second.url, '/v2/state/ledger-end')).offset as number;
    expect(end).toBeGreaterThanOrEqual(Math.max(...acked.map((a) => a.offset)));

    // Every acknowledged command is in the log exactly once, at the offset and with the update id it was acknowledged with.
    const updates = await post(second.url, '/v2/updates', {
      beginExclusive: 0,
      endInclusive: end,
      updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [party]: {} }, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
    });
    expect(updates.status).toBe(200);
    const txs = (updates.body as Update[]).flatMap((u) => (u.update.Transaction ? [u.update.Transaction.value] : []));
    const byAmount = new Map<string, { updateId: string; offset: number }[]>();
    for (const t of txs) {
      for (const e of t.events) {
        const amount = e.CreatedEvent?.createArgument.amount;
        if (amount !== undefined) byAmount.set(amount, [...(byAmount.get(amount) ?? []), { updateId: t.updateId, offset: t.offset }]);
      }
    }
    for (const a of acked) expect(byAmount.get(a.amount), a.commandId).toEqual([{ updateId: a.updateId, offset: a.offset }]);
    for (const [amount, seen] of byAmount) expect(seen, amount).toHaveLength(1);
    const updateIds = txs.map((t) => t.updateId);
    expect(new Set(updateIds).size).toBe(updateIds.length);

    // Deduplication remembers: resubmitting acknowledged commands is refused with their offsets.
    for (const a of acked.filter((_, i) => i % Math.ceil(acked.length / 20) === 0)) {
      const again = await submit(second.url, party, a.commandId, a.amount);
      expect(again.status, a.commandId).toBe(409);
      expect(again.body).toMatchObject({ code: 'DUPLICATE_COMMAND', context: { completion_offset: String(a.offset) } });
    }

    // Offsets continue without reuse; the new update id is new.
    const next = await submit(second.url, party, 'after-restart', '0.5');
    expect(next.status).toBe(200);
    const nb = next.body as { updateId: string; completionOffset: number };
    expect(nb.completionOffset).toBeGreaterThan(end);
    expect(updateIds).not.toContain(nb.updateId);

    // Users, parties and rights are kept.
    expect(await get(second.url, '/v2/users/loader/rights')).toEqual(rightsBefore);
    expect(((await get(second.url, '/v2/users/loader')).user as { primaryParty: string }).primaryParty).toBe(party);
    const parties = (await get(second.url, `/v2/parties/${encodeURIComponent(party)}`)).partyDetails as { party: string }[];
    expect(parties.map((p) => p.party)).toEqual([party]);
    second.child.kill('SIGTERM');
  }, 60_000);

  it('answers the registry and Scan from the restored ledger as before the restart', async () => {
    const dir = join(root, 'apps');
    const first = await serve(dir);
    const parties = (await get(first.url, '/v2/parties')).partyDetails as { party: string }[];
    const bob = parties.find((p) => p.party.startsWith('bob::'))?.party as string;
    const reads = async (url: string) => ({
      preapproval: await get(url, `/v0/transfer-preapprovals/by-party/${encodeURIComponent(bob)}`),
      rounds: await get(url, '/v0/internal/reward-accounting-process/rounds/earliest-available'),
      context: await post(url, '/registry/allocation-instruction/v2/00b1cf648fa1d69ec40a8ab003b392798cdb9d35c1c28a89a718a87c8f1de5a710/choice-contexts/accept', { meta: {} }),
      end: await get(url, '/v2/state/ledger-end'),
      // Includes the contracts of the Ticket template the fixture file declares.
      acs: await post(url, '/v2/state/active-contracts', { activeAtOffset: ((await get(url, '/v2/state/ledger-end')).offset as number), eventFormat: { filtersForAnyParty: {}, verbose: true } }),
    });
    const before = await reads(first.url);
    expect(before.context.status).toBe(200);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    expect(JSON.stringify(before.acs.body)).toContain(':Demo.Ticket:Ticket');
    // Fixtures apply to a new directory only.
    const second = await serve(dir, '--fixtures', 'fixtures/default-world.json');
    expect(second.stderr()).toMatch(/--fixtures fixtures\/default-world.json is ignored/);
    expect(await reads(second.url)).toEqual(before);
    second.child.kill('SIGTERM');
  }, 60_000);

  it('refuses a second server on the same directory, with a clear message and exit 2', async () => {
    const dir = join(root, 'locked');
    const first = await serve(dir);
    const second = await serveFails(dir);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/in use by another canton-conformance server/);
    expect(second.stderr).not.toMatch(/\n\s+at /);
    expect((await fetch(`${first.url}/livez`)).status).toBe(200);
    first.child.kill('SIGTERM');
  }, 60_000);

  it("without better-sqlite3's native binding (its install script never ran): exit 2 saying so and how to build it, no directory made", async () => {
    // What `bindings` throws when no better_sqlite3.node was built (npm install --ignore-scripts,
    // npm 11's allowScripts left unapproved), put in its place before the CLI starts.
    const preload = join(root, 'no-binding.cjs');
    writeFileSync(preload, `const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'bindings') return () => { throw new Error('Could not locate the bindings file. Tried:\\n → /nowhere/build/Release/better_sqlite3.node'); };
  return load.call(this, request, ...rest);
};
`);
    const dir = join(root, 'no-binding');
    const r = await serveFails(dir, ['--require', preload]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/better-sqlite3's native SQLite binding, which cannot be loaded \(Could not locate the bindings file/);
    expect(r.stderr).toMatch(/npm rebuild better-sqlite3/);
    expect(r.stderr).not.toMatch(/damaged|\n\s+at /);
    expect(existsSync(dir)).toBe(false);
  }, 60_000);

  it('refuses a damaged or foreign database file with a clear message and exit 2, not a crash', async () => {
    const dir = join(root, 'garbage');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'ledger.sqlite'), 'not a database '.repeat(100));
    const r = await serveFails(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not a canton-conformance ledger database/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 30_000);
});

describe('serve --data-dir: a ledger that lost acknowledged commands, or a directory it may not write', () => {
  // Runs as nobody when the tests run as root (root may write any file, so permissions would not show).
  const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  // Under /tmp itself when it runs as nobody: the test run's own temporary directory is private to root.
  const base = mkdtempSync(join(asUser.uid !== undefined ? '/tmp' : tmpdir(), 'cc-datadir-access-'));
  chmodSync(base, 0o755);
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  /** `serve --data-dir DIR`: resolves with the URL once it listens, or its exit code and stderr. */
  function serveAs(dir: string): Promise<{ child: ChildProcess; url: string } | { code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--data-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => void (err += d.toString()));
    return new Promise((resolve) => {
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
        if (url) resolve({ child, url });
      });
      child.once('exit', (code) => resolve({ code, stderr: err }));
    });
  }
  const exited = (child: ChildProcess) => new Promise((r) => child.once('exit', r));
  /** A ledger made in a new directory, stopped with SIGTERM or killed. */
  async function ledgerIn(name: string, commands: number, end: 'SIGTERM' | 'SIGKILL'): Promise<{ dir: string; acked: number }> {
    const dir = join(base, name);
    mkdirSync(dir);
    const s = await serveAs(dir);
    if (!('url' in s)) throw new Error(`serve exited with ${s.code}: ${s.stderr}`);
    const party = ((await post(s.url, '/v2/parties', { partyIdHint: 'p', identityProviderId: '' })).body as { partyDetails: { party: string } }).partyDetails.party;
    let acked = 0;
    for (let i = 0; i < commands; i++) {
      const r = await post(s.url, '/v2/commands/submit-and-wait', {
        commands: [{ CreateCommand: { templateId: ASSET, createArguments: { issuer: party, owner: party, amount: '1', observers: null } } }],
        commandId: `c-${i}`,
        userId: 'participant_admin',
        actAs: [party],
      });
      acked = (r.body as { completionOffset: number }).completionOffset;
    }
    const gone = exited(s.child);
    s.child.kill(end);
    await gone;
    return { dir, acked };
  }
  const files = (dir: string) => readdirSync(dir).sort().map((f) => `${f}:${statSync(join(dir, f)).size}:${readFileSync(join(dir, f)).toString('base64')}`);

  it('the write-ahead log removed after kill -9: refused (exit 2) naming the database and the acknowledged end, nothing written', async () => {
    const { dir, acked } = await ledgerIn('wal-lost', 20, 'SIGKILL');
    rmSync(join(dir, 'ledger.sqlite-wal'));
    const before = files(dir);
    const r = await serveAs(dir);
    expect(r).toMatchObject({ code: 2 });
    const stderr = 'stderr' in r ? r.stderr : '';
    expect(stderr).toContain(join(dir, 'ledger.sqlite'));
    expect(stderr).toContain(`records acknowledged updates up to offset ${acked}`);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(files(dir)).toEqual(before);
  }, 60_000);

  it('a 0-byte database file: refused (exit 2) naming it, not a new ledger', async () => {
    const { dir } = await ledgerIn('zero-bytes', 2, 'SIGTERM');
    writeFileSync(join(dir, 'ledger.sqlite'), '');
    const before = files(dir);
    const r = await serveAs(dir);
    expect(r).toMatchObject({ code: 2 });
    expect('stderr' in r ? r.stderr : '').toContain(`${join(dir, 'ledger.sqlite')} is empty (0 bytes)`);
    expect(files(dir)).toEqual(before);
  }, 60_000);

  // The store as the server opens it (from dist/), in a child as `asUser`: the sandbox this runs in may refuse an unprivileged listen.
  // Another user may not read the checkout (a private directory, mode 0700): that child loads a world-readable copy.
  let store: ReadableCopy = { ok: true, dist: new URL('../../dist', import.meta.url).pathname };
  beforeAll(() => {
    if (asUser.uid !== undefined) store = readableCopy(base);
  });
  /** What the child printed (`opened`, or the error's name and message), or what happened when it printed nothing. */
  function openAs(dir: string): Promise<string> {
    if (!store.ok) throw new Error(store.reason);
    const module = join(store.dist, 'reference-server/src/store/sqlite/SqliteStore.js');
    const script = `import { SqliteStore } from ${JSON.stringify(module)}; try { SqliteStore.open(${JSON.stringify(dir)}, { participantId: 'p::1220ab' }); console.log('opened'); } catch (e) { console.log(e.name + ': ' + e.message); }`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'], ...asUser });
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => void (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => void (err += d.toString()));
    const who = asUser.uid !== undefined ? ` as uid ${asUser.uid}` : '';
    return new Promise((resolve) => {
      child.once('error', (e) => resolve(`the child${who} could not start: ${e.message}`));
      child.once('close', (code, signal) => resolve(out.trim() !== '' ? out.trim() : `the child${who} printed nothing and exited with ${signal ?? `code ${code}`}; stderr: ${err.trim() || '(empty)'}`));
    });
  }

  it('a database file it may not write, or a read-only new directory: reported as read-only with the path, not "disk I/O error"', async (ctx) => {
    if (!store.ok) ctx.skip(`cannot arrange a child as another user: ${store.reason}`);
    const dir = join(base, 'read-only-file');
    mkdirSync(dir);
    if (asUser.uid !== undefined) chownSync(dir, asUser.uid, asUser.gid);
    expect(await openAs(dir)).toBe('opened');
    chmodSync(join(dir, 'ledger.sqlite'), 0o444);
    const message = await openAs(dir);
    expect(message).toContain(`DataDirError: the data directory ${dir} is read-only: ${join(dir, 'ledger.sqlite')} cannot be written`);
    expect(message).not.toMatch(/disk I\/O error/);

    const empty = join(base, 'read-only-dir');
    mkdirSync(empty);
    if (asUser.uid !== undefined) chownSync(empty, asUser.uid, asUser.gid);
    chmodSync(empty, 0o555);
    expect(await openAs(empty)).toContain(`DataDirError: the data directory ${empty} is read-only`);
  }, 60_000);
});
