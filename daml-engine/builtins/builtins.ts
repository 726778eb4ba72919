/**
 * The first-order builtin functions of Daml-LF 2 (daml-lf-2.rst "Built-in functions"), with the
 * semantics of the specification and, where it is silent (text forms, error messages), of Daml's
 * own engine: an ArithmeticError's message is `ArithmeticError while evaluating (NAME args).`
 * with the arguments printed as Daml prints literals.
 *
 * The BigNumeric builtins exist only in Daml-LF 2.dev (no released package uses them) and are not
 * here: the evaluator reports a package that calls one as unsupported.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import type { BuiltinFailure, BuiltinName, BuiltinOutcome, FirstOrderBuiltin } from './Builtin.js';
import { compareValues, equalValues, ValueCrash } from '../value/compare.js';
import { tyconName } from '../value/compareTypes.js';
import { keccak256 } from '../value/keccak256.js';
import {
  EMPTY_GEN_MAP, EMPTY_TEXT_MAP, genMapDelete, genMapInsert, genMapLookup, textMapDelete,
  textMapInsert, textMapLookup,
} from '../value/maps.js';
import {
  addNumeric, castNumeric, divNumeric, int64ToNumeric, mulNumeric, numericToInt64,
  numericToText, roundNumeric, shiftNumeric, subNumeric, textToNumeric,
} from '../value/numeric.js';
import { codePoints, isScalarValue } from '../value/text.js';
import { dateToText, isValidDate, isValidTimestamp, timestampToText } from '../value/time.js';
import {
  bool, int64, listItems, listOf, NIL, NONE, some, text,
  type FailureCategory, type ListValue, type NumericValue, type Value,
} from '../value/Value.js';

const MIN_INT64 = -(2n ** 63n);
const MAX_INT64 = 2n ** 63n - 1n;
const inInt64 = (x: bigint): boolean => x >= MIN_INT64 && x <= MAX_INT64;

/** An argument of the wrong kind: the package or the evaluator is broken. */
class WrongArgument extends Error {}

function arg<K extends Value['kind']>(args: readonly Value[], i: number, kind: K): Extract<Value, { kind: K }> {
  const v = args[i];
  if (v === undefined || v.kind !== kind) throw new WrongArgument(`type mismatch of argument ${i}: expected ${kind}, got ${v?.kind ?? 'nothing'}`);
  return v as Extract<Value, { kind: K }>;
}

const int = (args: readonly Value[], i: number): bigint => arg(args, i, 'int64').value;
const str = (args: readonly Value[], i: number): string => arg(args, i, 'text').value;

/** The texts of one ASCII character, shared (values are immutable): EXPLODE_TEXT makes one a character. */
const ASCII_TEXTS: readonly Value[] = Array.from({ length: 128 }, (_, c) => text(String.fromCharCode(c)));

/**
 * EXPLODE_TEXT: the list of a text's characters, one per code point (a surrogate pair is one, a
 * lone surrogate one too, as JS's string iterator splits), built back to front in one pass.
 */
function explodeText(s: string): ListValue {
  let list: ListValue = NIL;
  let end = s.length;
  while (end > 0) {
    const unit = s.charCodeAt(end - 1);
    if (unit < 128) {
      list = { kind: 'cons', head: ASCII_TEXTS[unit]!, tail: list };
      end--;
      continue;
    }
    let start = end - 1;
    if (unit >= 0xdc00 && unit <= 0xdfff && start > 0) {
      const high = s.charCodeAt(start - 1);
      if (high >= 0xd800 && high <= 0xdbff) start--;
    }
    list = { kind: 'cons', head: text(s.slice(start, end)), tail: list };
    end = start;
  }
  return list;
}
const num = (args: readonly Value[], i: number): NumericValue => arg(args, i, 'numeric');
/** The scale carried by a scale witness (a `Numeric α` argument whose value is ignored). */
const scaleOf = (args: readonly Value[], i: number): number => num(args, i).scale;

function list(args: readonly Value[], i: number): ListValue {
  const v = args[i];
  if (v === undefined || (v.kind !== 'nil' && v.kind !== 'cons')) throw new WrongArgument(`type mismatch of argument ${i}: expected a list, got ${v?.kind ?? 'nothing'}`);
  return v;
}

