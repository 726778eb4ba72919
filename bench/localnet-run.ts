/**
 * `serve --localnet` as a user starts it: the CLI in its own process (`node bin/canton-conformance.js
 * serve --localnet --localnet-port-base 0`), measured from spawn to its "listening" line, five
 * times; its resident memory (VmRSS) once listening and again after the wallet guide's flows; and
 * the time of those flows end to end through wallet-sdk 1.4.0 configured as the guide configures
 * it (01 onboarding, ping online and offline, tap; 02 two-step transfer accepted, rejected,
 * withdrawn; 05 preapproval accepted by the validator then a direct transfer, renew, cancel; 06
 * fifteen taps merged; 11 hash recomputed; 14 offline-signed tap, transfer, accept).
 *
 * `npm run bench:localnet` (builds dist/ and bench/, then runs this). Raw numbers: bench/out/localnet.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { SDK, signTransactionHash } from '@canton-network/wallet-sdk';
import { amuletAmounts, externalParty, guideSdk, signAndRun, type GuideSdk } from '../test/localnet/guideSdk.js';
import { loopbackUrls } from '../test/localnet/support.js';
import type { LocalNetPorts } from '../reference-server/src/localnet/localNetConfig.js';

// Compiled to bench/out/build/bench/: the repository is four levels up, bench/out two.
const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const outDir = fileURLToPath(new URL('../../', import.meta.url));
const STARTS = 5;

interface Started {
  readonly child: ChildProcess;
  readonly ms: number;
  readonly ports: LocalNetPorts;
}

function startCli(): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['bin/canton-conformance.js', 'serve', '--localnet', '--localnet-port-base', '0'], { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /ledger http:\/\/localhost:(\d+), validator http:\/\/localhost:(\d+)\/api\/validator, scan http:\/\/scan\.localhost:(\d+)\/api\/scan, token standard http:\/\/localhost:(\d+), app provider ledger http:\/\/localhost:(\d+)/.exec(out);
      if (m) resolve({ child, ms: performance.now() - t0, ports: { ledger: Number(m[1]), validator: Number(m[2]), scan: Number(m[3]), tokenStandard: Number(m[4]), appProviderLedger: Number(m[5]) } });
    });
    child.once('exit', (code) => reject(new Error(`serve --localnet exited with ${code}: ${out}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const rssMb = (pid: number) => Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

async function timed<T>(what: string, times: Record<string, number>, run: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const value = await run();
  times[what] = Math.round(performance.now() - t0);
  return value;
}

/** The guide's flows, each asserting what the script asserts (a failed flow stops the bench). */
async function flows(sdk: GuideSdk, registryUrl: URL): Promise<Record<string, number>> {
  const times: Record<string, number> = {};
  const must = (ok: boolean, what: string) => {
    if (!ok) throw new Error(`flow check failed: ${what}`);
  };
  const tap = async (p: Awaited<ReturnType<typeof externalParty>>, amount: string) => {
    const [c, d] = await sdk.amulet.tap(p.partyId, amount);
    return signAndRun(sdk, p, c, d);
  };
  await timed('01 init: 2 parties, ping online + offline, tap, Mint', times, async () => {
    const [a] = await Promise.all([externalParty(sdk, 'bench-01-alice'), externalParty(sdk, 'bench-01-bob')]);
    const ping = [{ CreateCommand: { templateId: '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping', createArguments: { id: 'bench', initiator: a.partyId, responder: a.partyId } } }];
    await signAndRun(sdk, a, ping);
    const { response } = await sdk.ledger.prepare({ partyId: a.partyId, commands: ping as never, disclosedContracts: [] }).toJSON();
    await sdk.ledger.execute(sdk.ledger.fromSignature(response, signTransactionHash(response.preparedTransactionHash, a.keys.privateKey)), { partyId: a.partyId });
    const r = await tap(a, '10000');
    const tx = await sdk.token.transactionsById({ updateId: r.updateId, partyId: a.partyId });
    must(tx.events.some((e) => e.label.type === 'Mint'), 'a Mint event');
  });
  await timed('02 two-step: accept, reject, withdraw', times, async () => {
    const [s, r] = await Promise.all([externalParty(sdk, 'bench-02-alice'), externalParty(sdk, 'bench-02-bob')]);
    await tap(s, '10000');
    for (const choice of ['accept', 'reject', 'withdraw'] as const) {
      const [c, d] = await sdk.token.transfer.create({ sender: s.partyId, recipient: r.partyId, instrumentId: 'Amulet', registryUrl, amount: '2000' });
      await signAndRun(sdk, s, c, d);
      const [pending] = await sdk.token.transfer.pending(r.partyId);
      const [cc, dd] = await sdk.token.transfer[choice]({ transferInstructionCid: pending!.contractId, registryUrl });
      await signAndRun(sdk, choice === 'withdraw' ? s : r, cc, dd);
      must((await sdk.token.transfer.pending(r.partyId)).length === 0, `nothing pending after ${choice}`);
    }
  });
  await timed('05 preapproval: create, direct transfer, renew, cancel', times, async () => {
    await sdk.amulet.tapInternal('1000');
    const [a, b] = await Promise.all([externalParty(sdk, 'bench-05-alice'), externalParty(sdk, 'bench-05-bob')]);
    await tap(a, '10000');
    await signAndRun(sdk, b, await sdk.amulet.preapproval.command.create({ parties: { receiver: b.partyId } }));
    const status = await sdk.amulet.preapproval.fetchStatus(b.partyId);
    const [c, d] = await sdk.token.transfer.create({ sender: a.partyId, recipient: b.partyId, amount: '2000', instrumentId: 'Amulet', registryUrl });
    await signAndRun(sdk, a, c, d);
    must((await amuletAmounts(sdk, b.partyId)).includes('2000.0000000000'), 'bob received 2000 at once');
    await sdk.amulet.preapproval.renew({ parties: { receiver: b.partyId }, expiresAt: new Date(status!.expiresAt.getTime() + 2 * 86_400_000) });
    await sdk.amulet.preapproval.fetchStatus(b.partyId, { oldCid: status!.contractId });
    const [x, xd] = await sdk.amulet.preapproval.command.cancel({ parties: { receiver: b.partyId } });
    await signAndRun(sdk, b, x, xd);
    must((await sdk.amulet.preapproval.fetchStatus(b.partyId, { cancelled: true })) === null, 'cancelled');
  });
  await timed('06 merge: 15 concurrent taps, merge', times, async () => {
    const a = await externalParty(sdk, 'bench-06-alice');
    await Promise.all(Array.from({ length: 15 }, () => tap(a, '2000000')));
    const [commands, d] = await sdk.token.utxos.merge({ partyId: a.partyId });
    await Promise.all(commands.map((c) => signAndRun(sdk, a, c, d)));
    must((await amuletAmounts(sdk, a.partyId)).length === 1, 'one holding after merge');
  });
  await timed('11 + 14 hashing and offline signing: onboard, tap, transfer, accept', times, async () => {
    const offline = SDK.createOffline();
    const onboard = async (hint: string) => {
      const keys = offline.keys.generate();
      const prepared = sdk.party.external.create(keys.publicKey, { partyHint: hint });
      const topology = await prepared.topology();
      must((await offline.utils.hash.topologyTransaction(topology.topologyTransactions as string[])) === topology.multiHash, 'multiHash');
      return { ...(await prepared.execute(signTransactionHash(topology.multiHash, keys.privateKey))), keys };
    };
    const [s, r] = await Promise.all([onboard('bench-14-alice'), onboard('bench-14-bob')]);
    const run = async (p: typeof s, commands: unknown, disclosed: unknown) => {
      const { response } = await sdk.ledger.prepare({ partyId: p.partyId, commands: commands as never, disclosedContracts: disclosed as never }).toJSON();
      must((await offline.utils.hash.preparedTransacation(response.preparedTransaction as string)).toBase64() === response.preparedTransactionHash, 'prepared hash');
      await sdk.ledger.execute(sdk.ledger.fromSignature(response, signTransactionHash(response.preparedTransactionHash, p.keys.privateKey)), { partyId: p.partyId });
    };
    const [t, td] = await sdk.amulet.tap(s.partyId, '10000');
    await run(s, t, td);
    const [c, d] = await sdk.token.transfer.create({ sender: s.partyId, recipient: r.partyId, instrumentId: 'Amulet', registryUrl, amount: '100' });
    await run(s, c, d);
    const [pending] = await sdk.token.transfer.pending(r.partyId);
    const [a, ad] = await sdk.token.transfer.accept({ transferInstructionCid: pending!.contractId, registryUrl });
    await run(r, a, ad);
  });
  return times;
}

const startups: number[] = [];
const rssAtStart: number[] = [];
for (let i = 0; i < STARTS; i++) {
  const s = await startCli();
  startups.push(Math.round(s.ms));
  rssAtStart.push(rssMb(s.child.pid!));
  await stop(s.child);
}
const s = await startCli();
const sdk = await guideSdk({ ports: s.ports });
const t0 = performance.now();
const times = await flows(sdk, new URL(loopbackUrls({ ports: s.ports }).registry));
const total = Math.round(performance.now() - t0);
const rssAfter = rssMb(s.child.pid!);
await stop(s.child);

const sorted = [...startups].sort((a, b) => a - b);
const results = {
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, loadavg: loadavg().map((l) => +l.toFixed(1)) },
  startupMs: { runs: startups, median: sorted[Math.floor(sorted.length / 2)] },
  rssMb: { listening: rssAtStart, afterFlows: rssAfter },
  flowsMs: { ...times, total },
};
mkdirSync(outDir, { recursive: true });
writeFileSync(`${outDir}localnet.json`, JSON.stringify(results, null, 2));
console.log(JSON.stringify(results, null, 2));
process.exit(0);
