/**
 * Real Amulet transfers (`AmuletRules_Transfer` of splice-amulet 0.1.8, set up as
 * `engine-commands.ts` sets them up: AmuletRules with the test DAR's default config schedule, the
 * bootstrap rounds, a DevNet tap) through `submitAndWaitForTransaction` without HTTP, with this
 * checkout's build and a base build side by side in one process: two sides in short slices (PER
 * transfers each, SLICES times, the order reversed every other slice), so both see the same
 * machine load. Reports each side's median CPU microseconds per transfer (this process's CPU,
 * collector threads included) and the median over slices of base / this. The base is another
 * commit compiled with `npx tsc -p bench/tsconfig.bench.json` (its `bench/out/build`),
 * bench/out/base by default. The engine's part of issue 34's transfers over HTTP, alone.
 *
 *   npx tsc -p bench/tsconfig.bench.json && SLICES=20 PER=40 node bench/out/build/bench/engine-amulet-vs-base.js [base build dir]
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type * as LedgerIndex from '../reference-server/src/ledger/index.js';
import type * as ReadDar from '../reference-server/src/ledger/packages/readDar.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const candidates = [join(here, '../../../../../shared/upstream/daml/dars'), join(here, '../../shared/upstream/daml/dars')];
const root = candidates.find((c) => { try { return statSync(c).isDirectory(); } catch { return false; } });
if (!root) throw new Error('no shared/upstream/daml/dars beside the checkout');
const baseDir = process.argv[2] ?? join(here, '../../base');
if (!statSync(join(baseDir, 'reference-server/src/ledger/index.js'), { throwIfNoEntry: false })?.isFile()) throw new Error(`no base build in ${baseDir} (see bench/RESULTS.md)`);
const thisDir = join(here, '..');

const SLICES = Number(process.env.SLICES ?? 20);
const PER = Number(process.env.PER ?? 40);
const dar = readFileSync(join(root, 'history/splice-amulet-test-0.1.8.dar'));

interface Side { readonly name: string; round(): void }
type Tx = LedgerIndex.JsTransaction;

async function sideOf(label: string, dir: string): Promise<Side> {
  const { createLedger } = await import(pathToFileURL(join(dir, 'reference-server/src/ledger/index.js')).href) as typeof LedgerIndex;
  const { readDar } = await import(pathToFileURL(join(dir, 'reference-server/src/ledger/packages/readDar.js')).href) as typeof ReadDar;
  const ledger = createLedger();
  const up = ledger.uploadDar(dar, { synchronizerId: ledger.config.synchronizers[0]!.id });
  if (!up.ok) throw new Error(up.error.cause);
  const parsed = readDar(dar);
  if (!parsed.ok) throw new Error(parsed.error.reason);
  const pkg = (name: string) => parsed.value.packages.find((p) => p.packageName === name)!.packageId;
  const [amuletPkg, testPkg] = [pkg('splice-amulet'), pkg('splice-amulet-test')];
  const party = (hint: string) => { const r = ledger.allocateParty({ partyIdHint: hint }); if (!r.ok) throw new Error(r.error.cause); return r.value.partyDetails.party; };
  const [dso, alice, bob] = [party('dso'), party('alice'), party('bob')];
  const rulesName = { packageId: amuletPkg, module: 'Splice.AmuletRules', name: 'AmuletRules' };
  const created = ledger.submitEngineCommands({
    actAs: [dso],
    commands: [{
      kind: 'create', template: rulesName,
      expr: { kind: 'recCon', tycon: { tycon: rulesName, args: [] }, fields: [
        { field: 'dso', expr: { kind: 'lit', value: { kind: 'party', value: dso } } },
        { field: 'configSchedule', expr: { kind: 'val', ref: { packageId: testPkg, module: 'Splice.Scripts.Parameters', name: 'defaultAmuletConfigSchedule' } } },
        { field: 'isDevNet', expr: { kind: 'lit', value: { kind: 'bool', value: true } } },
      ] },
    }],
  });
  if (!created.ok) throw new Error(`AmuletRules: ${created.error.cause}`);
  const rules = created.value.transaction.created[0]!.contractId;
  const RULES = `${amuletPkg}:Splice.AmuletRules:AmuletRules`;
  let seq = 0;
  const exercise = (actAs: string[], choice: string, choiceArgument: LedgerIndex.DamlValue): Tx => {
    const r = ledger.submitAndWaitForTransaction({ commands: { userId: 'bench', commandId: `a${++seq}`, actAs, readAs: [dso], commands: [{ ExerciseCommand: { templateId: RULES, contractId: rules, choice, choiceArgument } }] } });
    if (!r.ok) throw new Error(`${choice}: ${r.error.code}: ${r.error.cause}`);
    return r.value.transaction;
  };
  const boot = exercise([dso], 'AmuletRules_Bootstrap_Rounds', { amuletPrice: '1.0', round0Duration: { microseconds: '86400000000' } });
  const round0 = boot.events.flatMap((e) => ('CreatedEvent' in e && e.CreatedEvent.templateId.endsWith(':OpenMiningRound') ? [e.CreatedEvent] : []))
    .find((c) => (c.createArgument as { round: { number: string } }).round.number === '0')!.contractId;
  const amuletOf = (tx: Tx, owner: string) => tx.events.flatMap((e) => ('CreatedEvent' in e && e.CreatedEvent.templateId.endsWith(':Splice.Amulet:Amulet') && (e.CreatedEvent.createArgument as { owner: string }).owner === owner ? [e.CreatedEvent.contractId] : []));
  let amulets = amuletOf(exercise([alice], 'AmuletRules_DevNet_Tap', { receiver: alice, amount: '1000000.0', openRound: round0 }), alice);
  const context = { openMiningRound: round0, issuingMiningRounds: [], validatorRights: [], featuredAppRight: null };
  return {
    name: label,
    round() {
      const transfer = { sender: alice, provider: alice, inputs: amulets.map((cid) => ({ tag: 'InputAmulet', value: cid })), outputs: [{ receiver: bob, receiverFeeRatio: '0.0', amount: '10.0', lock: null }] };
      amulets = amuletOf(exercise([alice, bob], 'AmuletRules_Transfer', { transfer, context }), alice);
      if (amulets.length !== 1) throw new Error(`expected one change amulet, got ${amulets.length}`);
    },
  };
}

const sides = [await sideOf('base', baseDir), await sideOf('this', thisDir)];
for (const s of sides) for (let i = 0; i < 40; i++) s.round(); // warm-up
const perSlice = new Map<string, number[]>(sides.map((s) => [s.name, []]));
for (let slice = 0; slice < SLICES; slice++) {
  for (const s of slice % 2 === 0 ? sides : [...sides].reverse()) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < PER; i++) s.round();
    const c = process.cpuUsage(c0);
    perSlice.get(s.name)!.push((c.user + c.system) / PER);
  }
}
const median = (xs: readonly number[]): number => { const s = [...xs].sort((x, y) => x - y); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };
const slices = (name: string): number[] => perSlice.get(name)!;
console.log(JSON.stringify({
  at: new Date().toISOString(), load: (await import('node:os')).loadavg().map((l) => +l.toFixed(1)), slices: SLICES, transfersPerSlice: PER,
  cpuMicrosPerTransfer: Object.fromEntries(sides.map((s) => [s.name, +median(slices(s.name)).toFixed(0)])),
  speedUp: +median(slices('base').map((x, i) => x / slices('this')[i]!)).toFixed(3),
}, null, 1));
