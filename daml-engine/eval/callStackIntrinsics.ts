/**
 * Intrinsics for the call stacks Daml code carries (`HasCallStack`): daml-prim's
 * `GHC.Stack.Types.pushCallStack`, which every call of a function with a `HasCallStack`
 * constraint makes, and daml-stdlib's `DA.Stack.getCallStack` and `DA.Stack.convSrcLoc`, and
 * daml-script's `dropInternalFrames`, which Daml Script runs on every question it asks (its
 * `getExposedCallStack`). Together about a quarter of the evaluation steps of Splice's
 * splice-amulet-test (bench/RESULTS.md).
 *
 * Each builds the values its body builds: the type constructors the body names (read from the
 * body itself), field orders and constructor ranks read from those data types' own declarations
 * (the fingerprint covers the body, not the declarations), the body's evaluation order, and its
 * failures (`convSrcLoc` subtracts with the `SUB_INT64` builtin itself). Where a declaration is not
 * as upstream's (a field or a constructor missing), there is no intrinsic and the body runs.
 * Each charges the allocation budget what the body would build (or, building nothing, a cell per
 * frame it walks), so a loop of pushes or walks still stops where the interpreted one would.
 */
import type { Expr } from '../ast/Expr.js';
import type { DefValue, Package } from '../ast/Package.js';
import type { QualifiedName } from '../ast/Type.js';
import type { BuiltinOutcome } from '../builtins/Builtin.js';
import { BUILTINS } from '../builtins/builtins.js';
import type { ListValue, RecordValue, Value } from '../value/Value.js';
import { int64, NIL } from '../value/Value.js';
import { CELL_BYTES, recordBytes } from './allocationCost.js';
import type { Intrinsic } from './intrinsics.js';
import { objectsOf } from './objectsOf.js';

type Source = (id: string) => Package | undefined;

