/**
 * What the HTTP face adds to a request, beside the same request dispatched in process: the
 * registry's transfer factory (read-only, so every round asks the same) POSTed by 10 keep-alive
 * clients in a child process, against `createDispatcher` called directly on the same body text
 * with the answer serialized. Both sides are the server process's CPU time (`process.cpuUsage`).
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/http-overhead.js [--root=DIR]
 *
 * `--root=DIR`: measure DIR's build (`DIR/bench/out/build`, e.g. another commit's) instead of this
 * one, so two commits compare with the same harness. Prints one JSON object per round.
 */
import { fork } from 'node:child_process';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { keepAlivePost } from './keepAlivePost.js';
import type * as Server from '../reference-server/src/server.js';
import type * as World from '../reference-server/src/apps/world/seedAppWorld.js';
import type * as LedgerIndex from '../reference-server/src/ledger/index.js';
import type * as Dispatcher from '../reference-server/src/http/api/createDispatcher.js';
import type * as RouteTable from '../reference-server/src/http/api/routes/routeTable.js';
import type * as Logger from '../reference-server/src/http/api/consoleLogger.js';
import type * as Transfer from './token-transfer.js';

const N = Number(process.env.REQUESTS ?? 4000);
const CLIENTS = 10;
const PATH = '/registry/transfer-instruction/v1/transfer-factory';

if (process.argv[2] === '--client') {
  // The clients: N requests over 10 keep-alive sockets, then exit.
  const [url, body] = [process.argv[3] as string, JSON.parse(process.argv[4] as string) as unknown];
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const post = keepAlivePost(agent, url);
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    for (let i = 0; i < N / CLIENTS; i++) await post(PATH, body);
  }));
  agent.destroy();
} else {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const root = process.argv.find((a) => a.startsWith('--root='))?.slice('--root='.length);
  // bench/out/build/bench/ -> bench/out/build/ of this checkout or of --root.
  const build = root === undefined ? join(here, '..') : join(root, 'bench', 'out', 'build');
  const m = async <T>(path: string): Promise<T> => (await import(join(build, path))) as T;
  type Mods = typeof Server & typeof World & typeof LedgerIndex & typeof Dispatcher & typeof RouteTable & typeof Logger & typeof Transfer;
  const mods = Object.assign(
    {},
    ...(await Promise.all(
      ['reference-server/src/server.js', 'reference-server/src/apps/world/seedAppWorld.js', 'reference-server/src/ledger/index.js', 'reference-server/src/http/api/createDispatcher.js', 'reference-server/src/http/api/routes/routeTable.js', 'reference-server/src/http/api/consoleLogger.js', 'bench/token-transfer.js'].map((p) => m<object>(p)),
    )),
  ) as Mods;
  const ledger = mods.createLedger();
  const w = mods.seedAppWorld(ledger);
  if (!w.ok) throw new Error(w.error.cause);
  const { dso, alice, bob } = w.value.parties;
  // A well-formed holding id: the factory checks the request, it does not read the holding.
  const body = { choiceArguments: mods.transferArgs({ dso, alice }, bob, `00${'ab'.repeat(33)}`), excludeDebugFields: true };
  const bodyText = JSON.stringify(body);
  const server = await mods.createReferenceServer({ ledger, port: 0, host: '127.0.0.1', log: mods.silentLogger });
  const dispatch = mods.createDispatcher(mods.ledgerApiRoutes, mods.createApiServices({ ledger, log: mods.silentLogger }));
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const c = process.cpuUsage(since);
    return (c.user + c.system) / 1000;
  };
  for (let round = 1; round <= 3; round++) {
    const c0 = process.cpuUsage();
    await new Promise<void>((resolve, reject) => {
      const child = fork(fileURLToPath(import.meta.url), ['--client', server.url, bodyText]);
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`clients exited with ${code}`))));
    });
    const overHttp = cpuMs(c0) / N;
    const c1 = process.cpuUsage();
    for (let i = 0; i < N; i++) {
      const r = await dispatch({ method: 'POST', path: PATH, pathParams: {}, query: new URLSearchParams(), headers: { 'content-type': 'application/json' }, bodyText });
      if (r.status !== 200 || r.kind !== 'json') throw new Error(`in process: ${r.status}`);
      JSON.stringify(r.body);
    }
    const inProcess = cpuMs(c1) / N;
    console.log(JSON.stringify({ round, requests: N, serverCpuMsPerRequestOverHttp: +overHttp.toFixed(3), cpuMsPerRequestInProcess: +inProcess.toFixed(3), httpAddsMs: +(overHttp - inProcess).toFixed(3) }));
  }
  await server.close();
}
