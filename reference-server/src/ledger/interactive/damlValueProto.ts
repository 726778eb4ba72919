import type { Identifier, Value } from '@canton-network/core-ledger-proto';
import { parseIdentifier } from '../templates/Catalogue.js';
import type { FieldType, RecordType } from '../templates/types.js';
import { isPlainObject } from '../values.js';
import type { DamlRecord, DamlValue } from '../wire.js';
import { microsOfTimestamp, timestampOfMicros } from '../rfc3339.js';

/**
 * Daml values between the JSON API form the ledger keeps (already normalised against their
 * types) and the protobuf `com.daml.ledger.api.v2.Value` of prepared transactions. With a type
 * the mapping is exact; values the ledger has no type for (choice results, `Any` fields) map by
 * their JSON shape, the same way at prepare and at execute.
 */

const MS_PER_DAY = 86_400_000;
/** Nesting beyond this is refused, so no value can exhaust the stack of the hash or the decoder. */
export const MAX_VALUE_DEPTH = 100;

const v = (sum: Value['sum']): Value => ({ sum });

/** `pkgId:Module.Path:Entity` as the proto identifier. */
export function identifierOf(id: string): Identifier {
  let known = identifiers.get(id);
  if (known === undefined) {
    const p = parseIdentifier(id);
    known = p === undefined ? { packageId: '', moduleName: '', entityName: id } : { packageId: p.pkg, moduleName: p.module, entityName: p.entity };
    // Template ids are few and long-lived; cap the memo anyway.
    if (identifiers.size < 10_000) identifiers.set(id, known);
  }
  return { ...known };
}

const identifiers = new Map<string, Identifier>();

export const identifierText = (i: Identifier | undefined): string => (i === undefined ? '' : `${i.packageId}:${i.moduleName}:${i.entityName}`);

/** A record value of the given field types (the template argument, a record-typed choice argument). */
export function recordToProto(fields: RecordType, value: DamlValue): Value {
  return toProto({ record: fields }, value);
}

export function toProto(type: FieldType, value: DamlValue): Value {
  if (typeof type === 'string') {
    switch (type) {
      case 'Party':
        return v({ oneofKind: 'party', party: String(value) });
      case 'Text':
        return v({ oneofKind: 'text', text: String(value) });
      case 'Int64':
        return v({ oneofKind: 'int64', int64: String(value) });
      case 'Numeric':
        return v({ oneofKind: 'numeric', numeric: String(value) });
      case 'Bool':
        return v({ oneofKind: 'bool', bool: value === true });
      case 'Time':
        return v({ oneofKind: 'timestamp', timestamp: (microsOfTimestamp(String(value)) ?? 0n).toString() });
      case 'Date':
        return v({ oneofKind: 'date', date: Math.floor(Date.parse(`${String(value)}T00:00:00Z`) / MS_PER_DAY) });
      case 'ContractId':
        return v({ oneofKind: 'contractId', contractId: String(value) });
      case 'Unit':
        return v({ oneofKind: 'unit', unit: {} });
      case 'Any':
        return untypedToProto(value);
    }
  }
  if ('list' in type) return v({ oneofKind: 'list', list: { elements: (value as DamlValue[]).map((e) => toProto(type.list, e)) } });
  if ('optional' in type) return v({ oneofKind: 'optional', optional: value === null ? {} : { value: toProto(type.optional, value) } });
  if ('textMap' in type) {
    const entries = Object.entries(value as DamlRecord).map(([key, e]) => ({ key, value: toProto(type.textMap, e) }));
    return v({ oneofKind: 'textMap', textMap: { entries } });
  }
  if ('record' in type) {
    const record = value as DamlRecord;
    const fields = Object.entries(type.record).map(([label, ft]) => ({ label, value: toProto(ft, record[label] ?? null) }));
    return v({ oneofKind: 'record', record: { fields } });
  }
  if ('variant' in type) {
    const { tag, value: inner } = value as { tag: string; value: DamlValue };
    const ct = type.variant[tag];
    return v({ oneofKind: 'variant', variant: { constructor: tag, value: ct === undefined ? untypedToProto(inner) : toProto(ct, inner) } });
  }
  return v({ oneofKind: 'enum', enum: { constructor: String(value) } });
}

