/**
 * Real Amulet transfers against `serve --splice-dars` as a user starts it (issue 34 item 5): the
 * CLI in a process of its own, seeded over HTTP only, and the wallets of splice-run
 * (bench/splice-wallets.ts) in another. Each window of transfers reports its rate and the server
 * process's CPU a transfer by thread, from the server's first transfer on: how it warms up (V8
 * compiles its code over the first few thousand) and where it settles.
 *
 *   npm run build && npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/splice-serve-run.js
 *
 * `WINDOWS=n` (default 8) windows of `PER_WINDOW` (2,000) transfers by `WALLETS` (10) wallets;
 * `SERVE_ARGS='--no-engine-thread'` adds flags to `serve`; `CLI=.../bin/canton-conformance.js`
 * starts another install's (a packed tarball's, say) instead of this checkout's. Needs ../shared/upstream/daml/dars/splice
 * beside the checkout. Prints one JSON object.
 */
import { fork, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { perThreadSince, threadCpuMs } from './procCpu.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const DARS = join(root, '..', 'shared', 'upstream', 'daml', 'dars', 'splice');
if (!existsSync(DARS)) throw new Error(`needs ${DARS}`);
const WALLETS = Number(process.env.WALLETS ?? 10);
const WINDOWS = Number(process.env.WINDOWS ?? 8);
const PER_WALLET = Math.ceil(Number(process.env.PER_WINDOW ?? 2_000) / WALLETS);

const dir = mkdtempSync(join(tmpdir(), 'splice-serve-'));
copyFileSync(join(DARS, 'splice-amulet-0.1.22.dar'), join(dir, 'splice-amulet-0.1.22.dar'));
const args = ['serve', '--port', '0', '--splice-dars', dir, ...(process.env.SERVE_ARGS ?? '').split(' ').filter(Boolean)];
const cli = process.env.CLI ?? join(root, 'bin', 'canton-conformance.js');
const server = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise<string>((resolve, reject) => {
  let seen = '';
  server.stdout.on('data', (d: Buffer) => {
    seen += String(d);
    const m = /listening on (http:\/\/\S+)/.exec(seen);
    if (m) resolve(m[1]!);
  });
  server.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
});

async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await fetch(url + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

// The world as a client finds it: the parties, AmuletRules and an open round from Scan.
const parties = (await call('GET', '/v2/parties')).partyDetails.map((p: { party: string }) => p.party) as string[];
const party = (hint: string): string => parties.find((p) => p.startsWith(`${hint}::`)) ?? (() => { throw new Error(`no party ${hint}`); })();
const [alice, bob] = [party('alice'), party('bob')];
const dsoInfo = await call('GET', '/api/scan/v0/dso');
const dso = dsoInfo.dso_party_id as string;
const rules = dsoInfo.amulet_rules.contract as { contract_id: string; template_id: string };
const rounds = await call('POST', '/api/scan/v0/open-and-issuing-mining-rounds', { cached_open_mining_round_contract_ids: [], cached_issuing_round_contract_ids: [] });
const now = Date.now();
const open = Object.values(rounds.open_mining_rounds as Record<string, { contract: { contract_id: string; payload: { opensAt: string } } }>)
  .find((r) => Date.parse(r.contract.payload.opensAt) <= now)?.contract.contract_id;
if (open === undefined) throw new Error('no round open now');

// One holding of 1,000,000 for each wallet, tapped as the DSO and alice.
const inputs: string[] = [];
let amuletTemplate = '';
for (let i = 0; i < WALLETS; i++) {
  const tx = await call('POST', '/v2/commands/submit-and-wait-for-transaction', {
    commands: {
      userId: 'participant_admin', commandId: `tap-${i}`, actAs: [dso, alice],
      commands: [{ ExerciseCommand: { templateId: rules.template_id, contractId: rules.contract_id, choice: 'AmuletRules_DevNet_Tap', choiceArgument: { receiver: alice, amount: '1000000.0', openRound: open } } }],
    },
  });
  const created = (tx.transaction.events as { CreatedEvent?: { contractId: string; templateId: string; createArgument: { owner?: string } } }[])
    .flatMap((e) => (e.CreatedEvent?.templateId.endsWith(':Splice.Amulet:Amulet') && e.CreatedEvent.createArgument.owner === alice ? [e.CreatedEvent] : []));
  if (created.length !== 1) throw new Error('the tap made no amulet for alice');
  inputs.push(created[0]!.contractId);
  amuletTemplate = created[0]!.templateId;
}

const run = (starts: readonly string[]) =>
  new Promise<{ done: number; ms: number; cpuMs: number; last: string[] }>((resolve, reject) => {
    const wallets = fork(fileURLToPath(new URL('./splice-wallets.js', import.meta.url)), [JSON.stringify({ url, parties: { dso, alice }, receiver: bob, inputs: starts, perWallet: PER_WALLET, amuletTemplate })]);
    wallets.once('message', (m) => resolve(m as { done: number; ms: number; cpuMs: number; last: string[] }));
    wallets.once('error', reject);
    wallets.once('exit', (code) => (code !== 0 ? reject(new Error(`wallets exited with ${code}`)) : undefined));
  });

const windows: Record<string, unknown>[] = [];
let chains = inputs;
for (let w = 0; w < WINDOWS; w++) {
  const before = threadCpuMs(server.pid);
  const r = await run(chains);
  const perThread = perThreadSince(before, threadCpuMs(server.pid), r.done);
  chains = r.last;
  windows.push({
    transfers: r.done,
    transfersPerSecond: Math.round((r.done / r.ms) * 1000),
    serverCpuMsPerTransfer: +Object.values(perThread).reduce((a, b) => a + b, 0).toFixed(3),
    serverThreadsCpuMsPerTransfer: perThread,
    walletsCpuMsPerTransfer: +(r.cpuMs / r.done).toFixed(3),
  });
}
server.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ cli, serve: args.join(' '), wallets: WALLETS, loadAverageAtEnd: loadavg().map((l) => +l.toFixed(1)), windows }));
