/**
 * Benchmarks of the registry (group A) and Scan (group C) apps, side by side with a bare Koa
 * server answering the same JSON, in one run; each server in its own process, autocannon here.
 *
 * 1. GET /v0/transfer-preapprovals/by-party/{party} with 1,000,000 preapprovals on the ledger, a
 *    random receiver per request: once with one preapproval per receiver (a million parties), once
 *    with ten per receiver (100,000 parties; the newest validFrom is answered). Target >= 0.5x.
 * 2. POST /registry/allocation-instruction/v2/{id}/choice-contexts/accept (body `{}`, debug fields
 *    included) over 100,000 allocation instructions, a random one per request, on the second
 *    ledger: target >= 0.5x.
 * Each figure comes as wall-clock req/s and as requests per CPU-second of the server process.
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
const bare = await ServerProcess.start('../apps-bareKoa');
try {
  // Two ledgers of PREAPPROVALS preapprovals: one receiver each (a million parties), then ten each.
  for (const perReceiver of [1, 10]) {
    const reference = await ServerProcess.start('../apps-server', ['--max-old-space-size=6144']);
    try {
      const pre = await askApps(reference, { cmd: 'seed-preapprovals', count: PREAPPROVALS, perReceiver, perCommand: 100 }, 'seeded-preapprovals');
      console.log(`seeded ${PREAPPROVALS} preapprovals, ${perReceiver} per receiver, in ${(pre.ms / 1000).toFixed(1)} s; server heap ${pre.heapMb} MB, RSS ${pre.rssMb} MB after GC`);
      const preapprovalPath = () => `/v0/transfer-preapprovals/by-party/${encodeURIComponent(pick(pre.receivers))}`;
      let acceptPath: (() => string) | undefined;
      let acceptBody = '{}';
      if (perReceiver === 10) {
        const ins = await askApps(reference, { cmd: 'seed-instructions', count: INSTRUCTIONS, perCommand: 100 }, 'seeded-instructions');
        console.log(`seeded ${INSTRUCTIONS} allocation instructions in ${(ins.ms / 1000).toFixed(1)} s`);
        acceptPath = () => `/registry/allocation-instruction/v2/${pick(ins.instructionIds)}/choice-contexts/accept`;
        const sampleA = await fetch(`${reference.url}${acceptPath()}`, { method: 'POST', body: '{}' });
        if (sampleA.status !== 200) throw new Error(`sample accept context: ${sampleA.status}`);
        acceptBody = await sampleA.text();
      }
      // The bare server answers with what the reference server answers: the same JSON.
      const sampleP = await fetch(`${reference.url}${preapprovalPath()}`);
      if (sampleP.status !== 200) throw new Error(`sample preapproval: ${sampleP.status}`);
      await askApps(bare, { cmd: 'bodies', preapproval: await sampleP.text(), acceptContext: acceptBody }, 'bodies-set');

      await sideBySide(`GET /v0/transfer-preapprovals/by-party/{party}, ${PREAPPROVALS} preapprovals, ${perReceiver} per receiver`, reference, bare, [
        { method: 'GET', setupRequest: (req: CannonRequest) => ({ ...req, path: preapprovalPath() }) },
      ]);
      if (acceptPath !== undefined) {
        const path = acceptPath;
        await sideBySide(`POST .../choice-contexts/accept, ${INSTRUCTIONS} instructions (same ledger)`, reference, bare, [
          { method: 'POST', body: '{}', setupRequest: (req: CannonRequest) => ({ ...req, path: path() }) },
        ]);
      }
    } finally {
      await reference.stop();
    }
  }
} finally {
  await bare.stop();
}