/** How Daml prints a literal argument in an ArithmeticError message. */
function literalText(v: Value): string {
  switch (v.kind) {
    case 'bool': return String(v.value);
    case 'int64': return v.value.toString();
    case 'timestamp': return timestampToText(v.micros);
    case 'text':
    case 'party': return v.value;
    case 'unit': return '<unit>';
    case 'date': return dateToText(v.days);
    case 'numeric':
    case 'bigNumeric': return numericToText(v);
    default: throw new WrongArgument(`cannot print a ${v.kind} as a literal`);
  }
}

const ok = (value: Value): BuiltinOutcome => ({ ok: true, value });
const fail = (failure: BuiltinFailure): BuiltinOutcome => ({ ok: false, failure });

/** A builtin that throws ArithmeticError when its computation has no result. */
function arithmetic(name: BuiltinName, arity: number, compute: (args: readonly Value[]) => Value | undefined): FirstOrderBuiltin {
  return {
    arity,
    apply(args) {
      const value = compute(args);
      if (value !== undefined) return ok(value);
      return fail({ kind: 'arithmetic', message: `ArithmeticError while evaluating (${name} ${args.map(literalText).join(' ')}).` });
    },
  };
}

function pure(arity: number, compute: (args: readonly Value[]) => Value): FirstOrderBuiltin {
  return { arity, apply: (args) => ok(compute(args)) };
}

const int64Op = (op: (x: bigint, y: bigint) => bigint | undefined) => (args: readonly Value[]): Value | undefined => {
  const r = op(int(args, 0), int(args, 1));
  return r !== undefined && inInt64(r) ? int64(r) : undefined;
};

/** EXP_INT64 by squaring, failing as soon as an intermediate product leaves Int64 (as Daml does). */
function expInt64(base: bigint, exponent: bigint): bigint | undefined {
  if (exponent < 0n) return undefined;
  if (exponent === 0n) return 1n;
  let x = base;
  let y = 1n;
  let n = exponent;
  while (n > 1n) {
    if (n % 2n === 1n) { y *= x; if (!inInt64(y)) return undefined; }
    x *= x;
    if (!inInt64(x)) return undefined;
    n >>= 1n;
  }
  return x * y;
}

const HEX = /^(?:[0-9a-f]{2})*$/;

function hexBytes(hex: string, what: string): Buffer {
  if (!HEX.test(hex)) throw new CryptoInputError(`Malformed byte encoding "${hex}": can not parse ${what}`);
  return Buffer.from(hex, 'hex');
}

/** Bad input to a crypto builtin: an interpretation error in Daml, reported as an unrecoverable error. */
class CryptoInputError extends Error {}

function secp256k1Key(hex: string) {
  const der = hexBytes(hex, 'DER encoded public key hex string');
  try {
    return createPublicKey({ key: der, format: 'der', type: 'spki' });
  } catch (e) {
    throw new CryptoInputError(`Malformed key "${hex}": ${(e as Error).message}`);
  }
}

/**
 * ECDSA over secp256k1: SECP256K1_BOOL hashes the message with SHA-256 before verifying;
 * SECP256K1_WITH_ECDSA_BOOL verifies a message that is already a digest.
 */
function secp256k1Verify(args: readonly Value[], prehashed: boolean): Value {
  const signature = hexBytes(str(args, 0), 'signature hex string');
  const message = hexBytes(str(args, 1), 'message hex string');
  const key = secp256k1Key(str(args, 2));
  if (key.asymmetricKeyDetails?.namedCurve !== 'secp256k1') return bool(false);
  try {
    return bool(prehashed
      ? verify(null, message, { key, dsaEncoding: 'der' }, signature)
      : verify('sha256', message, { key, dsaEncoding: 'der' }, signature));
  } catch {
    return bool(false);
  }
}

const FAILURE_CATEGORIES: readonly FailureCategory[] = ['INVALID_INDEPENDENT_OF_SYSTEM_STATE', 'INVALID_GIVEN_CURRENT_SYSTEM_STATE_OTHER'];

