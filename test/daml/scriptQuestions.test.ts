/**
 * The runner's answers to daml-script questions, one question at a time: a script built by hand
 * (`Script { runScript = \_ -> Free (ScriptF (Question ...)) }` whose `continue` returns
 * `Pure (answer, ())`), run against the in-memory ledger with Splice's Amulet templates. Reply
 * shapes follow daml-script 3.3's `IsQuestion` instances (Daml.Script.Internal.Questions.*).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import type { Expr } from '../../daml-engine/ast/Expr.js';
import type { QualifiedName, Type } from '../../daml-engine/ast/Type.js';
import { InMemoryScriptLedger } from '../../daml-engine/script/InMemoryScriptLedger.js';
import type { LoadedDar } from '../../daml-engine/script/runDarScripts.js';
import { loadDarScripts } from '../../daml-engine/script/runDarScripts.js';
import type { ScriptOutcome } from '../../daml-engine/script/ScriptRunner.js';
import { LOW_LEVEL_MODULE, ScriptRunner } from '../../daml-engine/script/ScriptRunner.js';
import { ScriptValues, field, list } from '../../daml-engine/script/ScriptValues.js';
import type { Value } from '../../daml-engine/value/Value.js';
import { FALSE, NIL, NONE, UNIT, listOf } from '../../daml-engine/value/Value.js';
import { DARS_DIR, HAS_DARS } from './damlFixtures.js';

describe.runIf(HAS_DARS)('Daml Script questions (needs ../shared/upstream/daml/dars)', () => {
  const loaded: LoadedDar = (() => {
    if (!HAS_DARS) return undefined!;
    const r = loadDarScripts(readFileSync(join(DARS_DIR, 'history/splice-amulet-test-0.1.8.dar')));
    if (!r.ok) throw new Error(r.message);
    return r.loaded;
  })();
  const getPackage = (id: string) => loaded?.packages.get(id);
  const scriptPkg = HAS_DARS ? loaded.dar.packages.find((p) => p.metadata?.name === 'daml-script')!.id : '';
  const amuletPkg = HAS_DARS ? loaded.dar.packages.find((p) => p.metadata?.name === 'splice-amulet')!.id : '';
  const values = new ScriptValues(() => loaded.packages.all(), getPackage, scriptPkg);
  const runner = HAS_DARS ? new ScriptRunner(getPackage, () => loaded.packages.all()) : undefined!;
  const ll = (name: string): QualifiedName => ({ packageId: scriptPkg, module: LOW_LEVEL_MODULE, name });
  const free: QualifiedName = { packageId: scriptPkg, module: 'Daml.Script.Internal.Free', name: 'Free' };
  const unitType: Type = { kind: 'builtin', builtin: 'UNIT', args: [] };
  const lit = (value: Value): Expr => ({ kind: 'lit', value });
  const app = (tycon: QualifiedName) => ({ tycon, args: [] });

  /** A Script asking one question, whose result is the answer. */
  function ask(name: string, payload: Expr | Value, version = 1n): Expr {
    const payloadExpr: Expr = EXPR_KINDS.has(payload.kind) ? payload as Expr : lit(payload as Value);
    const pure: Expr = {
      kind: 'abs', params: [{ name: 'r', type: unitType }],
      body: { kind: 'variantCon', tycon: app(free), constructor: 'Pure', arg: { kind: 'recCon', tycon: app(values.tycon('DA.Types', 'Tuple2')), fields: [{ field: '_1', expr: { kind: 'var', name: 'r' } }, { field: '_2', expr: lit(UNIT) }] } },
    };
    const question: Expr = {
      kind: 'recCon', tycon: app(ll('Question')), fields: [
        { field: 'commandName', expr: lit({ kind: 'text', value: name }) },
        { field: 'commandVersion', expr: lit({ kind: 'int64', value: version }) },
        { field: 'payload', expr: payloadExpr },
        { field: 'locations', expr: lit(NIL) },
        { field: 'continue', expr: pure },
      ],
    };
    const step: Expr = { kind: 'variantCon', tycon: app(free), constructor: 'Free', arg: { kind: 'recCon', tycon: app(ll('ScriptF')), fields: [{ field: 'unpack', expr: question }] } };
    return { kind: 'recCon', tycon: app(ll('Script')), fields: [{ field: 'runScript', expr: { kind: 'abs', params: [{ name: 'u', type: unitType }], body: step } }, { field: 'dummy', expr: lit(UNIT) }] };
  }
  /** Expression kinds a payload is built with here (no value has these kinds). */
  const EXPR_KINDS = new Set(['recCon', 'abs', 'lit']);
  const run = (script: Expr, ledger = new InMemoryScriptLedger({ getPackage })): Promise<ScriptOutcome> => runner.runExpr(script, scriptPkg, 'a hand-built script', ledger);
  const party = (value: string): Value => ({ kind: 'party', value });

  const featuredAppRight = (dso: string, provider: string): Value =>
    values.record({ packageId: amuletPkg, module: 'Splice.Amulet', name: 'FeaturedAppRight' }, { dso: party(dso), provider: party(provider) });
  const submission = (actAs: string | string[], behaviour: 'MustSucceed' | 'MustFail' | 'Try', argument: Value): Value => {
    const tplId = (argument as { tycon: QualifiedName }).tycon;
    return values.script('Questions.Submit', 'Submit', {
      submissions: listOf([values.script('Questions.Submit', 'Submission', {
        sActAs: values.nonEmpty((Array.isArray(actAs) ? actAs : [actAs]).map(party)), sReadAs: NIL, sDisclosures: NIL, sPackagePreference: NONE, sPrefetchKeys: NIL,
        sErrorBehaviour: values.enumValue(values.tycon('Daml.Script.Internal.Questions.Submit', 'ErrorBehaviour'), behaviour),
        sCommands: listOf([values.script('Questions.Commands', 'CommandWithMeta', {
          command: values.variant(values.tycon('Daml.Script.Internal.Questions.Commands', 'Command'), 'Create',
            values.script('Questions.Commands', 'Command.Create', { argC: values.anyTemplate(tplId, argument) })),
          explicitPackageId: FALSE,
        })]),
        sLocation: NONE,
      })]),
    });
  };

  it('Submit (Try): a create the submitter cannot authorize is Left AuthorizationError; by the signatory, Right ([CreateResult cid], tree)', async () => {
    const ledger = new InMemoryScriptLedger({ getPackage });
    const denied = await run(ask('Submit', submission('alice', 'Try', featuredAppRight('dso', 'alice'))), ledger);
    expect(denied.ok).toBe(true);
    const [left] = list(denied.ok ? denied.value : NIL);
    expect(left).toMatchObject({ kind: 'variant', constructor: 'Left', value: { kind: 'variant', constructor: 'AuthorizationError' } });
    expect(JSON.stringify(field((left as { value: { value: Value } }).value.value, 'authorizationErrorMessage'))).toContain('lacks the authorization of dso');

    const granted = await run(ask('Submit', submission('dso', 'Try', featuredAppRight('dso', 'alice'))), ledger);
    const [right] = list(granted.ok ? granted.value : NIL);
    expect(right).toMatchObject({ kind: 'variant', constructor: 'Right' });
    const pair = (right as { value: Value }).value;
    const [result] = list(field(pair, '_1'));
    expect(result).toMatchObject({ kind: 'variant', constructor: 'CreateResult', value: { kind: 'contractId' } });
    const cid = ((result as { value: { value: string } }).value).value;
    const [event] = list(field(field(pair, '_2'), 'rootEvents'));
    expect(event).toMatchObject({ kind: 'variant', constructor: 'CreatedEvent' });
    expect(field(field((event as { value: Value }).value, 'contractId'), 'contractId')).toEqual({ kind: 'contractId', value: cid });
    // The ledger holds it: the provider sees it, a stranger does not.
    expect((await ledger.query(['alice'], { packageId: amuletPkg, module: 'Splice.Amulet', name: 'FeaturedAppRight' })).map((c) => c.contractId)).toEqual([cid]);
    expect(await ledger.query(['bob'], { packageId: amuletPkg, module: 'Splice.Amulet', name: 'FeaturedAppRight' })).toEqual([]);
  });

  it('Submit (MustFail) that succeeds fails the script; (MustSucceed) that fails fails it with the reason', async () => {
    expect(await run(ask('Submit', submission('dso', 'MustFail', featuredAppRight('dso', 'alice'))))).toMatchObject({
      ok: false, failure: { kind: 'userError', message: 'Expected submit to fail but it succeeded' },
    });
    const failed = await run(ask('Submit', submission('alice', 'MustSucceed', featuredAppRight('dso', 'alice'))));
    expect(failed).toMatchObject({ ok: false, failure: { kind: 'submitFailed' } });
    expect(failed.ok ? '' : failed.failure.message).toContain('lacks the authorization of dso');
  });

  it('a create whose precondition throws: Try gives Left UnhandledException; MustSucceed ends the script, even inside Catch', async () => {
    const amount = values.record({ packageId: amuletPkg, module: 'Splice.Fees', name: 'ExpiringAmount' }, {
      initialAmount: { kind: 'numeric', scale: 10, unscaled: -1_0000000000n },
      createdAt: values.record({ packageId: amuletPkg, module: 'Splice.Types', name: 'Round' }, { number: { kind: 'int64', value: 0n } }),
      ratePerRound: values.record({ packageId: amuletPkg, module: 'Splice.Fees', name: 'RatePerRound' }, { rate: { kind: 'numeric', scale: 10, unscaled: 0n } }),
    });
    const negative = values.record({ packageId: amuletPkg, module: 'Splice.Amulet', name: 'Amulet' }, { dso: party('dso'), owner: party('alice'), amount });
    const tried = await run(ask('Submit', submission(['dso', 'alice'], 'Try', negative)));
    expect(tried.ok && list(tried.value)[0]).toMatchObject({
      constructor: 'Left', value: { constructor: 'UnhandledException', value: { fields: [{ kind: 'optional', value: { kind: 'anyException' } }] } },
    });
    const mustSucceed = ask('Submit', submission(['dso', 'alice'], 'MustSucceed', negative));
    const catchIt = (script: Expr): Expr => ({
      kind: 'recCon', tycon: app(values.tycon('Daml.Script.Internal.Questions.Exceptions', 'Catch')), fields: [
        { field: 'act', expr: { kind: 'abs', params: [{ name: 'u', type: unitType }], body: script } }, { field: 'dummy', expr: lit(UNIT) },
      ],
    });
    for (const script of [mustSucceed, ask('Catch', catchIt(mustSucceed))]) {
      const r = await run(script);
      expect(r).toMatchObject({ ok: false, failure: { kind: 'submitFailed', message: expect.stringMatching(/^submission failed: unhandled exception /) } });
    }
  });

  it('QueryInterface: the Holding view of an Amulet, for its owner only', async () => {
    const ledger = new InMemoryScriptLedger({ getPackage });
    const amount = values.record({ packageId: amuletPkg, module: 'Splice.Fees', name: 'ExpiringAmount' }, {
      initialAmount: { kind: 'numeric', scale: 10, unscaled: 12_5000000000n },
      createdAt: values.record({ packageId: amuletPkg, module: 'Splice.Types', name: 'Round' }, { number: { kind: 'int64', value: 3n } }),
      ratePerRound: values.record({ packageId: amuletPkg, module: 'Splice.Fees', name: 'RatePerRound' }, { rate: { kind: 'numeric', scale: 10, unscaled: 4000000n } }),
    });
    const amulet = values.record({ packageId: amuletPkg, module: 'Splice.Amulet', name: 'Amulet' }, { dso: party('dso'), owner: party('alice'), amount });
    // Its signatories are the dso and the owner: the dso alone cannot create it.
    const alone = await run(ask('Submit', submission('dso', 'Try', amulet)), ledger);
    expect(alone.ok && list(alone.value)[0]).toMatchObject({ constructor: 'Left', value: { constructor: 'AuthorizationError' } });
    const both = await run(ask('Submit', submission(['dso', 'alice'], 'Try', amulet)), ledger);
    expect(both.ok && list(both.value)[0]).toMatchObject({ constructor: 'Right' });
    const holdingPkg = loaded.dar.packages.find((p) => p.metadata?.name === 'splice-api-token-holding-v1')!.id;
    const holding = values.templateTypeRep({ packageId: holdingPkg, module: 'Splice.Api.Token.HoldingV1', name: 'Holding' });
    const query = (p: string) => run(ask('QueryInterface', values.script('Questions.Query', 'QueryInterface', { parties: listOf([party(p)]), interfaceId: holding })), ledger);
    const none = await query('bob');
    expect(none.ok && list(none.value)).toEqual([]);
    const seen = await query('alice');
    const rows = seen.ok ? list(seen.value) : [];
    expect(rows).toHaveLength(1);
    // (ContractId Holding, Optional HoldingView): the view's owner and amount are the Amulet's.
    const view = field(rows[0]!, '_2');
    expect(view.kind).toBe('optional');
    const v = (view as { value: Value }).value;
    expect(field(v, 'owner')).toEqual(party('alice'));
    expect(field(v, 'amount')).toEqual({ kind: 'numeric', scale: 10, unscaled: 12_5000000000n });
  });

  it('Throw: uncaught, the script fails with the exception message; inside Catch, continue receives Left', async () => {
    const generalError: QualifiedName = loaded.packages.all() && [...loaded.packages.all()].flatMap((p) => (p.modules.get('DA.Exception.GeneralError')?.dataTypes.has('GeneralError') ? [{ packageId: p.id, module: 'DA.Exception.GeneralError', name: 'GeneralError' }] : []))[0]!;
    const exception: Expr = {
      kind: 'toAnyException', type: { kind: 'con', tycon: generalError, args: [] },
      expr: { kind: 'recCon', tycon: app(generalError), fields: [{ field: 'message', expr: lit({ kind: 'text', value: 'boom' }) }] },
    };
    const throwing = ask('Throw', { kind: 'recCon', tycon: app(values.tycon('Daml.Script.Internal.Questions.Exceptions', 'Throw')), fields: [{ field: 'exc', expr: exception }] });
    expect(await run(throwing)).toMatchObject({ ok: false, failure: { kind: 'unhandledException', message: 'unhandled exception DA.Exception.GeneralError:GeneralError: boom' } });
    const caught = await run(ask('Catch', {
      kind: 'recCon', tycon: app(values.tycon('Daml.Script.Internal.Questions.Exceptions', 'Catch')), fields: [
        { field: 'act', expr: { kind: 'abs', params: [{ name: 'u', type: unitType }], body: throwing } },
        { field: 'dummy', expr: lit(UNIT) },
      ],
    }));
    expect(caught).toMatchObject({ ok: true, value: { kind: 'variant', constructor: 'Left', value: { kind: 'anyException', value: { fields: [{ kind: 'text', value: 'boom' }] } } } });
  });

  it('Catch of a script that succeeds gives Right with its result', async () => {
    const inner = ask('GetTime', values.script('Questions.Time', 'GetTime', {}));
    const ledger = new InMemoryScriptLedger({ getPackage });
    await ledger.setTime(42n);
    const caught = await run(ask('Catch', {
      kind: 'recCon', tycon: app(values.tycon('Daml.Script.Internal.Questions.Exceptions', 'Catch')), fields: [
        { field: 'act', expr: { kind: 'abs', params: [{ name: 'u', type: unitType }], body: inner } }, { field: 'dummy', expr: lit(UNIT) },
      ],
    }), ledger);
    expect(caught).toMatchObject({ ok: true, value: { kind: 'variant', constructor: 'Right', value: { kind: 'timestamp', micros: 42n } } });
  });

  it('AllocateParty: a display name gets <name>-<8 hex>, nothing party-<8 hex>, a hint itself; a hint that differs from the name fails as daml-script says', async () => {
    const alloc = (requestedName: string, idHint: string) => run(ask('AllocateParty', values.script('Questions.PartyManagement', 'AllocateParty', {
      requestedName: { kind: 'text', value: requestedName }, idHint: { kind: 'text', value: idHint }, participant: NONE,
    })));
    const named = await alloc('alice', '');
    expect(named.ok && named.value).toMatchObject({ kind: 'party', value: expect.stringMatching(/^alice-[0-9a-f]{8}$/) });
    const anonymous = await alloc('', '');
    expect(anonymous.ok && anonymous.value).toMatchObject({ kind: 'party', value: expect.stringMatching(/^party-[0-9a-f]{8}$/) });
    expect(await alloc('', 'carol')).toMatchObject({ ok: true, value: { kind: 'party', value: 'carol' } });
    expect(await alloc('alice', 'bob')).toMatchObject({ ok: false, failure: { kind: 'userError', message: "Requested name 'alice' cannot be different from id hint 'bob'" } });
  });

  it('a question the runner does not answer fails the script naming the command and version', async () => {
    expect(await run(ask('QueryContractKey', UNIT))).toMatchObject({
      ok: false, failure: { kind: 'unsupportedCommand', message: 'the script asked QueryContractKey version 1, which this runner does not answer' },
    });
    expect(await run(ask('GetTime', values.script('Questions.Time', 'GetTime', {}), 7n))).toMatchObject({
      ok: false, failure: { kind: 'unsupportedCommand', message: 'the script asked GetTime version 7, which this runner does not answer' },
    });
  });
});
