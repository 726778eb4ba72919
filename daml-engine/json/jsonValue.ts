/**
 * Daml-LF values in the JSON Ledger API's encoding, converted by their Daml-LF type in both
 * directions (the "Daml-LF JSON encoding"): records as objects (arrays accepted on input),
 * Int64 and Numeric as strings (numbers accepted on input), Optional as the value or null, an
 * Optional of an Optional as an array at every level ([] / [x]), records without their trailing
 * None fields (as Canton 3.5's codec writes them), lists as arrays, TextMap as objects, GenMap as [[k, v], ...],
 * variants as {tag, value}, enums as strings, Unit as {}, Date as YYYY-MM-DD, Timestamp as
 * ISO 8601 in UTC with 0, 3 or 6 fraction digits.
 *
 * Decoding never throws: a value that does not fit its type is a problem naming the JSON path.
 */
import type { QualifiedName, Type } from '../ast/Type.js';
import { EMPTY_GEN_MAP, genMapInsert, genMapLookup, textMapOf } from '../value/maps.js';
import { numericToScaledText, textToNumeric } from '../value/numeric.js';
import { dateToText, daysFromCivil, isValidDate, isValidTimestamp, timestampToText } from '../value/time.js';
import { int64, listItems, listOf, NONE, some, UNIT, type Value } from '../value/Value.js';
import { showTycon, type DataTypes } from './DataTypes.js';

export interface JsonProblem {
  /** Where in the JSON value, e.g. `amount` or `legs[2].receiver`. */
  readonly path: string;
  readonly message: string;
}

export type Decoded = { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly problem: JsonProblem };

type Json = unknown;

