/**
 * Token verification overhead: GET /v2/version with a valid token (HS256, ES256) against the same
 * server without authentication, each server in its own process, autocannon here. Target: the
 * authenticated throughput is at least 0.8x the unauthenticated one. ES256 without the verified-
 * token cache is measured too, to show what the cache buys.
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/auth-version.js [--quick]
 *
 * Prints a Markdown table and writes bench/out/auth-version.json.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { mintToken } from '../conformance/src/cli/token.js';
import type { ServerMessage } from './servers/protocol.js';

const quick = process.argv.includes('--quick');
const DURATION = quick ? 3 : 10;
const WARMUP = quick ? 1 : 3;
const ROUNDS = quick ? 1 : 3;
const CONNECTIONS = 10;
const MODES = ['none', 'hs256', 'es256', 'es256-nocache'] as const;
type Mode = (typeof MODES)[number];

async function start(mode: Mode): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(fileURLToPath(new URL('./auth-server.js', import.meta.url)), [mode], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`auth-server ${mode} exited with ${code}`)));
    child.once('message', (m: ServerMessage) => (m.kind === 'ready' ? resolve(m.url) : reject(new Error(JSON.stringify(m)))));
  });
  return { child, url };
}

async function cannon(url: string, headers: Record<string, string>) {
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP, headers });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { reqPerSec: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99 };
}

const tokens: Record<Mode, string | undefined> = {
  none: undefined,
  hs256: await mintToken({ user: 'participant_admin', algorithm: 'hs256' }),
  es256: await mintToken({ user: 'participant_admin', algorithm: 'es256' }),
  'es256-nocache': await mintToken({ user: 'participant_admin', algorithm: 'es256' }),
};

const servers = Object.fromEntries(await Promise.all(MODES.map(async (m) => [m, await start(m)] as const))) as Record<Mode, { child: ChildProcess; url: string }>;
const samples: Record<Mode, { reqPerSec: number; p50: number; p99: number }[]> = { none: [], hs256: [], es256: [], 'es256-nocache': [] };
try {
  // Alternate the servers round by round, so drift on a shared machine hits all of them alike.
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of MODES) {
      const token = tokens[mode];
      samples[mode].push(await cannon(`${servers[mode].url}/v2/version`, token === undefined ? {} : { authorization: `Bearer ${token}` }));
    }
  }
} finally {
  for (const { child } of Object.values(servers)) child.send({ cmd: 'exit' });
}

const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
const summary = Object.fromEntries(
  MODES.map((m) => [m, { reqPerSec: mean(samples[m].map((s) => s.reqPerSec)), p50: mean(samples[m].map((s) => s.p50)), p99: mean(samples[m].map((s) => s.p99)) }]),
) as Record<Mode, { reqPerSec: number; p50: number; p99: number }>;
const ratio = (m: Mode) => +(summary[m].reqPerSec / summary.none.reqPerSec).toFixed(2);

const lines = [
  `GET /v2/version, ${CONNECTIONS} connections, ${ROUNDS} x ${DURATION} s per server (after ${WARMUP} s warm-up), ${cpus().length} cores, Node ${process.version}`,
  '',
  '| server | req/s | p50 ms | p99 ms | vs no auth |',
  '|---|---|---|---|---|',
  ...MODES.map((m) => `| ${m === 'none' ? 'no auth' : m === 'es256-nocache' ? 'ES256, cache off' : m.toUpperCase()} | ${summary[m].reqPerSec} | ${summary[m].p50} | ${summary[m].p99} | ${m === 'none' ? '1.00' : ratio(m).toFixed(2)} |`),
  '',
  `HS256 ${ratio('hs256') >= 0.8 ? 'meets' : 'MISSES'} the 0.8x target (${ratio('hs256')}); ES256 ${ratio('es256') >= 0.8 ? 'meets' : 'MISSES'} it (${ratio('es256')}).`,
];
console.log(lines.join('\n'));
mkdirSync(fileURLToPath(new URL('../../../out/', import.meta.url)), { recursive: true });
writeFileSync(
  fileURLToPath(new URL('../../../out/auth-version.json', import.meta.url)),
  JSON.stringify({ settings: { connections: CONNECTIONS, durationS: DURATION, warmupS: WARMUP, rounds: ROUNDS }, samples, summary, ratios: { hs256: ratio('hs256'), es256: ratio('es256'), es256NoCache: ratio('es256-nocache') } }, null, 2),
);
