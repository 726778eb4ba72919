/**
 * Every daml-script 3.x release line: scripts built in each line's record shapes (hand-built
 * packages, `helpers/scriptLibraryPackages.ts`) get the answers that line's runner gives, and a
 * release the runner does not know fails, naming the daml-script package and version.
 */
import { describe, expect, it } from 'vitest';

import type { Package } from '../../daml-engine/ast/Package.js';
import type { LoadedDar } from '../../daml-engine/script/runDarScripts.js';
import { runDarScripts, unknownScriptLibrary } from '../../daml-engine/script/runDarScripts.js';
import { scriptLibraryOf } from '../../daml-engine/script/scriptLibrary.js';
import { InMemoryScriptLedger } from '../../daml-engine/script/InMemoryScriptLedger.js';
import { ScriptRunner } from '../../daml-engine/script/ScriptRunner.js';
import { field, list } from '../../daml-engine/script/ScriptValues.js';
import type { Value } from '../../daml-engine/value/Value.js';
import type { ScriptShape } from './helpers/scriptLibraryPackages.js';
import { ScriptExprs, loadedDar, mainPackage, scriptPackage } from './helpers/scriptLibraryPackages.js';

const SCRIPT_ID = 'daml-script-by-hand';

/** Two allocations of `alice` (no hint) and the known parties, in the shape of `shape`. */
function partiesDar(shape: ScriptShape, script: Package = scriptPackage(shape, SCRIPT_ID)): LoadedDar {
  const e = new ScriptExprs(SCRIPT_ID);
  const allocate = shape === '3.2'
    ? e.question('PartyManagement', 'AllocateParty', { displayName: e.text('alice'), idHint: e.text(''), participant: e.none })
    : e.question('PartyManagement', 'AllocateParty', { requestedName: e.text('alice'), idHint: e.text(''), participants: e.nil });
  const version = shape === '3.2' ? 1n : 2n;
  const body = e.ask('AllocateParty', version, allocate, 'a',
    e.ask('AllocateParty', version, allocate, 'b',
      e.ask('ListKnownParties', 1n, e.question('PartyManagement', 'ListKnownParties', { participant: e.none }), 'ps',
        e.pure(e.tuple(e.tuple(e.v('a'), e.v('b')), e.v('ps'))))));
  const submitNothing = e.ask('Submit', shape === '3.5' ? 2n : 1n, e.question('Submit', 'Submit', { submissions: e.nil }), 'r', e.pure(e.v('r')));
  return loadedDar(mainPackage('main-by-hand', 'Main', { parties: e.script(body), submitNothing: e.script(submitNothing) }), script);
}

/** The result of the script `name`, run on the in-memory ledger. */
async function run(loaded: LoadedDar, name: string): Promise<Value> {
  const runner = new ScriptRunner((id) => loaded.packages.get(id), () => loaded.packages.all());
  const outcome = await runner.run(loaded.scripts.find((s) => s.name === name)!, new InMemoryScriptLedger({ getPackage: (id) => loaded.packages.get(id) }));
  if (!outcome.ok) throw new Error(`${outcome.failure.kind}: ${outcome.failure.message}`);
  return outcome.value;
}

const partyText = (v: Value) => (v.kind === 'party' ? v.value : `not a party: ${v.kind}`);

