/**
 * Commands through the ledger core on templates of an uploaded DAR (the Daml-LF engine) next to
 * the built-in TypeScript templates, in the same run and process: creates and exercises per
 * second of submit-and-wait without HTTP. Rounds alternate between the two in short slices
 * (SLICES, default 20) so both see the same machine load; the median ratio of neighbouring
 * slices and the ratio per CPU-second are reported beside the totals. Then token-standard
 * transfers of the test token through the engine (mint, TransferFactory_Transfer on the
 * disclosed factory, TransferInstruction_Accept), and Amulet transfers of the real
 * splice-amulet DAR (AmuletRules_Transfer).
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/engine-commands.js
 *   SEPARATE=6 node bench/out/build/bench/engine-commands.js   (each side in processes of its own)
 *   WARMUP=N   (rounds before a separate side is measured, default 2,000)
 *   ENGINE=asset ...   (the engine side runs the built-in side's own template, Sample.Asset, as a package)
 *   SIDE=builtin|engine CURVE=12 ...   (one side, 12 windows of 1,000 rounds from cold: the rate per window)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Command, Ledger } from '../reference-server/src/ledger/index.js';
import { ASSET_TEMPLATE, createLedger } from '../reference-server/src/ledger/index.js';
import { readDar } from '../reference-server/src/ledger/packages/readDar.js';
import { buildSamplePackage } from '../reference-server/src/ledger/templates/samplePackage.js';
import { amuletTransferRound } from './amuletTransferRound.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const candidates = [join(here, '../../../../../shared/upstream/daml/dars'), join(here, '../../shared/upstream/daml/dars')];
const root = candidates.find((c) => { try { return statSync(c).isDirectory(); } catch { return false; } });
if (!root) throw new Error('no shared/upstream/daml/dars beside the checkout');

const ROUNDS = Number(process.env.ROUNDS ?? 2_000);
const TOKEN = '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1:Token';

function party(ledger: Ledger, hint: string): string {
  const r = ledger.allocateParty({ partyIdHint: hint });
  if (!r.ok) throw new Error(r.error.cause);
  return r.value.partyDetails.party;
}

let seq = 0;
function submit(ledger: Ledger, actAs: string[], command: Command): string {
  const r = ledger.submitAndWaitForTransaction({ commands: { userId: 'bench', commandId: `c${++seq}`, actAs, commands: [command] } });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.cause}`);
  const first = r.value.transaction.events[0];
  return first && 'CreatedEvent' in first ? first.CreatedEvent.contractId : '';
}

interface Side { readonly name: string; round(): void }

function builtIn(): Side {
  const ledger = createLedger();
  const issuer = party(ledger, 'issuer');
  const owner = party(ledger, 'owner');
  return {
    name: 'built-in Sample.Asset (TypeScript)',
    round() {
      const id = submit(ledger, [issuer], { CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer, owner, amount: '10.5' } } });
      submit(ledger, [issuer], { ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: id, choice: 'Archive', choiceArgument: {} } });
    },
  };
}

/**
 * ENGINE=asset: the built-in side's own template, Sample.Asset, as a real package under another
 * name (so the ledger runs it through the engine): the same Daml, the same commands, the engine
 * against the TypeScript model. The default is the test token (the first measure).
 */
function engineAsset(): Side {
  const ledger = createLedger();
  const built = buildSamplePackage({ name: 'engine-samples', account: false });
  const up = ledger.uploadDar(built.dar(), { synchronizerId: ledger.config.synchronizers[0]!.id });
  if (!up.ok) throw new Error(up.error.cause);
  const issuer = party(ledger, 'issuer');
  const owner = party(ledger, 'owner');
  const template = '#engine-samples:Sample.Asset:Asset';
  return {
    name: 'uploaded Sample.Asset (engine: the built-in template as a package)',
    round() {
      const id = submit(ledger, [issuer], { CreateCommand: { templateId: template, createArguments: { issuer, owner, amount: '10.5', observers: null } } });
      submit(ledger, [issuer], { ExerciseCommand: { templateId: template, contractId: id, choice: 'Archive', choiceArgument: {} } });
    },
  };
}

