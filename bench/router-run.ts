/**
 * One router for both faces: `GET /v2/version` on the reference server beside two Koa baselines,
 * in one run, interleaved round by round so that drift on a shared machine hits every server alike:
 *
 * - `koaRouter`: Koa + @koa/router with 70 routes of the same table (`bench/servers/koaRouter.ts`);
 * - `koaOnly`: bare Koa, one middleware answering the same JSON (`bench/servers/koaOnly.ts`);
 * - `before` (with `--before <referenceServer.js>`): the reference server of another build, e.g.
 *   `main` compiled elsewhere, for a before/after in the same run.
 *
 * Each server runs in its own process; autocannon (10 connections) runs here. After one unmeasured
 * pass over every server, per server and round: a warm-up, then a measured run; the server's CPU time over the measured run is read from
 * /proc, so each figure is given as req/s and as requests per CPU-second of the server (the
 * latter holds when other work takes the cores). Ratios are per round, then summarised.
 *
 * `npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/router-run.js
 * [--rounds N] [--seconds S] [--warmup S] [--before path] [--quick]`; raw numbers in
 * bench/out/router.json.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? undefined : args[i + 1];
};
const quick = args.includes('--quick');
const ROUNDS = Number(option('rounds') ?? (quick ? 2 : 8));
const SECONDS = Number(option('seconds') ?? (quick ? 2 : 5));
const WARMUP = Number(option('warmup') ?? (quick ? 1 : 2));
const BEFORE = option('before');
const CONNECTIONS = 10;
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

interface Server {
  readonly name: string;
  readonly child: ChildProcess;
  readonly url: string;
}

interface Sample {
  readonly reqPerSec: number;
  readonly perCpuSecond: number;
  readonly cpuShare: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
}

function start(name: string, script: string): Promise<Server> {
  const child = fork(script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
    child.once('message', (m: { kind?: string; url?: string }) => {
      if (m.kind === 'ready' && m.url !== undefined) resolve({ name, child, url: m.url });
      else reject(new Error(`${name}: unexpected first message ${JSON.stringify(m)}`));
    });
  });
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.child.removeAllListeners('exit');
    server.child.once('exit', () => resolve());
    server.child.send({ cmd: 'exit' });
    setTimeout(() => server.child.kill('SIGKILL'), 5000).unref();
  });
}

/** User plus system CPU seconds the process has used so far (fields 14 and 15 of /proc/<pid>/stat). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

async function measure(server: Server): Promise<Sample> {
  const url = `${server.url}/v2/version`;
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP });
  const pid = server.child.pid!;
  const cpu0 = cpuSeconds(pid);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  const cpu = cpuSeconds(pid) - cpu0;
  return {
    reqPerSec: Math.round(r.requests.average),
    perCpuSecond: Math.round(r.requests.total / Math.max(cpu, 0.01)),
    cpuShare: +(cpu / SECONDS).toFixed(2),
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const ratio = (a: number, b: number) => +(a / b).toFixed(2);

const here = (name: string) => fileURLToPath(new URL(`./servers/${name}.js`, import.meta.url));
const contenders: [string, string][] = [
  ['reference', here('referenceServer')],
  ['koaRouter', here('koaRouter')],
  ['koaOnly', here('koaOnly')],
  ...(BEFORE === undefined ? [] : [['before', BEFORE] as [string, string]]),
];

const servers: Server[] = [];
for (const [name, script] of contenders) servers.push(await start(name, script));
const load: number[] = [loadavg()[0]!];
const rounds: Record<string, Sample>[] = [];
try {
  for (const server of servers) {
    const res = await fetch(`${server.url}/v2/version`);
    const body = (await res.json()) as { version?: unknown };
    if (res.status !== 200 || typeof body.version !== 'string') throw new Error(`${server.name} does not answer GET /v2/version with a version`);
  }
  // One unmeasured pass first: every server's JIT has seen the request before round 1.
  for (const server of servers) await autocannon({ url: `${server.url}/v2/version`, connections: CONNECTIONS, duration: WARMUP * 2 });
  for (let round = 0; round < ROUNDS; round++) {
    const samples: Record<string, Sample> = {};
    // Rotate who goes first, so no server always runs right after the same neighbour.
    for (let k = 0; k < servers.length; k++) {
      const server = servers[(round + k) % servers.length]!;
      samples[server.name] = await measure(server);
    }
    load.push(loadavg()[0]!);
    rounds.push(samples);
    const line = servers.map((s) => `${s.name} ${samples[s.name]!.reqPerSec} req/s (${samples[s.name]!.perCpuSecond}/CPU-s)`).join(', ');
    console.log(`round ${round + 1}: ${line}`);
  }
} finally {
  await Promise.all(servers.map(stop));
}

const against = (base: string, by: 'reqPerSec' | 'perCpuSecond') => {
  const rs = rounds.map((r) => ratio(r['reference']![by], r[base]![by]));
  return { perRound: rs, median: +median(rs).toFixed(2), min: Math.min(...rs), max: Math.max(...rs) };
};
const summary = {
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadAverage: load.map((l) => +l.toFixed(1)) },
  settings: { rounds: ROUNDS, seconds: SECONDS, warmup: WARMUP, connections: CONNECTIONS, before: BEFORE ?? null },
  rounds,
  ratios: Object.fromEntries(
    servers
      .filter((s) => s.name !== 'reference')
      .map((s) => [`reference/${s.name}`, { reqPerSec: against(s.name, 'reqPerSec'), perCpuSecond: against(s.name, 'perCpuSecond') }]),
  ),
};
// bench/out/build/bench/router-run.js -> bench/out/router.json
const out = fileURLToPath(new URL('../../', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(`${out}router.json`, JSON.stringify(summary, null, 2) + '\n');
for (const [name, r] of Object.entries(summary.ratios)) {
  console.log(`${name}: req/s median ${r.reqPerSec.median}x (${r.reqPerSec.min}-${r.reqPerSec.max}), per CPU-second median ${r.perCpuSecond.median}x (${r.perCpuSecond.min}-${r.perCpuSecond.max})`);
}
console.log(`load average during the run: ${summary.machine.loadAverage.join(', ')}`);