describe('daml-script 3.x release lines', () => {
  it('3.2 (daml3-script): AllocateParty carries displayName; the IDE ledger names the party after it (alice, alice1); PartyDetails has displayName', async () => {
    const result = await run(partiesDar('3.2'), 'parties');
    const pair = field(result, '_1');
    expect([partyText(field(pair, '_1')), partyText(field(pair, '_2'))]).toEqual(['alice', 'alice1']);
    const details = list(field(result, '_2'));
    expect(details).toHaveLength(2);
    expect((details[0] as { fieldNames: readonly string[] }).fieldNames).toEqual(['party', 'displayName', 'isLocal']);
    expect(field(details[0]!, 'displayName')).toEqual({ kind: 'optional', value: { kind: 'text', value: 'alice' } });
  });

  for (const shape of ['3.3', '3.4', '3.5'] as const) {
    it(`${shape}: AllocateParty version 2 carries requestedName, which becomes name-<8 hex>; PartyDetails is { party, isLocal }`, async () => {
      const result = await run(partiesDar(shape), 'parties');
      const pair = field(result, '_1');
      const [a, b] = [partyText(field(pair, '_1')), partyText(field(pair, '_2'))];
      expect(a).toMatch(/^alice-[0-9a-f]{8}$/);
      expect(b).toMatch(/^alice-[0-9a-f]{8}$/);
      expect(b).not.toBe(a);
      const details = list(field(result, '_2'));
      expect((details[0] as { fieldNames: readonly string[] }).fieldNames).toEqual(['party', 'isLocal']);
    });
  }

  it('3.5: Submit is version 2 (the same payload); 3.3 and 3.4 ask version 1', async () => {
    for (const shape of ['3.3', '3.4', '3.5'] as const) expect(await run(partiesDar(shape), 'submitNothing')).toEqual({ kind: 'nil' });
  });

  it('the release is read from the daml-script package name and version, or from its records when it has none', async () => {
    const of = (p: Package) => scriptLibraryOf(p, p.id);
    expect(of(scriptPackage('3.2', 'x'))).toMatchObject({ ok: true, library: { name: 'daml3-script', minor: 2 } });
    expect(of(scriptPackage('3.3', 'x'))).toMatchObject({ ok: true, library: { name: 'daml-script', version: '3.3.0.20250214.13611.0', minor: 3 } });
    expect(of(scriptPackage('3.2', 'x', undefined))).toMatchObject({ ok: true, library: { minor: 2 } });
    expect(of(scriptPackage('3.3', 'x', undefined))).toMatchObject({ ok: true, library: { minor: 3 } });
    // 3.2 is daml3-script: a daml-script named 3.2 is no release.
    expect(of(scriptPackage('3.2', 'x', { name: 'daml-script', version: '3.2.0' })).ok).toBe(false);
  });

  it('a release the runner does not know fails the script, naming the daml-script package and version', async () => {
    for (const metadata of [{ name: 'daml-script', version: '3.6.0-snapshot.20260820.0' }, { name: 'daml-script', version: '2.10.0' }, { name: 'daml3-script', version: '3.1.0' }]) {
      const loaded = partiesDar('3.3', scriptPackage('3.3', SCRIPT_ID, metadata));
      const message = `the script was built with ${metadata.name} ${metadata.version}, a daml-script this runner does not know (it knows daml3-script 3.2, daml-script 3.3, daml-script 3.4, daml-script 3.5)`;
      expect(unknownScriptLibrary(loaded, loaded.scripts)).toBe(message);
      const [r] = await runDarScripts(loaded, loaded.scripts.filter((s) => s.name === 'parties'));
      expect(r!.failure).toEqual({ kind: 'unknownScriptLibrary', message: `Main:parties (package main-by-hand): ${message}` });
    }
    const known = partiesDar('3.3');
    expect(unknownScriptLibrary(known, known.scripts)).toBeUndefined();
  });

  it('a hint beside a different name: 3.2 allocates the hint (the name is only displayed), 3.3 refuses as its runner does', async () => {
    const e = new ScriptExprs(SCRIPT_ID);
    const old = e.question('PartyManagement', 'AllocateParty', { displayName: e.text('Bob'), idHint: e.text('bob'), participant: e.none });
    const v32 = loadedDar(mainPackage('m', 'Main', { s: e.script(e.ask('AllocateParty', 1n, old, 'a', e.pure(e.v('a')))) }), scriptPackage('3.2', SCRIPT_ID));
    expect(partyText(await run(v32, 's'))).toBe('bob');
    const now = e.question('PartyManagement', 'AllocateParty', { requestedName: e.text('Bob'), idHint: e.text('bob'), participants: e.nil });
    const v33 = loadedDar(mainPackage('m', 'Main', { s: e.script(e.ask('AllocateParty', 2n, now, 'a', e.pure(e.v('a')))) }), scriptPackage('3.3', SCRIPT_ID));
    await expect(run(v33, 's')).rejects.toThrow("userError: Requested name 'Bob' cannot be different from id hint 'bob'");
  });
});
