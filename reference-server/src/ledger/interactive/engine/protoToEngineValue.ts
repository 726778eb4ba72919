import type { Identifier, Value as ProtoValue } from '@canton-network/core-ledger-proto';
import type { QualifiedName, Type } from '../../../../../daml-engine/ast/Type.js';
import type { DataTypes } from '../../../../../daml-engine/json/DataTypes.js';
import { genMapInsert, genMapLookup, EMPTY_GEN_MAP, textMapOf } from '../../../../../daml-engine/value/maps.js';
import { MAX_PRECISION } from '../../../../../daml-engine/value/numeric.js';
import { isValidDate, isValidTimestamp } from '../../../../../daml-engine/value/time.js';
import { listOf, NONE, UNIT, type Value } from '../../../../../daml-engine/value/Value.js';
import { MAX_NESTING } from './engineValueToProto.js';

/**
 * A prepared transaction's protobuf value back as an engine value: the inverse of
 * `engineValueToProto` on what it produces. Records, variants and enums must carry their type ids
 * (Canton's prepared transactions always do); the definitions they name give the field order, the
 * constructors' ranks, and the trailing `None` fields Canton left out. A value that does not fit
 * its definitions is a problem naming where it sits.
 */

export type EngineValueResult = { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly problem: string };

class Misfit extends Error {}

const INT64_TEXT = /^-?\d{1,19}$/;
/** Canton's Numeric text: exactly the scale's digits after the point ("1.50", "15."). */
const NUMERIC_TEXT = /^(-?)(\d+)\.(\d*)$/;
const HEX_CONTRACT_ID = /^(?:[0-9a-f]{2}){1,256}$/;

export function protoToEngineValue(value: ProtoValue | undefined, types: DataTypes, path = 'value'): EngineValueResult {
  try {
    return { ok: true, value: decode(value, types, path, 0) };
  } catch (e) {
    if (e instanceof Misfit) return { ok: false, problem: e.message };
    throw e;
  }
}

/** The Ledger API identifier as the engine's qualified name. */
export const qualifiedNameOf = (i: Identifier): QualifiedName => ({ packageId: i.packageId, module: i.moduleName, name: i.entityName });

const misfit = (path: string, message: string): never => {
  throw new Misfit(`${path}: ${message}`);
};

/** Whether a field type is `Optional a` (the only fields Canton may leave out). */
function isOptionalType(t: Type): boolean {
  let head = t;
  while (head.kind === 'app') head = head.lhs;
  return head.kind === 'builtin' && head.builtin === 'OPTIONAL';
}

function tyconOf(id: Identifier | undefined, what: string, path: string): QualifiedName {
  if (id === undefined || id.packageId === '') return misfit(path, `a ${what} without its type id`);
  return qualifiedNameOf(id);
}