function engine(): Side {
  if (process.env.ENGINE === 'asset') return engineAsset();
  const ledger = createLedger();
  const up = ledger.uploadDar(readFileSync(join(root as string, 'splice/splice-test-token-v1-1.0.0.dar')), { synchronizerId: ledger.config.synchronizers[0]!.id });
  if (!up.ok) throw new Error(up.error.cause);
  const owner = party(ledger, 'owner');
  const admin = party(ledger, 'admin');
  const holding = { owner, instrumentId: { admin, id: 'T' }, amount: '10.5', lock: null, meta: { values: {} } };
  return {
    name: 'uploaded test token Token (engine: ensure, signatories, JSON by type)',
    round() {
      const id = submit(ledger, [owner, admin], { CreateCommand: { templateId: TOKEN, createArguments: { holding } } });
      submit(ledger, [owner, admin], { ExerciseCommand: { templateId: TOKEN, contractId: id, choice: 'Archive', choiceArgument: {} } });
    },
  };
}

/**
 * One side alone in this process (SIDE=builtin|engine): warm-up, then ROUNDS rounds; prints its
 * commands per CPU-second. With both sides in one process, each evicts the other's working set
 * from the caches between slices, which costs the engine (the larger working set) most: a server
 * running one workload is measured by its own process.
 */
function alone(side: Side): { side: string; commandsPerCpuSecond: number } {
  // Warm until V8 has compiled the hot paths: its compiler threads' CPU counts in `cpuUsage`, and
  // after 200 rounds it was still a third of the next 4,000 rounds' CPU on both sides.
  for (let i = 0; i < Number(process.env.WARMUP ?? 2_000); i++) side.round();
  const c0 = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) side.round();
  const c = process.cpuUsage(c0);
  return { side: side.name, commandsPerCpuSecond: Math.round((2 * ROUNDS) / ((c.user + c.system) / 1e6)) };
}

/** SEPARATE=N: N pairs of processes, one side each, alternating which goes first; the ratio per pair and its median. */
function separate(pairs: number): void {
  const run = (side: string) => JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url)], {
    env: { ...process.env, SIDE: side, SEPARATE: '' }, encoding: 'utf8',
  })) as { commandsPerCpuSecond: number };
  const rows: { builtIn: number; engine: number; ratio: number }[] = [];
  for (let i = 0; i < pairs; i++) {
    const order = i % 2 === 0 ? ['builtin', 'engine'] : ['engine', 'builtin'];
    const got = new Map(order.map((side) => [side, run(side).commandsPerCpuSecond]));
    const builtInRate = got.get('builtin')!;
    const engineRate = got.get('engine')!;
    rows.push({ builtIn: builtInRate, engine: engineRate, ratio: +(engineRate / builtInRate).toFixed(2) });
  }
  const ratios = rows.map((r) => r.ratio).sort((x, y) => x - y);
  const mid = ratios.length % 2 ? ratios[(ratios.length - 1) / 2]! : (ratios[ratios.length / 2 - 1]! + ratios[ratios.length / 2]!) / 2;
  console.log(JSON.stringify({ at: new Date().toISOString(), rounds: ROUNDS, pairs: rows, medianEngineOverBuiltInPerCpuSecond: +mid.toFixed(2) }, null, 1));
}

if (process.env.SEPARATE) {
  separate(Number(process.env.SEPARATE));
  process.exit(0);
}
/**
 * CURVE=N (with SIDE): N windows of 1,000 rounds in one fresh process, each window's commands a
 * CPU-second: how the rate climbs from cold (V8 compiling the code) to warm, which a single figure
 * after a fixed warm-up mixes.
 */
