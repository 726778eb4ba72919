/**
 * Type constructors for building packages by hand (`T.party`, `T.list(T.text)`, ...): plain
 * `ast/Type.ts` values, so anything the decoder can represent can be written, ill-kinded included.
 */
import type { BuiltinTypeName, Kind, QualifiedName, Type } from '../ast/Type.js';

const builtin = (name: BuiltinTypeName, ...args: Type[]): Type => ({ kind: 'builtin', builtin: name, args });

export const STAR: Kind = { kind: 'star' };

export const T = {
  unit: builtin('UNIT'),
  bool: builtin('BOOL'),
  int64: builtin('INT64'),
  text: builtin('TEXT'),
  party: builtin('PARTY'),
  date: builtin('DATE'),
  timestamp: builtin('TIMESTAMP'),
  any: builtin('ANY'),
  anyException: builtin('ANY_EXCEPTION'),
  typeRep: builtin('TYPE_REP'),
  /** `Numeric n`: the scale is a type-level natural. */
  numeric: (scale: number): Type => builtin('NUMERIC', { kind: 'nat', value: scale }),
  contractId: (template: Type): Type => builtin('CONTRACT_ID', template),
  list: (item: Type): Type => builtin('LIST', item),
  optional: (item: Type): Type => builtin('OPTIONAL', item),
  textMap: (value: Type): Type => builtin('TEXTMAP', value),
  genMap: (key: Type, value: Type): Type => builtin('GENMAP', key, value),
  update: (result: Type): Type => builtin('UPDATE', result),
  /** `a -> b -> r`, right-nested as the compiler writes it. */
  arrow: (...types: [Type, Type, ...Type[]]): Type =>
    types.slice(0, -1).reduceRight<Type>((result, param) => builtin('ARROW', param, result), types[types.length - 1]!),
  /** A user-defined type constructor (record, variant, enum, interface) applied to arguments. */
  con: (tycon: QualifiedName, ...args: Type[]): Type => ({ kind: 'con', tycon, args }),
  /** A type synonym applied to its arguments. */
  syn: (tysyn: QualifiedName, ...args: Type[]): Type => ({ kind: 'syn', tysyn, args }),
  var: (name: string, ...args: Type[]): Type => ({ kind: 'var', name, args }),
  forall: (vars: readonly string[], body: Type): Type => ({ kind: 'forall', vars: vars.map((name) => ({ name, kind: STAR })), body }),
  struct: (fields: Readonly<Record<string, Type>>): Type => ({ kind: 'struct', fields: Object.entries(fields).map(([name, type]) => ({ name, type })) }),
  nat: (value: number): Type => ({ kind: 'nat', value }),
  builtin,
} as const;
