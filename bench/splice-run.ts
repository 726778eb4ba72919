/**
 * `serve --splice-dars` (issue 34): start-up to the ready line with the real world, and Amulet
 * transfers through the registry's transfer factory over HTTP, beside the ports.
 *
 *   npm run build && npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/splice-run.js [--quick] [--transfers-only]
 *
 * `--transfers-only` skips the start-ups (no `npm run build` needed then); `PER_WALLET=n` sets the
 * measured transfers per wallet, `WARM=n` those before them (default 10: the figures of earlier
 * sessions; the server's code is still being optimized then, `WARM=100` measures it warm).
 *
 * Start-up: the CLI as a user starts it (`node bin/canton-conformance.js serve --port 0 ...`),
 * timed from spawn to its "listening" line, three starts each: the ports, LocalNet's folder
 * (../shared/upstream/daml/dars: splice-amulet 0.1.14 and its APIs, wallet) and a Splice release's
 * (../shared/upstream/daml/dars/splice: splice-amulet 0.1.22, test tokens, trading apps,
 * splitwell). Transfers: the server on the main thread over the default world of each kind (the
 * Splice one on splice-amulet 0.1.22 alone), 10 wallets in a child process (bench/splice-wallets.ts),
 * each spending its own chain of alice's amulets to bob (who has a preapproval: direct transfers).
 * `--startup-only`: the start-ups alone (`--kinds=release,ports`: only those, by the label's start;
 * `STARTS=n` starts each); `WALLETS=n` and `--wallets=...` (below) set the wallets at once;
 * `BY_THREAD=1` reports each server thread by its id; `--external`: the wallets send as an external
 * party through interactive submission (prepare, sign, execute), as wallet-sdk does for one; `--only=ports|splice`: the transfers of one world only (for a
 * profile); `--root=DIR`: start DIR's bin/canton-conformance.js (an
 * export of another commit, built, beside the same ../shared) instead of this checkout's. Each
 * start also reports the CPU time its process had used at the ready line, and its main thread's
 * (from /proc, Linux only): on a loaded machine these say more than the wall time.
 * Prints one JSON object.
 */
import { fork, spawn } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { AMULET_TEMPLATE, createApps } from '../reference-server/src/apps/index.js';
import { loadSpliceDars, seedSpliceAppWorld } from '../reference-server/src/apps/splice/seedSpliceAppWorld.js';
import { readSpliceDars } from '../reference-server/src/apps/splice/spliceDars.js';
import { seedAppWorld } from '../reference-server/src/apps/world/seedAppWorld.js';
import { silentLogger } from '../reference-server/src/http/api/consoleLogger.js';
import { createLedger, type Ledger } from '../reference-server/src/ledger/index.js';
import { interactiveSubmissionOf } from '../reference-server/src/ledger/interactive/index.js';
import { createReferenceServer } from '../reference-server/src/server.js';
import { benchEngineWorker } from './engineThread.js';
import { cpuMs, perThreadSince, threadCpuMs } from './procCpu.js';

const quick = process.argv.includes('--quick');
const startupOnly = process.argv.includes('--startup-only');
// bench/out/build/bench/ -> the checkout
const root = fileURLToPath(new URL('../../../..', import.meta.url));
const served = process.argv.find((a) => a.startsWith('--root='))?.slice('--root='.length) ?? root;
const DARS = join(root, '..', 'shared', 'upstream', 'daml', 'dars');
if (!existsSync(DARS)) throw new Error(`needs ${DARS}`);
/**
 * Wallets at once (`WALLETS=n`, default 10); `--wallets=5,10,20,40` measures each in turn on the
 * same warm server (the measured transfers split among them): how throughput grows with the
 * requests in flight until the two cores are saturated.
 */