function curve(side: Side, windows: number): { side: string; thousandsOfCommandsPerCpuSecond: number[] } {
  const rates: number[] = [];
  for (let w = 0; w < windows; w++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < 1_000; i++) side.round();
    const c = process.cpuUsage(c0);
    rates.push(Math.round(2_000 / ((c.user + c.system) / 1e6) / 1_000));
  }
  return { side: side.name, thousandsOfCommandsPerCpuSecond: rates };
}

if (process.env.SIDE === 'builtin' || process.env.SIDE === 'engine') {
  const side = process.env.SIDE === 'builtin' ? builtIn() : engine();
  console.log(JSON.stringify(process.env.CURVE ? curve(side, Number(process.env.CURVE)) : alone(side)));
  process.exit(0);
}

const sides = [builtIn(), engine()];
for (const s of sides) for (let i = 0; i < 200; i++) s.round(); // warm-up
// Many short slices, alternating which side goes first: on a shared machine the load changes
// within seconds, so each pair of neighbouring slices gives one ratio and the median of those is
// reported beside the totals. CPU time (this process, collector threads included) is kept too: it
// does not count the time other tenants held the cores.
const SLICES = Number(process.env.SLICES ?? 20);
const wall = new Map<string, number>(sides.map((s) => [s.name, 0]));
const cpu = new Map<string, number>(sides.map((s) => [s.name, 0]));
const pairRatios: number[] = [];
const cpuPairRatios: number[] = [];
for (let slice = 0; slice < SLICES; slice++) {
  const took = new Map<string, { wall: number; cpu: number }>();
  for (const s of slice % 2 === 0 ? sides : [...sides].reverse()) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < ROUNDS / SLICES; i++) s.round();
    const w = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const cpuMs = (c.user + c.system) / 1000;
    took.set(s.name, { wall: w, cpu: cpuMs });
    wall.set(s.name, (wall.get(s.name) ?? 0) + w);
    cpu.set(s.name, (cpu.get(s.name) ?? 0) + cpuMs);
  }
  const [b, e] = sides.map((s) => took.get(s.name)!) as [{ wall: number; cpu: number }, { wall: number; cpu: number }];
  pairRatios.push(b.wall / e.wall);
  cpuPairRatios.push(b.cpu / e.cpu);
}
const median = (xs: number[]): number => { const s = [...xs].sort((x, y) => x - y); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };
const out = sides.map((s) => {
  const ms = wall.get(s.name) as number;
  const cpuMs = cpu.get(s.name) as number;
  return { side: s.name, rounds: ROUNDS, ms: Math.round(ms), commandsPerSecond: Math.round(((2 * ROUNDS) / ms) * 1000), commandsPerCpuSecond: Math.round(((2 * ROUNDS) / cpuMs) * 1000) };
});
const [base, eng] = out as [typeof out[0], typeof out[0]];

