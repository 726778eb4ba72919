/**
 * In-process msw round trips (sequential `fetch`, as a unit test makes them), in one run:
 *
 * - msw with one trivial handler answering the version JSON: the ceiling any msw handler has;
 * - our handlers (`createHandlers`, the full route table) on GET /v2/version: target >= 0.8x;
 * - our single dispatching handler over a table of 5 and of 50 operations, on a static path
 *   (GET /v2/version) and on a templated one matched last (GET /v2/users/{user-id}): the cost
 *   must not grow with the table;
 * - for contrast, one msw handler per operation (5 and 50, the matching one last), which is what
 *   the single dispatcher avoids (field-anchors §3a: about 11 µs per handler tried).
 *
 * Throughput is given by the wall clock and per CPU-second of this process (the latter does not
 * move when other processes share the machine). `npm run bench:msw` runs this and the Prism
 * comparison; `node bench/out/build/bench/msw-throughput.js [--quick]` runs this alone. It prints
 * a Markdown table and writes bench/out/msw-throughput.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { http, HttpResponse, type HttpHandler, type WebSocketHandler } from 'msw';
import { setupServer } from 'msw/node';
import { jsonResponse } from '../reference-server/src/http/api/apiResponse.js';
import { silentLogger } from '../reference-server/src/http/api/consoleLogger.js';
import { createDispatcher } from '../reference-server/src/http/api/createDispatcher.js';
import { defineRoute, type Route } from '../reference-server/src/http/api/route.js';
import { ledgerApiRoutes } from '../reference-server/src/http/api/routes/routeTable.js';
import { ok } from '../reference-server/src/ledger/index.js';
import { parseBaseUrl } from '../reference-server/src/msw/baseUrl.js';
import { createDispatchHandler } from '../reference-server/src/msw/createDispatchHandler.js';
import { createHandlers } from '../reference-server/src/msw/index.js';
import { createApiServices } from '../reference-server/src/server.js';

const quick = process.argv.includes('--quick');
/** Requests per configuration, taken in batches that cycle through all configurations. */
const BATCH = 250;
const BATCHES = quick ? 4 : 20;
const WARMUP = quick ? 300 : 1_000;
const BASE = 'http://ledger.test';

interface Batch {
  readonly wallMs: number;
  /** User + system CPU time of this process: what the round trips cost, whatever else runs. */
  readonly cpuMs: number;
  readonly latencies: Float64Array;
}

/** Sequential round trips through msw: each fetch is awaited before the next starts. */
async function batch(handlers: Array<HttpHandler | WebSocketHandler>, path: string, requests: number): Promise<Batch> {
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const latencies = new Float64Array(requests);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < requests; i++) {
      const s = performance.now();
      const res = await fetch(BASE + path);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      latencies[i] = performance.now() - s;
    }
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, latencies };
  } finally {
    server.close();
  }
}

// ---------------------------------------------------------------- the configurations

const services = createApiServices({ log: silentLogger });
const versionBody = services.ledger.version();

/** Routes that are never asked for, templated so the matcher has to try each before the target. */
const fillers = (n: number): Route[] =>
  Array.from({ length: n }, (_, i) =>
    defineRoute({ method: 'GET', path: `/v2/filler-${i}/{id}`, operationId: `filler${i}`, group: 'B', body: 'none', handle: () => ok(jsonResponse({})) }),
  );
const route = (method: string, path: string): Route => {
  const found = ledgerApiRoutes.find((r) => r.method === method && r.path === path);
  if (found === undefined) throw new Error(`no route ${method} ${path}`);
  return found;
};
/** A table of `size` operations: version first, the user lookup last, fillers between. */
const table = (size: number): Route[] => [route('GET', '/v2/version'), ...fillers(size - 2), route('GET', '/v2/users/{user-id}')];
const ourHandlerOver = (routes: readonly Route[]) => {
  const dispatch = createDispatcher(routes, services);
  return [createDispatchHandler(parseBaseUrl('ledgerUrl', BASE), () => dispatch)];
};
const trivial = () => [http.get(`${BASE}/v2/version`, () => HttpResponse.json(versionBody))];
/** One msw handler per operation, the matching one registered last (msw's worst case). */
const perRoute = (size: number) => [
  ...Array.from({ length: size - 1 }, (_, i) => http.get(`${BASE}/v2/filler-${i}/:id`, () => HttpResponse.json({}))),
  http.get(`${BASE}/v2/users/:userId`, () => HttpResponse.json({ user: { id: 'participant_admin' } })),
];

