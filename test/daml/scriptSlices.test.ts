/**
 * Daml Script's own code evaluated in slices (`ScriptRunOptions.slicing`, `runDarScripts`'s
 * `slicing`): the same result as at once, and other work runs while the script evaluates. Proven
 * by events: a macrotask queued when the run starts is served before it ends.
 */
import { describe, expect, it } from 'vitest';

import type { Slicing } from '../../daml-engine/eval/Evaluator.js';
import { InMemoryScriptLedger } from '../../daml-engine/script/InMemoryScriptLedger.js';
import type { LoadedDar } from '../../daml-engine/script/runDarScripts.js';
import { ScriptRunner } from '../../daml-engine/script/ScriptRunner.js';
import { ScriptExprs, loadedDar, mainPackage, scriptPackage } from './helpers/scriptLibraryPackages.js';

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
    const runner = new ScriptRunner((id) => loaded.packages.get(id), () => loaded.packages.all());
    const ledger = () => new InMemoryScriptLedger({ getPackage: (id) => loaded.packages.get(id) });
    const atOnce = await runner.run(ref, ledger());
    expect(atOnce.ok).toBe(true);

    const events: string[] = [];
    const slicing = counting(5);
    const run = runner.run(ref, ledger(), { slicing }).then((r) => {
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
});
