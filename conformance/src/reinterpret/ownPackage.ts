/**
 * The suite's own vendor-style package, built at run time (a fresh name per run, so no target
 * knows it in advance): a `Ticket` whose signatories and observers are computed from its fields,
 * a consuming choice creating its successor, a non-consuming choice with a computed result, and an
 * interface `Counted` with a view and a choice of its own (`Tally`, exercised through it). `ledger.daml.own-package` uploads and drives it; the
 * re-interpretation judges every transaction it causes.
 */
import { E, PackageBuilder, T, type BuiltPackage, type ChoiceScope, type TemplateScope } from '../../../daml-engine/index.js';

export const OWN_MODULE = 'Suite.Ticket';

export function buildOwnPackage(name: string): BuiltPackage {
  const b = new PackageBuilder({ name, version: '1.0.0' });
  const m = b.module(OWN_MODULE);
  const ticketRef = m.ref('Ticket');
  const CountedView = m.record('CountedView', { holder: T.party, total: T.int64, label: T.text });
  const countedRef = m.ref('Counted');
  // A choice of the interface itself, exercised through it: its events name the interface.
  m.interface('Counted', {
    view: CountedView.type, methods: {},
    choices: [{
      name: 'Tally', consuming: false, arg: { reader: T.party }, returnType: T.int64,
      controllers: (c) => E.list(T.party, [c.argField('reader')]),
      update: (c) => E.pure(T.int64, E.field(CountedView.tycon, 'total', E.viewInterface(countedRef, c.this))),
    }],
  });
  m.template('Ticket', {
    fields: { issuer: T.party, holder: T.party, watchers: T.list(T.party), count: T.int64, note: T.text },
    // Computed, not copied: the issuer alone signs; the holder and every watcher observe.
    signatories: (t) => E.list(T.party, [t.field('issuer')]),
    observers: (t) => E.cons(T.party, [t.field('holder')], t.field('watchers')),
    choices: [
      {
        name: 'Bump', arg: { by: T.int64 }, returnType: T.contractId(T.con(ticketRef)),
        controllers: (c) => E.list(T.party, [c.field('issuer')]),
        update: (c) => E.create(ticketRef, E.setField(ticketRef, 'count', c.this, E.call('ADD_INT64', [], c.field('count'), c.argField('by')))),
      },
      {
        name: 'Describe', consuming: false, arg: { times: T.int64 }, returnType: T.text,
        controllers: (c) => E.list(T.party, [c.field('issuer')]),
        update: (c) => E.pure(T.text, E.call('APPEND_TEXT', [], c.field('note'),
          E.call('INT64_TO_TEXT', [], E.call('MUL_INT64', [], c.field('count'), c.argField('times'))))),
      },
    ],
    implements: [{
      iface: m.ref('Counted'),
      view: (t) => E.record(CountedView.ref, { holder: t.field('holder'), total: t.field('count'), label: t.field('note') }),
      methods: {},
    }],
  });
  return b.build();
}

export const BOARD_MODULE = 'Suite.Board';

/**
 * The public-party pattern: a `Board` the publisher signs and a public party observes, whose
 * nonconsuming `Read` any party may exercise (a flexible controller) and answers the board's text.
 * A party that is no stakeholder sees the board only by reading as the public party (`readAs`).
 */
export function buildBoardPackage(name: string, version = '1.0.0'): BuiltPackage {
  const b = new PackageBuilder({ name, version });
  const m = b.module(BOARD_MODULE);
  m.template('Board', {
    fields: { publisher: T.party, audience: T.party, text: T.text },
    signatories: (t) => E.list(T.party, [t.field('publisher')]),
    observers: (t) => E.list(T.party, [t.field('audience')]),
    choices: [
      {
        name: 'Read', consuming: false, arg: { reader: T.party }, returnType: T.text,
        controllers: (c) => E.list(T.party, [c.argField('reader')]),
        update: (c) => E.pure(T.text, c.field('text')),
      },
    ],
  });
  return b.build();
}

export const UPGRADE_MODULE = 'Suite.Upgrade';
export const SHOWN_MODULE = 'Suite.Shown';

/**
 * The interface both versions of the upgrade package implement, in a package of its own (an
 * instance counts by its interface's package id): `Shown`, view `{ value : Int64 }`, and a choice
 * `Show` answering the view's value.
 */
