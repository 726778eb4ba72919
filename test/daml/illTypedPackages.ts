/**
 * Ill-typed packages built by hand (no compiler), each breaking one typing rule of daml-lf-2.rst,
 * with the definition and the reason the upload check must name. Shared by the checker's tests
 * and the upload tests (test/http/darValidation.test.ts).
 */
import { Alt, E } from '../../daml-engine/build/E.js';
import { type BuiltPackage, PackageBuilder } from '../../daml-engine/build/PackageBuilder.js';
import { T } from '../../daml-engine/build/T.js';

export interface IllTyped {
  readonly what: string;
  readonly build: (name: string) => BuiltPackage;
  readonly definition: string;
  readonly says: RegExp;
}

/** A package with one value `Main:v`. */
function value(name: string, type: Parameters<ReturnType<PackageBuilder['module']>['value']>[1], expr: Parameters<ReturnType<PackageBuilder['module']>['value']>[2]): BuiltPackage {
  const b = new PackageBuilder({ name, version: '1.0.0' });
  b.module('Main').value('v', type, expr);
  return b.build();
}

export const ILL_TYPED: readonly IllTyped[] = [
  {
    what: 'a builtin applied to an argument of the wrong type (ADD_INT64 1 "one")',
    build: (n) => value(n, T.int64, E.call('ADD_INT64', [], E.int64(1), E.text('one'))),
    definition: 'Main:v', says: /argument 2 of ADD_INT64: expected Int64, found Text/,
  },
  {
    what: 'a record field of the wrong type',
    build: (n) => {
      const b = new PackageBuilder({ name: n, version: '1.0.0' });
      const m = b.module('Main');
      const R = m.record('R', { owner: T.party });
      m.value('v', R.type, E.record(R.ref, { owner: E.int64(7) }));
      return b.build();
    },
    definition: 'Main:v', says: /field owner of R: expected Party, found Int64/,
  },
  {
    what: 'a choice body that is not an Update',
    build: (n) => {
      const b = new PackageBuilder({ name: n, version: '1.0.0' });
      const m = b.module('Main');
      m.template('T', {
        fields: { p: T.party },
        signatories: (t) => E.list(T.party, [t.field('p')]),
        choices: [{ name: 'Go', returnType: T.int64, controllers: (c) => E.list(T.party, [c.field('p')]), update: () => E.int64(1) }],
      });
      return b.build();
    },
    definition: 'Main:T/Go', says: /choice body: expected Update Int64, found Int64/,
  },
  {
    what: 'case alternatives of different types',
    build: (n) => value(n, T.int64, E.case(E.true, [Alt.true(E.int64(1)), Alt.false(E.text('no'))])),
    definition: 'Main:v', says: /case alternatives of different types: expected Int64, found Text/,
  },
  {
    what: 'a case pattern that cannot match the scrutinee',
    build: (n) => value(n, T.int64, E.case(E.int64(1), [Alt.true(E.int64(1)), Alt.default(E.int64(2))])),
    definition: 'Main:v', says: /pattern True against a scrutinee of type Int64/,
  },
  {
    what: 'a value whose body is not of its declared type',
    build: (n) => value(n, T.int64, E.text('forty-two')),
    definition: 'Main:v', says: /value body: expected Int64, found Text/,
  },
  {
    what: 'an application of something that is not a function',
    build: (n) => value(n, T.int64, E.app(E.int64(1), E.int64(2))),
    definition: 'Main:v', says: /an expression of type Int64 is applied to argument 1, but it is not a function/,
  },
  {
    what: 'a let binding of the wrong type',
    build: (n) => value(n, T.int64, E.let([['x', T.int64, E.text('a')]], E.var('x'))),
    definition: 'Main:v', says: /binding x: expected Int64, found Text/,
  },
  {
    what: 'signatories that are not a list of parties',
    build: (n) => {
      const b = new PackageBuilder({ name: n, version: '1.0.0' });
      b.module('Main').template('T', { fields: { p: T.party }, signatories: (t) => t.field('p') });
      return b.build();
    },
    definition: 'Main:T', says: /signatories: expected List Party, found Party/,
  },
  {
    what: 'an update block binding an expression that is not an update',
    build: (n) => value(n, T.update(T.int64), E.block([['x', T.int64, E.int64(1)]], E.pure(T.int64, E.var('x')))),
    definition: 'Main:v', says: /binding x: expected Update Int64, found Int64/,
  },
  {
    what: 'a polymorphic builtin applied at its type to an argument of another (LESS @Int64 1 "one")',
    build: (n) => value(n, T.bool, E.call('LESS', [T.int64], E.int64(1), E.text('one'))),
    definition: 'Main:v', says: /argument 2 of LESS: expected Int64, found Text/,
  },
  {
    what: 'a polymorphic value applied at its type to an argument of another (id @Int64 "seven")',
    build: (n) => {
      const b = new PackageBuilder({ name: n, version: '1.0.0' });
      const m = b.module('Main');
      m.value('id', T.forall(['a'], T.arrow(T.var('a'), T.var('a'))), E.tyLam(['a'], E.lam([['x', T.var('a')]], E.var('x'))));
      m.value('v', T.int64, E.app(E.tyApp(E.val(m.ref('id')), T.int64), E.text('seven')));
      return b.build();
    },
    definition: 'Main:v', says: /argument 1 of id: expected Int64, found Text/,
  },
  {
    what: 'polymorphic code that uses its type variable as Int64 (/\\a. \\x:a. ADD_INT64 x 1)',
    build: (n) => value(n, T.forall(['a'], T.arrow(T.var('a'), T.int64)),
      E.tyLam(['a'], E.lam([['x', T.var('a')]], E.call('ADD_INT64', [], E.var('x'), E.int64(1))))),
    definition: 'Main:v', says: /argument 1 of ADD_INT64: expected Int64, found a/,
  },
  {
    what: 'a polymorphic value whose body returns one type variable for another (∀a b. a → b = /\\a b. \\x:a. x)',
    build: (n) => value(n, T.forall(['a', 'b'], T.arrow(T.var('a'), T.var('b'))),
      E.tyLam(['a', 'b'], E.lam([['x', T.var('a')]], E.var('x')))),
    definition: 'Main:v', says: /body of the type abstraction: expected a → b, found a → a/,
  },
  {
    what: 'a polymorphic value instantiated inside polymorphic code at its type variable, applied to an Int64 (id @a 1)',
    build: (n) => {
      const b = new PackageBuilder({ name: n, version: '1.0.0' });
      const m = b.module('Main');
      m.value('id', T.forall(['a'], T.arrow(T.var('a'), T.var('a'))), E.tyLam(['a'], E.lam([['x', T.var('a')]], E.var('x'))));
      m.value('v', T.forall(['a'], T.arrow(T.var('a'), T.var('a'))),
        E.tyLam(['a'], E.lam([['x', T.var('a')]], E.app(E.tyApp(E.val(m.ref('id')), T.var('a')), E.int64(1)))));
      return b.build();
    },
    definition: 'Main:v', says: /argument 1 of id: expected a, found Int64/,
  },
  {
    what: 'a struct projected at a field it does not have (⟨a = 1⟩.b)',
    build: (n) => value(n, T.int64, E.structField('b', E.struct({ a: E.int64(1) }))),
    definition: 'Main:v', says: /field b of a value of type ⟨a: Int64⟩, which has none/,
  },
  {
    what: 'a value typed by a synonym of a struct (a type class dictionary) built with a field of another type',
    build: (n) => {
      const b = new PackageBuilder({ name: n, version: '1.0.0' });
      const m = b.module('Main');
      const Dict = m.synonym('Dict', [], T.struct({ size: T.int64 }));
      m.value('v', T.syn(Dict), E.struct({ size: E.text('seven') }));
      return b.build();
    },
    definition: 'Main:v', says: /value body: expected Dict, found ⟨size: Text⟩/,
  },
  {
    what: 'a let-bound polymorphic function applied at Int64 to a Text (let f : ∀a. a → a = … in f @Int64 "t")',
    build: (n) => value(n, T.int64, E.let(
      [['f', T.forall(['a'], T.arrow(T.var('a'), T.var('a'))), E.tyLam(['a'], E.lam([['x', T.var('a')]], E.var('x')))]],
      E.app(E.tyApp(E.var('f'), T.int64), E.text('t')))),
    definition: 'Main:v', says: /argument 1 of f: expected Int64, found Text/,
  },
  {
    what: 'a let binding declared ∀a. a → a bound to a function of Int64 (/\\a. \\x:Int64. x)',
    build: (n) => value(n, T.int64, E.let(
      [['f', T.forall(['a'], T.arrow(T.var('a'), T.var('a'))), E.tyLam(['a'], E.lam([['x', T.int64]], E.var('x')))]],
      E.int64(1))),
    definition: 'Main:v', says: /binding f: expected ∀t0\. t0 → t0, found ∀t0\. Int64 → Int64/,
  },
  {
    what: 'a value of a Numeric synonym whose body has another scale (type Money = Numeric 10; v : Money = 2.50)',
    build: (n) => {
      const b = new PackageBuilder({ name: n, version: '1.0.0' });
      const m = b.module('Main');
      const Money = m.synonym('Money', [], T.numeric(10));
      m.value('v', T.syn(Money), E.numeric('2.50'));
      return b.build();
    },
    definition: 'Main:v', says: /value body: expected Money, found Numeric 2/,
  },
  {
    what: 'Numerics of two scales added (ADD_NUMERIC @10 1.0000000000 2.50)',
    build: (n) => value(n, T.numeric(10), E.call('ADD_NUMERIC', [T.nat(10)], E.numeric('1.0000000000'), E.numeric('2.50'))),
    definition: 'Main:v', says: /argument 2 of ADD_NUMERIC: expected Numeric 10, found Numeric 2/,
  },
  {
    what: 'a value declared Numeric 10 whose body is a Numeric 2',
    build: (n) => value(n, T.numeric(10), E.numeric('2.50')),
    definition: 'Main:v', says: /value body: expected Numeric 10, found Numeric 2/,
  },
];
