/**
 * A contract's argument as another version of its package reads it (smart contract upgrades):
 * the value of one version's type converted, by the other version's type, field by field in
 * order. A record gains the fields it lacks as None (an upgrade) or loses trailing fields that are
 * None (a downgrade); a variant or enum keeps its constructor, found by name; nested values of
 * types from other packages are converted the same way. Speedy's value translation in upgrade
 * mode, whose two failures this returns as data.
 */
import type { DataCons } from '../ast/Package.js';
import type { QualifiedName, Type } from '../ast/Type.js';
import { spineOf } from '../ast/Type.js';
import type { PackageSource } from '../decode/Packages.js';
import { lookupDataType } from '../decode/Packages.js';
import type { ListValue, Value } from '../value/Value.js';

export type Upgraded =
  | { readonly ok: true; readonly value: Value }
  /** A downgrade would drop a field holding Some (Daml's DowngradeDropDefinedField). */
  | { readonly ok: false; readonly kind: 'dropDefinedField'; readonly type: QualifiedName; readonly fieldIndex: number }
  /** The value does not fit the type (Daml's DowngradeFailed): a constructor the version lacks. */
  | { readonly ok: false; readonly kind: 'failed'; readonly detail: string };

/**
 * A type with the bindings of the type variables it may name (a data type's parameters): types are
 * substituted lazily, at the variables a value actually reaches, so an interned type that is a
 * small DAG but a huge tree costs only the path the value takes through it.
 */
interface Closure { readonly type: Type; readonly env: Env }
type Env = ReadonlyMap<string, Closure>;

const failed = (detail: string): Upgraded => ({ ok: false, kind: 'failed', detail });
const same = (a: QualifiedName, b: QualifiedName): boolean => a.packageId === b.packageId && a.module === b.module && a.name === b.name;
const EMPTY: Env = new Map();

/** `value` (of some version's type) as a value of `type`, defined in the packages of `source`. */
export function upgradeValue(value: Value, type: Type, source: PackageSource, env: Env = EMPTY): Upgraded {
  const { head, args } = spineOf(type);
  if (head.kind === 'var') {
    const bound = env.get(head.name);
    return bound === undefined ? { ok: true, value } : upgradeValue(value, bound.type, source, bound.env);
  }
  if (head.kind === 'builtin') return builtin(value, head.builtin, args, source, env);
  if (head.kind !== 'con') return { ok: true, value };
  return dataValue(value, head.tycon, args.map((t) => ({ type: t, env })), source);
}

function builtin(value: Value, name: string, args: readonly Type[], source: PackageSource, env: Env): Upgraded {
  const [a, b] = args;
  if (name === 'OPTIONAL' && a && value.kind === 'optional' && value.value !== undefined) {
    const inner = upgradeValue(value.value, a, source, env);
    return inner.ok ? (inner.value === value.value ? { ok: true, value } : { ok: true, value: { kind: 'optional', value: inner.value } }) : inner;
  }
  if (name === 'LIST' && a && (value.kind === 'cons' || value.kind === 'nil')) {
    const items: Value[] = [];
    let changed = false;
    for (let at: ListValue = value; at.kind === 'cons'; at = at.tail) {
      const item = upgradeValue(at.head, a, source, env);
      if (!item.ok) return item;
      changed ||= item.value !== at.head;
      items.push(item.value);
    }
    if (!changed) return { ok: true, value };
    let list: ListValue = { kind: 'nil' };
    for (let i = items.length - 1; i >= 0; i--) list = { kind: 'cons', head: items[i] as Value, tail: list };
    return { ok: true, value: list };
  }
  if (name === 'TEXTMAP' && a && value.kind === 'textMap') {
    const entries: (readonly [string, Value])[] = [];
    for (const [k, v] of value.entries) {
      const item = upgradeValue(v, a, source, env);
      if (!item.ok) return item;
      entries.push([k, item.value]);
    }
    return { ok: true, value: { kind: 'textMap', entries } };
  }
  if (name === 'GENMAP' && a && b && value.kind === 'genMap') {
    const entries: (readonly [Value, Value])[] = [];
    for (const [k, v] of value.entries) {
      const key = upgradeValue(k, a, source, env);
      if (!key.ok) return key;
      const item = upgradeValue(v, b, source, env);
      if (!item.ok) return item;
      entries.push([key.value, item.value]);
    }
    return { ok: true, value: { kind: 'genMap', entries } };
  }
  return { ok: true, value };
}

function dataValue(value: Value, tycon: QualifiedName, args: readonly Closure[], source: PackageSource): Upgraded {
  // A value of this very type needs nothing (the common case: an unchanged dependency).
  if ((value.kind === 'record' || value.kind === 'variant' || value.kind === 'enum') && same(value.tycon, tycon)) return { ok: true, value };
  const dt = lookupDataType(source, tycon);
  if (!dt) return failed(`no data type ${tycon.module}:${tycon.name} in package ${tycon.packageId}`);
  const env: Env = new Map(dt.params.map((p, i) => [p.name, args[i] as Closure]));
  return consValue(value, tycon, dt.cons, source, env);
}

function consValue(value: Value, tycon: QualifiedName, cons: DataCons, source: PackageSource, env: Env): Upgraded {
  const where = `${tycon.module}:${tycon.name}`;
  if (cons.kind === 'record') {
    if (value.kind !== 'record') return failed(`a ${value.kind} where a record ${where} was expected`);
    const fields: Value[] = [];
    for (let i = 0; i < cons.fields.length; i++) {
      const field = cons.fields[i] as (typeof cons.fields)[number];
      const v = value.fields[i];
      if (v === undefined) {
        // A field this version added: absent from the older value, None.
        fields.push({ kind: 'optional', value: undefined });
        continue;
      }
      const converted = upgradeValue(v, field.type, source, env);
      if (!converted.ok) return converted;
      fields.push(converted.value);
    }
    for (let i = cons.fields.length; i < value.fields.length; i++) {
      const extra = value.fields[i] as Value;
      if (extra.kind !== 'optional') return failed(`field ${i} of ${where} is no Optional, and this version has no such field`);
      if (extra.value !== undefined) return { ok: false, kind: 'dropDefinedField', type: tycon, fieldIndex: i };
    }
    return { ok: true, value: { kind: 'record', tycon, fieldNames: cons.fieldNames, fields } };
  }
  if (cons.kind === 'variant') {
    if (value.kind !== 'variant') return failed(`a ${value.kind} where a variant ${where} was expected`);
    const rank = cons.constructors.findIndex((c) => c.name === value.constructor);
    if (rank < 0) return failed(`${where} has no constructor ${value.constructor} in this version`);
    const converted = upgradeValue(value.value, (cons.constructors[rank] as { type: Type }).type, source, env);
    if (!converted.ok) return converted;
    return { ok: true, value: { kind: 'variant', tycon, constructor: value.constructor, rank, value: converted.value } };
  }
  if (cons.kind === 'enum') {
    if (value.kind !== 'enum') return failed(`a ${value.kind} where an enum ${where} was expected`);
    const rank = cons.constructors.indexOf(value.constructor);
    if (rank < 0) return failed(`${where} has no constructor ${value.constructor} in this version`);
    return { ok: true, value: { kind: 'enum', tycon, constructor: value.constructor, rank } };
  }
  return failed(`${where} is an interface, not a data type of values`);
}
