/**
 * The in-memory ScriptLedger over the update engine, through its interface: visibility by
 * stakeholders and readAs (Canton answers CONTRACT_NOT_FOUND for a contract the readers cannot
 * see), explicit disclosure, static time and contracts not yet effective, the transaction tree.
 */
import { describe, expect, it } from 'vitest';

import type { QualifiedName } from '../../daml-engine/ast/Type.js';
import { InMemoryScriptLedger } from '../../daml-engine/script/InMemoryScriptLedger.js';
import type { ScriptSubmission, ScriptSubmitResult } from '../../daml-engine/script/ScriptLedger.js';
import type { RecordValue } from '../../daml-engine/value/Value.js';
import { HAS_DARS, loadDar } from './damlFixtures.js';

describe.runIf(HAS_DARS)('InMemoryScriptLedger with Splice Amulet templates (needs ../shared/upstream/daml/dars)', () => {
  const { packages } = HAS_DARS ? loadDar('history/splice-amulet-test-0.1.8.dar') : { packages: undefined! };
  const getPackage = (id: string) => packages.get(id);
  const amulet = HAS_DARS ? [...packages.all()].find((p) => p.metadata?.name === 'splice-amulet')!.id : '';
  const FEATURED: QualifiedName = { packageId: amulet, module: 'Splice.Amulet', name: 'FeaturedAppRight' };
  const ARCHIVE: QualifiedName = { packageId: '', module: 'DA.Internal.Template', name: 'Archive' };
  const right = (dso: string, provider: string): RecordValue => ({
    kind: 'record', tycon: FEATURED, fieldNames: ['dso', 'provider'], fields: [{ kind: 'party', value: dso }, { kind: 'party', value: provider }],
  });
  const archiveArg = (): RecordValue => {
    const tpl = [...packages.all()].find((p) => p.modules.get('DA.Internal.Template')?.dataTypes.has('Archive'))!;
    return { kind: 'record', tycon: { ...ARCHIVE, packageId: tpl.id }, fieldNames: [], fields: [] };
  };
  const submit = (ledger: InMemoryScriptLedger, s: Partial<ScriptSubmission> & Pick<ScriptSubmission, 'actAs' | 'commands'>): Promise<ScriptSubmitResult> =>
    ledger.submit({ readAs: [], disclosures: [], ...s });
  const create = async (ledger: InMemoryScriptLedger): Promise<string> => {
    const r = await await submit(ledger, { actAs: ['dso'], commands: [{ kind: 'create', templateId: FEATURED, argument: right('dso', 'app') }] });
    if (!r.ok || r.results[0]?.kind !== 'create') throw new Error('create failed');
    return r.results[0].contractId;
  };
  const archive = (ledger: InMemoryScriptLedger, cid: string, actAs: string[], readAs: string[] = [], disclosures: ScriptSubmission['disclosures'] = []) =>
    submit(ledger, { actAs, readAs, disclosures, commands: [{ kind: 'exercise', templateId: FEATURED, contractId: cid, choice: 'Archive', argument: archiveArg() }] });

  it('a create is committed: its id, a tree with the created event, visible to its stakeholders only', async () => {
    const ledger = new InMemoryScriptLedger({ getPackage });
    const r = await submit(ledger, { actAs: ['dso'], commands: [{ kind: 'create', templateId: FEATURED, argument: right('dso', 'app') }] });
    expect(r).toMatchObject({ ok: true, results: [{ kind: 'create' }], tree: [{ kind: 'created', templateId: FEATURED }] });
    const cid = r.ok && r.results[0]?.kind === 'create' ? r.results[0].contractId : '';
    expect(cid).toMatch(/^00[0-9a-f]{64}$/);
    expect((await ledger.query(['app'], FEATURED)).map((c) => c.contractId)).toEqual([cid]);
    expect(await ledger.query(['stranger'], FEATURED)).toEqual([]);
    expect(await ledger.queryContractId(['stranger'], cid)).toBeUndefined();
  });

  it('an exercise by a party that cannot see the contract is ContractNotFound, even with the right to act', async () => {
    const ledger = new InMemoryScriptLedger({ getPackage });
    const cid = await create(ledger);
    expect(await archive(ledger, cid, ['stranger'])).toMatchObject({ ok: false, error: { kind: 'ledger', failure: { kind: 'contractNotFound', contractId: cid } } });
    // Archive is controlled by the signatory (dso); the stakeholder app sees it but cannot archive it.
    expect(await archive(ledger, cid, ['app'])).toMatchObject({ ok: false, error: { kind: 'ledger', failure: { kind: 'exerciseMissingAuthorization' } } });
    expect(await archive(ledger, cid, ['dso'])).toMatchObject({ ok: true, results: [{ kind: 'exercise' }], tree: [{ kind: 'exercised', choice: 'Archive', children: [] }] });
    expect(await ledger.query(['dso'], FEATURED)).toEqual([]);
    expect(await archive(ledger, cid, ['dso'])).toMatchObject({ ok: false, error: { kind: 'ledger', failure: { kind: 'contractNotFound' } } });
  });

  it('readAs and a disclosure with the blob the ledger issued make a contract usable; a forged blob does not', async () => {
    const ledger = new InMemoryScriptLedger({ getPackage });
    const cid = await create(ledger);
    // dso2 acts, but reads as app (a stakeholder): the contract is found; Archive then needs dso.
    expect(await archive(ledger, cid, ['dso2'], ['app'])).toMatchObject({ ok: false, error: { failure: { kind: 'exerciseMissingAuthorization' } } });
    const blob = (await ledger.queryContractId(['app'], cid))!.blob;
    const forged = [{ templateId: FEATURED, contractId: cid, blob: `${blob}x` }];
    expect(await archive(ledger, cid, ['dso2'], [], forged)).toMatchObject({ ok: false, error: { failure: { kind: 'contractNotFound' } } });
    const disclosed = [{ templateId: FEATURED, contractId: cid, blob }];
    expect(await archive(ledger, cid, ['dso2'], [], disclosed)).toMatchObject({ ok: false, error: { failure: { kind: 'exerciseMissingAuthorization' } } });
  });

  it('a contract created later than the ledger time (time set back) is not found until time catches up', async () => {
    const ledger = new InMemoryScriptLedger({ getPackage });
    await ledger.setTime(1_000_000n);
    const cid = await create(ledger);
    await ledger.setTime(0n);
    expect(await archive(ledger, cid, ['dso'])).toMatchObject({ ok: false, error: { failure: { kind: 'contractNotFound' } } });
    await ledger.setTime(1_000_000n);
    expect((await archive(ledger, cid, ['dso'])).ok).toBe(true);
  });

  it('createAndExercise gives the create result then the exercise result, in one transaction', async () => {
    const ledger = new InMemoryScriptLedger({ getPackage });
    const r = await submit(ledger, { actAs: ['dso'], commands: [{ kind: 'createAndExercise', templateId: FEATURED, argument: right('dso', 'app'), choice: 'Archive', choiceArgument: archiveArg() }] });
    expect(r).toMatchObject({ ok: true, results: [{ kind: 'create' }, { kind: 'exercise', result: { kind: 'unit' } }] });
    expect(r.ok && r.tree.map((e) => e.kind)).toEqual(['created', 'exercised']);
    expect(await ledger.query(['dso'], FEATURED)).toEqual([]);
  });
});