/** Token-standard transfers through the engine: mint a holding, TransferFactory_Transfer on the disclosed factory, the receiver's accept. */
function transfers(n: number): { transfers: number; ms: number; perSecond: number } {
  const ledger = createLedger();
  const sync = ledger.config.synchronizers[0]!.id;
  const up = ledger.uploadDar(readFileSync(join(root as string, 'splice/splice-test-token-v1-1.0.0.dar')), { synchronizerId: sync });
  if (!up.ok) throw new Error(up.error.cause);
  const [alice, bob, admin] = [party(ledger, 'alice'), party(ledger, 'bob'), party(ledger, 'admin')];
  const rulesId = submit(ledger, [admin], { CreateCommand: { templateId: '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1:TokenRules', createArguments: { admin } } });
  const factory = `${transferApi(ledger)}:Splice.Api.Token.TransferInstructionV1`;
  const rulesTemplate = ledger.contract(rulesId)!.templateId;
  const disclosed = [{ contractId: rulesId, templateId: rulesTemplate, createdEventBlob: ledger.createdEventBlob(rulesId)!, synchronizerId: sync }];
  const noContext = { context: { values: {} }, meta: { values: {} } };
  const round = () => {
    const input = submit(ledger, [alice, admin], { CreateCommand: { templateId: TOKEN, createArguments: { holding: { owner: alice, instrumentId: { admin, id: 'T' }, amount: '10.0', lock: null, meta: { values: {} } } } } });
    const transfer = { sender: alice, receiver: bob, amount: '4.0', instrumentId: { admin, id: 'T' }, requestedAt: '2000-01-01T00:00:00Z', executeBefore: '9000-01-01T00:00:00Z', inputHoldingCids: [input], meta: { values: {} } };
    const r = ledger.submitAndWaitForTransaction({ commands: { userId: 'bench', commandId: `t${++seq}`, actAs: [alice], disclosedContracts: disclosed, commands: [{ ExerciseCommand: { templateId: `${factory}:TransferFactory`, contractId: rulesId, choice: 'TransferFactory_Transfer', choiceArgument: { expectedAdmin: admin, transfer, extraArgs: noContext } } }] } });
    if (!r.ok) throw new Error(r.error.cause);
    const offer = r.value.transaction.events.flatMap((e) => ('CreatedEvent' in e && e.CreatedEvent.templateId.endsWith(':TokenTransferOffer') ? [e.CreatedEvent.contractId] : []))[0]!;
    submit(ledger, [bob], { ExerciseCommand: { templateId: `${factory}:TransferInstruction`, contractId: offer, choice: 'TransferInstruction_Accept', choiceArgument: { extraArgs: noContext } } });
  };
  for (let i = 0; i < 50; i++) round();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) round();
  const ms = performance.now() - t0;
  return { transfers: n, ms: Math.round(ms), perSecond: Math.round((n / ms) * 1000) };
}

/**
 * Amulet transfers of the real splice-amulet 0.1.8 (carried by splice-amulet-test 0.1.8), set
 * up as Splice's own tests do (Splice.Scripts.Util.genericSetupApp): AmuletRules with
 * defaultAmuletConfigSchedule (the test DAR's value, evaluated by the engine), the bootstrap
 * rounds, a DevNet tap; then each round one AmuletRules_Transfer of the sender's amulets to a
 * receiver through the JSON API command path (fees, holding fees and rewards computed by the DAR).
 */
function amuletTransfers(n: number): { transfers: number; ms: number; perSecond: number } {
  const round = amuletTransferRound(createLedger, readDar, readFileSync(join(root as string, 'history/splice-amulet-test-0.1.8.dar')));
  for (let i = 0; i < 20; i++) round();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) round();
  const ms = performance.now() - t0;
  return { transfers: n, ms: Math.round(ms), perSecond: Math.round((n / ms) * 1000) };
}

/** The id of the token-standard transfer-instruction API package the test token's DAR carries. */
function transferApi(ledger: Ledger): string {
  for (const id of ledger.listPackages().packageIds) {
    const p = ledger.engine.packages.get(id);
    if (p?.metadata?.name === 'splice-api-token-transfer-instruction-v1') return id;
  }
  throw new Error('no splice-api-token-transfer-instruction-v1 package');
}
const tokenTransfers = transfers(Math.max(100, Math.round(ROUNDS / 4)));
const amulet = amuletTransfers(Math.max(50, Math.round(ROUNDS / 20)));
console.log(JSON.stringify({ at: new Date().toISOString(), load: (await import('node:os')).loadavg().map((l) => +l.toFixed(1)), results: out, engineOverBuiltIn: +(eng.commandsPerSecond / base.commandsPerSecond).toFixed(2),
  engineOverBuiltInPerCpuSecond: +(eng.commandsPerCpuSecond / base.commandsPerCpuSecond).toFixed(2),
  medianSliceRatio: +median(pairRatios).toFixed(2), medianSliceRatioCpu: +median(cpuPairRatios).toFixed(2), slices: SLICES, tokenTransfers, amuletTransfers: amulet }, null, 1));