export function buildShownInterface(name: string): BuiltPackage {
  const b = new PackageBuilder({ name, version: '1.0.0' });
  const m = b.module(SHOWN_MODULE);
  const view = m.record('ShownView', { value: T.int64 });
  const self = m.ref('Shown');
  m.interface('Shown', {
    view: view.type,
    choices: [{
      name: 'Show', consuming: false, arg: { reader: T.party }, returnType: T.int64,
      controllers: (c) => E.list(T.party, [c.argField('reader')]),
      update: (c) => E.pure(T.int64, E.field(view.tycon, 'value', E.viewInterface(self, c.this))),
    }],
  });
  return b.build();
}

/**
 * Two versions of one package for smart contract upgrades: `Holding` with `owner` and `amount`,
 * signed by the owner, whose `Amount` answers the amount; version 2 adds `memo : Optional Text` at
 * the end (a valid upgrade) and a choice `Memo` answering it. Given `shown`, Holding implements it,
 * its view the amount in 1.0.0 and ten times the amount in 2.0.0 (so the version that ran shows).
 */
export function buildUpgradePackage(name: string, version: '1.0.0' | '2.0.0', shown?: BuiltPackage): BuiltPackage {
  const b = new PackageBuilder({ name, version });
  const second = version === '2.0.0';
  const view = (t: TemplateScope) => E.record({ tycon: (shown as BuiltPackage).ref(SHOWN_MODULE, 'ShownView'), args: [] }, {
    value: E.call('MUL_INT64', [], t.field('amount'), E.int64(second ? 10 : 1)),
  });
  b.module(UPGRADE_MODULE).template('Holding', {
    fields: { owner: T.party, amount: T.int64, ...(second ? { memo: T.optional(T.text) } : {}) },
    signatories: (t) => E.list(T.party, [t.field('owner')]),
    implements: shown === undefined ? [] : [{ iface: shown.ref(SHOWN_MODULE, 'Shown'), view }],
    choices: [
      { name: 'Amount', consuming: false, returnType: T.int64, controllers: (c) => E.list(T.party, [c.field('owner')]), update: (c) => E.pure(T.int64, c.field('amount')) },
      ...(second ? [{
        name: 'Memo', consuming: false, returnType: T.optional(T.text),
        controllers: (c: ChoiceScope) => E.list(T.party, [c.field('owner')]), update: (c: ChoiceScope) => E.pure(T.optional(T.text), c.field('memo')),
      }] : []),
    ],
  });
  return b.build();
}

export const GAUGE_MODULE = 'Suite.Gauge';

/**
 * What Daml refuses, in a package of the suite's: a `Gauge` whose `ensure` keeps its level at zero
 * or above, signed by its owner and observed by a reader; `Lower` (consuming, the owner's) creates
 * the successor at a lower level, so a successor below zero breaks the ensure inside a choice;
 * `Check` (non-consuming) throws `Overdrawn`, which nothing catches, when asked for more than the
 * level, and answers the level otherwise.
 */
export function buildGaugePackage(name: string): BuiltPackage {
  const b = new PackageBuilder({ name, version: '1.0.0' });
  const m = b.module(GAUGE_MODULE);
  const gaugeRef = m.ref('Gauge');
  const Overdrawn = m.exception('Overdrawn', { short: T.int64 },
    (e) => E.call('APPEND_TEXT', [], E.text('overdrawn by '), E.call('INT64_TO_TEXT', [], e.field('short'))));
  m.template('Gauge', {
    fields: { owner: T.party, reader: T.party, level: T.int64 },
    precondition: (t) => E.call('LESS_EQ', [T.int64], E.int64(0), t.field('level')),
    signatories: (t) => E.list(T.party, [t.field('owner')]),
    observers: (t) => E.list(T.party, [t.field('reader')]),
    choices: [
      {
        name: 'Lower', arg: { by: T.int64 }, returnType: T.contractId(T.con(gaugeRef)),
        controllers: (c) => E.list(T.party, [c.field('owner')]),
        update: (c) => E.create(gaugeRef, E.setField(gaugeRef, 'level', c.this, E.call('SUB_INT64', [], c.field('level'), c.argField('by')))),
      },
      {
        name: 'Check', consuming: false, arg: { at: T.int64 }, returnType: T.int64,
        controllers: (c) => E.list(T.party, [c.field('owner')]),
        update: (c) => E.if(
          E.call('LESS', [T.int64], c.field('level'), c.argField('at')),
          E.throw(T.update(T.int64), Overdrawn.type, E.record(Overdrawn.ref, { short: E.call('SUB_INT64', [], c.argField('at'), c.field('level')) })),
          E.pure(T.int64, c.field('level')),
        ),
      },
    ],
  });
  return b.build();
}
