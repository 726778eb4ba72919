/**
 * Amulet as a token-standard registry: transfers per second through the transfer factory, and a
 * holdings query (the Holding interface with views) over 100,000 holdings.
 *
 * Build and run:
 *   npx tsc -p bench/tsconfig.bench.json && node --expose-gc bench/out/build/bench/token-registry.js [--quick]
 * Prints one JSON object. In-process figures call the registry app and the ledger core directly
 * (what the HTTP face adds is measured separately); HTTP figures use the Koa server in this
 * process with 10 concurrent clients, each doing what wallet-sdk does per transfer: POST the
 * transfer factory, then POST submit-and-wait with the context and its disclosed contracts.
 */
import { appsOf, HOLDING_V1_INTERFACE, TRANSFER_FACTORY_V1_INTERFACE, AMULET_TEMPLATE } from '../reference-server/src/apps/index.js';
import { seedAppWorld, type AppWorld } from '../reference-server/src/apps/world/seedAppWorld.js';
import { silentLogger } from '../reference-server/src/http/api/consoleLogger.js';
import { createLedger, type Ledger } from '../reference-server/src/ledger/index.js';
import { createReferenceServer } from '../reference-server/src/server.js';

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

function transferArgs(w: AppWorld, receiver: string, input: string) {
  const now = Date.now();
  return {
    expectedAdmin: w.parties.dso,
    transfer: {
      sender: w.parties.alice,
      receiver,
      amount: '1.0',
      instrumentId: { admin: w.parties.dso, id: 'Amulet' },
      requestedAt: new Date(now - 60_000).toISOString(),
      executeBefore: new Date(now + 3_600_000).toISOString(),
      inputHoldingCids: [input],
      meta: { values: {} },
    },
    extraArgs: { context: { values: {} }, meta: { values: {} } },
  };
}

type Factory = { factoryId: string; choiceContext: { choiceContextData: unknown; disclosedContracts: unknown[] } };
const exerciseBody = (w: AppWorld, f: Factory, args: ReturnType<typeof transferArgs>, i: number) => ({
  userId: 'participant_admin',
  commandId: `t-${i}-${Math.random().toString(36).slice(2)}`,
  actAs: [w.parties.alice],
  disclosedContracts: f.choiceContext.disclosedContracts,
  commands: [{ ExerciseCommand: { templateId: TRANSFER_FACTORY_V1_INTERFACE, contractId: f.factoryId, choice: 'TransferFactory_Transfer', choiceArgument: { ...args, extraArgs: { context: f.choiceContext.choiceContextData, meta: { values: {} } } } } }],
});

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
      const args = transferArgs(w, receiver, inputs[i] as string);
      const f = registry.transferFactory({ choiceArguments: args, excludeDebugFields: true });
      if (!f.ok) throw new Error(f.error.cause);
      const r = ledger.submitAndWait(exerciseBody(w, f.value as unknown as Factory, args, i) as never);
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

// ---- transfers through the factory, over HTTP (Koa, 10 concurrent wallets)
if (only === undefined || only === 'http') {
  const { ledger, w } = world();
  const inputs = mint(ledger, w.parties.dso, w.parties.alice, TRANSFERS, '2.0');
  const server = await createReferenceServer({ ledger, port: 0, host: '127.0.0.1', log: silentLogger });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const json = (await res.json()) as unknown;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
    return json;
  };
  let next = 0;
  const n = Math.min(TRANSFERS, quick ? 1_000 : 10_000);
  const wallet = async () => {
    for (let i = next++; i < n; i = next++) {
      const args = transferArgs(w, w.parties.bob, inputs[i] as string);
      const f = (await post('/registry/transfer-instruction/v1/transfer-factory', { choiceArguments: args, excludeDebugFields: true })) as Factory;
      await post('/v2/commands/submit-and-wait', exerciseBody(w, f, args, i));
    }
  };
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(Array.from({ length: CLIENTS }, wallet));
  const cpu = process.cpuUsage(cpu0);
  out.http_direct_transfersPerSecond = Math.round((n / (performance.now() - t0)) * 1000);
  // Clients and server share this process: the CPU figure counts both.
  out.http_direct_transfersPerCpuSecond = Math.round(n / ((cpu.user + cpu.system) / 1e6));
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