function failureCategory(v: Value | undefined): FailureCategory {
  if (v?.kind === 'failureCategory') return v.category;
  // Daml's engine carries the category as its Int64 code.
  if (v?.kind === 'int64') {
    const c = FAILURE_CATEGORIES[Number(v.value)];
    if (c !== undefined) return c;
  }
  throw new WrongArgument(`expected a failure category, got ${v?.kind ?? 'nothing'}`);
}

const compareBuiltin = (test: (c: number) => boolean) => pure(2, (args) => bool(test(compareValues(args[0]!, args[1]!))));

const entryNames: readonly string[] = ['key', 'value'];

const TABLE: [BuiltinName, FirstOrderBuiltin][] = [
  ['ERROR', { arity: 1, apply: (args) => fail({ kind: 'error', message: str(args, 0) }) }],

  ['EQUAL', pure(2, (args) => bool(equalValues(args[0]!, args[1]!)))],
  ['LESS_EQ', compareBuiltin((c) => c <= 0)],
  ['LESS', compareBuiltin((c) => c < 0)],
  ['GREATER_EQ', compareBuiltin((c) => c >= 0)],
  ['GREATER', compareBuiltin((c) => c > 0)],

  ['ADD_INT64', arithmetic('ADD_INT64', 2, int64Op((x, y) => x + y))],
  ['SUB_INT64', arithmetic('SUB_INT64', 2, int64Op((x, y) => x - y))],
  ['MUL_INT64', arithmetic('MUL_INT64', 2, int64Op((x, y) => x * y))],
  ['DIV_INT64', arithmetic('DIV_INT64', 2, int64Op((x, y) => (y === 0n ? undefined : x / y)))],
  ['MOD_INT64', arithmetic('MOD_INT64', 2, int64Op((x, y) => (y === 0n ? undefined : x % y)))],
  ['EXP_INT64', arithmetic('EXP_INT64', 2, int64Op(expInt64))],

  ['ADD_NUMERIC', arithmetic('ADD_NUMERIC', 2, (args) => addNumeric(num(args, 0), num(args, 1)))],
  ['SUB_NUMERIC', arithmetic('SUB_NUMERIC', 2, (args) => subNumeric(num(args, 0), num(args, 1)))],
  ['MUL_NUMERIC', arithmetic('MUL_NUMERIC', 3, (args) => mulNumeric(scaleOf(args, 0), num(args, 1), num(args, 2)))],
  ['DIV_NUMERIC', arithmetic('DIV_NUMERIC', 3, (args) => divNumeric(scaleOf(args, 0), num(args, 1), num(args, 2)))],
  ['ROUND_NUMERIC', arithmetic('ROUND_NUMERIC', 2, (args) => roundNumeric(int(args, 0), num(args, 1)))],
  ['CAST_NUMERIC', arithmetic('CAST_NUMERIC', 2, (args) => castNumeric(scaleOf(args, 0), num(args, 1)))],
  ['SHIFT_NUMERIC', pure(2, (args) => shiftNumeric(scaleOf(args, 0), num(args, 1)))],
  ['INT64_TO_NUMERIC', arithmetic('INT64_TO_NUMERIC', 2, (args) => int64ToNumeric(scaleOf(args, 0), int(args, 1)))],
  ['NUMERIC_TO_INT64', arithmetic('NUMERIC_TO_INT64', 1, (args) => {
    const i = numericToInt64(num(args, 0));
    return i === undefined ? undefined : int64(i);
  })],

  ['INT64_TO_TEXT', pure(1, (args) => text(int(args, 0).toString()))],
  ['NUMERIC_TO_TEXT', pure(1, (args) => text(numericToText(num(args, 0))))],
  ['TIMESTAMP_TO_TEXT', pure(1, (args) => text(timestampToText(arg(args, 0, 'timestamp').micros)))],
  ['DATE_TO_TEXT', pure(1, (args) => text(dateToText(arg(args, 0, 'date').days)))],
  ['PARTY_TO_TEXT', pure(1, (args) => text(arg(args, 0, 'party').value))],
  ['TEXT_TO_PARTY', pure(1, (args) => {
    const t = str(args, 0);
    return /^[a-zA-Z0-9:\-_ ]{1,255}$/.test(t) ? some({ kind: 'party', value: t }) : NONE;
  })],
  ['TEXT_TO_INT64', pure(1, (args) => {
    const t = str(args, 0);
    if (!/^[+-]?[0-9]+$/.test(t)) return NONE;
    const i = BigInt(t);
    return inInt64(i) ? some(int64(i)) : NONE;
  })],
  ['TEXT_TO_NUMERIC', pure(2, (args) => {
    const n = textToNumeric(scaleOf(args, 0), str(args, 1));
    return n === undefined ? NONE : some(n);
  })],
  // On the ledger a contract id has no text form (the spec: always None in ledger code).
  ['CONTRACT_ID_TO_TEXT', pure(1, (args) => (arg(args, 0, 'contractId'), NONE))],
  ['SHA256_TEXT', pure(1, (args) => text(createHash('sha256').update(str(args, 0), 'utf8').digest('hex')))],
  ['SHA256_HEX', pure(1, (args) => text(createHash('sha256').update(hexBytes(str(args, 0), 'hex string argument')).digest('hex')))],
  ['EXPLODE_TEXT', pure(1, (args) => explodeText(str(args, 0)))],
  ['APPEND_TEXT', pure(2, (args) => text(str(args, 0) + str(args, 1)))],
  ['IMPLODE_TEXT', pure(1, (args) => text(listItems(list(args, 0)).map((t, i) => {
    if (t.kind !== 'text') throw new WrongArgument(`IMPLODE_TEXT: element ${i} is a ${t.kind}`);
    return t.value;
  }).join('')))],
  ['CODE_POINTS_TO_TEXT', {
    arity: 1,
    apply(args) {
      let out = '';
      for (const p of listItems(list(args, 0))) {
        if (p.kind !== 'int64') throw new WrongArgument(`CODE_POINTS_TO_TEXT: a ${p.kind} in the list`);
        if (!isScalarValue(p.value)) return fail({ kind: 'crash', message: `invalid code point 0x${p.value.toString(16)}.` });
        out += String.fromCodePoint(Number(p.value));
      }
      return ok(text(out));
    },
  }],
  ['TEXT_TO_CODE_POINTS', pure(1, (args) => listOf(codePoints(str(args, 0)).map((p) => int64(BigInt(p)))))],

  ['DATE_TO_UNIX_DAYS', pure(1, (args) => int64(BigInt(arg(args, 0, 'date').days)))],
  ['UNIX_DAYS_TO_DATE', arithmetic('UNIX_DAYS_TO_DATE', 1, (args) => {
    const d = int(args, 0);
    return isValidDate(d) ? { kind: 'date', days: Number(d) } : undefined;
  })],
  ['TIMESTAMP_TO_UNIX_MICROSECONDS', pure(1, (args) => int64(arg(args, 0, 'timestamp').micros))],
  ['UNIX_MICROSECONDS_TO_TIMESTAMP', arithmetic('UNIX_MICROSECONDS_TO_TIMESTAMP', 1, (args) => {
    const t = int(args, 0);
    return isValidTimestamp(t) ? { kind: 'timestamp', micros: t } : undefined;
  })],
  ['COERCE_CONTRACT_ID', pure(1, (args) => arg(args, 0, 'contractId'))],

  ['GENMAP_EMPTY', pure(0, () => EMPTY_GEN_MAP)],
  ['GENMAP_INSERT', pure(3, (args) => genMapInsert(arg(args, 2, 'genMap'), args[0]!, args[1]!))],
  ['GENMAP_LOOKUP', pure(2, (args) => {
    const v = genMapLookup(arg(args, 1, 'genMap'), args[0]!);
    return v === undefined ? NONE : some(v);
  })],
  ['GENMAP_DELETE', pure(2, (args) => genMapDelete(arg(args, 1, 'genMap'), args[0]!))],
  ['GENMAP_KEYS', pure(1, (args) => listOf(arg(args, 0, 'genMap').entries.map((e) => e[0])))],
  ['GENMAP_VALUES', pure(1, (args) => listOf(arg(args, 0, 'genMap').entries.map((e) => e[1])))],
  ['GENMAP_SIZE', pure(1, (args) => int64(BigInt(arg(args, 0, 'genMap').entries.length)))],

  ['TEXTMAP_EMPTY', pure(0, () => EMPTY_TEXT_MAP)],
  ['TEXTMAP_INSERT', pure(3, (args) => textMapInsert(arg(args, 2, 'textMap'), str(args, 0), args[1]!))],
  ['TEXTMAP_LOOKUP', pure(2, (args) => {
    const v = textMapLookup(arg(args, 1, 'textMap'), str(args, 0));
    return v === undefined ? NONE : some(v);
  })],
  ['TEXTMAP_DELETE', pure(2, (args) => textMapDelete(arg(args, 1, 'textMap'), str(args, 0)))],
  // Entries as structs ⟨key, value⟩ (field names sorted, as structs are).
  ['TEXTMAP_TO_LIST', pure(1, (args) => listOf(arg(args, 0, 'textMap').entries.map(([k, v]) => ({ kind: 'struct', fieldNames: entryNames, fields: [text(k), v] }))))],
  ['TEXTMAP_SIZE', pure(1, (args) => int64(BigInt(arg(args, 0, 'textMap').entries.length)))],

  ['FAIL_WITH_STATUS', {
    arity: 4,
    apply(args) {
      const meta = arg(args, 3, 'textMap').entries.map(([k, v]): readonly [string, string] => {
        if (v.kind !== 'text') throw new WrongArgument('FAIL_WITH_STATUS: metadata values must be text');
        return [k, v.value];
      });
      return fail({ kind: 'failWithStatus', errorId: str(args, 0), category: failureCategory(args[1]), message: str(args, 2), meta });
    },
  }],

  ['KECCAK256_TEXT', pure(1, (args) => text(Buffer.from(keccak256(hexBytes(str(args, 0), 'hex string'))).toString('hex')))],
  ['SECP256K1_BOOL', pure(3, (args) => secp256k1Verify(args, false))],
  ['SECP256K1_WITH_ECDSA_BOOL', pure(3, (args) => secp256k1Verify(args, true))],
  ['SECP256K1_VALIDATE_KEY', pure(1, (args) => bool(secp256k1Key(str(args, 0)).asymmetricKeyDetails?.namedCurve === 'secp256k1'))],
  ['TEXT_TO_HEX', pure(1, (args) => text(Buffer.from(str(args, 0), 'utf8').toString('hex')))],
  ['HEX_TO_TEXT', pure(1, (args) => text(hexBytes(str(args, 0), 'hex string argument').toString('utf8')))],

  ['TYPE_REP_TYCON_NAME', pure(1, (args) => {
    const name = tyconName(arg(args, 0, 'typeRep').type);
    return name === undefined ? NONE : some(text(name));
  })],
];

