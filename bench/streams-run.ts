/**
 * Streams and the rest of the server (issue 14), the reference server in its own process:
 *
 * 1. `stall`: latency of `GET /v2/version`, probed every 10 ms (open loop: a probe leaves on time
 *    whether or not the previous one answered), while one client reads N active contracts over
 *    HTTP (`POST /v2/state/active-contracts`, no limit) and then over the WebSocket form (the
 *    reader runs in a worker thread, `streams-reader.ts`, so it does not delay the probes).
 *    Goal: p99 < 50 ms.
 * 2. `subscribers`: `submit-and-wait` throughput (10 concurrent callers, 10 s) with no stream
 *    open, then with 1,000 idle WebSocket subscribers to `/v2/updates` for a party none of the
 *    commits concern, then without again (the ratio is against the mean of both). Goal: >= 0.8x.
 *
 * `tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/streams-run.js
 *  [--only stall,subscribers] [--contracts N] [--subscribers N] [--quick]`
 */
import { Agent, request } from 'node:http';
import { Worker } from 'node:worker_threads';
import { WebSocket } from 'ws';
import { ServerProcess } from './servers/ServerProcess.js';

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const only = new Set((arg('only') ?? 'stall,subscribers').split(','));
const CONTRACTS = Number(arg('contracts') ?? (quick ? 50_000 : 1_000_000));
const SUBSCRIBERS = Number(arg('subscribers') ?? (quick ? 200 : 1_000));
const SUBMIT_SECONDS = quick ? 3 : 10;
const PROBE_EVERY_MS = 10;
const ASSET = '#canton-conformance-samples:Sample.Asset:Asset';

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** One GET on a fresh connection (as a liveness probe makes it), timed from the moment it is sent; a failure counts as infinitely slow. */
function probe(url: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - t0));
    });
    req.on('error', () => resolve(Infinity));
    req.end();
  });
}

/** Probes `url` every PROBE_EVERY_MS until `during` settles; the latencies of every probe. */
async function probeDuring<T>(url: string, during: Promise<T>): Promise<{ result: T; latencies: number[] }> {
  const pending: Promise<number>[] = [];
  let done = false;
  const settled = during.finally(() => {
    done = true;
  });
  while (!done) {
    pending.push(probe(url));
    await Promise.race([new Promise((r) => setTimeout(r, PROBE_EVERY_MS)), settled.catch(() => undefined)]);
  }
  return { result: await settled, latencies: await Promise.all(pending) };
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function summary(latencies: readonly number[]) {
  return {
    probes: latencies.length,
    p50: +percentile(latencies, 50).toFixed(1),
    p99: +percentile(latencies, 99).toFixed(1),
    max: +Math.max(...latencies).toFixed(1),
  };
}

/**
 * Reads the active contracts in a worker thread: a million messages parsed on this thread would
 * delay the probes' own timers, and the latency measured would be the driver's, not the server's.
 */
function readInWorker(kind: 'http' | 'ws', url: string, party: string, offset: number): Promise<{ ms: number; bytes: number; messages: number }> {
  const worker = new Worker(new URL('./streams-reader.js', import.meta.url), { workerData: { kind, url, request: acsRequest(party, offset) } });
  return new Promise((resolve, reject) => {
    worker.once('message', (m: { ms: number; bytes: number; messages: number }) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

function acsRequest(party: string, offset: number) {
  return {
    activeAtOffset: offset,
    eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: ASSET } } } }] } } },
  };
}

async function benchStall(): Promise<void> {
  const server = await ServerProcess.start('referenceServer', ['--max-old-space-size=4096', ...(process.env['BENCH_TRACE_GC'] ? ['--trace-gc'] : [])]);
  try {
    const { parties } = await server.ask({ cmd: 'parties', hints: ['stall-issuer', 'stall-owner'] }, 'parties');
    const [issuer, owner] = parties as [string, string];
    const seeded = await server.ask({ cmd: 'seed', issuer, owner, contracts: CONTRACTS, perCommand: 1000 }, 'seeded');
    console.log(`seeded ${CONTRACTS} contracts in ${seeded.ms} ms (ledger end ${seeded.ledgerEnd})`);
    const version = `${server.url}/v2/version`;
    const idle = await probeDuring(version, new Promise((r) => setTimeout(r, 2000)));
    console.log(`idle server: ${JSON.stringify(summary(idle.latencies))}`);
    const http = await probeDuring(version, readInWorker('http', server.url, owner, seeded.ledgerEnd));
    console.log(`during HTTP read (${Math.round(http.result.ms)} ms, ${Math.round(http.result.bytes / 1e6)} MB): ${JSON.stringify(summary(http.latencies))}`);
    const ws = await probeDuring(version, readInWorker('ws', server.url, owner, seeded.ledgerEnd));
    console.log(`during WebSocket read (${Math.round(ws.result.ms)} ms, ${ws.result.messages} messages): ${JSON.stringify(summary(ws.latencies))}`);
  } finally {
    await server.stop();
  }
}

