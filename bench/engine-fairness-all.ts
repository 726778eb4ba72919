/**
 * Engine work never blocks other clients (issue 30, items 2-4), every kind of it: `GET /v2/version`
 * latency (p50, p99, max) idle and while
 *   (a) four clients send maximal-budget commands back to back (a loop stopped by the 10,000,000-step budget),
 *   (b) two clients read the active contracts with a looping interface view over 20 contracts,
 *   (c) five WebSocket subscribers ask for that view while a client creates contracts back to back,
 *   (d) a large legitimate DAR is uploaded (splice-amulet 0.1.22 from ../shared when present, else a
 *       built package of 3,000 definitions), and an honest zip just under the inflate bound;
 * then the process's peak RSS over the HTTP attacks (128 Mi-character results, EXPLODE_TEXT,
 * 16 Mi-character results, each repeated) with the server answering afterwards. Packages are built
 * here (test/daml/hostilePackage.ts); the server runs in this process with its defaults, clients
 * use fetch and ws over loopback (their overhead counts in every figure, idle and loaded alike).
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/engine-fairness-all.js
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { WebSocket } from 'ws';
import { E } from '../daml-engine/build/E.js';
import { PackageBuilder } from '../daml-engine/build/PackageBuilder.js';
import { T } from '../daml-engine/build/T.js';
import { silentLogger } from '../reference-server/src/http/api/consoleLogger.js';
import { createReferenceServer, type ReferenceServer } from '../reference-server/src/server.js';
import { buildHostilePackage } from '../test/daml/hostilePackage.js';

const VERSION_SAMPLES = Number(process.env.VERSION_SAMPLES ?? 300);
const MiB = 1024 * 1024;

const server = await createReferenceServer({ port: 0, host: '127.0.0.1', log: silentLogger });
const url = server.url;
const syncOf = (s: ReferenceServer) => encodeURIComponent(s.ledger.config.synchronizers[0]!.id);
const post = async (path: string, body: unknown, base = url): Promise<{ status: number; body: Record<string, unknown> }> => {
  const binary = body instanceof Uint8Array;
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': binary ? 'application/octet-stream' : 'application/json' }, body: binary ? Buffer.from(body) : JSON.stringify(body) });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
};
const party = async (hint: string): Promise<string> => ((await post('/v2/parties', { partyIdHint: hint, identityProviderId: '' })).body.partyDetails as { party: string }).party;

const built = buildHostilePackage('hostile-fairness');
const up = await post(`/v2/dars?synchronizerId=${syncOf(server)}`, built.dar());
if (up.status !== 200) throw new Error(`upload: ${up.status} ${JSON.stringify(up.body).slice(0, 300)}`);
const owner = await party('owner');
const tid = (entity: string) => `${built.id}:Hostile:${entity}`;
let seq = 0;
const submit = (command: unknown) => post('/v2/commands/submit-and-wait', { commands: [command], userId: 'bench', commandId: `c${++seq}`, actAs: [owner] });
const create = (depth: number) => submit({ CreateCommand: { templateId: tid('Bomb'), createArguments: { owner, depth: String(depth) } } });
for (let i = 0; i < 20; i++) await create(i + 1);
const bombs = await post('/v2/state/active-contracts', {
  activeAtOffset: ((await (await fetch(`${url}/v2/state/ledger-end`)).json()) as { offset: number }).offset,
  eventFormat: { filtersByParty: { [owner]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: tid('Bomb'), includeCreatedEventBlob: false } } } }] } }, verbose: false },
});
const bomb = ((bombs.body as unknown as { contractEntry: { JsActiveContract: { createdEvent: { contractId: string } } } }[])[0]!).contractEntry.JsActiveContract.createdEvent.contractId;
const loopingFilter = { filtersByParty: { [owner]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: tid('Looping'), includeInterfaceView: true, includeCreatedEventBlob: false } } } }] } } };

const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const timed = async (f: () => Promise<unknown>): Promise<number> => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};
const version = (base = url) => fetch(`${base}/v2/version`).then((r) => r.text());
async function versions(n = VERSION_SAMPLES, base = url): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await timed(() => version(base)));
  return out;
}
const rows: string[] = [];
const row = (label: string, xs: number[], extra = '') => {
  const f = (x: number) => x.toFixed(1);
  const line = `| ${label} | ${xs.length} | ${f(percentile(xs, 50))} | ${f(percentile(xs, 99))} | ${f(Math.max(...xs))} | ${extra} |`;
  rows.push(line);
  console.log(line);
};

/** `load` runs until stopped; GET /v2/version is sampled meanwhile. */
async function under(label: string, load: (running: () => boolean) => Promise<string>): Promise<void> {
  let on = true;
  const running = load(() => on);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const xs = await versions();
  on = false;
  row(label, xs, await running);
}

console.log('| load | samples | p50 ms | p99 ms | max ms | load done meanwhile |');
console.log('|---|---|---|---|---|---|');
await versions(100); // warm-up
row('idle', await versions());

await under('(a) 4 clients, looping commands (10 M-step budget)', async (running) => {
  let n = 0;
  const codes = new Set<string>();
  await Promise.all([0, 1, 2, 3].map(async () => {
    while (running()) {
      const r = await submit({ ExerciseCommand: { templateId: tid('Bomb'), contractId: bomb, choice: 'Loop', choiceArgument: {} } });
      codes.add(String(r.body.code ?? r.status));
      n++;
    }
  }));
  return `${n} commands, ${[...codes].join(', ')}`;
});

