/**
 * The durable store against the in-memory one, in one run, each server in its own process and
 * autocannon in this one:
 *
 * 1. POST /v2/commands/submit-and-wait (1 create each, 10 connections): in memory vs
 *    `--data-dir` (SQLite WAL, synchronous=NORMAL, the default), alternating, two rounds
 *    (target >= 0.5x); once more with synchronous=FULL (fsync per commit), for information.
 * 2. Restart: a server with 100,000 commits in its directory is killed with SIGKILL and started
 *    again on it; the time to read the ledger back (open + replay) and to listen.
 *
 * `npm run bench:durable` builds into bench/out/build and runs this; `--quick` for short runs and
 * 10,000 commits. Raw numbers: bench/out/durable.json.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Request as CannonRequest } from 'autocannon';
import { ServerProcess } from './servers/ServerProcess.js';

const quick = process.argv.includes('--quick');
const DURATION = quick ? 3 : 10;
const WARMUP = quick ? 1 : 3;
const COMMITS = quick ? 10_000 : 100_000;
const CONNECTIONS = 10;
const root = mkdtempSync(join(tmpdir(), 'cc-bench-durable-'));
let dirs = 0;
const freshDir = () => join(root, `d${++dirs}`);

const results: Record<string, unknown> = {
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, loadavgAtStart: loadavg().map((l) => +l.toFixed(1)) },
  settings: { durationS: DURATION, warmupS: WARMUP, connections: CONNECTIONS, commits: COMMITS },
};
const log = (line: string) => console.log(line);

async function start(dataDir: string | undefined, synchronous: 'NORMAL' | 'FULL' = 'NORMAL'): Promise<ServerProcess> {
  if (dataDir === undefined) delete process.env['BENCH_DATA_DIR'];
  else process.env['BENCH_DATA_DIR'] = dataDir;
  process.env['BENCH_SYNCHRONOUS'] = synchronous;
  return ServerProcess.start('durableServer');
}

async function submitThroughput(server: ServerProcess) {
  const { parties } = await server.ask({ cmd: 'parties', hints: [`issuer-${dirs}-${Date.now()}`] }, 'parties');
  const [issuer] = parties as [string];
  let n = 0;
  const body = () =>
    JSON.stringify({
      commands: [{ CreateCommand: { templateId: '#canton-conformance-samples:Sample.Asset:Asset', createArguments: { issuer, owner: issuer, amount: '10.5', observers: null } } }],
      commandId: `bench-${process.pid}-${++n}`,
      userId: 'participant_admin',
      actAs: [issuer],
    });
  const options = {
    url: server.url,
    connections: CONNECTIONS,
    headers: { 'content-type': 'application/json' },
    requests: [{ method: 'POST' as const, path: '/v2/commands/submit-and-wait', setupRequest: (req: CannonRequest) => ({ ...req, body: body() }) }],
  };
  await autocannon({ ...options, duration: WARMUP });
  const r = await autocannon({ ...options, duration: DURATION });
  return { reqPerSec: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

async function benchSubmit(): Promise<void> {
  const rounds = [];
  for (let round = 0; round < 2; round++) {
    const memory = await start(undefined);
    const m = await submitThroughput(memory);
    await memory.stop();
    const durable = await start(freshDir());
    const d = await submitThroughput(durable);
    await durable.stop();
    rounds.push({ memory: m, durable: d, ratio: +(d.reqPerSec / m.reqPerSec).toFixed(2) });
    log(`round ${round + 1}: in memory ${m.reqPerSec}/s (p99 ${m.p99} ms), --data-dir ${d.reqPerSec}/s (p99 ${d.p99} ms): ${rounds.at(-1)?.ratio}x`);
  }
  const full = await start(freshDir(), 'FULL');
  const f = await submitThroughput(full);
  await full.stop();
  const ratio = +(rounds.reduce((s, x) => s + x.ratio, 0) / rounds.length).toFixed(2);
  const fullRatio = +(f.reqPerSec / (rounds.reduce((s, x) => s + x.memory.reqPerSec, 0) / rounds.length)).toFixed(2);
  results['submit'] = { rounds, ratio, full: f, fullRatio };
  log(`submit-and-wait, --data-dir vs in memory: ${ratio}x (target >= 0.5); synchronous=FULL ${f.reqPerSec}/s (p99 ${f.p99} ms): ${fullRatio}x`);
}

async function benchRestart(): Promise<void> {
  const dir = freshDir();
  const first = await start(dir);
  const { parties } = await first.ask({ cmd: 'parties', hints: ['issuer', 'owner'] }, 'parties');
  const seeded = await first.ask({ cmd: 'seed', issuer: parties[0] as string, owner: parties[1] as string, contracts: COMMITS, perCommand: 1 }, 'seeded');
  await first.kill();
  const sizeMb = +((statSync(join(dir, 'ledger.sqlite')).size + (statSync(join(dir, 'ledger.sqlite-wal'), { throwIfNoEntry: false })?.size ?? 0)) / 2 ** 20).toFixed(1);
  const t0 = performance.now();
  const second = await start(dir);
  const toReady = Math.round(performance.now() - t0);
  const res = await fetch(`${second.url}/v2/state/ledger-end`);
  const end = ((await res.json()) as { offset: number }).offset;
  await second.stop();
  const t1 = performance.now();
  const empty = await start(undefined);
  const emptyToReady = Math.round(performance.now() - t1);
  await empty.stop();
  results['restart'] = { commits: COMMITS, seedMs: seeded.ms, ledgerEndBefore: seeded.ledgerEnd, ledgerEndAfter: end, sizeMb, replayMs: second.startMs, toReadyMs: toReady, inMemoryToReadyMs: emptyToReady };
  log(
    `restart after SIGKILL with ${COMMITS} commits (${sizeMb} MB on disk; seeded in ${seeded.ms} ms): open + replay ${second.startMs ?? '?'} ms, ` +
      `process start to listening ${toReady} ms (an in-memory server: ${emptyToReady} ms); ledger end ${seeded.ledgerEnd} -> ${end}`,
  );
}

try {
  await benchSubmit();
  await benchRestart();
} finally {
  rmSync(root, { recursive: true, force: true });
}
const out = fileURLToPath(new URL('../../', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'durable.json'), JSON.stringify(results, null, 2));
log(`raw numbers: ${join(out, 'durable.json')}`);
