/**
 * Amulet as a token-standard registry: transfers per second through the transfer factory, and a
 * holdings query (the Holding interface with views) over 100,000 holdings.
 *
 * Build and run:
 *   npx tsc -p bench/tsconfig.bench.json && node --expose-gc bench/out/build/bench/token-registry.js [--quick]
 * Prints one JSON object. In-process figures call the registry app and the ledger core directly
 * (what the HTTP face adds is measured separately); HTTP figures use the Koa server on the main
 * thread and 10 concurrent wallets in a worker thread (bench/token-wallets.ts), each doing what
 * wallet-sdk does per transfer: POST the transfer factory, then POST submit-and-wait with the
 * context and its disclosed contracts.
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { appsOf, HOLDING_V1_INTERFACE, AMULET_TEMPLATE } from '../reference-server/src/apps/index.js';
import { seedAppWorld, type AppWorld } from '../reference-server/src/apps/world/seedAppWorld.js';
import { silentLogger } from '../reference-server/src/http/api/consoleLogger.js';
import { createLedger, type Ledger } from '../reference-server/src/ledger/index.js';
import { createReferenceServer } from '../reference-server/src/server.js';
import { exerciseBody, transferArgs, type Factory } from './token-transfer.js';

const quick = process.argv.includes('--quick');
const TRANSFERS = quick ? 2_000 : 20_000;
const HOLDINGS = quick ? 10_000 : 100_000;
const CLIENTS = 10;

function world(listMaxElements?: number): { ledger: Ledger; w: AppWorld } {
  const ledger = createLedger(listMaxElements === undefined ? {} : { listMaxElements });
  const w = seedAppWorld(ledger);
  if (!w.ok) throw new Error(w.error.cause);
  return { ledger, w: w.value };
}

/** Mints `n` amulets of `amount` for `owner`, 100 per transaction. */
function mint(ledger: Ledger, dso: string, owner: string, n: number, amount: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i += 100) {
    const k = Math.min(100, n - i);
    const r = ledger.submitAndWaitForTransaction({
      commands: {
        userId: 'participant_admin',
        commandId: `mint-${i}-${Math.random().toString(36).slice(2)}`,
        actAs: [dso, owner],
        commands: Array.from({ length: k }, () => ({ CreateCommand: { templateId: AMULET_TEMPLATE, createArguments: { dso, owner, amount: { initialAmount: amount, createdAt: { number: '3' }, ratePerRound: { rate: '0.0' } } } } })),
      },
    });
    if (!r.ok) throw new Error(r.error.cause);
    for (const e of r.value.transaction.events ?? []) if ('CreatedEvent' in e) out.push(e.CreatedEvent.contractId);
  }
  return out;
}

const out: Record<string, unknown> = { transfers: TRANSFERS, holdings: HOLDINGS };

const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
// ---- transfers through the factory, in process
for (const kind of only === undefined || only === 'inprocess' ? (['direct', 'offer'] as const) : []) {
  const { ledger, w } = world();
  const receiver = kind === 'direct' ? w.parties.bob : w.parties.erin;
  const inputs = mint(ledger, w.parties.dso, w.parties.alice, TRANSFERS + 500, '2.0');
  const registry = appsOf(ledger).amulet;
  const run = (from: number, n: number) => {
    for (let i = from; i < from + n; i++) {
      const args = transferArgs(w.parties, receiver, inputs[i] as string);
      const f = registry.transferFactory({ choiceArguments: args, excludeDebugFields: true });
      if (!f.ok) throw new Error(f.error.cause);
      const r = ledger.submitAndWait(exerciseBody(w.parties, f.value as unknown as Factory, args, i) as never);
      if (!r.ok) throw new Error(r.error.cause);
    }
  };
  run(0, 500); // warm-up
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  run(500, TRANSFERS);
  const cpu = process.cpuUsage(cpu0);
  out[`inProcess_${kind}_transfersPerSecond`] = Math.round((TRANSFERS / (performance.now() - t0)) * 1000);
  // Per CPU-second of this process: what a core buys, whatever else runs on a shared machine.
  out[`inProcess_${kind}_transfersPerCpuSecond`] = Math.round(TRANSFERS / ((cpu.user + cpu.system) / 1e6));
}

// ---- transfers through the factory, over HTTP: the Koa server on this thread, the wallets in a
// worker thread (their own event loop, so the server's share is this loop's busy time)
if (only === undefined || only === 'http') {
  const { ledger, w } = world();
  const n = quick ? 2_000 : 20_000;
  const inputs = mint(ledger, w.parties.dso, w.parties.alice, n + 1_000, '2.0');
  const server = await createReferenceServer({ ledger, port: 0, host: '127.0.0.1', log: silentLogger });
  const run = (slice: string[]) =>
    new Promise<{ done: number; ms: number }>((resolve, reject) => {
      const worker = new Worker(new URL('./token-wallets.js', import.meta.url), {
        workerData: { url: server.url, parties: { dso: w.parties.dso, alice: w.parties.alice }, receiver: w.parties.bob, inputs: slice, wallets: CLIENTS },
      });
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  await run(inputs.slice(0, 1_000)); // warm-up
  const elu0 = performance.eventLoopUtilization();
  const r = await run(inputs.slice(1_000));
  const elu = performance.eventLoopUtilization(elu0);
  out.http_direct_transfersPerSecond = Math.round((r.done / r.ms) * 1000);
  // The server's thread busy time per transfer (both requests): what one core of server buys.
  out.http_direct_serverMsPerTransfer = +(elu.active / r.done).toFixed(3);
  out.http_direct_transfersPerServerCpuSecond = Math.round(r.done / (elu.active / 1000));
  await server.close();
}

// ---- holdings query over HOLDINGS holdings (a participant whose list limit admits them)
if (only === undefined || only === 'holdings') {
  const { ledger, w } = world(HOLDINGS + 1_000);
  const t0 = performance.now();
  mint(ledger, w.parties.dso, w.parties.alice, HOLDINGS, '1.5');
  out.seedSeconds = Math.round((performance.now() - t0) / 1000);
  const query = {
    activeAtOffset: ledger.ledgerEnd().offset,
    eventFormat: { filtersByParty: { [w.parties.alice]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: HOLDING_V1_INTERFACE, includeInterfaceView: true, includeCreatedEventBlob: false } } } }] } } },
  };
  const acs = ledger.activeContracts(query as never);
  if (!acs.ok) throw new Error(acs.error.cause);
  const t1 = performance.now();
  let count = 0;
  let first = 0;
  for (const x of acs.value) {
    JSON.stringify(x);
    if (count++ === 0) first = performance.now() - t1;
  }
  out.inProcess_holdings = { holdings: count, firstElementMs: +first.toFixed(1), totalMs: Math.round(performance.now() - t1) };

  const server = await createReferenceServer({ ledger, port: 0, host: '127.0.0.1', log: silentLogger });
  const t2 = performance.now();
  const res = await fetch(`${server.url}/v2/state/active-contracts?limit=${HOLDINGS + 100}`, { method: 'POST', body: JSON.stringify(query), headers: { 'content-type': 'application/json' } });
  const reader = res.body!.getReader();
  let bytes = 0;
  let firstByte = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    if (bytes === 0) firstByte = performance.now() - t2;
    bytes += r.value.length;
  }
  out.http_holdings = { status: res.status, firstByteMs: Math.round(firstByte), totalMs: Math.round(performance.now() - t2), mb: Math.round(bytes / 1048576) };
  await server.close();
}

console.log(JSON.stringify(out));