// One instance, as in a test file: each msw WebSocket link registers on a process-wide channel.
const ours = createHandlers({ ledgerUrl: BASE, log: silentLogger }).handlers;
const configs: { name: string; handlers: () => Array<HttpHandler | WebSocketHandler>; path: string }[] = [
  { name: 'msw, 1 trivial handler (GET /v2/version)', handlers: trivial, path: '/v2/version' },
  { name: 'createHandlers, full table (GET /v2/version)', handlers: () => ours, path: '/v2/version' },
  { name: 'our dispatcher, 5 operations (GET /v2/version)', handlers: () => ourHandlerOver(table(5)), path: '/v2/version' },
  { name: 'our dispatcher, 50 operations (GET /v2/version)', handlers: () => ourHandlerOver(table(50)), path: '/v2/version' },
  { name: 'our dispatcher, 5 operations (GET /v2/users/{user-id}, matched last)', handlers: () => ourHandlerOver(table(5)), path: '/v2/users/participant_admin' },
  { name: 'our dispatcher, 50 operations (GET /v2/users/{user-id}, matched last)', handlers: () => ourHandlerOver(table(50)), path: '/v2/users/participant_admin' },
  { name: 'contrast: msw, 5 handlers, one per operation (matched last)', handlers: () => perRoute(5), path: '/v2/users/participant_admin' },
  { name: 'contrast: msw, 50 handlers, one per operation (matched last)', handlers: () => perRoute(50), path: '/v2/users/participant_admin' },
];

// ---------------------------------------------------------------- the run

// Warm-up (JIT, caches) for every configuration, not measured.
for (const c of configs) await batch(c.handlers(), c.path, WARMUP);
// Small batches cycling through the configurations: a burst of load from another process on a
// shared machine falls on all of them alike instead of on whichever ran at that moment.
const runs = configs.map(() => [] as Batch[]);
for (let b = 0; b < BATCHES; b++) {
  for (const [i, c] of configs.entries()) runs[i]?.push(await batch(c.handlers(), c.path, BATCH));
}

const summary = configs.map((c, i) => {
  const batches = runs[i] ?? [];
  const requests = BATCH * batches.length;
  const wall = batches.reduce((s, b) => s + b.wallMs, 0);
  const cpu = batches.reduce((s, b) => s + b.cpuMs, 0);
  const all = Float64Array.from(batches.flatMap((b) => [...b.latencies])).sort();
  const at = (q: number) => +(all[Math.min(all.length - 1, Math.floor(q * all.length))] ?? 0).toFixed(3);
  return {
    name: c.name,
    path: c.path,
    requests,
    reqPerSec: Math.round((requests * 1000) / wall),
    reqPerCpuSec: Math.round((requests * 1000) / cpu),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
  };
});
const ceiling = summary[0] as (typeof summary)[number];
const lines = [
  `msw in-process round trips: ${BATCHES} x ${BATCH} sequential fetches per setup, batches interleaved across setups, after ${WARMUP} warm-up each; Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${loadavg()[0]?.toFixed(1)}`,
  '',
  '| setup | req/s (wall) | req per CPU-second | p50 / p99 ms | vs 1 trivial handler (CPU) | (wall) |',
  '|---|---|---|---|---|---|',
  ...summary.map(
    (m) =>
      `| ${m.name} | ${m.reqPerSec.toLocaleString('en-US')} | ${m.reqPerCpuSec.toLocaleString('en-US')} | ${m.p50Ms} / ${m.p99Ms} | ${(m.reqPerCpuSec / ceiling.reqPerCpuSec).toFixed(2)}x | ${(m.reqPerSec / ceiling.reqPerSec).toFixed(2)}x |`,
  ),
];
console.log(lines.join('\n'));
const out = fileURLToPath(new URL('../../', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(`${out}msw-throughput.json`, JSON.stringify({ batch: BATCH, batches: BATCHES, warmup: WARMUP, loadavg: loadavg(), summary }, null, 2) + '\n');
