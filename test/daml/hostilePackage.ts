/**
 * A hostile package the tests build themselves (no compiler, no upstream file), one choice per
 * attack of issue 30: a text doubled until it is huge (returned, exploded into a list, or that list
 * returned: a chain of list cells as long as it is), a loop,
 * a value nested deeper than Daml allows; and interfaces whose views loop or nest too deep.
 * `Bomb` is signed by its owner, who controls every choice.
 */
import type { BuiltPackage } from '../../daml-engine/build/PackageBuilder.js';
import { PackageBuilder } from '../../daml-engine/build/PackageBuilder.js';
import { Alt, E } from '../../daml-engine/build/E.js';
import { T } from '../../daml-engine/build/T.js';

export function buildHostilePackage(name = 'hostile'): BuiltPackage {
  const b = new PackageBuilder({ name, version: '1.0.0' });
  const m = b.module('Hostile');
  const owner = (c: { field(n: string): ReturnType<typeof E.var> }) => E.list(T.party, [c.field('owner')]);

  // double n t = if n == 0 then t else double (n - 1) (t <> t): a text of 2^n times t.
  const double = m.value('double', T.arrow(T.int64, T.text, T.text), E.lam([['n', T.int64], ['t', T.text]], E.if(
    E.call('EQUAL', [T.int64], E.var('n'), E.int64(0)),
    E.var('t'),
    E.app(E.val(m.ref('double')), E.call('SUB_INT64', [], E.var('n'), E.int64(1)), E.call('APPEND_TEXT', [], E.var('t'), E.var('t'))),
  )));
  // loop x = loop x
  const loop = m.value('loop', T.arrow(T.int64, T.int64), E.lam([['x', T.int64]], E.app(E.val(m.ref('loop')), E.var('x'))));
  // Box: a record that holds an optional Box; nest n = Box (if n == 0 then None else Some (nest (n - 1))).
  const boxRef = m.ref('Box');
  const Box = m.record('Box', { inner: T.optional(T.con(boxRef)) });
  const nest = m.value('nest', T.arrow(T.int64, Box.type), E.lam([['n', T.int64]], E.record(boxRef, {
    inner: E.if(
      E.call('EQUAL', [T.int64], E.var('n'), E.int64(0)),
      E.none(Box.type),
      E.some(Box.type, E.app(E.val(m.ref('nest')), E.call('SUB_INT64', [], E.var('n'), E.int64(1)))),
    ),
  })));

  const View = m.record('BombView', { owner: T.party, depth: T.int64 });
  const Looping = m.interface('Looping', { view: View.type });
  const DeepView = m.interface('DeepView', { view: Box.type });
  const Plain = m.interface('Plain', { view: View.type });

  m.template('Bomb', {
    fields: { owner: T.party, depth: T.int64 },
    signatories: owner,
    choices: [
      {
        name: 'Huge', consuming: false, arg: { n: T.int64 }, returnType: T.text, controllers: owner,
        update: (c) => E.pure(T.text, E.app(E.val(double), c.argField('n'), E.text('x'))),
      },
      {
        name: 'Explode', consuming: false, arg: { n: T.int64 }, returnType: T.bool, controllers: owner,
        update: (c) => E.pure(T.bool, E.case(E.call('EXPLODE_TEXT', [], E.app(E.val(double), c.argField('n'), E.text('x'))), [Alt.nil(E.true), Alt.default(E.false)])),
      },
      {
        // A list of 2^n one-character texts: as deep a chain of list cells as a value gets.
        name: 'Chars', consuming: false, arg: { n: T.int64 }, returnType: T.list(T.text), controllers: owner,
        update: (c) => E.pure(T.list(T.text), E.call('EXPLODE_TEXT', [], E.app(E.val(double), c.argField('n'), E.text('x')))),
      },
      {
        name: 'Loop', consuming: false, returnType: T.int64, controllers: owner,
        update: () => E.pure(T.int64, E.app(E.val(loop), E.int64(0))),
      },
      {
        name: 'Nest', consuming: false, arg: { n: T.int64 }, returnType: Box.type, controllers: owner,
        update: (c) => E.pure(Box.type, E.app(E.val(nest), c.argField('n'))),
      },
    ],
    implements: [
      { iface: Looping.ref, view: (t) => E.record(View.ref, { owner: t.field('owner'), depth: E.app(E.val(loop), t.field('depth')) }) },
      { iface: DeepView.ref, view: (t) => E.app(E.val(nest), t.field('depth')) },
      { iface: Plain.ref, view: (t) => E.record(View.ref, { owner: t.field('owner'), depth: t.field('depth') }) },
    ],
  });
  void Alt;
  return b.build();
}