const sweep = process.argv.find((a) => a.startsWith('--wallets='))?.slice('--wallets='.length).split(',').map(Number);
const WALLETS = Math.max(...(sweep ?? [Number(process.env.WALLETS ?? 10)]));
const transfersOnly = process.argv.includes('--transfers-only');
const PER_WALLET = Number(process.env.PER_WALLET ?? (quick ? 20 : 200));
/** Transfers per wallet before the measured ones (the server's code warms up meanwhile); `WARM=100` measures a steady server. */
const WARM = Number(process.env.WARM ?? 10);
const STARTS = transfersOnly ? 0 : Number(process.env.STARTS ?? (quick ? 1 : 3));
/** `--kinds=release,ports`: only the start-ups whose label starts with one of these (A/B runs alternate one kind at a time). */
const kinds = process.argv.find((a) => a.startsWith('--kinds='))?.slice('--kinds='.length).split(',');

const out: Record<string, unknown> = { loadAverageAtStart: loadavg().map((l) => +l.toFixed(1)) };

/** From spawn to the "listening" line: ms, and the CPU ms the process and its main thread had used then. */
function startOnce(args: string[]): Promise<{ ms: number; cpuMs: number | undefined; mainThreadCpuMs: number | undefined }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [join(served, 'bin', 'canton-conformance.js'), 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.stdout.on('data', (d: Buffer) => {
      if (!String(d).includes('listening')) return;
      const ms = Math.round(performance.now() - t0);
      resolve({ ms, cpuMs: cpuMs(`/proc/${child.pid}/stat`), mainThreadCpuMs: cpuMs(`/proc/${child.pid}/task/${child.pid}/stat`) });
      child.kill('SIGTERM');
    });
    child.on('exit', (code) => (code !== 0 && code !== null ? reject(new Error(`exit ${code}: ${err.slice(0, 300)}`)) : undefined));
  });
}

const startups: Record<string, unknown[]> = {};
const LOCALNET = ['--localnet', '--localnet-port-base', '0'];
for (const [label, args] of [
  ['ports', ['--port', '0']],
  ['localnet 0.1.14', ['--port', '0', '--splice-dars', DARS]],
  ['release 0.1.22', ['--port', '0', '--splice-dars', join(DARS, 'splice')]],
  ['--localnet, ports', LOCALNET],
  ['--localnet, localnet 0.1.14', [...LOCALNET, '--splice-dars', DARS]],
] as const) {
  if (kinds !== undefined && !kinds.some((k) => label.startsWith(k))) continue;
  startups[label] = [];
  for (let i = 0; i < STARTS; i++) startups[label].push(await startOnce([...args]));
}
if (!transfersOnly) out.startup = startups;
if (startupOnly) {
  out.loadAverageAtEnd = loadavg().map((l) => +l.toFixed(1));
  console.log(JSON.stringify(out));
  process.exit(0);
}

/**
 * `--external`: the wallets send as an external party (its Ed25519 key made here), through
 * interactive submission as wallet-sdk does for one (bench/splice-external-wallets.ts), not as
 * alice through the command service.
 */
const external = process.argv.includes('--external');

interface Sender { readonly party: string; readonly privateKeyPem: string; readonly fingerprint: string }

