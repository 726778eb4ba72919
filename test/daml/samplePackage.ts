/**
 * A sample package the tests build themselves (no upstream file): an asset template with a
 * transfer, a non-consuming query, an archive-by-owner; an interface with a view the template
 * implements; an exception; top-level values.
 */
import type { BuiltPackage } from '../../daml-engine/build/PackageBuilder.js';
import { PackageBuilder } from '../../daml-engine/build/PackageBuilder.js';
import { Alt, E } from '../../daml-engine/build/E.js';
import { T } from '../../daml-engine/build/T.js';

export function buildSamplePackage(name = 'conformance-sample', version = '1.0.0'): BuiltPackage {
  const b = new PackageBuilder({ name, version });
  const m = b.module('Sample.Asset');
  const parties = (...ps: ReturnType<typeof E.var>[]) => E.list(T.party, ps);

  const AssetView = m.record('AssetView', { owner: T.party, description: T.text });
  const Describable = m.interface('Describable', {
    view: AssetView.type,
    methods: { describe: T.text },
    choices: [{
      name: 'Describe', consuming: false, returnType: T.text,
      controllers: (c) => E.list(T.party, [E.field(AssetView.tycon, 'owner', E.viewInterface(m.ref('Describable'), c.this))]),
      update: (c) => E.pure(T.text, E.callInterface(m.ref('Describable'), 'describe', c.this)),
    }],
  });

  const InsufficientQuantity = m.exception('InsufficientQuantity', { requested: T.int64 },
    (e) => E.call('APPEND_TEXT', [], E.text('insufficient quantity: '), E.call('INT64_TO_TEXT', [], e.field('requested'))));

  const assetRef = m.ref('Asset');
  const Asset = m.template('Asset', {
    fields: { issuer: T.party, owner: T.party, description: T.text, quantity: T.int64 },
    precondition: (t) => E.call('LESS', [T.int64], E.int64(0), t.field('quantity')),
    signatories: (t) => parties(t.field('issuer')),
    observers: (t) => parties(t.field('owner')),
    choices: [
      {
        name: 'Transfer', arg: { newOwner: T.party }, returnType: T.contractId(T.con(assetRef)),
        controllers: (c) => parties(c.field('owner')),
        update: (c) => E.create(assetRef, E.setField(assetRef, 'owner', c.this, c.argField('newOwner'))),
      },
      {
        name: 'Quantity', consuming: false, returnType: T.int64,
        controllers: (c) => parties(c.field('owner')),
        update: (c) => E.pure(T.int64, c.field('quantity')),
      },
      {
        name: 'Split', arg: { amount: T.int64 }, returnType: T.contractId(T.con(assetRef)),
        controllers: (c) => parties(c.field('owner')),
        update: (c) => E.if(
          E.call('LESS', [T.int64], c.argField('amount'), c.field('quantity')),
          E.create(assetRef, E.setField(assetRef, 'quantity', c.this, E.call('SUB_INT64', [], c.field('quantity'), c.argField('amount')))),
          E.throw(T.update(T.contractId(T.con(assetRef))), InsufficientQuantity.type, E.record(InsufficientQuantity.ref, { requested: c.argField('amount') })),
        ),
      },
    ],
    implements: [{
      iface: Describable.ref,
      view: (t) => E.record(AssetView.ref, { owner: t.field('owner'), description: t.field('description') }),
      methods: { describe: (t) => t.field('description') },
    }],
  });
  void Asset;

  const util = b.module('Sample.Util');
  util.value('answer', T.int64, E.int64(42));
  util.value('isEmpty', T.forall(['a'], T.arrow(T.list(T.var('a')), T.bool)),
    E.tyLam(['a'], E.lam([['xs', T.list(T.var('a'))]], E.case(E.var('xs'), [Alt.nil(E.true), Alt.default(E.false)]))));
  return b.build();
}
