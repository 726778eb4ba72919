/**
 * Smart contract upgrades in the update engine: a contract created by one version of a package,
 * fetched or exercised through the template of another version of the same package name, is read
 * as that version's value (fields it lacks None; trailing None fields dropped; constructors by
 * name), must meet that version's precondition and give the signatories and observers it was
 * created with, and the action is that version's. Daml's Speedy does the same (upgrade mode of
 * its value translation, Upgrade.ValidationFailed, DowngradeDropDefinedField).
 */
import { describe, expect, it } from 'vitest';

import type { Package } from '../../daml-engine/ast/Package.js';
import type { Type } from '../../daml-engine/ast/Type.js';
import { E, PackageBuilder, T, type BuiltPackage, type ChoiceScope } from '../../daml-engine/index.js';
import type { ExerciseNode, FetchNode } from '../../daml-engine/update/Transaction.js';
import type { LedgerContract, SubmissionResult } from '../../daml-engine/update/UpdateEngine.js';
import { exerciseCommand, exerciseInterfaceCommand, UpdateEngine } from '../../daml-engine/update/UpdateEngine.js';
import type { RecordValue, Value } from '../../daml-engine/value/Value.js';
import { buildShownInterface, SHOWN_MODULE } from '../../conformance/src/reinterpret/ownPackage.js';
import { int64 } from '../../daml-engine/value/Value.js';

const ALICE = 'alice::1220aa';
const BOB = 'bob::1220bb';
const NAME = 'cc-contract-upgrades';
const CID = `00${'ab'.repeat(32)}`;

interface Version {
  readonly name?: string;
  readonly version: string;
  readonly memo?: boolean;
  readonly colours: readonly string[];
  readonly observeOwner?: boolean;
  readonly ensureAbove?: number;
}

/**
 * `template Asset with owner; amount; colour [; memo : Optional Text]`, signed by the owner, with
 * `Amount` (the amount), `Paint` (fetches itself, returns the colour) and, given a memo, `Memo`.
 */
function version(v: Version): BuiltPackage {
  const b = new PackageBuilder({ name: v.name ?? NAME, version: v.version });
  const m = b.module('Main');
  const colour = m.enum('Colour', v.colours);
  const asset = m.ref('Asset');
  const fields: Record<string, Type> = { owner: T.party, amount: T.int64, colour: colour.type, ...(v.memo ? { memo: T.optional(T.text) } : {}) };
  m.template('Asset', {
    fields,
    signatories: (t) => E.list(T.party, [t.field('owner')]),
    ...(v.observeOwner ? { observers: (t) => E.list(T.party, [t.field('owner')]) } : {}),
    ...(v.ensureAbove === undefined ? {} : { precondition: (t) => E.call('GREATER', [T.int64], t.field('amount'), E.int64(v.ensureAbove as number)) }),
    choices: [
      { name: 'Amount', consuming: false, returnType: T.int64, controllers: (c) => E.list(T.party, [c.field('owner')]), update: (c) => E.pure(T.int64, c.field('amount')) },
      {
        name: 'Paint', consuming: false, returnType: colour.type, controllers: (c) => E.list(T.party, [c.field('owner')]),
        update: (c) => E.block([['me', T.con(asset), E.fetch(asset, c.self)]], E.pure(colour.type, E.field(asset, 'colour', E.var('me')))),
      },
      ...(v.memo ? [{ name: 'Memo', consuming: false, returnType: T.optional(T.text), controllers: (c: ChoiceScope) => E.list(T.party, [c.field('owner')]), update: (c: ChoiceScope) => E.pure(T.optional(T.text), c.field('memo')) }] : []),
    ],
  });
  return b.build();
}

const V1 = version({ version: '1.0.0', colours: ['Red', 'Green'] });
const V2 = version({ version: '2.0.0', memo: true, colours: ['Red', 'Green', 'Blue'] });