const PARTY = /^[a-zA-Z0-9:\-_ ]{1,255}$/;
const CONTRACT_ID = /^[0-9a-f]{2,512}$/;
const INT64_TEXT = /^[+-]?\d+$/;
const NUMERIC_TEXT = /^[+-]?\d+(\.\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z$/;

const good = (value: Value): { readonly ok: true; readonly value: Value } => ({ ok: true, value });
const bad = (path: string, message: string): Decoded => ({ ok: false, problem: { path, message } });
const at = (path: string, field: string): string => (path === '' ? field : `${path}.${field}`);
const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const short = (v: Json): string => {
  let s: string;
  try { s = typeof v === 'string' ? v : (JSON.stringify(v) ?? typeof v); } catch { s = typeof v; }
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};

/** Replaces type variables by their arguments (a definition's field types under its parameters). */
function substitute(type: Type, env: ReadonlyMap<string, Type>): Type {
  if (env.size === 0) return type;
  switch (type.kind) {
    case 'var': {
      const t = env.get(type.name);
      if (t === undefined) return type.args.length === 0 ? type : { ...type, args: type.args.map((a) => substitute(a, env)) };
      return type.args.reduce<Type>((lhs, rhs) => ({ kind: 'app', lhs, rhs: substitute(rhs, env) }), t);
    }
    case 'con': return { ...type, args: type.args.map((a) => substitute(a, env)) };
    case 'syn': return { ...type, args: type.args.map((a) => substitute(a, env)) };
    case 'builtin': return { ...type, args: type.args.map((a) => substitute(a, env)) };
    case 'struct': return { ...type, fields: type.fields.map((f) => ({ name: f.name, type: substitute(f.type, env) })) };
    case 'app': return { kind: 'app', lhs: substitute(type.lhs, env), rhs: substitute(type.rhs, env) };
    case 'forall':
    case 'nat':
      return type;
  }
}

/**
 * A type with applications folded into its head (`app(con T, x)` becomes `con T [x]`) and
 * synonyms expanded, so the codec sees one shape per type.
 */
function normalize(type: Type, types: DataTypes): Type {
  let t = type;
  const pending: Type[] = [];
  while (t.kind === 'app') { pending.unshift(t.rhs); t = t.lhs; }
  if (pending.length > 0) {
    if (t.kind === 'con' || t.kind === 'builtin' || t.kind === 'syn' || t.kind === 'var') t = { ...t, args: [...t.args, ...pending] };
  }
  if (t.kind === 'syn') {
    const syn = types.synonym?.(t.tysyn);
    if (syn === undefined) return t;
    return normalize(substitute(syn.type, new Map(syn.params.map((p, i) => [p, t.args[i]!] as const))), types);
  }
  return t;
}

const NO_BINDINGS: ReadonlyMap<string, Type> = new Map();

function bindings(params: readonly string[], args: readonly Type[]): ReadonlyMap<string, Type> {
  // Most data types take no parameters: share one empty map instead of one per value.
  if (params.length === 0) return NO_BINDINGS;
  return new Map(params.map((p, i) => [p, args[i] ?? { kind: 'var', name: p, args: [] }] as const));
}

/**
 * Decoding inside: a failure carries its path as segments, innermost first, each added while
 * unwinding, so a value that decodes builds no path strings at all.
 */
interface Failure {
  readonly ok: false;
  readonly message: string;
  /** Field names and list indexes, innermost first. */
  readonly segments: (string | number)[];
}
type Step = { readonly ok: true; readonly value: Value } | Failure;

const fail = (message: string): Failure => ({ ok: false, message, segments: [] });
const within = (failure: Failure, segment: string | number): Failure => {
  failure.segments.push(segment);
  return failure;
};
/** The path of a failure below `path`, as the forward rule would have built it (`a.b[2].c`). */
function render(path: string, segments: readonly (string | number)[]): string {
  let p = path;
  for (let i = segments.length - 1; i >= 0; i--) {
    const s = segments[i]!;
    p = typeof s === 'number' ? `${p}[${s}]` : at(p, s);
  }
  return p;
}

/** Field names of a record definition, computed once per definition (values share the array). */
const fieldNamesOf = new WeakMap<object, readonly string[]>();
function fieldNames(def: { readonly fields: readonly { readonly name: string }[] }): readonly string[] {
  let names = fieldNamesOf.get(def);
  if (names === undefined) {
    names = def.fields.map((f) => f.name);
    fieldNamesOf.set(def, names);
  }
  return names;
}

/** The JSON value of type `type` as a Daml-LF value, or the problem with it. */
export function decodeJson(type: Type, json: Json, types: DataTypes, path = ''): Decoded {
  const r = decode(type, json, types);
  return r.ok ? r : bad(render(path, r.segments), r.message);
}

function decode(type: Type, json: Json, types: DataTypes): Step {
  const t = normalize(type, types);
  switch (t.kind) {
    case 'builtin': return decodeBuiltin(t.builtin, t.args, json, types);
    case 'con': return decodeCon(t.tycon, t.args, json, types);
    default: return fail(`a value of type '${t.kind}' cannot be given in JSON`);
  }
}

function decodeBuiltin(builtin: string, args: readonly Type[], json: Json, types: DataTypes): Step {
  switch (builtin) {
    case 'UNIT':
      return isObject(json) && ownKeyCount(json) === 0 ? good(UNIT) : fail('expected Unit ({})');
    case 'BOOL':
      return typeof json === 'boolean' ? good({ kind: 'bool', value: json }) : fail('expected a boolean');
    case 'TEXT':
      return typeof json === 'string' ? good({ kind: 'text', value: json }) : fail('expected a text string');
    case 'PARTY':
      if (typeof json !== 'string') return fail('expected a party id string');
      return PARTY.test(json) ? good({ kind: 'party', value: json }) : fail(`invalid party id '${short(json)}'`);
    case 'CONTRACT_ID':
      return typeof json === 'string' && CONTRACT_ID.test(json) ? good({ kind: 'contractId', value: json }) : fail('expected a contract id (hex string)');
    case 'INT64': {
      const s = typeof json === 'number' && Number.isSafeInteger(json) ? String(json) : json;
      if (typeof s !== 'string' || !INT64_TEXT.test(s)) return fail('expected an Int64 (a string of digits)');
      const n = BigInt(s);
      return n >= -(2n ** 63n) && n < 2n ** 63n ? good(int64(n)) : fail(`Int64 '${short(s)}' out of range`);
    }
    case 'NUMERIC': {
      const scale = natOf(args[0]);
      if (scale === undefined) return fail('a Numeric of unknown scale');
      const s = typeof json === 'number' && Number.isFinite(json) ? String(json) : json;
      if (typeof s !== 'string' || !NUMERIC_TEXT.test(s)) return fail(`invalid Numeric '${short(json)}'`);
      const n = textToNumeric(scale, s);
      return n === undefined ? fail(`Numeric '${short(s)}' does not fit Numeric ${scale}`) : good(n);
    }
    case 'DATE': {
      const m = typeof json === 'string' ? DATE.exec(json) : null;
      if (m === null) return fail('expected a date YYYY-MM-DD');
      const days = civilDays(Number(m[1]), Number(m[2]), Number(m[3]));
      return days === undefined ? fail(`invalid date '${short(json)}'`) : good({ kind: 'date', days });
    }
    case 'TIMESTAMP': {
      const micros = typeof json === 'string' ? parseTimestamp(json) : undefined;
      return micros === undefined ? fail('expected a timestamp yyyy-mm-ddThh:mm:ss[.ssssss]Z in 0001-9999') : good({ kind: 'timestamp', micros });
    }
    case 'LIST': {
      if (!Array.isArray(json)) return fail('expected a list');
      const items: Value[] = [];
      for (let i = 0; i < json.length; i++) {
        const r = decode(args[0]!, json[i], types);
        if (!r.ok) return within(r, i);
        items.push(r.value);
      }
      return good(listOf(items));
    }
    case 'OPTIONAL': return decodeOptional(args[0]!, json, types);
    case 'TEXTMAP': {
      if (!isObject(json)) return fail('expected a text map (object)');
      const entries: [string, Value][] = [];
      for (const [k, v] of Object.entries(json)) {
        const r = decode(args[0]!, v, types);
        if (!r.ok) return within(r, k);
        entries.push([k, r.value]);
      }
      return good(textMapOf(entries));
    }
    case 'GENMAP': {
      if (!Array.isArray(json)) return fail('expected a map as a list of [key, value] pairs');
      let map = EMPTY_GEN_MAP;
      for (let i = 0; i < json.length; i++) {
        const pair: Json = json[i];
        if (!Array.isArray(pair) || pair.length !== 2) return within(fail('expected a [key, value] pair'), i);
        const k = decode(args[0]!, pair[0], types);
        if (!k.ok) return within(within(k, 0), i);
        const v = decode(args[1]!, pair[1], types);
        if (!v.ok) return within(within(v, 1), i);
        if (genMapLookup(map, k.value) !== undefined) return within(within(fail('duplicate key in map'), 0), i);
        map = genMapInsert(map, k.value, v.value);
      }
      return good(map);
    }
    default:
      return fail(`a value of type ${builtin} cannot be given in JSON`);
  }
}

/**
 * An Optional: null or the value; an Optional of an Optional is an array at every level, the top
 * one included ([] None, [[]] Some None, [[x]] Some (Some x)), as Canton's JSON Ledger API codec
 * (transcode's JsonCodec, OptionalProcessor) reads and writes it. null is taken for None there too.
 */
function decodeOptional(inner: Type, json: Json, types: DataTypes): Step {
  if (json === null || json === undefined) return good(NONE);
  if (isOptional(inner, types)) return decodeNestedOptional(inner, json, types);
  const r = decode(inner, json, types);
  return r.ok ? good(some(r.value)) : r;
}

/** An Optional of `elem` in the nested form: [] for None, [x] for Some x, x nested again if `elem` is an Optional. */
function decodeNestedOptional(elem: Type, json: Json, types: DataTypes): Step {
  if (!Array.isArray(json) || json.length > 1) return fail('expected a nested optional as [] or [value]');
  if (json.length === 0) return good(NONE);
  const r = isOptional(elem, types) ? decodeNestedOptional(typeArg(normalize(elem, types), 0), json[0], types) : decode(elem, json[0], types);
  return r.ok ? good(some(r.value)) : within(r, 0);
}

function isOptional(type: Type, types: DataTypes): boolean {
  const t = normalize(type, types);
  return t.kind === 'builtin' && t.builtin === 'OPTIONAL';
}

function decodeCon(tycon: QualifiedName, args: readonly Type[], json: Json, types: DataTypes): Step {
  const def = types.dataType(tycon);
  if (def === undefined) return fail(`unknown data type ${showTycon(tycon)}`);
  switch (def.kind) {
    case 'enum': {
      const rank = typeof json === 'string' ? def.constructors.indexOf(json) : -1;
      if (rank < 0) return fail(`expected one of ${def.constructors.join(', ')}`);
      return good({ kind: 'enum', tycon, constructor: def.constructors[rank]!, rank });
    }
    case 'variant': {
      if (!isObject(json) || typeof json.tag !== 'string') return fail('expected a variant {tag, value}');
      const tag = json.tag;
      const rank = def.constructors.findIndex((c) => c.name === tag);
      if (rank < 0) return fail(`unknown variant constructor '${short(tag)}'`);
      const env = bindings(def.params, args);
      const r = decode(substitute(def.constructors[rank]!.type, env), json.value, types);
      return r.ok ? good({ kind: 'variant', tycon, constructor: tag, rank, value: r.value }) : within(r, 'value');
    }
    case 'record': {
      const env = bindings(def.params, args);
      const names = fieldNames(def);
      const fields: Value[] = [];
      if (Array.isArray(json)) {
        if (json.length !== def.fields.length) return fail(`expected a record of ${def.fields.length} fields`);
        for (let i = 0; i < def.fields.length; i++) {
          const r = decode(substitute(def.fields[i]!.type, env), json[i], types);
          if (!r.ok) return within(r, i);
          fields.push(r.value);
        }
        return good({ kind: 'record', tycon, fieldNames: names, fields });
      }
      if (!isObject(json)) return fail('expected a record (JSON object)');
      let given = 0;
      for (const f of def.fields) {
        const type = substitute(f.type, env);
        const present = Object.hasOwn(json, f.name);
        if (present) given++;
        else if (!isOptional(type, types)) return within(fail(`missing non-optional field '${f.name}'`), f.name);
        const r = decode(type, present ? json[f.name] : null, types);
        if (!r.ok) return within(r, f.name);
        fields.push(r.value);
      }
      // Smart-contract upgrades: a value of a newer version may carry fields this one lacks, if they are None.
      // Only when the object has keys beyond the fields found is there anything to check.
      if (ownKeyCount(json) !== given) {
        for (const name of Object.keys(json)) {
          if (!names.includes(name) && json[name] !== null) return within(fail(`unexpected field '${short(name)}' (only an Optional field that is None may be dropped)`), name);
        }
      }
      return good({ kind: 'record', tycon, fieldNames: names, fields });
    }
  }
}

/** How many own enumerable keys `o` has, without the array `Object.keys` makes (every record decoded asks). */
function ownKeyCount(o: Record<string, Json>): number {
  let n = 0;
  for (const k in o) if (Object.hasOwn(o, k)) n++;
  return n;
}

/** The Daml-LF value as JSON by its type (the JSON API's output form). */
export function encodeJson(value: Value, type: Type, types: DataTypes): Json {
  const t = normalize(type, types);
  switch (value.kind) {
    case 'nil':
    case 'cons': {
      const item = typeArg(t, 0);
      return listItems(value).map((v) => encodeJson(v, item, types));
    }
    case 'optional': {
      const inner = typeArg(t, 0);
      if (isOptional(inner, types)) return encodeNested(value, t, types);
      return value.value === undefined ? null : encodeJson(value.value, inner, types);
    }
    case 'textMap': {
      const item = typeArg(t, 0);
      const out: Record<string, Json> = {};
      for (const [k, v] of value.entries) put(out, k, encodeJson(v, item, types));
      return out;
    }
    case 'genMap': return value.entries.map(([k, v]) => [encodeJson(k, typeArg(t, 0), types), encodeJson(v, typeArg(t, 1), types)]);
    case 'enum': return value.constructor;
    case 'variant': {
      const def = types.dataType(value.tycon);
      const ctor = def?.kind === 'variant' ? def.constructors[value.rank] : undefined;
      const argType = ctor === undefined || def?.kind !== 'variant' ? undefined : substitute(ctor.type, bindings(def.params, t.kind === 'con' ? t.args : []));
      return { tag: value.constructor, value: argType === undefined ? encodeUntyped(value.value) : encodeJson(value.value, argType, types) };
    }
    case 'record': {
      const def = types.dataType(value.tycon);
      const env = def?.kind === 'record' ? bindings(def.params, t.kind === 'con' ? t.args : []) : new Map<string, Type>();
      const names = value.fieldNames;
      const jsons: Json[] = [];
      for (let i = 0; i < names.length; i++) {
        const fieldType = def?.kind === 'record' ? def.fields[i]?.type : undefined;
        const v = value.fields[i]!;
        jsons.push(fieldType === undefined ? encodeUntyped(v) : encodeJson(v, substitute(fieldType, env), types));
      }
      // Trailing Nones left out, as the JSON Ledger API writes a record (see `shownFieldCount`).
      const out: Record<string, Json> = {};
      for (let i = 0, n = shownFieldCount(jsons); i < n; i++) put(out, names[i]!, jsons[i]!);
      return out;
    }
    default:
      // Scalars, enums and what JSON cannot carry need no type.
      return encodeUntyped(value);
  }
}

/**
 * `JSON.stringify(encodeJson(value, type, types))`, written straight as text: no object per
 * record, list and optional, and no second pass over them. What `JSON.parse` makes of it is what
 * `encodeJson` makes (the engine thread sends every value this way; a key's place among a map's
 * keys is JavaScript's either way, as both come to the ledger as objects).
 */
export function encodeJsonText(value: Value, type: Type, types: DataTypes): string {
  const t = normalize(type, types);
  switch (value.kind) {
    case 'nil': return '[]';
    case 'cons': {
      const item = typeArg(t, 0);
      let out = '[';
      let first = true;
      for (let c: Value = value; c.kind === 'cons'; c = c.tail) {
        out += (first ? '' : ',') + encodeJsonText(c.head, item, types);
        first = false;
      }
      return out + ']';
    }
    case 'optional': {
      const inner = typeArg(t, 0);
      if (isOptional(inner, types)) return nestedText(value, t, types);
      return value.value === undefined ? 'null' : encodeJsonText(value.value, inner, types);
    }
    case 'textMap': {
      const item = typeArg(t, 0);
      let out = '{';
      for (let i = 0; i < value.entries.length; i++) {
        const [k, v] = value.entries[i]!;
        out += (i === 0 ? '' : ',') + quoted(k) + ':' + encodeJsonText(v, item, types);
      }
      return out + '}';
    }
    case 'genMap': {
      let out = '[';
      for (let i = 0; i < value.entries.length; i++) {
        const [k, v] = value.entries[i]!;
        out += (i === 0 ? '[' : ',[') + encodeJsonText(k, typeArg(t, 0), types) + ',' + encodeJsonText(v, typeArg(t, 1), types) + ']';
      }
      return out + ']';
    }
    case 'enum': return quoted(value.constructor);
    case 'variant': {
      const def = types.dataType(value.tycon);
      const ctor = def?.kind === 'variant' ? def.constructors[value.rank] : undefined;
      const argType = ctor === undefined || def?.kind !== 'variant' ? undefined : substitute(ctor.type, bindings(def.params, t.kind === 'con' ? t.args : []));
      return `{"tag":${quoted(value.constructor)},"value":${argType === undefined ? untypedText(value.value) : encodeJsonText(value.value, argType, types)}}`;
    }
    case 'record': {
      const def = types.dataType(value.tycon);
      const env = def?.kind === 'record' ? bindings(def.params, t.kind === 'con' ? t.args : []) : NO_BINDINGS;
      const keys = keysOf(value.fieldNames);
      const texts: string[] = [];
      for (let i = 0; i < keys.length; i++) {
        const fieldType = def?.kind === 'record' ? def.fields[i]?.type : undefined;
        const v = value.fields[i]!;
        texts.push(fieldType === undefined ? untypedText(v) : encodeJsonText(v, substitute(fieldType, env), types));
      }
      let out = '{';
      for (let i = 0, n = shownFieldCount(texts, 'null'); i < n; i++) out += keys[i]! + texts[i]!;
      return out + '}';
    }
    default:
      return untypedText(value);
  }
}

/** `encodeNested` as text. */
function nestedText(value: Value, type: Type, types: DataTypes): string {
  const t = normalize(type, types);
  if (t.kind !== 'builtin' || t.builtin !== 'OPTIONAL' || value.kind !== 'optional') return encodeJsonText(value, t, types);
  return value.value === undefined ? '[]' : `[${nestedText(value.value, t.args[0]!, types)}]`;
}

/**
 * How many of a record's fields the JSON shows: all but its trailing Nones (the fields after the
 * last one whose JSON is not null). Canton writes values in normal form ("Value normalization in
 * Ledger API responses", Daml 3.3 on), and its JSON codec leaves trailing nulls out
 * (SchemaProcessorsImpl: JsonCodec(removeTrailingNonesInRecords = true)); a nested Optional's
 * None is [] and stays. Takes the fields' JSON values, or their texts with `none` 'null'.
 */
function shownFieldCount(fields: readonly Json[], none: Json = null): number {
  let n = fields.length;
  while (n > 0 && fields[n - 1] === none) n--;
  return n;
}

/** `encodeUntyped` as text: scalars directly, anything else through its JSON. */
function untypedText(value: Value): string {
  switch (value.kind) {
    case 'unit': return '{}';
    case 'bool': return value.value ? 'true' : 'false';
    case 'int64': return `"${value.value.toString()}"`;
    case 'text':
    case 'party':
    case 'contractId':
      return quoted(value.value);
    // Digits, signs, dots, dashes and colons: nothing to escape.
    case 'numeric': return `"${numericToScaledText(value)}"`;
    case 'date': return `"${dateToText(value.days)}"`;
    case 'timestamp': return `"${timestampToText(value.micros)}"`;
    default: return JSON.stringify(encodeUntyped(value));
  }
}

/**
 * A string as JSON text. JSON.stringify escapes quotes, backslashes, control characters and lone
 * surrogates: most strings hold none (the scan is cheaper than JSON.stringify), and any surrogate
 * sends the string to JSON.stringify, which knows a pair from a lone one.
 */
function quoted(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/** Each field's `"name":` of a record type, by its field names (shared by every value of the type). */
const fieldKeys = new WeakMap<readonly string[], readonly string[]>();
function keysOf(names: readonly string[]): readonly string[] {
  let keys = fieldKeys.get(names);
  if (keys === undefined) fieldKeys.set(names, (keys = names.map((n, i) => `${i === 0 ? '' : ','}${JSON.stringify(n)}:`)));
  return keys;
}

/** Sets an own property; only `__proto__` needs defining (assigning it would set the prototype). */
function put(out: Record<string, Json>, key: string, value: Json): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** A value of an Optional-of-Optional type, each Optional level an array ([] None, [x] Some x); the innermost value as usual. */
function encodeNested(value: Value, type: Type, types: DataTypes): Json {
  const t = normalize(type, types);
  if (t.kind !== 'builtin' || t.builtin !== 'OPTIONAL' || value.kind !== 'optional') return encodeJson(value, t, types);
  return value.value === undefined ? [] : [encodeNested(value.value, t.args[0]!, types)];
}

/** Without a type (a definition the caller could not give): the unambiguous shapes only. */
function encodeUntyped(value: Value): Json {
  switch (value.kind) {
    case 'optional': return value.value === undefined ? null : encodeUntyped(value.value);
    case 'nil':
    case 'cons': return listItems(value).map(encodeUntyped);
    case 'record': return Object.fromEntries(value.fieldNames.map((n, i) => [n, encodeUntyped(value.fields[i]!)]));
    case 'variant': return { tag: value.constructor, value: encodeUntyped(value.value) };
    case 'textMap': return Object.fromEntries(value.entries.map(([k, v]) => [k, encodeUntyped(v)]));
    case 'genMap': return value.entries.map(([k, v]) => [encodeUntyped(k), encodeUntyped(v)]);
    case 'unit': return {};
    case 'bool': return value.value;
    case 'int64': return value.value.toString();
    case 'numeric': return numericToScaledText(value);
    case 'text':
    case 'party':
    case 'contractId':
      return value.value;
    case 'date': return dateToText(value.days);
    case 'timestamp': return timestampToText(value.micros);
    case 'enum': return value.constructor;
    default: return null;
  }
}

function typeArg(t: Type, i: number): Type {
  const args = t.kind === 'builtin' || t.kind === 'con' ? t.args : [];
  return args[i] ?? { kind: 'builtin', builtin: 'UNIT', args: [] };
}

function natOf(t: Type | undefined): number | undefined {
  return t?.kind === 'nat' ? t.value : undefined;
}

function civilDays(year: number, month: number, day: number): number | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const days = daysFromCivil(year, month, day);
  // A day the month does not have (2025-02-30) lands in the next month.
  if (dateToText(days) !== `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`) return undefined;
  return isValidDate(days) ? days : undefined;
}

/** Microseconds of `yyyy-mm-ddThh:mm:ss[.fraction]Z` (digits past microseconds dropped). */
export function parseTimestamp(text: string): bigint | undefined {
  const m = TIMESTAMP.exec(text);
  if (m === null) return undefined;
  const days = civilDays(Number(m[1]), Number(m[2]), Number(m[3]));
  const [h, min, s] = [Number(m[4]), Number(m[5]), Number(m[6])];
  if (days === undefined || h > 23 || min > 59 || s > 59) return undefined;
  const micros = (BigInt(days) * 86_400n + BigInt(h * 3600 + min * 60 + s)) * 1_000_000n + BigInt((m[7] ?? '').padEnd(6, '0').slice(0, 6));
  return isValidTimestamp(micros) ? micros : undefined;
}
