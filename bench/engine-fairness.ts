/**
 * Engine work does not block other clients (issue 30, item 3): `GET /v2/version` latency and a
 * built-in sample-asset create through submit-and-wait, idle and while four clients send
 * maximal-budget commands back to back (a choice that loops until the 10,000,000-step budget
 * stops it with INTERPRETATION_TIME_EXCEEDED), on a package the bench builds itself
 * (test/daml/hostilePackage.ts). The server runs in this process with its defaults, and with the
 * engine thread as `serve` has it (`ENGINE_WORKER=0`: without, the commands in slices on the
 * server's thread); clients use fetch over a socket (their own overhead counts in every figure,
 * idle and loaded alike).
 *
 *   npm run build && npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/engine-fairness.js
 */
import { createReferenceServer } from '../reference-server/src/server.js';
import { ASSET_TEMPLATE, createLedger } from '../reference-server/src/ledger/index.js';
import { buildHostilePackage } from '../test/daml/hostilePackage.js';
import { benchEngineWorker } from './engineThread.js';

const VERSION_SAMPLES = Number(process.env.VERSION_SAMPLES ?? 300);
const CREATE_SAMPLES = Number(process.env.CREATE_SAMPLES ?? 60);

const server = await createReferenceServer({ port: 0, ledger: createLedger({ engineWorker: benchEngineWorker() }), log: { info: () => undefined, warn: () => undefined, error: () => undefined } });
const url = server.url;
const post = async (path: string, body: unknown, contentType = 'application/json'): Promise<{ status: number; body: Record<string, unknown> }> => {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body: body instanceof Uint8Array ? Buffer.from(body) : JSON.stringify(body) });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
};
const party = async (hint: string): Promise<string> => ((await post('/v2/parties', { partyIdHint: hint, identityProviderId: '' })).body.partyDetails as { party: string }).party;

const built = buildHostilePackage('hostile-bench');
const synchronizerId = server.ledger.config.synchronizers[0]!.id;
const upload = await post(`/v2/dars?synchronizerId=${encodeURIComponent(synchronizerId)}`, built.dar(), 'application/octet-stream');
if (upload.status !== 200) throw new Error(`upload: ${upload.status} ${JSON.stringify(upload.body).slice(0, 300)}`);
const owner = await party('owner');
const issuer = await party('issuer');
let seq = 0;
const submit = (actAs: string[], command: unknown) => post('/v2/commands/submit-and-wait', { commands: [command], userId: 'bench', commandId: `c${++seq}`, actAs });
const created = await post('/v2/commands/submit-and-wait-for-transaction', {
  commands: { commands: [{ CreateCommand: { templateId: `${built.id}:Hostile:Bomb`, createArguments: { owner, depth: '1' } } }], userId: 'bench', commandId: 'bomb', actAs: [owner] },
});
const bomb = ((created.body.transaction as { events: { CreatedEvent: { contractId: string } }[] }).events[0]!).CreatedEvent.contractId;

const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const timed = async (f: () => Promise<unknown>): Promise<number> => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};

async function measure(): Promise<{ version: number[]; create: number[] }> {
  const version: number[] = [];
  for (let i = 0; i < VERSION_SAMPLES; i++) version.push(await timed(() => fetch(`${url}/v2/version`).then((r) => r.text())));
  const create: number[] = [];
  for (let i = 0; i < CREATE_SAMPLES; i++) {
    create.push(await timed(async () => {
      const r = await submit([issuer], { CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer, owner: issuer, amount: '10.5', observers: null } } });
      if (r.status !== 200) throw new Error(`create: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    }));
  }
  return { version, create };
}

const report = (label: string, m: { version: number[]; create: number[] }) => {
  const f = (x: number) => x.toFixed(1);
  console.log(`${label}: GET /v2/version p50 ${f(percentile(m.version, 50))} ms, p99 ${f(percentile(m.version, 99))} ms, max ${f(Math.max(...m.version))} ms; ` +
    `sample-asset create p50 ${f(percentile(m.create, 50))} ms, p99 ${f(percentile(m.create, 99))} ms`);
};

await measure(); // warm-up
const idle = await measure();
report('idle', idle);

let running = true;
let loops = 0;
const codes = new Map<string, number>();
const clients = [0, 1, 2, 3].map(async () => {
  while (running) {
    const r = await submit([owner], { ExerciseCommand: { templateId: `${built.id}:Hostile:Bomb`, contractId: bomb, choice: 'Loop', choiceArgument: {} } });
    loops++;
    const code = String(r.body.code ?? r.status);
    codes.set(code, (codes.get(code) ?? 0) + 1);
  }
});
// Let every client have its first command in flight before measuring.
while (server.ledger.engine.slicedRunsInProgress < 4) await new Promise((resolve) => setImmediate(resolve));
const loaded = await measure();
running = false;
await Promise.all(clients);
report('4 clients looping', loaded);
console.log(`looping commands answered: ${loops} (${[...codes].map(([c, n]) => `${c} x${n}`).join(', ')})`);
console.log(`create p50 loaded / idle: ${(percentile(loaded.create, 50) / percentile(idle.create, 50)).toFixed(2)}x`);
await server.close();
await server.ledger.close();