/** A contract of `of`'s Asset as the ledger stores it (the value of that version's type). */
function stored(of: BuiltPackage, colour: string, memo?: Value): LedgerContract {
  const cons = of.package.modules.get('Main')?.dataTypes.get('Colour')?.cons;
  const colours = cons?.kind === 'enum' ? cons.constructors : [];
  const argument: RecordValue = {
    kind: 'record', tycon: of.ref('Main', 'Asset'),
    fieldNames: memo === undefined ? ['owner', 'amount', 'colour'] : ['owner', 'amount', 'colour', 'memo'],
    fields: [
      { kind: 'party', value: ALICE }, int64(5n),
      { kind: 'enum', tycon: of.ref('Main', 'Colour'), constructor: colour, rank: colours.indexOf(colour) },
      ...(memo === undefined ? [] : [memo]),
    ],
  };
  return { templateId: of.ref('Main', 'Asset'), argument, signatories: [ALICE], observers: [] };
}

function exercise(through: BuiltPackage, choice: string, contract: LedgerContract, ...others: BuiltPackage[]): SubmissionResult {
  const packages = new Map<string, Package>([V1, V2, through, ...others].map((p) => [p.id, p.package]));
  const engine = new UpdateEngine({ getPackage: (id) => packages.get(id) });
  return engine.submit({
    update: exerciseCommand(through.ref('Main', 'Asset'), CID, choice, { kind: 'record', tycon: through.ref('Main', choice), fieldNames: [], fields: [] }),
    submitters: [ALICE], transactionSeed: new Uint8Array(32).fill(7), preparationTime: 1_000_000n,
    getContract: (cid) => (cid === CID ? contract : undefined),
  });
}

const failure = (r: SubmissionResult) => (r.ok ? undefined : r.error.kind === 'ledger' ? r.error.failure : r.error);