/** Catches what a builtin throws for a broken program and reports it as data. */
function guarded(builtin: FirstOrderBuiltin): FirstOrderBuiltin {
  return {
    arity: builtin.arity,
    apply(args) {
      try {
        return builtin.apply(args);
      } catch (e) {
        if (e instanceof CryptoInputError) return fail({ kind: 'error', message: e.message });
        if (e instanceof WrongArgument || e instanceof ValueCrash || e instanceof TypeError) return fail({ kind: 'crash', message: e.message });
        throw e;
      }
    },
  };
}

/** Every first-order builtin, as the ledger (an update's evaluation) runs them. */
export const BUILTINS: ReadonlyMap<BuiltinName, FirstOrderBuiltin> = new Map(TABLE.map(([name, b]) => [name, guarded(b)]));

/**
 * Off the ledger (Daml Script's own code) a contract id has a text form: CONTRACT_ID_TO_TEXT is
 * `Some` there, as Daml's pure machine answers.
 */
export const OFF_LEDGER_BUILTINS: ReadonlyMap<BuiltinName, FirstOrderBuiltin> = new Map([
  ...BUILTINS,
  ['CONTRACT_ID_TO_TEXT', guarded(pure(1, (args) => some(text(arg(args, 0, 'contractId').value))))],
]);