await under('(b) 2 clients, ACS with a looping view over 20 contracts', async (running) => {
  let n = 0;
  let failed = 0;
  await Promise.all([0, 1].map(async () => {
    while (running()) {
      const end = ((await (await fetch(`${url}/v2/state/ledger-end`)).json()) as { offset: number }).offset;
      const r = await post('/v2/state/active-contracts', { activeAtOffset: end, eventFormat: { ...loopingFilter, verbose: false } });
      const views = (r.body as unknown as { contractEntry: { JsActiveContract: { createdEvent: { interfaceViews: { viewStatus: { code: number } }[] } } } }[]);
      failed += views.filter((v) => v.contractEntry.JsActiveContract.createdEvent.interfaceViews[0]?.viewStatus.code === 10).length;
      n++;
    }
  }));
  return `${n} reads, ${failed} views ABORTED`;
});

await under('(c) 5 WebSocket subscribers with the looping view, creates back to back', async (running) => {
  const begin = ((await (await fetch(`${url}/v2/state/ledger-end`)).json()) as { offset: number }).offset;
  let received = 0;
  const sockets = await Promise.all([0, 1, 2, 3, 4].map(() => new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v2/updates`, ['daml.ws.auth']);
    ws.on('message', () => { received++; });
    ws.once('open', () => {
      ws.send(JSON.stringify({ beginExclusive: begin, verbose: false, filter: loopingFilter }));
      resolve(ws);
    });
    ws.once('error', reject);
  })));
  let creates = 0;
  while (running()) {
    await create(1);
    creates++;
  }
  for (const ws of sockets) ws.close();
  return `${creates} creates, ${received} messages delivered`;
});

// (d) uploads: each to a fresh server (a DAR is decoded and checked once per participant).
const here = fileURLToPath(new URL('.', import.meta.url));
const amuletPath = [join(here, '../../../../../shared/upstream/daml/dars/splice/splice-amulet-0.1.22.dar'), join(here, '../../shared/upstream/daml/dars/splice/splice-amulet-0.1.22.dar')].find(existsSync);
function bigBuilt(): { what: string; bytes: Uint8Array } {
  const b = new PackageBuilder({ name: 'bench-big', version: '1.0.0' });
  const m = b.module('Big');
  for (let i = 0; i < 3000; i++) m.value(`v${i}`, T.arrow(T.int64, T.int64), E.lam([['x', T.int64]], E.call('ADD_INT64', [], E.var('x'), E.int64(BigInt(i)))));
  return { what: 'a built package of 3,000 definitions', bytes: b.build().dar() };
}
const uploads = [
  amuletPath ? { what: 'splice-amulet-0.1.22 (decoded and checked with its dependencies)', bytes: new Uint8Array(readFileSync(amuletPath)) } : bigBuilt(),
  { what: 'honest zip just under the bound (a 120 MiB DALF of zeros)', bytes: zipSync({ 'META-INF/MANIFEST.MF': new TextEncoder().encode('Main-Dalf: a.dalf\n'), 'a.dalf': new Uint8Array(120 * MiB) }, { level: 6 }) },
];
for (const u of uploads) {
  const xs: number[] = [];
  const answers: string[] = [];
  for (let round = 0; round < 3; round++) {
    const fresh = await createReferenceServer({ port: 0, host: '127.0.0.1', log: silentLogger });
    await versions(20, fresh.url);
    let uploading = true;
    const poller = (async () => {
      while (uploading) xs.push(await timed(() => version(fresh.url)));
    })();
    const r = await post(`/v2/dars?synchronizerId=${syncOf(fresh)}`, u.bytes, fresh.url);
    uploading = false;
    await poller;
    answers.push(`${r.status} ${String(r.body.code ?? '')}`.trim());
    await fresh.close();
  }
  row(`(d) upload: ${u.what}, ${(u.bytes.length / 1024).toFixed(0)} KiB, 3 rounds`, xs, [...new Set(answers)].join(', '));
}

// RSS over the HTTP attacks, sampled every 10 ms.
let peak = process.memoryUsage().rss;
const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 10);
const attacks: [string, string, Record<string, string>, number][] = [
  ['a 128 Mi-character result', 'Huge', { n: '27' }, 30],
  ['EXPLODE_TEXT of a 64 Mi-character text', 'Explode', { n: '26' }, 10],
  ['a 16 Mi-character result (over the size limit)', 'Huge', { n: '24' }, 30],
  ['a 4 Mi-character result (committed)', 'Huge', { n: '22' }, 10],
];
const startRss = process.memoryUsage().rss;
const attackLines: string[] = [];
for (const [what, choice, arg, times] of attacks) {
  const codes = new Set<string>();
  for (let i = 0; i < times; i++) {
    const r = await submit({ ExerciseCommand: { templateId: tid('Bomb'), contractId: bomb, choice, choiceArgument: arg } });
    codes.add(String(r.body.code ?? r.status));
  }
  attackLines.push(`${what} x${times}: ${[...codes].join(', ')}`);
}
clearInterval(sampler);
const alive = (await fetch(`${url}/v2/version`)).status;
console.log(`\nRSS: ${(startRss / MiB).toFixed(0)} MiB before the attacks, peak ${(peak / MiB).toFixed(0)} MiB; GET /v2/version afterwards: ${alive}`);
for (const l of attackLines) console.log(`  ${l}`);
await server.close();