/** Opens `count` WebSocket subscribers to /v2/updates for `party` from `offset`, 50 at a time; resolves once all are open. */
async function subscribe(url: string, party: string, offset: number, count: number): Promise<{ sockets: WebSocket[]; received: () => number }> {
  let received = 0;
  const sockets: WebSocket[] = [];
  for (let opened = 0; opened < count; opened += 50) {
    sockets.push(...(await openBatch(Math.min(50, count - opened))));
  }
  return { sockets, received: () => received };

  function openBatch(size: number): Promise<WebSocket[]> {
    return Promise.all(
    Array.from(
      { length: size },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v2/updates`, ['daml.ws.auth']);
          ws.on('open', () => {
            ws.send(JSON.stringify({ beginExclusive: offset, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [party]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }));
            resolve(ws);
          });
          ws.on('message', () => {
            received++;
          });
          ws.on('error', reject);
        }),
    ),
  );
  }
}

async function submitFor(url: string, issuer: string, seconds: number): Promise<{ perSecond: number; p99: number; failures: number }> {
  const latencies: number[] = [];
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  let n = 0;
  const caller = async (id: number) => {
    while (performance.now() < until) {
      const body = JSON.stringify({
        commands: [{ CreateCommand: { templateId: ASSET, createArguments: { issuer, owner: issuer, amount: '1.0', observers: null } } }],
        userId: 'participant_admin',
        commandId: `bench-${id}-${n++}-${process.hrtime.bigint()}`,
        actAs: [issuer],
      });
      const t0 = performance.now();
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${url}/v2/commands/submit-and-wait`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(body);
      });
      latencies.push(performance.now() - t0);
      if (status !== 200) failures++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 10 }, (_, i) => caller(i)));
  return { perSecond: Math.round(latencies.length / ((performance.now() - t0) / 1000)), p99: +percentile(latencies, 99).toFixed(1), failures };
}

async function benchSubscribers(): Promise<void> {
  const server = await ServerProcess.start('referenceServer');
  try {
    const { parties } = await server.ask({ cmd: 'parties', hints: ['sub-issuer', 'sub-bystander'] }, 'parties');
    const [issuer, bystander] = parties as [string, string];
    const end = (await server.ask({ cmd: 'seed', issuer, owner: issuer, contracts: 0, perCommand: 1 }, 'seeded')).ledgerEnd;
    await submitFor(server.url, issuer, 2); // warm-up
    // Without subscribers before and after the run with them, so drift on a shared machine shows.
    const before = await submitFor(server.url, issuer, SUBMIT_SECONDS);
    console.log(`no subscribers: ${JSON.stringify(before)}`);
    const subs = await subscribe(server.url, bystander, end, SUBSCRIBERS);
    const received = subs.received();
    const some = await submitFor(server.url, issuer, SUBMIT_SECONDS);
    console.log(`${SUBSCRIBERS} idle subscribers: ${JSON.stringify(some)}, messages to them during the run: ${subs.received() - received}`);
    for (const ws of subs.sockets) ws.terminate();
    await new Promise((r) => setTimeout(r, 1000));
    const after = await submitFor(server.url, issuer, SUBMIT_SECONDS);
    console.log(`no subscribers again: ${JSON.stringify(after)}`);
    console.log(`ratio: ${(some.perSecond / ((before.perSecond + after.perSecond) / 2)).toFixed(2)}x`);
  } finally {
    await server.stop();
  }
}

if (only.has('stall')) await benchStall();
if (only.has('subscribers')) await benchSubscribers();
agent.destroy();
