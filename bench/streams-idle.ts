/**
 * Idle subscribers next to writers: the reference server in its own process; 20 concurrent
 * `submit-and-wait` callers for D seconds (longer than the 15 s checkpoint interval, so every
 * subscriber's first checkpoint falls due during the run) with no stream open, then with N
 * WebSocket subscribers to `/v2/updates` opened at the ledger end for a party no commit concerns,
 * then without again. Reports each run's submit latency (p50, p99, worst) and commits per second.
 * Goal: the worst submit latency with the subscribers under 1 s.
 *
 * `tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/streams-idle.js
 *  [--subscribers 200] [--writers 20] [--seconds 20]`
 */
import { Agent, request } from 'node:http';
import { WebSocket } from 'ws';
import { ServerProcess } from './servers/ServerProcess.js';

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const SUBSCRIBERS = Number(arg('subscribers') ?? 200);
const WRITERS = Number(arg('writers') ?? 20);
const SECONDS = Number(arg('seconds') ?? 20);
const ASSET = '#canton-conformance-samples:Sample.Asset:Asset';

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

interface Run {
  readonly commits: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly worst: number;
  readonly failures: number;
}

/** WRITERS callers submitting one create each, back to back, for `seconds`. */
async function submitFor(url: string, issuer: string, seconds: number): Promise<Run> {
  const latencies: number[] = [];
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  let n = 0;
  const caller = async (id: number) => {
    while (performance.now() < until) {
      const body = JSON.stringify({
        commands: [{ CreateCommand: { templateId: ASSET, createArguments: { issuer, owner: issuer, amount: '1.0', observers: null } } }],
        userId: 'participant_admin',
        commandId: `idle-${id}-${n++}-${process.hrtime.bigint()}`,
        actAs: [issuer],
      });
      const t0 = performance.now();
      const status = await new Promise<number>((resolve) => {
        const req = request(`${url}/v2/commands/submit-and-wait`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', () => resolve(0));
        req.end(body);
      });
      latencies.push(performance.now() - t0);
      if (status !== 200) failures++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: WRITERS }, (_, i) => caller(i)));
  const sorted = latencies.sort((a, b) => a - b);
  return {
    commits: sorted.length,
    perSecond: Math.round(sorted.length / ((performance.now() - t0) / 1000)),
    p50: +percentile(sorted, 50).toFixed(1),
    p99: +percentile(sorted, 99).toFixed(1),
    worst: +(sorted.at(-1) ?? NaN).toFixed(1),
    failures,
  };
}

/** Opens `count` subscribers for `party` from `offset`, 50 at a time; counts what they receive. */
async function subscribe(url: string, party: string, offset: number, count: number): Promise<{ sockets: WebSocket[]; received: () => number }> {
  let received = 0;
  const sockets: WebSocket[] = [];
  const open = () =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v2/updates`, ['daml.ws.auth']);
      ws.on('open', () => {
        ws.send(JSON.stringify({ beginExclusive: offset, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [party]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }));
        resolve(ws);
      });
      ws.on('message', () => received++);
      ws.on('error', reject);
    });
  for (let opened = 0; opened < count; opened += 50) sockets.push(...(await Promise.all(Array.from({ length: Math.min(50, count - opened) }, open))));
  return { sockets, received: () => received };
}

const server = await ServerProcess.start('referenceServer');
try {
  const { parties } = await server.ask({ cmd: 'parties', hints: ['idle-issuer', 'idle-bystander'] }, 'parties');
  const [issuer, bystander] = parties as [string, string];
  await submitFor(server.url, issuer, 2); // warm-up
  const before = await submitFor(server.url, issuer, SECONDS);
  console.log(`no subscribers: ${JSON.stringify(before)}`);
  const end = (await server.ask({ cmd: 'seed', issuer, owner: issuer, contracts: 0, perCommand: 1 }, 'seeded')).ledgerEnd;
  const subs = await subscribe(server.url, bystander, end, SUBSCRIBERS);
  const during = await submitFor(server.url, issuer, SECONDS);
  console.log(`${SUBSCRIBERS} idle subscribers: ${JSON.stringify(during)}, messages to them: ${subs.received()}`);
  for (const ws of subs.sockets) ws.terminate();
  const after = await submitFor(server.url, issuer, SECONDS);
  console.log(`no subscribers again: ${JSON.stringify(after)}`);
  console.log(`worst with subscribers: ${during.worst} ms (goal < 1000); throughput ratio ${(during.perSecond / ((before.perSecond + after.perSecond) / 2)).toFixed(2)}x of the mean without`);
} finally {
  await server.stop();
  agent.destroy();
}