/** A value without a declared type, by its JSON shape (strings as Text, integers as Int64, objects as records). */
export function untypedToProto(value: DamlValue): Value {
  if (value === null || value === undefined) return v({ oneofKind: 'optional', optional: {} });
  if (typeof value === 'string') return v({ oneofKind: 'text', text: value });
  if (typeof value === 'boolean') return v({ oneofKind: 'bool', bool: value });
  if (typeof value === 'number') return Number.isInteger(value) ? v({ oneofKind: 'int64', int64: String(value) }) : v({ oneofKind: 'numeric', numeric: String(value) });
  if (Array.isArray(value)) return v({ oneofKind: 'list', list: { elements: value.map(untypedToProto) } });
  if (isPlainObject(value)) {
    const fields = Object.entries(value).map(([label, e]) => ({ label, value: untypedToProto(e as DamlValue) }));
    return v({ oneofKind: 'record', record: { fields } });
  }
  return v({ oneofKind: 'text', text: String(value) });
}

/** Why a decoded value cannot be read back as JSON, or the JSON (what execute hands to interpretation). */
export type FromProto = { ok: true; value: DamlValue } | { ok: false; reason: string };

export function fromProto(value: Value | undefined, depth = 0): FromProto {
  if (value === undefined) return { ok: false, reason: 'a value is missing' };
  if (depth > MAX_VALUE_DEPTH) return { ok: false, reason: `values nest deeper than ${MAX_VALUE_DEPTH}` };
  const s = value.sum;
  switch (s.oneofKind) {
    case 'unit':
      return { ok: true, value: {} };
    case 'bool':
      return { ok: true, value: s.bool };
    case 'int64':
      return { ok: true, value: s.int64 };
    case 'numeric':
      return { ok: true, value: s.numeric };
    case 'party':
      return { ok: true, value: s.party };
    case 'text':
      return { ok: true, value: s.text };
    case 'contractId':
      return { ok: true, value: s.contractId };
    case 'date':
      return { ok: true, value: new Date(s.date * MS_PER_DAY).toISOString().slice(0, 10) };
    case 'timestamp': {
      const t = timestampOfMicros(BigInt(s.timestamp));
      return t === undefined ? { ok: false, reason: `timestamp ${s.timestamp} is outside RFC 3339 (years 0001-9999)` } : { ok: true, value: t };
    }
    case 'optional':
      return s.optional.value === undefined ? { ok: true, value: null } : fromProto(s.optional.value, depth + 1);
    case 'list': {
      const out: DamlValue[] = [];
      for (const e of s.list.elements) {
        const r = fromProto(e, depth + 1);
        if (!r.ok) return r;
        out.push(r.value);
      }
      return { ok: true, value: out };
    }
    case 'textMap':
      return entriesFromProto(s.textMap.entries.map((e) => [e.key, e.value]), depth);
    case 'record': {
      if (s.record.fields.some((f) => f.label === '')) return { ok: false, reason: 'record fields must carry their labels' };
      return entriesFromProto(s.record.fields.map((f) => [f.label, f.value]), depth);
    }
    case 'variant': {
      const inner = fromProto(s.variant.value, depth + 1);
      return inner.ok ? { ok: true, value: { tag: s.variant.constructor, value: inner.value } } : inner;
    }
    case 'enum':
      return { ok: true, value: s.enum.constructor };
    case 'genMap': {
      // The JSON API's form of a Map: a list of [key, value] pairs (Splice's TransferContext has two).
      const out: DamlValue[] = [];
      for (const e of s.genMap.entries) {
        const k = fromProto(e.key, depth + 1);
        if (!k.ok) return k;
        const x = fromProto(e.value, depth + 1);
        if (!x.ok) return x;
        out.push([k.value, x.value]);
      }
      return { ok: true, value: out };
    }
    default:
      return { ok: false, reason: 'a value has no known kind' };
  }
}

function entriesFromProto(entries: readonly (readonly [string, Value | undefined])[], depth: number): FromProto {
  const out: [string, DamlValue][] = [];
  const seen = new Set<string>();
  for (const [key, e] of entries) {
    if (seen.has(key)) return { ok: false, reason: `the key or label '${key.slice(0, 60)}' appears twice` };
    seen.add(key);
    const r = fromProto(e, depth + 1);
    if (!r.ok) return r;
    out.push([key, r.value]);
  }
  // fromEntries defines own properties, so a label such as `__proto__` stays a label (and is refused later as unknown).
  return { ok: true, value: Object.fromEntries(out) as DamlRecord };
}