/** An external party on `ledger`, onboarded as wallet-sdk onboards one (topology signed with its key). */
function externalSender(ledger: Ledger): Sender {
  const service = interactiveSubmissionOf(ledger);
  const synchronizer = ledger.config.synchronizers[0]!.id;
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const keyData = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
  const must = <T>(r: { ok: true; value: T } | { ok: false; error: { cause: string } }): T => {
    if (!r.ok) throw new Error(r.error.cause);
    return r.value;
  };
  const topology = must(service.generateTopology({ synchronizer, partyHint: 'external-sender', publicKey: { format: 'CRYPTO_KEY_FORMAT_RAW', keyData, keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' } }));
  const signature = { format: 'SIGNATURE_FORMAT_CONCAT', signature: sign(null, Buffer.from(topology.multiHash, 'base64'), privateKey).toString('base64'), signedBy: topology.publicKeyFingerprint, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' };
  const party = must(service.allocateExternalParty({ synchronizer, onboardingTransactions: topology.topologyTransactions.map((transaction) => ({ transaction })), multiHashSignatures: [signature] })).partyId;
  return { party, privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }) as string, fingerprint: topology.publicKeyFingerprint };
}

/** The world of `kind` on a fresh ledger, and one holding of 1,000,000 for each wallet (alice's, or the external sender's). */
function world(kind: 'ports' | 'splice'): { ledger: Ledger; parties: { dso: string; alice: string; bob: string }; inputs: string[]; amuletTemplate: string; sender: Sender | undefined } {
  const ledger = createLedger({ engineWorker: benchEngineWorker() });
  if (kind === 'ports') {
    const w = seedAppWorld(ledger);
    if (!w.ok) throw new Error(w.error.cause);
    const sender = external ? externalSender(ledger) : undefined;
    const { dso, bob } = w.value.parties;
    const alice = sender?.party ?? w.value.parties.alice;
    const r = ledger.submitAndWaitForTransaction({
      commands: { userId: 'participant_admin', commandId: 'mint', actAs: [dso, alice], commands: Array.from({ length: WALLETS }, () => ({ CreateCommand: { templateId: AMULET_TEMPLATE, createArguments: { dso, owner: alice, amount: { initialAmount: '1000000.0', createdAt: { number: '3' }, ratePerRound: { rate: '0.0' } } } } })) },
    });
    if (!r.ok) throw new Error(r.error.cause);
    const inputs = r.value.transaction.events.flatMap((e) => ('CreatedEvent' in e ? [e.CreatedEvent.contractId] : []));
    return { ledger, parties: { dso, alice, bob }, inputs, amuletTemplate: r.value.transaction.events.flatMap((e) => ('CreatedEvent' in e ? [e.CreatedEvent.templateId] : []))[0]!, sender };
  }
  const dir = mkdtempSync(join(tmpdir(), 'splice-bench-'));
  copyFileSync(join(DARS, 'splice', 'splice-amulet-0.1.22.dar'), join(dir, 'splice-amulet-0.1.22.dar'));
  const set = readSpliceDars(dir);
  rmSync(dir, { recursive: true });
  if (!set.ok) throw new Error(set.error);
  const splice = loadSpliceDars(ledger, set.value);
  if (!splice.ok) throw new Error(splice.error);
  createApps(ledger, { splice: splice.value });
  const w = seedSpliceAppWorld(ledger, splice.value);
  if (!w.ok) throw new Error(w.error.cause);
  const sender = external ? externalSender(ledger) : undefined;
  const { dso, bob } = w.value.parties;
  const alice = sender?.party ?? w.value.parties.alice;
  const inputs: string[] = [];
  for (let i = 0; i < WALLETS; i++) {
    const r = ledger.submitAndWaitForTransaction({
      commands: { userId: 'participant_admin', commandId: `tap-${i}`, actAs: [dso, alice], commands: [{ ExerciseCommand: { templateId: splice.value.ids.amuletRules, contractId: w.value.rounds.amuletRules, choice: 'AmuletRules_DevNet_Tap', choiceArgument: { receiver: alice, amount: '1000000.0', openRound: w.value.rounds.openRounds[1] } } }] },
    });
    if (!r.ok) throw new Error(r.error.cause);
    inputs.push(...r.value.transaction.events.flatMap((e) => ('CreatedEvent' in e && e.CreatedEvent.templateId === splice.value.ids.amulet ? [e.CreatedEvent.contractId] : [])));
  }
  return { ledger, parties: { dso, alice, bob }, inputs, amuletTemplate: splice.value.ids.amulet, sender };
}

const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
for (const kind of (['ports', 'splice'] as const).filter((k) => only === undefined || k === only)) {
  const { ledger, parties, inputs, amuletTemplate, sender } = world(kind);
  const server = await createReferenceServer({ ledger, port: 0, host: '127.0.0.1', log: silentLogger });
  const run = (starts: readonly string[], perWallet: number) =>
    new Promise<{ done: number; ms: number; cpuMs: number; last: string[] }>((resolve, reject) => {
      // A child process, not a worker thread: this process's CPU time is then the server's alone.
      const job = sender === undefined
        ? { url: server.url, parties, receiver: parties.bob, inputs: starts, perWallet, amuletTemplate }
        : { url: server.url, dso: parties.dso, sender: sender.party, privateKeyPem: sender.privateKeyPem, fingerprint: sender.fingerprint, receiver: parties.bob, synchronizerId: ledger.config.synchronizers[0]!.id, inputs: starts, perWallet, amuletTemplate };
      const wallets = fork(fileURLToPath(new URL(sender === undefined ? './splice-wallets.js' : './splice-external-wallets.js', import.meta.url)), [JSON.stringify(job)]);
      wallets.once('message', (m) => resolve(m as { done: number; ms: number; cpuMs: number; last: string[] }));
      wallets.once('error', reject);
      wallets.once('exit', (code) => (code !== 0 ? reject(new Error(`wallets exited with ${code}`)) : undefined));
    });
  const warm = await run(inputs, WARM);
  /** The measured transfers with the first `wallets` chains: throughput and CPU a transfer, per server thread. */
  const measure = async (chains: string[], wallets: number, perWallet: number): Promise<Record<string, unknown>> => {
    const threads0 = threadCpuMs();
    const elu0 = performance.eventLoopUtilization();
    const cpu0 = process.cpuUsage();
    const r = await run(chains.slice(0, wallets), perWallet);
    const elu = performance.eventLoopUtilization(elu0);
    const cpu = process.cpuUsage(cpu0);
    const threads = threadCpuMs();
    chains.splice(0, wallets, ...r.last);
    // CPU ms per transfer of each of the server's threads by name (main, the engine thread, the
    // collector's and compiler's helpers, libuv's pool), or by thread id with BY_THREAD=1.
    const perThread = perThreadSince(threads0, threads, r.done, process.env.BY_THREAD !== undefined);
    return {
      serverThreadsCpuMsPerTransfer: perThread,
      transfersPerSecond: Math.round((r.done / r.ms) * 1000),
      serverMsPerTransfer: +(elu.active / r.done).toFixed(3),
      // CPU time (user + system, the collector's threads included): what load on the machine does not inflate.
      serverCpuMsPerTransfer: +((cpu.user + cpu.system) / 1000 / r.done).toFixed(3),
      serverSystemCpuMsPerTransfer: +(cpu.system / 1000 / r.done).toFixed(3),
      // The wallets' own CPU (their process): on two cores it is taken from what the server could use.
      walletsCpuMsPerTransfer: +(r.cpuMs / r.done).toFixed(3),
      transfersPerServerCpuSecond: Math.round(r.done / ((cpu.user + cpu.system) / 1e6)),
    };
  };
  // The warm-up's own rate: a server's first transfers, while V8 still compiles its code.
  out[`${kind}_http_warmUp`] = { transfers: warm.done, transfersPerSecond: Math.round((warm.done / warm.ms) * 1000) };
  const chains = [...warm.last];
  if (sweep === undefined) {
    for (const [k, v] of Object.entries(await measure(chains, WALLETS, PER_WALLET))) out[`${kind}_http_${k}`] = v;
  } else {
    // The same number of transfers at each level, split among its wallets.
    const byWallets: Record<string, unknown>[] = [];
    for (const w of sweep) byWallets.push({ wallets: w, ...(await measure(chains, w, Math.ceil((PER_WALLET * 10) / w))) });
    out[`${kind}_http_byWallets`] = byWallets;
  }
  await server.close();
  out[`${kind}_engineWorkerRuns`] = ledger.engine.worker?.counts;
  await ledger.close();
}
out.loadAverageAtEnd = loadavg().map((l) => +l.toFixed(1));
console.log(JSON.stringify(out));
