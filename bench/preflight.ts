/**
 * What the preflight (`doctor`, and the start of every `run`) adds to a run: `preflight()` with the
 * reference profile and every check selected, against the reference server in this process,
 * seven times (the first is cold). Also the same through the CLI: `doctor` start to exit.
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/preflight.js
 */
import { catalogue } from '../conformance/src/checks/catalogue.js';
import { preflight } from '../conformance/src/preflight/preflight.js';
import { loadProfile } from '../conformance/src/runner/profile.js';
import { startReferenceServer } from '../reference-server/src/startReferenceServer.js';

const ROUNDS = 7;
const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };
const server = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, log: quiet });
try {
  const profile = loadProfile('reference');
  const checks = catalogue();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    const r = await preflight({ baseUrls: { ledger: server.url, registry: server.url, scan: server.url }, profile, strict: true, checks, timeoutMs: 10_000 });
    times.push(performance.now() - started);
    if (r.status !== 'ready') throw new Error(`preflight not ready: ${r.problems.join('; ')}`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`| preflight, reference profile, ${checks.length} checks selected | median ${sorted[ROUNDS >> 1]!.toFixed(0)} ms | ${times.map((t) => t.toFixed(0)).join(', ')} ms |`);
} finally {
  await server.close();
}
