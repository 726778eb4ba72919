import type { Identifier, RecordField, Value as ProtoValue } from '@canton-network/core-ledger-proto';
import type { QualifiedName } from '../../../../../daml-engine/ast/Type.js';
import { numericToScaledText } from '../../../../../daml-engine/value/numeric.js';
import type { Value } from '../../../../../daml-engine/value/Value.js';

/**
 * Engine values as Canton writes them into a prepared transaction. Canton enriches the engine's
 * transaction before encoding it (InteractiveSubmissionEnricher: type info and field names added,
 * trailing None fields NOT added back) and then converts each value verbosely (LfEngineToApi):
 *
 * - records carry `record_id` and every field its label; trailing fields whose value is `None`
 *   are left out (the normalized form the engine submits, so a re-interpretation compares equal);
 * - variants carry `variant_id` and the constructor name, enums `enum_id` and the constructor;
 * - Numeric is the plain decimal with exactly `scale` digits after the point ("1.5000000000"; at
 *   scale 0 a bare trailing point, "15."), Int64 its decimal text;
 * - Timestamp is microseconds since the epoch, Date days since 1970-01-01;
 * - TextMap entries in key order, GenMap entries in the map's order (both as the engine keeps them);
 * - contract ids in their hex form, parties as text.
 *
 * Only serializable values reach a transaction; anything else (a struct, Any, a function, a
 * BigNumeric...) is a failure naming where it sits.
 */

/** Daml-LF's value nesting limit (Value.MAXIMUM_NESTING): deeper values are refused by the engine too. */
export const MAX_NESTING = 100;

export type ValueEncodingFailure =
  | { readonly kind: 'unserializable'; readonly path: string; readonly valueKind: string }
  | { readonly kind: 'tooDeep'; readonly path: string };

export type ProtoValueResult = { readonly ok: true; readonly value: ProtoValue } | { readonly ok: false; readonly failure: ValueEncodingFailure };

/** `pkg:Module.Path:Entity` as the Ledger API identifier (dotted module and entity names). */
export const protoIdentifier = (q: QualifiedName): Identifier => ({ packageId: q.packageId, moduleName: q.module, entityName: q.name });

class Unserializable extends Error {
  constructor(readonly failure: ValueEncodingFailure) {
    super(failure.kind);
  }
}

const wrap = (sum: ProtoValue['sum']): ProtoValue => ({ sum });

/** The protobuf value Canton puts in a prepared transaction for an engine value. */
export function engineValueToProto(value: Value, path = 'value'): ProtoValueResult {
  try {
    return { ok: true, value: encode(value, path, 0) };
  } catch (e) {
    if (e instanceof Unserializable) return { ok: false, failure: e.failure };
    throw e;
  }
}

/** How many leading fields stay: trailing `None` fields are dropped (Canton's normalized record form). */
export function keptFieldCount(fields: readonly Value[]): number {
  let n = fields.length;
  while (n > 0) {
    const f = fields[n - 1]!;
    if (f.kind !== 'optional' || f.value !== undefined) break;
    n--;
  }
  return n;
}

function encode(v: Value, path: string, depth: number): ProtoValue {
  // Daml counts the nesting of containers (records, variants, lists, optionals, maps).
  if (depth > MAX_NESTING) throw new Unserializable({ kind: 'tooDeep', path });
  switch (v.kind) {
    case 'unit':
      return wrap({ oneofKind: 'unit', unit: {} });
    case 'bool':
      return wrap({ oneofKind: 'bool', bool: v.value });
    case 'int64':
      return wrap({ oneofKind: 'int64', int64: v.value.toString() });
    case 'numeric':
      return wrap({ oneofKind: 'numeric', numeric: numericToScaledText(v) });
    case 'text':
      return wrap({ oneofKind: 'text', text: v.value });
    case 'date':
      return wrap({ oneofKind: 'date', date: v.days });
    case 'timestamp':
      return wrap({ oneofKind: 'timestamp', timestamp: v.micros.toString() });
    case 'party':
      return wrap({ oneofKind: 'party', party: v.value });
    case 'contractId':
      return wrap({ oneofKind: 'contractId', contractId: v.value });
    case 'optional':
      return wrap({ oneofKind: 'optional', optional: v.value === undefined ? {} : { value: encode(v.value, `${path}?`, depth + 1) } });
    case 'nil':
    case 'cons': {
      const elements: ProtoValue[] = [];
      for (let cell = v, i = 0; cell.kind === 'cons'; cell = cell.tail, i++) elements.push(encode(cell.head, `${path}[${i}]`, depth + 1));
      return wrap({ oneofKind: 'list', list: { elements } });
    }
    case 'textMap':
      return wrap({ oneofKind: 'textMap', textMap: { entries: v.entries.map(([key, e]) => ({ key, value: encode(e, `${path}.${key}`, depth + 1) })) } });
    case 'genMap':
      return wrap({
        oneofKind: 'genMap',
        genMap: { entries: v.entries.map(([k, e], i) => ({ key: encode(k, `${path}{${i}}.key`, depth + 1), value: encode(e, `${path}{${i}}.value`, depth + 1) })) },
      });
    case 'record': {
      const fields: RecordField[] = [];
      const n = keptFieldCount(v.fields);
      for (let i = 0; i < n; i++) {
        const label = v.fieldNames[i]!;
        fields.push({ label, value: encode(v.fields[i]!, `${path}.${label}`, depth + 1) });
      }
      return wrap({ oneofKind: 'record', record: { recordId: protoIdentifier(v.tycon), fields } });
    }
    case 'variant':
      return wrap({ oneofKind: 'variant', variant: { variantId: protoIdentifier(v.tycon), constructor: v.constructor, value: encode(v.value, `${path}.${v.constructor}`, depth + 1) } });
    case 'enum':
      return wrap({ oneofKind: 'enum', enum: { enumId: protoIdentifier(v.tycon), constructor: v.constructor } });
    default:
      throw new Unserializable({ kind: 'unserializable', path, valueKind: v.kind });
  }
}