describe('contract upgrades in the engine', () => {
  it('upgrade: a 1.0.0 contract exercised through 2.0.0 runs 2.0.0\'s choice, the field it lacks None; the nodes name 2.0.0', () => {
    const r = exercise(V2, 'Memo', stored(V1, 'Green'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.result).toEqual({ kind: 'optional', value: undefined });
    const root = r.transaction.nodes[r.transaction.roots[0] as number] as ExerciseNode;
    expect(root.templateId).toEqual(V2.ref('Main', 'Asset'));
  });

  it('a fetch inside the choice reads the contract as its own version too: the enum is 2.0.0\'s, at its rank there', () => {
    const r = exercise(V2, 'Paint', stored(V1, 'Green'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.result).toEqual({ kind: 'enum', tycon: V2.ref('Main', 'Colour'), constructor: 'Green', rank: 1 });
    const fetch = r.transaction.nodes.find((n): n is FetchNode => n.kind === 'fetch');
    expect(fetch?.templateId).toEqual(V2.ref('Main', 'Asset'));
  });

  it('downgrade: a 2.0.0 contract whose new field is None is exercised through 1.0.0', () => {
    const r = exercise(V1, 'Amount', stored(V2, 'Red', { kind: 'optional', value: undefined }));
    expect(r.ok && r.result).toEqual(int64(5n));
  });

  it('a downgrade that would drop a field holding Some fails (DowngradeDropDefinedField)', () => {
    const r = exercise(V1, 'Amount', stored(V2, 'Red', { kind: 'optional', value: { kind: 'text', value: 'kept' } }));
    expect(failure(r)).toMatchObject({ kind: 'downgradeDropDefinedField', contractId: CID, fieldIndex: 3 });
  });

  it('a downgrade of a constructor the older version lacks fails (DowngradeFailed)', () => {
    const r = exercise(V1, 'Amount', stored(V2, 'Blue', { kind: 'optional', value: undefined }));
    expect(failure(r)).toMatchObject({ kind: 'downgradeFailed', contractId: CID });
  });

  it('a version whose stakeholders differ for the contract fails (Upgrade.ValidationFailed): a contract keeps its stakeholders', () => {
    // Stored with an observer (as a version observing Bob created it) that 2.0.0 no longer computes.
    const r = exercise(V2, 'Amount', { ...stored(V1, 'Red'), observers: [BOB] });
    expect(failure(r)).toMatchObject({ kind: 'upgradeValidationFailed', contractId: CID, from: V1.ref('Main', 'Asset'), to: V2.ref('Main', 'Asset'), observers: [] });
  });

  it('a version naming a signatory among its observers upgrades the contract: Daml compares signatories and stakeholders, not observers', () => {
    const watched = version({ version: '3.0.0', memo: true, colours: ['Red', 'Green', 'Blue'], observeOwner: true });
    const r = exercise(watched, 'Amount', stored(V1, 'Red'), watched);
    expect(r.ok && r.result).toEqual(int64(5n));
  });

  it('a version whose precondition the contract fails fails (TemplatePreconditionViolated)', () => {
    const strict = version({ version: '3.0.0', memo: true, colours: ['Red', 'Green', 'Blue'], ensureAbove: 100 });
    const r = exercise(strict, 'Amount', stored(V1, 'Red'), strict);
    expect(failure(r)).toMatchObject({ kind: 'templatePreconditionViolated', templateId: strict.ref('Main', 'Asset') });
  });

  it('the same template name in a package of another name is another template (WRONGLY_TYPED_CONTRACT)', () => {
    const stranger = version({ name: 'cc-someone-else', version: '2.0.0', memo: true, colours: ['Red', 'Green', 'Blue'] });
    const r = exercise(stranger, 'Amount', stored(V1, 'Red'), stranger);
    expect(failure(r)).toMatchObject({ kind: 'wronglyTypedContract', expected: stranger.ref('Main', 'Asset'), actual: V1.ref('Main', 'Asset') });
  });
});

describe('interface calls resolve the template to the submission\'s version of its package', () => {
  // An interface of its own package: `Shown` with view `{ value : Int64 }` and choice `Show` answering it.
  const SHOWN = buildShownInterface('cc-contract-upgrades-iface');
  const viewRef = SHOWN.ref(SHOWN_MODULE, 'ShownView');
  /** `Asset` implementing Shown: the view is the amount times `factor` (1 in 1.0.0, 10 in 2.0.0). */
  const shown = (v: string, factor: number, memo: boolean): BuiltPackage => {
    const b = new PackageBuilder({ name: NAME, version: v });
    const m = b.module('Main');
    m.template('Asset', {
      fields: { owner: T.party, amount: T.int64, ...(memo ? { memo: T.optional(T.text) } : {}) },
      signatories: (t) => E.list(T.party, [t.field('owner')]),
      implements: [{ iface: SHOWN.ref(SHOWN_MODULE, 'Shown'), view: (t) => E.record({ tycon: viewRef, args: [] }, { value: E.call('MUL_INT64', [], t.field('amount'), E.int64(factor)) }) }],
    });
    return b.build();
  };
  const [S1, S2] = [shown('1.0.0', 1, false), shown('2.0.0', 10, true)];
  const contract: LedgerContract = {
    templateId: S1.ref('Main', 'Asset'), signatories: [ALICE], observers: [],
    argument: { kind: 'record', tycon: S1.ref('Main', 'Asset'), fieldNames: ['owner', 'amount'], fields: [{ kind: 'party', value: ALICE }, int64(5n)] },
  };
  const show = (resolution?: Readonly<Record<string, string>>): SubmissionResult => {
    const packages = new Map<string, Package>([SHOWN, S1, S2].map((p) => [p.id, p.package]));
    const engine = new UpdateEngine({ getPackage: (id) => packages.get(id) });
    return engine.submit({
      update: exerciseInterfaceCommand(SHOWN.ref(SHOWN_MODULE, 'Shown'), CID, 'Show', { kind: 'record', tycon: SHOWN.ref(SHOWN_MODULE, 'Show'), fieldNames: ['reader'], fields: [{ kind: 'party', value: ALICE }] }),
      submitters: [ALICE], transactionSeed: new Uint8Array(32).fill(7), preparationTime: 1_000_000n,
      getContract: (cid) => (cid === CID ? contract : undefined),
      ...(resolution === undefined ? {} : { packageResolution: (name: string) => resolution[name] }),
    });
  };

  it('with 2.0.0 preferred, a 1.0.0 contract\'s interface choice runs 2.0.0\'s instance, and the node names 2.0.0\'s template', () => {
    const r = show({ [NAME]: S2.id });
    expect(r.ok && r.result).toEqual(int64(50n));
    if (r.ok) expect((r.transaction.nodes[0] as ExerciseNode).templateId).toEqual(S2.ref('Main', 'Asset'));
  });

  it('without a preference, or preferring its own version, the contract\'s own instance runs', () => {
    expect(show().ok && (show() as { result: Value }).result).toEqual(int64(5n));
    expect((show({ [NAME]: S1.id }) as { result: Value }).result).toEqual(int64(5n));
  });
});

describe('contract upgrades: hostile types stay linear', () => {
  it('a field whose type is a 60-level DAG over a type variable converts along the value\'s path only', () => {
    // `P a b` with fields `x : Optional a` and `y : Optional b`; `W c` holds `P` applied 60 deep to
    // itself over `c`; the field is `W Int64` (a type variable under the DAG, substituted lazily).
    const version = (v: string, memo: boolean): BuiltPackage => {
      const b = new PackageBuilder({ name: 'cc-dag-upgrades', version: v });
      const m = b.module('Main');
      const pair = m.record('P', [{ name: 'x', type: T.optional(T.var('a')) }, { name: 'y', type: T.optional(T.var('b')) }], { params: ['a', 'b'] });
      let t: Type = T.var('c');
      for (let i = 0; i < 60; i++) t = T.con(pair.ref, t, t);
      const wrapper = m.record('W', { w: t }, { params: ['c'] });
      m.template('Asset', {
        fields: { owner: T.party, big: T.con(wrapper.ref, T.int64), ...(memo ? { memo: T.optional(T.text) } : {}) },
        signatories: (s) => E.list(T.party, [s.field('owner')]),
        choices: [{ name: 'Look', consuming: false, returnType: T.unit, controllers: (c) => E.list(T.party, [c.field('owner')]), update: E.pure(T.unit, E.unit) }],
      });
      return b.build();
    };
    const [d1, d2] = [version('1.0.0', false), version('2.0.0', true)];
    const pairOf = (p: BuiltPackage, x: Value | undefined): RecordValue => ({ kind: 'record', tycon: p.ref('Main', 'P'), fieldNames: ['x', 'y'], fields: [{ kind: 'optional', value: x }, { kind: 'optional', value: undefined }] });
    const contract: LedgerContract = {
      templateId: d1.ref('Main', 'Asset'), signatories: [ALICE], observers: [],
      argument: {
        kind: 'record', tycon: d1.ref('Main', 'Asset'), fieldNames: ['owner', 'big'],
        fields: [{ kind: 'party', value: ALICE }, { kind: 'record', tycon: d1.ref('Main', 'W'), fieldNames: ['w'], fields: [pairOf(d1, pairOf(d1, undefined))] }],
      },
    };
    const packages = new Map<string, Package>([d1, d2].map((p) => [p.id, p.package]));
    const r = new UpdateEngine({ getPackage: (id) => packages.get(id) }).submit({
      update: exerciseCommand(d2.ref('Main', 'Asset'), CID, 'Look', { kind: 'record', tycon: d2.ref('Main', 'Look'), fieldNames: [], fields: [] }),
      submitters: [ALICE], transactionSeed: new Uint8Array(32).fill(7), preparationTime: 1_000_000n, getContract: (cid) => (cid === CID ? contract : undefined),
    });
    expect(failure(r)).toBeUndefined();
  });
});
