/**
 * Daml Script's own code evaluated in slices (`ScriptRunOptions.slicing`, `runDarScripts`'s
 * `slicing`): the same result as at once, and other work runs while the script evaluates. Proven
 * by events: a macrotask queued when the run starts is served before it ends. The ledger core's
 * submissions follow: in slices when the run is, at once when it is not.
 */
import { describe, expect, it, vi } from 'vitest';

import type { Slicing } from '../../daml-engine/eval/Evaluator.js';
import { InMemoryScriptLedger } from '../../daml-engine/script/InMemoryScriptLedger.js';
import type { LoadedDar, ScriptLedgerFactory, ScriptLedgerSetup } from '../../daml-engine/script/runDarScripts.js';
import { loadDarScripts, runDarScripts } from '../../daml-engine/script/runDarScripts.js';
import { ScriptRunner } from '../../daml-engine/script/ScriptRunner.js';
import type { CoreScriptLedger } from '../../reference-server/src/ledger/engine/CoreScriptLedger.js';
import { coreScriptLedgers } from '../../reference-server/src/ledger/engine/CoreScriptLedger.js';
import { builtScriptDar, ScriptExprs, loadedDar, mainPackage, scriptPackage } from './helpers/scriptLibraryPackages.js';

const SCRIPT_ID = 'daml-script-sliced';

/** Allocates two parties and lists the known ones (daml-script 3.5 shapes). */
function partiesDar(): LoadedDar {
  const e = new ScriptExprs(SCRIPT_ID);
  const allocate = e.question('PartyManagement', 'AllocateParty', { requestedName: e.text('alice'), idHint: e.text(''), participants: e.nil });
  const body = e.ask('AllocateParty', 2n, allocate, 'a',
    e.ask('AllocateParty', 2n, allocate, 'b',
      e.ask('ListKnownParties', 1n, e.question('PartyManagement', 'ListKnownParties', { participant: e.none }), 'ps',
        e.pure(e.tuple(e.tuple(e.v('a'), e.v('b')), e.v('ps'))))));
  return loadedDar(mainPackage('main-sliced', 'Main', { parties: e.script(body) }), scriptPackage('3.5', SCRIPT_ID));
}

function counting(steps: number): Slicing & { pauses: number } {
  const s = { steps, pauses: 0, pause: () => new Promise<void>((resolve) => { s.pauses++; setImmediate(resolve); }) };
  return s;
}

describe('Daml Script in slices', () => {
  it('gives the result of a run at once, and yields to other work while it evaluates', async () => {
    const loaded = partiesDar();
    const ref = loaded.scripts.find((s) => s.name === 'parties')!;
    // A runner each: a runner shares the top-level values its scripts computed, so a second run takes fewer steps.
    const runner = () => new ScriptRunner((id) => loaded.packages.get(id), () => loaded.packages.all());
    const ledger = () => new InMemoryScriptLedger({ getPackage: (id) => loaded.packages.get(id) });
    const atOnce = await runner().run(ref, ledger());
    expect(atOnce.ok).toBe(true);

    const events: string[] = [];
    const slicing = counting(5);
    const run = runner().run(ref, ledger(), { slicing }).then((r) => {
      events.push('script done');
      return r;
    });
    setImmediate(() => events.push('other request served'));
    const sliced = await run;
    expect(sliced.ok && sliced.value).toEqual(atOnce.ok && atOnce.value);
    expect(sliced.steps).toBe(atOnce.steps);
    expect(events).toEqual(['other request served', 'script done']);
    expect(slicing.pauses).toBeGreaterThan(0);
  });

  it('on the ledger core, submits in slices when the run is sliced and at once when it is not, with the same outcome', async () => {
    const dar = builtScriptDar('3.5', (e) => ({ done: e.script(e.pure(e.tuple(e.text('done'), e.text('')))) }));
    const read = loadDarScripts(dar);
    if (!read.ok) throw new Error(read.message);
    const core = coreScriptLedgers(read.loaded);
    if (!core.ok) throw new Error(core.error);
    // What the runner asks of the factory: sliced exactly when the run is.
    const asked: (boolean | undefined)[] = [];
    const recording: ScriptLedgerFactory = (setup) => { asked.push(setup.sliced); return core.value(setup); };
    await runDarScripts(read.loaded, undefined, { ledger: recording });
    await runDarScripts(read.loaded, undefined, { ledger: recording, slicing: counting(5) });
    expect(asked).toEqual([false, true]);

    const outcomes: unknown[] = [];
    for (const sliced of [false, true]) {
      const setup: ScriptLedgerSetup = { loaded: read.loaded, onTrace: () => {}, stepBudget: undefined, builtinOverrides: undefined, sliced };
      const ledger = await core.value(setup) as CoreScriptLedger;
      const inSlices = vi.spyOn(ledger.ledger, 'submitEngineCommandsInSlices');
      const atOnce = vi.spyOn(ledger.ledger, 'submitEngineCommands');
      const party = await ledger.allocateParty('alice');
      if (!party.ok) throw new Error(party.message);
      const r = await ledger.submit({ actAs: [party.party], readAs: [], disclosures: [], commands: [] });
      expect(inSlices).toHaveBeenCalledTimes(sliced ? 1 : 0);
      // In slices, the ledger runs the operation twice (its first pass captures the engine run).
      expect(atOnce).toHaveBeenCalledTimes(sliced ? 2 : 1);
      outcomes.push(r.ok ? { ok: true, results: r.results } : { ok: false, error: r.error });
    }
    expect(outcomes[1]).toEqual(outcomes[0]);
  });
});