function decode(v: ProtoValue | undefined, types: DataTypes, path: string, depth: number): Value {
  if (v === undefined) return misfit(path, 'missing');
  if (depth > MAX_NESTING) return misfit(path, `values nest deeper than ${MAX_NESTING}`);
  const s = v.sum;
  switch (s.oneofKind) {
    case 'unit':
      return UNIT;
    case 'bool':
      return { kind: 'bool', value: s.bool };
    case 'int64': {
      if (!INT64_TEXT.test(s.int64)) return misfit(path, `'${s.int64.slice(0, 30)}' is not an Int64`);
      const n = BigInt(s.int64);
      return n >= -(2n ** 63n) && n < 2n ** 63n ? { kind: 'int64', value: n } : misfit(path, 'Int64 out of range');
    }
    case 'numeric': {
      const m = NUMERIC_TEXT.exec(s.numeric);
      if (m === null) return misfit(path, `'${s.numeric.slice(0, 50)}' is not a Numeric in Canton's form (digits, a point, the scale's digits)`);
      const [, sign, int, frac] = m as unknown as [string, string, string, string];
      const scale = frac.length;
      const unscaled = BigInt(int + frac);
      if (scale > 37 || unscaled.toString().length > MAX_PRECISION) return misfit(path, `'${s.numeric.slice(0, 50)}' exceeds Numeric's 38 digits`);
      return { kind: 'numeric', scale, unscaled: sign === '-' ? -unscaled : unscaled };
    }
    case 'text':
      return { kind: 'text', value: s.text };
    case 'party':
      return { kind: 'party', value: s.party };
    case 'contractId':
      return HEX_CONTRACT_ID.test(s.contractId) ? { kind: 'contractId', value: s.contractId } : misfit(path, 'a contract id that is not hex');
    case 'date':
      return isValidDate(s.date) ? { kind: 'date', days: s.date } : misfit(path, 'a date outside 0001-01-01..9999-12-31');
    case 'timestamp': {
      if (!INT64_TEXT.test(s.timestamp)) return misfit(path, `'${s.timestamp.slice(0, 30)}' is not a timestamp in microseconds`);
      const micros = BigInt(s.timestamp);
      return isValidTimestamp(micros) ? { kind: 'timestamp', micros } : misfit(path, 'a timestamp outside 0001-9999');
    }
    case 'optional':
      return s.optional.value === undefined ? NONE : { kind: 'optional', value: decode(s.optional.value, types, `${path}?`, depth + 1) };
    case 'list':
      return listOf(s.list.elements.map((e, i) => decode(e, types, `${path}[${i}]`, depth + 1)));
    case 'textMap': {
      const keys = new Set<string>();
      const entries = s.textMap.entries.map((e): [string, Value] => {
        if (keys.has(e.key)) misfit(path, `the key '${e.key.slice(0, 40)}' appears twice`);
        keys.add(e.key);
        return [e.key, decode(e.value, types, `${path}.${e.key}`, depth + 1)];
      });
      return textMapOf(entries);
    }
    case 'genMap': {
      let map = EMPTY_GEN_MAP;
      s.genMap.entries.forEach((e, i) => {
        const k = decode(e.key, types, `${path}{${i}}.key`, depth + 1);
        if (genMapLookup(map, k) !== undefined) misfit(path, `entry ${i} repeats a key`);
        map = genMapInsert(map, k, decode(e.value, types, `${path}{${i}}.value`, depth + 1));
      });
      return map;
    }
    case 'record': {
      const tycon = tyconOf(s.record.recordId, 'record', path);
      const def = types.dataType(tycon);
      if (def?.kind !== 'record') return misfit(path, `${tycon.module}:${tycon.name} is not a known record type`);
      const given = s.record.fields;
      if (given.length > def.fields.length) return misfit(path, `${given.length} fields for a record of ${def.fields.length}`);
      const fields = def.fields.map((f, i): Value => {
        const g = given[i];
        if (g === undefined) return isOptionalType(f.type) ? NONE : misfit(`${path}.${f.name}`, 'a non-optional field is missing');
        if (g.label !== '' && g.label !== f.name) return misfit(path, `field ${i} is '${g.label.slice(0, 40)}', the definition's is '${f.name}'`);
        return decode(g.value, types, `${path}.${f.name}`, depth + 1);
      });
      return { kind: 'record', tycon, fieldNames: def.fields.map((f) => f.name), fields };
    }
    case 'variant': {
      const tycon = tyconOf(s.variant.variantId, 'variant', path);
      const def = types.dataType(tycon);
      if (def?.kind !== 'variant') return misfit(path, `${tycon.module}:${tycon.name} is not a known variant type`);
      const rank = def.constructors.findIndex((c) => c.name === s.variant.constructor);
      if (rank < 0) return misfit(path, `'${s.variant.constructor.slice(0, 40)}' is not a constructor of ${tycon.name}`);
      return { kind: 'variant', tycon, constructor: s.variant.constructor, rank, value: decode(s.variant.value, types, `${path}.${s.variant.constructor}`, depth + 1) };
    }
    case 'enum': {
      const tycon = tyconOf(s.enum.enumId, 'enum', path);
      const def = types.dataType(tycon);
      if (def?.kind !== 'enum') return misfit(path, `${tycon.module}:${tycon.name} is not a known enum type`);
      const rank = def.constructors.indexOf(s.enum.constructor);
      if (rank < 0) return misfit(path, `'${s.enum.constructor.slice(0, 40)}' is not a constructor of ${tycon.name}`);
      return { kind: 'enum', tycon, constructor: s.enum.constructor, rank };
    }
    default:
      return misfit(path, 'a value of no known kind');
  }
}
