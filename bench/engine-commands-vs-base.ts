/**
 * Engine create + archive of the test token's `Token` and built-in `Sample.Asset` create +
 * archive, each through `submitAndWaitForTransaction` without HTTP (as `engine-commands.ts`), with
 * this checkout's build and a base build side by side in one process: four sides in short slices
 * (PER rounds each, SLICES times, the order reversed every other slice), so all four see the same
 * machine load. Reports each side's median CPU microseconds per round (this process's CPU,
 * collector threads included), the median over slices of base / this per side (the speed-up), and
 * engine / built-in per CPU for both builds. The base is another commit compiled with
 * `npx tsc -p bench/tsconfig.bench.json` (its `bench/out/build`), bench/out/base by default.
 *
 *   npx tsc -p bench/tsconfig.bench.json && SLICES=40 PER=150 node bench/out/build/bench/engine-commands-vs-base.js [base build dir]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import type * as LedgerIndex from '../reference-server/src/ledger/index.js';
import type { Side } from './alternateSlices.js';
import { abBuilds, alternateSlices, median } from './alternateSlices.js';

const { darsRoot: root, baseDir, thisDir } = abBuilds(import.meta.url);

const SLICES = Number(process.env.SLICES ?? 40);
const PER = Number(process.env.PER ?? 150);
const TOKEN = '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1:Token';
const dar = readFileSync(join(root, 'splice/splice-test-token-v1-1.0.0.dar'));

let seq = 0;
function submit(ledger: LedgerIndex.Ledger, actAs: string[], command: LedgerIndex.Command): string {
  const r = ledger.submitAndWaitForTransaction({ commands: { userId: 'bench', commandId: `c${++seq}`, actAs, commands: [command] } });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.cause}`);
  const first = r.value.transaction.events[0];
  return first && 'CreatedEvent' in first ? first.CreatedEvent.contractId : '';
}

function party(ledger: LedgerIndex.Ledger, hint: string): string {
  const r = ledger.allocateParty({ partyIdHint: hint });
  if (!r.ok) throw new Error(r.error.cause);
  return r.value.partyDetails.party;
}

/** The engine side and the built-in side of one build. */
async function sidesOf(label: string, dir: string): Promise<Side[]> {
  const { createLedger, ASSET_TEMPLATE } = await import(pathToFileURL(join(dir, 'reference-server/src/ledger/index.js')).href) as typeof LedgerIndex;
  const engineLedger = createLedger();
  const up = engineLedger.uploadDar(dar, { synchronizerId: engineLedger.config.synchronizers[0]!.id });
  if (!up.ok) throw new Error(up.error.cause);
  const [owner, admin] = [party(engineLedger, 'owner'), party(engineLedger, 'admin')];
  const holding = { owner, instrumentId: { admin, id: 'T' }, amount: '10.5', lock: null, meta: { values: {} } };
  const builtInLedger = createLedger();
  const [issuer, holder] = [party(builtInLedger, 'issuer'), party(builtInLedger, 'owner')];
  return [
    { name: `engine ${label}`, round() {
      const id = submit(engineLedger, [owner, admin], { CreateCommand: { templateId: TOKEN, createArguments: { holding } } });
      submit(engineLedger, [owner, admin], { ExerciseCommand: { templateId: TOKEN, contractId: id, choice: 'Archive', choiceArgument: {} } });
    } },
    { name: `built-in ${label}`, round() {
      const id = submit(builtInLedger, [issuer], { CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer, owner: holder, amount: '10.5' } } });
      submit(builtInLedger, [issuer], { ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: id, choice: 'Archive', choiceArgument: {} } });
    } },
  ];
}

const sides = [...await sidesOf('base', baseDir), ...await sidesOf('this', thisDir)];
for (const s of sides) for (let i = 0; i < 300; i++) s.round(); // warm-up
const perSlice = alternateSlices(sides, SLICES, PER);
const slices = (name: string): number[] => perSlice.get(name)!;
/** Median over slices of a / b. */
const sliceRatio = (a: string, b: string): number => +median(slices(a).map((x, i) => x / slices(b)[i]!)).toFixed(3);
console.log(JSON.stringify({
  at: new Date().toISOString(), load: (await import('node:os')).loadavg().map((l) => +l.toFixed(1)), slices: SLICES, roundsPerSlice: PER,
  cpuMicrosPerRound: Object.fromEntries(sides.map((s) => [s.name, +median(slices(s.name)).toFixed(1)])),
  speedUp: { engine: sliceRatio('engine base', 'engine this'), builtIn: sliceRatio('built-in base', 'built-in this') },
  engineOverBuiltInPerCpu: { base: sliceRatio('built-in base', 'engine base'), this: sliceRatio('built-in this', 'engine this') },
}, null, 1));
