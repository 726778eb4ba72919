/**
 * A top-level value is computed once for the scripts of a run, as upstream's engine computes a
 * definition once for its compiled packages (Speedy's `SDefinition` cache): the `trace` of its
 * evaluation shows in the first script that uses it, and every script sees the same value.
 */
import { describe, expect, it } from 'vitest';

import type { Expr } from '../../daml-engine/ast/Expr.js';
import { loadDarScripts, runDarScripts } from '../../daml-engine/script/runDarScripts.js';
import { coreScriptLedgers } from '../../reference-server/src/ledger/engine/CoreScriptLedger.js';
import { builtScriptDar } from './helpers/scriptLibraryPackages.js';

/** Scripts `a` and `b` answering the value `traced`, whose evaluation traces `computing`. */
function darWithTracedValue() {
  const dar = builtScriptDar('3.5', (e) => {
    const traced: Expr = { kind: 'val', ref: { packageId: 'main-self', module: 'Main', name: 'traced' } };
    const trace: Expr = { kind: 'app', fun: { kind: 'builtin', builtin: 'TRACE' }, args: [e.text('computing'), e.text('42')] };
    return {
      traced: { type: e.any, expr: trace },
      a: e.script(e.pure(traced)),
      b: e.script(e.pure(traced)),
    };
  });
  const read = loadDarScripts(dar);
  if (!read.ok) throw new Error(read.message);
  return read.loaded;
}

describe('top-level values in a test --dar run', () => {
  it('are computed once for all its scripts: the trace shows in the first that uses the value, on both ledgers', async () => {
    const loaded = darWithTracedValue();
    const core = coreScriptLedgers(loaded);
    if (!core.ok) throw new Error(core.error);
    for (const ledger of [undefined, core.value]) {
      const results = await runDarScripts(loaded, undefined, ledger === undefined ? {} : { ledger });
      expect(results.map((r) => [r.name, r.ok, r.trace])).toEqual([['Main:a', true, ['computing']], ['Main:b', true, []]]);
      // The value itself is not computed again: fewer steps for the second.
      expect(results[1]!.steps).toBeLessThan(results[0]!.steps);
    }
  });

  it('are computed again by another run, and by a script run alone', async () => {
    const loaded = darWithTracedValue();
    const b = loaded.scripts.filter((s) => s.name === 'b');
    for (let i = 0; i < 2; i++) expect((await runDarScripts(loaded, b))[0]!.trace).toEqual(['computing']);
  });
});
