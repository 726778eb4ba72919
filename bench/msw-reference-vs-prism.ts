/**
 * The reference server against Prism on GET /v2/version, in one run: Prism started as
 * `canton-conformance mock --group ledger` starts it (our specs/ledger.openapi.yaml, Prism's
 * default settings: static examples, request validation, info logging), the reference server in
 * its own process as in the other benchmarks, autocannon in this one with 10 connections.
 * Target: the reference server at >= 5x Prism's throughput. Rounds alternate the two.
 *
 * node bench/out/build/bench/msw-reference-vs-prism.js [--quick]; writes
 * bench/out/reference-vs-prism.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startMock } from '../conformance/src/cli/mock.js';
import { sandboxToken } from '../reference-server/src/msw/index.js';
import { ServerProcess } from './servers/ServerProcess.js';

const quick = process.argv.includes('--quick');
const DURATION = quick ? 3 : 10;
const WARMUP = quick ? 1 : 3;
const ROUNDS = 2;
const CONNECTIONS = 10;
// Both answer without one, but a client sends it, and Prism checks what the spec declares.
const headers = { authorization: `Bearer ${sandboxToken()}` };

interface Run {
  readonly reqPerSec: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
}

async function cannon(url: string): Promise<Run> {
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP, headers });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return { reqPerSec: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts };
}

const reference = await ServerProcess.start('referenceServer');
const prism = await startMock({ group: 'ledger', port: 0, host: '127.0.0.1', dynamic: false }, 'ignore');
const rounds: { prism: Run; reference: Run; ratio: number }[] = [];
try {
  // Both must answer the operation, or the comparison means nothing.
  for (const url of [reference.url, prism.url]) {
    const res = await fetch(`${url}/v2/version`, { headers });
    const body = (await res.json()) as { version?: unknown };
    if (res.status !== 200 || typeof body.version !== 'string') throw new Error(`${url}/v2/version answered ${res.status} ${JSON.stringify(body)}`);
  }
  for (let round = 0; round < ROUNDS; round++) {
    const p = await cannon(`${prism.url}/v2/version`);
    const r = await cannon(`${reference.url}/v2/version`);
    rounds.push({ prism: p, reference: r, ratio: +(r.reqPerSec / p.reqPerSec).toFixed(2) });
  }
} finally {
  await Promise.all([reference.stop(), prism.stop()]);
}

const ratio = +(rounds.reduce((s, x) => s + x.ratio, 0) / rounds.length).toFixed(2);
const row = (name: string, pick: (x: (typeof rounds)[number]) => Run) =>
  `| ${name} | ${rounds.map((x) => pick(x).reqPerSec.toLocaleString('en-US')).join(' / ')} | ${rounds.map((x) => `${pick(x).p50} / ${pick(x).p99}`).join(', ')} | ${rounds.map((x) => pick(x).non2xx + pick(x).errors + pick(x).timeouts).join(' / ')} |`;
console.log(
  [
    `GET /v2/version, ${CONNECTIONS} connections, ${DURATION} s per run after ${WARMUP} s warm-up, ${ROUNDS} alternating rounds; Node ${process.version}, ${cpus().length} CPUs`,
    '',
    '| server | req/s (per round) | p50 / p99 ms | non-2xx + errors + timeouts |',
    '|---|---|---|---|',
    row('Prism 5.14 on specs/ledger.openapi.yaml (defaults)', (x) => x.prism),
    row('reference server (Koa)', (x) => x.reference),
    '',
    `reference / Prism: ${rounds.map((x) => x.ratio).join(' / ')} (mean ${ratio}; target >= 5)`,
  ].join('\n'),
);
const out = fileURLToPath(new URL('../../', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(`${out}reference-vs-prism.json`, JSON.stringify({ durationS: DURATION, warmupS: WARMUP, connections: CONNECTIONS, rounds, ratio }, null, 2) + '\n');
