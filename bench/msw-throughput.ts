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
 * `npm run bench:msw` (with the Prism comparison; or node bench/out/build/bench/msw-throughput.js [--quick]) prints a
 * Markdown table and writes bench/out/msw-throughput.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
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
const REQUESTS = quick ? 2_000 : 10_000;
const WARMUP = quick ? 300 : 2_000;
const ROUNDS = 3;
const BASE = 'http://ledger.test';

interface Measured {
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** Sequential round trips through msw: each fetch is awaited before the next starts. */
async function measure(handlers: Array<HttpHandler | WebSocketHandler>, path: string): Promise<Measured> {
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const once = async () => {
      const res = await fetch(BASE + path);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    for (let i = 0; i < WARMUP; i++) await once();
    const latencies = new Float64Array(REQUESTS);
    const t0 = performance.now();
    for (let i = 0; i < REQUESTS; i++) {
      const s = performance.now();
      await once();
      latencies[i] = performance.now() - s;
    }
    const elapsed = performance.now() - t0;
    latencies.sort();
    const at = (q: number) => +(latencies[Math.min(REQUESTS - 1, Math.floor(q * REQUESTS))] ?? 0).toFixed(3);
    return { reqPerSec: Math.round((REQUESTS * 1000) / elapsed), p50Ms: at(0.5), p99Ms: at(0.99) };
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

const configs: { name: string; handlers: () => Array<HttpHandler | WebSocketHandler>; path: string }[] = [
  { name: 'msw, 1 trivial handler (GET /v2/version)', handlers: trivial, path: '/v2/version' },
  { name: 'createHandlers, full table (GET /v2/version)', handlers: () => createHandlers({ ledgerUrl: BASE, log: silentLogger }).handlers, path: '/v2/version' },
  { name: 'our dispatcher, 5 operations (GET /v2/version)', handlers: () => ourHandlerOver(table(5)), path: '/v2/version' },
  { name: 'our dispatcher, 50 operations (GET /v2/version)', handlers: () => ourHandlerOver(table(50)), path: '/v2/version' },
  { name: 'our dispatcher, 5 operations (GET /v2/users/{user-id}, matched last)', handlers: () => ourHandlerOver(table(5)), path: '/v2/users/participant_admin' },
  { name: 'our dispatcher, 50 operations (GET /v2/users/{user-id}, matched last)', handlers: () => ourHandlerOver(table(50)), path: '/v2/users/participant_admin' },
  { name: 'contrast: msw, 5 handlers, one per operation (matched last)', handlers: () => perRoute(5), path: '/v2/users/participant_admin' },
  { name: 'contrast: msw, 50 handlers, one per operation (matched last)', handlers: () => perRoute(50), path: '/v2/users/participant_admin' },
];

// ---------------------------------------------------------------- the run

const rounds: Measured[][] = [];
// A first pass is discarded: it pays for JIT compilation, whichever configuration comes first.
for (const c of configs) await measure(c.handlers(), c.path);
// Rounds alternate over all configurations, so drift on a shared machine hits each alike.
for (let r = 0; r < ROUNDS; r++) {
  const round: Measured[] = [];
  for (const c of configs) round.push(await measure(c.handlers(), c.path));
  rounds.push(round);
}
const byConfig = configs.map((_, i) => rounds.map((round) => round[i] as Measured));
// The median round: one disturbed round (another tenant's burst) does not move it.
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const reqPerSec = (i: number) => median((byConfig[i] ?? []).map((m) => m.reqPerSec));
const ceiling = reqPerSec(0);

const lines = [
  `msw in-process round trips: ${REQUESTS} sequential fetches per run after ${WARMUP} warm-up, ${ROUNDS} rounds; Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'})`,
  '',
  '| setup | req/s (per round) | p50 / p99 ms (round 1) | median vs 1 trivial handler |',
  '|---|---|---|---|',
  ...configs.map((c, i) => {
    const ms = byConfig[i] ?? [];
    return `| ${c.name} | ${ms.map((m) => m.reqPerSec.toLocaleString('en-US')).join(' / ')} | ${ms[0]?.p50Ms ?? '?'} / ${ms[0]?.p99Ms ?? '?'} | ${(reqPerSec(i) / ceiling).toFixed(2)}x |`;
  }),
];
console.log(lines.join('\n'));
const out = fileURLToPath(new URL('../../', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(`${out}msw-throughput.json`, JSON.stringify({ requests: REQUESTS, warmup: WARMUP, configs: configs.map((c, i) => ({ name: c.name, path: c.path, rounds: byConfig[i] })) }, null, 2) + '\n');