/** What `test` makes of the first object of `body`'s expression tree it accepts. */
function findIn<T>(body: Expr, test: (o: Record<string, unknown>) => T | undefined): T | undefined {
  for (const o of objectsOf(body)) {
    const found = test(o as Record<string, unknown>);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The type constructor of a `kind` node (a record or variant construction) of `body` that names `module:name`. */
const constructed = (body: Expr, kind: 'recCon' | 'variantCon', module: string, name: string): QualifiedName | undefined =>
  findIn(body, (o) => {
    const tycon = (o.tycon as { tycon?: QualifiedName } | undefined)?.tycon;
    return o.kind === kind && tycon?.module === module && tycon.name === name ? tycon : undefined;
  });

/** The top-level value `module:name` that `body` references. */
const referenced = (body: Expr, module: string, name: string): QualifiedName | undefined =>
  findIn(body, (o) => {
    const ref = o.ref as QualifiedName | undefined;
    return o.kind === 'val' && ref?.module === module && ref.name === name ? ref : undefined;
  });

const declaration = (source: Source, tycon: QualifiedName) => source(tycon.packageId)?.modules.get(tycon.module)?.dataTypes.get(tycon.name);

/** The declared field names of the record `tycon`, when they are exactly `fields` (in any order). */
function recordFields(source: Source, tycon: QualifiedName | undefined, fields: readonly string[]): readonly string[] | undefined {
  if (tycon === undefined) return undefined;
  const dt = declaration(source, tycon);
  if (dt?.cons.kind !== 'record') return undefined;
  const names = dt.cons.fieldNames;
  return names.length === fields.length && fields.every((f) => names.includes(f)) ? names : undefined;
}

/** The rank of `constructor` in the variant `tycon`'s declaration, or -1. */
function rankOf(source: Source, tycon: QualifiedName, constructor: string): number {
  const dt = declaration(source, tycon);
  return dt?.cons.kind === 'variant' ? dt.cons.constructors.findIndex((c) => c.name === constructor) : -1;
}

/**
 * Reads one field of records, as a projection does, remembering its position per field-name
 * array: records of one type share their declaration's array, so a read is one comparison.
 */
class FieldReader {
  #names: readonly string[] | undefined = undefined;
  #index = -1;
  constructor(readonly name: string) {}

  read(v: Value | undefined): Value | undefined {
    if (v === undefined || v.kind !== 'record') return undefined;
    if (v.fieldNames !== this.#names) {
      this.#names = v.fieldNames;
      this.#index = v.fieldNames.indexOf(this.name);
    }
    return this.#index < 0 ? undefined : v.fields[this.#index];
  }
}

/** Where each of `names` goes in a record declared with `fields` (which holds them all). */
const positions = (fields: readonly string[], names: readonly string[]): number[] => names.map((n) => fields.indexOf(n));

const crash = (message: string): BuiltinOutcome => ({ ok: false, failure: { kind: 'crash', message } });

/** `pushCallStack (fn, loc) stk`: `stk` itself when frozen, else `PushCallStack (fn, loc, stk)`. */
export function pushCallStackIntrinsic(def: DefValue, _ref: QualifiedName, source: Source): Intrinsic | undefined {
  const callStack = constructed(def.expr, 'variantCon', 'GHC.Stack.Types', 'CallStack');
  const tuple3 = constructed(def.expr, 'recCon', 'DA.Types', 'Tuple3');
  const fields = recordFields(source, tuple3, ['_1', '_2', '_3']);
  if (callStack === undefined || tuple3 === undefined || fields === undefined) return undefined;
  const rank = rankOf(source, callStack, 'PushCallStack');
  if (rank < 0) return undefined;
  const bytes = recordBytes(3) + recordBytes(4);
  const first = new FieldReader('_1');
  const second = new FieldReader('_2');
  const [at1, at2, at3] = positions(fields, ['_1', '_2', '_3']) as [number, number, number];
  return {
    name: 'intrinsic GHC.Stack.Types:pushCallStack',
    arity: 2,
    cost: () => bytes,
    apply: (args): BuiltinOutcome => {
      const ds = args[0]!;
      const stk = args[1]!;
      // The body binds both halves of the pair first: a projection of anything else fails first.
      const fn = first.read(ds);
      const loc = second.read(ds);
      if (fn === undefined || loc === undefined) return crash(`pushCallStack of a ${ds.kind}, not a pair`);
      if (stk.kind === 'variant' && stk.constructor === 'FreezeCallStack') return { ok: true, value: stk };
      const items = new Array<Value>(3);
      items[at1] = fn;
      items[at2] = loc;
      items[at3] = stk;
      const value: RecordValue = { kind: 'record', tycon: tuple3, fieldNames: fields, fields: items };
      return { ok: true, value: { kind: 'variant', tycon: callStack, constructor: 'PushCallStack', rank, value } };
    },
  };
}

const SRC_LOC_FIELDS = ['srcLocPackage', 'srcLocModule', 'srcLocFile', 'srcLocStartLine', 'srcLocStartCol', 'srcLocEndLine', 'srcLocEndCol'];
/** The fields `convSrcLoc` counts from 0 (GHC's from 1). */
const COUNTED = new Set(['srcLocStartLine', 'srcLocStartCol', 'srcLocEndLine', 'srcLocEndCol']);
const SUB_INT64 = BUILTINS.get('SUB_INT64')!;
const ONE = int64(1n);
const MIN_INT64 = -(2n ** 63n);
/** A converted location: the record, and a `SUB_INT64` (one cell each) per counted field. */
const CONV_BYTES = recordBytes(SRC_LOC_FIELDS.length) + COUNTED.size * CELL_BYTES;

/** `convSrcLoc` as a function of the GHC location, for the body `def` at `ref`; undefined when its target is not as upstream's. */
function srcLocConverter(def: DefValue, ref: QualifiedName, source: Source): ((loc: Value) => BuiltinOutcome) | undefined {
  const target = constructed(def.expr, 'recCon', 'DA.Stack.Types', 'SrcLoc');
  const fields = recordFields(source, target, SRC_LOC_FIELDS);
  if (target === undefined || fields === undefined) return undefined;
  const readers = SRC_LOC_FIELDS.map((f) => new FieldReader(f));
  // Target field i is source field from[i] (the same name), counted or not.
  const from = positions(SRC_LOC_FIELDS, fields);
  const counted = fields.map((f) => COUNTED.has(f));
  const read = new Array<Value>(SRC_LOC_FIELDS.length);
  return (loc) => {
    // The body binds every field of the GHC location first, then builds the record in its declared
    // field order, each line and column one less (an overflow is SUB_INT64's ArithmeticError).
    for (let j = 0; j < readers.length; j++) {
      const v = readers[j]!.read(loc);
      if (v === undefined) return crash(`convSrcLoc of a ${loc.kind} without ${SRC_LOC_FIELDS[j]}`);
      read[j] = v;
    }
    const values = new Array<Value>(fields.length);
    for (let i = 0; i < fields.length; i++) {
      const v = read[from[i]!]!;
      if (!counted[i]) {
        values[i] = v;
      } else if (v.kind === 'int64' && v.value !== MIN_INT64) {
        values[i] = int64(v.value - 1n); // SUB_INT64's own answer where it cannot overflow
      } else {
        const r = SUB_INT64.apply([v, ONE]);
        // Raised in convSrcLoc's body: it is the running definition then.
        if (!r.ok) return r.failure.kind === 'arithmetic' ? { ok: false, failure: { ...r.failure, definition: ref } } : r;
        values[i] = r.value;
      }
    }
    return { ok: true, value: { kind: 'record', tycon: target, fieldNames: fields, fields: values } };
  };
}

export function convSrcLocIntrinsic(def: DefValue, ref: QualifiedName, source: Source): Intrinsic | undefined {
  const convert = srcLocConverter(def, ref, source);
  if (convert === undefined) return undefined;
  return { name: 'intrinsic DA.Stack:convSrcLoc', arity: 1, cost: () => CONV_BYTES, apply: (args) => convert(args[0]!) };
}

/** The frames of a call stack (pushes, through frozen ones), for its cost; stops at anything else. */
function frames(stk: Value | undefined, rest: FieldReader): number {
  let n = 0;
  for (let s = stk; s !== undefined && s.kind === 'variant';) {
    if (s.constructor === 'PushCallStack') {
      n++;
      s = rest.read(s.value);
    } else if (s.constructor === 'FreezeCallStack') {
      s = s.value;
    } else {
      break;
    }
  }
  return n;
}

/** `getCallStack stk`: its frames, innermost first, each `(fn, convSrcLoc loc)`. */
export function getCallStackIntrinsic(def: DefValue, _ref: QualifiedName, source: Source): Intrinsic | undefined {
  const tuple2 = constructed(def.expr, 'recCon', 'DA.Types', 'Tuple2');
  const fields = recordFields(source, tuple2, ['_1', '_2']);
  // convSrcLoc as the body calls it: the definition it references (its fingerprint is part of this one's).
  const conv = referenced(def.expr, 'DA.Stack', 'convSrcLoc');
  const convDef = conv && source(conv.packageId)?.modules.get(conv.module)?.values.get(conv.name);
  const convert = conv && convDef && srcLocConverter(convDef, conv, source);
  if (tuple2 === undefined || fields === undefined || !convert) return undefined;
  const perFrame = CELL_BYTES + recordBytes(2) + CONV_BYTES;
  const first = new FieldReader('_1');
  const second = new FieldReader('_2');
  const third = new FieldReader('_3');
  const [at1, at2] = positions(fields, ['_1', '_2']) as [number, number];
  // A frame's pair, remembered per location: locations are the values of the call sites' own
  // top-level definitions (computed once a run), so the same few recur on every question Daml
  // Script asks. Values never change, and a conversion that fails is not remembered.
  const pairs = new WeakMap<object, { readonly fn: Value; readonly pair: RecordValue }>();
  const pairOf = (fn: Value, loc: Value): BuiltinOutcome => {
    const known = pairs.get(loc);
    if (known !== undefined && known.fn === fn) return { ok: true, value: known.pair };
    let converted: Value;
    if (known !== undefined) {
      converted = known.pair.fields[at2]!;
    } else {
      const r = convert(loc);
      if (!r.ok) return r;
      converted = r.value;
    }
    const items = new Array<Value>(2);
    items[at1] = fn;
    items[at2] = converted;
    const pair: RecordValue = { kind: 'record', tycon: tuple2, fieldNames: fields, fields: items };
    pairs.set(loc, { fn, pair });
    return { ok: true, value: pair };
  };
  return {
    name: 'intrinsic DA.Stack:getCallStack',
    arity: 1,
    cost: (args) => frames(args[0], third) * perFrame,
    apply: (args): BuiltinOutcome => {
      // Frame by frame, as the body recurses: each frame's location is converted before the next frame is looked at.
      const items: Value[] = [];
      for (let s = args[0]!; ;) {
        if (s.kind !== 'variant') return crash(`getCallStack of a ${s.kind}, not a call stack`);
        if (s.constructor === 'EmptyCallStack') break;
        if (s.constructor === 'FreezeCallStack') {
          s = s.value;
          continue;
        }
        if (s.constructor !== 'PushCallStack') return crash(`no case alternative matches the call stack constructor ${s.constructor}`);
        const fn = first.read(s.value);
        const loc = second.read(s.value);
        const rest = third.read(s.value);
        if (fn === undefined || loc === undefined || rest === undefined) return crash('a call stack frame that is not a triple');
        const pair = pairOf(fn, loc);
        if (!pair.ok) return pair;
        items.push(pair.value);
        s = rest;
      }
      let list: ListValue = NIL;
      for (let i = items.length - 1; i >= 0; i--) list = { kind: 'cons', head: items[i]!, tail: list };
      return { ok: true, value: list };
    },
  };
}

/**
 * daml-script's `dropInternalFrames = dropWhile (isInternalSrcLoc . snd)`, for the bodies whose
 * `isInternalSrcLoc` tests the location's package name for the prefix `daml-script-` and then its
 * module for `Daml.Script` (the fingerprints listed for it): the frames from the first one outside
 * daml-script, the same list cells (dropping builds nothing).
 */
export function dropInternalFramesIntrinsic(): Intrinsic {
  const second = new FieldReader('_2');
  const packageName = new FieldReader('srcLocPackage');
  const module = new FieldReader('srcLocModule');
  /** Whether a frame is daml-script's own (a list cell's head), or a crash when it is not a frame. */
  const internal = (frame: Value): boolean | BuiltinOutcome => {
    const loc = second.read(frame);
    // isInternalSrcLoc binds both fields, then tests the package name, and the module only if that is internal.
    const pkg = packageName.read(loc);
    const mod = module.read(loc);
    if (pkg === undefined || mod === undefined || pkg.kind !== 'text' || mod.kind !== 'text') return crash('dropInternalFrames of a frame that is not (Text, SrcLoc)');
    return pkg.value.startsWith('daml-script-') && mod.value.startsWith('Daml.Script');
  };
  return {
    name: 'intrinsic Daml.Script.Internal.LowLevel:dropInternalFrames',
    arity: 1,
    // It builds nothing, but its walk is charged a cell a frame: the body's steps bound the walk,
    // and one step must not walk a long list for free again and again.
    cost: (args) => {
      let n = 1;
      for (let list = args[0]; list !== undefined && list.kind === 'cons' && internal(list.head) === true; list = list.tail) n++;
      return n * CELL_BYTES;
    },
    apply: (args): BuiltinOutcome => {
      for (let list = args[0]!; ;) {
        if (list.kind === 'nil') return { ok: true, value: NIL };
        if (list.kind !== 'cons') return crash(`dropInternalFrames of a ${list.kind}, not a list`);
        const drop = internal(list.head);
        if (typeof drop !== 'boolean') return drop;
        if (!drop) return { ok: true, value: list };
        list = list.tail;
      }
    },
  };
}

