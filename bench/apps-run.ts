/**
 * Benchmarks of the registry (group A) and Scan (group C) apps, side by side with a bare Koa
 * server answering the same JSON, in one run; each server in its own process, autocannon here.
 *
 * 1. GET /v0/transfer-preapprovals/by-party/{party} with 1,000,000 preapprovals on the ledger
 *    (one receiver each; every request asks for a different receiver): target >= 0.5x bare Koa.
 * 2. POST /registry/allocation-instruction/v2/{id}/choice-contexts/accept (body `{}`, debug fields
 *    included) over 100,000 allocation instructions, a different one per request: target >= 0.5x.
 *
 * Build and run:
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/apps-run.js [--quick]
 * `--quick` seeds 100,000 preapprovals and 10,000 instructions with short runs (harness check).
 */
import { cpus, totalmem } from 'node:os';
import autocannon, { type Request as CannonRequest } from 'autocannon';
import { askApps } from './apps-protocol.js';
import { ServerProcess } from './servers/ServerProcess.js';

const quick = process.argv.includes('--quick');
const DURATION = quick ? 3 : 10;
const WARMUP = quick ? 1 : 3;
const PREAPPROVALS = quick ? 100_000 : 1_000_000;
const INSTRUCTIONS = quick ? 10_000 : 100_000;
const CONNECTIONS = 10;
const ROUNDS = 3;

interface Measured {
  reqPerSec: number;
  /** Requests per CPU-second of the server process: robust to other tenants of a shared machine. */
  reqPerCpuSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function cannon(server: ServerProcess, requests: CannonRequest[]): Promise<Measured> {
  await autocannon({ url: server.url, connections: CONNECTIONS, duration: WARMUP, requests });
  const before = (await askApps(server, { cmd: 'cpu' }, 'cpu')).ms;
  const r = await autocannon({ url: server.url, connections: CONNECTIONS, duration: DURATION, requests });
  const cpu = (await askApps(server, { cmd: 'cpu' }, 'cpu')).ms - before;
  return {
    reqPerSec: Math.round(r.requests.average),
    reqPerCpuSec: Math.round(r.requests.total / (cpu / 1000)),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)] as T;

/** Rounds alternate reference and bare Koa, so drift on a shared machine hits both alike. */
async function sideBySide(name: string, reference: ServerProcess, bare: ServerProcess, requests: CannonRequest[]) {
  const rounds: { reference: Measured; bare: Measured; ratio: number; cpuRatio: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const b = await cannon(bare, requests);
    const r = await cannon(reference, requests);
    rounds.push({ reference: r, bare: b, ratio: +(r.reqPerSec / b.reqPerSec).toFixed(2), cpuRatio: +(r.reqPerCpuSec / b.reqPerCpuSec).toFixed(2) });
  }
  const mean = (f: (x: (typeof rounds)[number]) => number) => +(rounds.reduce((s, x) => s + f(x), 0) / rounds.length).toFixed(2);
  const list = (f: (x: (typeof rounds)[number]) => number) => rounds.map(f).join(' / ');
  console.log(
    `${name}:\n  reference ${list((x) => x.reference.reqPerSec)} req/s, ${list((x) => x.reference.reqPerCpuSec)} req/CPU-s, p50 ${list((x) => x.reference.p50)} ms, p99 ${list((x) => x.reference.p99)} ms, non-2xx ${rounds.reduce((s, x) => s + x.reference.non2xx, 0)}` +
      `\n  bare Koa  ${list((x) => x.bare.reqPerSec)} req/s, ${list((x) => x.bare.reqPerCpuSec)} req/CPU-s, p50 ${list((x) => x.bare.p50)} ms, p99 ${list((x) => x.bare.p99)} ms` +
      `\n  ratio ${mean((x) => x.ratio)} wall (${list((x) => x.ratio)}), ${mean((x) => x.cpuRatio)} per CPU-second (${list((x) => x.cpuRatio)}); target >= 0.5`,
  );
  return rounds;
}

console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GB, node ${process.version}; ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s per run`);
const reference = await ServerProcess.start('../apps-server', ['--max-old-space-size=6144']);
const bare = await ServerProcess.start('../apps-bareKoa');
try {
  const pre = await askApps(reference, { cmd: 'seed-preapprovals', count: PREAPPROVALS, perCommand: 100 }, 'seeded-preapprovals');
  console.log(`seeded ${PREAPPROVALS} preapprovals (one receiver each) in ${(pre.ms / 1000).toFixed(1)} s; server heap ${pre.heapMb} MB, RSS ${pre.rssMb} MB`);
  const ins = await askApps(reference, { cmd: 'seed-instructions', count: INSTRUCTIONS, perCommand: 100 }, 'seeded-instructions');
  console.log(`seeded ${INSTRUCTIONS} allocation instructions in ${(ins.ms / 1000).toFixed(1)} s`);

  const preapprovalPath = () => `/v0/transfer-preapprovals/by-party/${encodeURIComponent(pick(pre.receivers))}`;
  const acceptPath = () => `/registry/allocation-instruction/v2/${pick(ins.instructionIds)}/choice-contexts/accept`;
  // The bare server answers with what the reference server answers, byte for byte the same JSON.
  const sampleP = await fetch(`${reference.url}${preapprovalPath()}`);
  const sampleA = await fetch(`${reference.url}${acceptPath()}`, { method: 'POST', body: '{}' });
  if (sampleP.status !== 200 || sampleA.status !== 200) throw new Error(`sample requests failed: ${sampleP.status} ${sampleA.status}`);
  await askApps(bare, { cmd: 'bodies', preapproval: await sampleP.text(), acceptContext: await sampleA.text() }, 'bodies-set');

  await sideBySide(`GET /v0/transfer-preapprovals/by-party/{party} (${PREAPPROVALS} preapprovals)`, reference, bare, [
    { method: 'GET', setupRequest: (req: CannonRequest) => ({ ...req, path: preapprovalPath() }) },
  ]);
  await sideBySide(`POST .../choice-contexts/accept (${INSTRUCTIONS} instructions)`, reference, bare, [
    { method: 'POST', body: '{}', setupRequest: (req: CannonRequest) => ({ ...req, path: acceptPath() }) },
  ]);
} finally {
  await Promise.all([reference.stop(), bare.stop()]);
}
