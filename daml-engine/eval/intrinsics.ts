/**
 * Intrinsics: a few pure library functions the evaluator runs as native code instead of their
 * Daml-LF bodies, where the body is known to compute exactly that function.
 *
 * Why: Daml Script filters its call stack on every action it takes (`isInternalSrcLoc`), with
 * daml-stdlib's `DA.Text.isPrefixOf`, which explodes both texts into lists of one-letter texts
 * and compares them letter by letter through the `Eq Text` dictionary: in Splice's
 * splice-amulet-test that loop was 57% of all evaluation steps (bench/RESULTS.md). The call
 * stacks themselves (pushed on every `HasCallStack` call, converted on every question) were about
 * a fifth of what remained (callStackIntrinsics.ts).
 *
 * A definition is replaced only when its *fingerprint* is one of the fingerprints listed for it:
 * the SHA-256 of its body in a canonical form in which every reference to another top-level value
 * is that value's own fingerprint, recursively (a reference back to a definition being
 * fingerprinted is marked as such). Package ids are left out, so the same code compiled into
 * another SDK's daml-stdlib (a new package id) keeps the fingerprint; any other body, a package
 * that merely reuses the module and value names included, keeps its own code. The fingerprints
 * listed were computed from upstream daml-stdlib packages (test/daml/intrinsics.test.ts checks
 * every daml-stdlib under ../shared against this table and compares native and interpreted
 * answers on generated texts).
 *
 * Results are the Daml code's, to the value; steps are not: an intrinsic call counts as one
 * builtin call, so a script takes fewer steps than the interpreted body would (steps are this
 * engine's own measure of work, for its budget). The call is bounded by the values it is given,
 * which the run has already paid for, and it charges the allocation budget what the body would
 * have built, or a cell per item it walks (`FirstOrderBuiltin.cost`): one step never walks a long
 * value for free again and again.
 */
import { createHash } from 'node:crypto';

import type { Expr } from '../ast/Expr.js';
import type { DefValue, Package } from '../ast/Package.js';
import type { QualifiedName } from '../ast/Type.js';
import type { BuiltinOutcome, FirstOrderBuiltin } from '../builtins/Builtin.js';
import { FALSE, textOf, TRUE } from '../value/Value.js';
import { builtinCost } from './allocationCost.js';
import { convSrcLocIntrinsic, dropInternalFramesIntrinsic, getCallStackIntrinsic, pushCallStackIntrinsic } from './callStackIntrinsics.js';
import { appendListIntrinsic } from './appendList.js';
import { FREE_BIND, FREE_MAP } from './freeMonad.js';
import { objectsOf } from './objectsOf.js';
import { showsPrecNumericIntrinsic } from './showsPrecNumeric.js';
import { showsPrecTextIntrinsic } from './showsPrecText.js';

/** An intrinsic's name as the evaluator reports it (never a Daml-LF builtin's name). */
export type IntrinsicName = `intrinsic ${string}`;

export interface Intrinsic extends FirstOrderBuiltin {
  readonly name: IntrinsicName;
}

/**
 * An intrinsic the evaluator runs itself, as it runs FOLDL: it applies Daml functions
 * (freeMonad.ts). Its function value keeps the definition's body, which it runs where the native
 * code does not apply.
 */
export interface MachineIntrinsic {
  readonly name: IntrinsicName;
  readonly arity: number;
  readonly machine: true;
}

interface IntrinsicEntry {
  readonly module: string;
  readonly value: string;
  /** Fingerprints (see above) of upstream bodies that compute the intrinsic. */
  readonly fingerprints: ReadonlySet<string>;
  /** The intrinsic of the definition `def` at `ref` (the types it builds read from its packages), or undefined when they are not upstream's. */
  readonly make: (def: DefValue, ref: QualifiedName, getPackage: (id: string) => Package | undefined) => Intrinsic | MachineIntrinsic | undefined;
}

/**
 * `isPrefixOf : Text -> Text -> Bool`. On code points, as the Daml body compares exploded texts;
 * a UTF-16 prefix test agrees: one well-formed text's code units start another's exactly when its
 * code points start the other's (a code point's units are never a prefix of another's).
 */
const isPrefixOfText: Intrinsic = {
  name: 'intrinsic DA.Text:isPrefixOf',
  arity: 2,
  // Charged what the body's two `explode`s build: one step must not compare long texts for free again and again.
  cost: (args) => builtinCost('EXPLODE_TEXT', [args[0]!]) + builtinCost('EXPLODE_TEXT', [args[1]!]),
  apply: (args): BuiltinOutcome => ({ ok: true, value: textOf(args[1]!).startsWith(textOf(args[0]!)) ? TRUE : FALSE }),
};

const ENTRIES: readonly IntrinsicEntry[] = [
  {
    module: 'DA.Text',
    value: 'isPrefixOf',
    fingerprints: new Set([
      // daml-stdlib 3.3.0 to 3.5.2 (the same code in every release of that range).
      '1f2344409d921c12c402a8366cc048018d02b24010e4a0fad2ae7c24e4f8565c',
      // daml-stdlib 3.0.0.
      'fd6384bc53d69b48ac3768f02ba638b125e68ae8ed35e6746191f932e60c292f',
    ]),
    make: () => isPrefixOfText,
  },
  {
    module: 'GHC.Stack.Types',
    value: 'pushCallStack',
    // daml-prim of SDK 3.0.0 to 3.5.2.
    fingerprints: new Set(['5e1dfb70c620afef1b27005f8c031775dda825339a82a572fff494c38953fe9d']),
    make: pushCallStackIntrinsic,
  },
  {
    module: 'DA.Stack',
    value: 'getCallStack',
    // daml-stdlib 3.0.0 to 3.5.2.
    fingerprints: new Set(['8833a9efa730323d32ed9aafce63ab92866383e0157d77d6a586e40556c10afe']),
    make: getCallStackIntrinsic,
  },
  {
    module: 'DA.Stack',
    value: 'convSrcLoc',
    // daml-stdlib 3.0.0 to 3.5.2.
    fingerprints: new Set(['8bd98668b6448eaf37c9ded814b7fb8b1aa26dbe42932601e68747fa51893d7b']),
    make: convSrcLocIntrinsic,
  },
  {
    module: 'Daml.Script.Internal.LowLevel',
    value: 'dropInternalFrames',
    // daml-script 3.3.0 (its `isInternalSrcLoc` tests the prefixes `daml-script-` and `Daml.Script`).
    fingerprints: new Set(['0dcb1e74807df87a5e2416f834003b54af9d0f688bb22d8516c8047409bd7ce5']),
    make: dropInternalFramesIntrinsic,
  },
  {
    module: 'GHC.Base',
    value: '$u002e',
    // daml-prim of SDK 3.0.0 to 3.5.2: `f . g = \x -> f (g x)`. Splice's code builds its `show`
    // texts by composing `ShowS` functions: a fifth of a real Amulet transfer's steps.
    fingerprints: new Set(['e811e683275c4ab03c5372c18c18bc425e55f7416fa202790f52cbe33fed3812']),
    make: () => COMPOSE_INTRINSIC,
  },
  {
    module: 'GHC.Show.Text',
    value: 'showsPrecText',
    // daml-prim of SDK 3.0.0 to 3.5.2: `show` of a Text (showsPrecText.ts).
    fingerprints: new Set(['f3428057c18f717ffedbc53f91ea97224ce21f460b60a16385ee2d475a2a9985']),
    make: () => showsPrecTextIntrinsic,
  },
  {
    module: 'GHC.Show',
    value: '$$cshowsPrec1',
    // daml-prim of SDK 3.0.0 to 3.5.2: `showsPrec` of `Show (Numeric n)` (showsPrecNumeric.ts).
    fingerprints: new Set(['f20f66c08ca2a4d56d00aaea4780c7b441e808ab908984c257b607e947aebd67']),
    make: () => showsPrecNumericIntrinsic,
  },
  {
    module: 'DA.Internal.Prelude',
    value: '$u002b$u002b',
    // daml-stdlib 3.0.0 to 3.5.2: `xs ++ ys = foldr (::) ys xs` (appendList.ts).
    fingerprints: new Set(['2150141878d842b99a31fb774a2c00d203ecea0b5cc986a001e75695d3486ee6']),
    make: () => appendListIntrinsic,
  },
  {
    module: 'Daml.Script.Internal.Free',
    value: '$$c$u003e$u003e$u003d',
    // daml-script 3.3.0: `Pure a >>= f = f a; Free x >>= f = Free ((>>= f) <$> x)`.
    fingerprints: new Set(['5d0588469732d331f0b3db2526663d2706fce682bc707e243da207ee34fe6749']),
    make: () => FREE_BIND_INTRINSIC,
  },
  {
    module: 'Daml.Script.Internal.Free',
    value: '$$cfmap',
    // daml-script 3.3.0: `fmap f (Pure a) = Pure (f a); fmap f (Free x) = Free (fmap f <$> x)`.
    fingerprints: new Set(['0f97dd6acd817f9e66ca8d8af416a09fd26fa8e62ab9a9a4ed05fcdc1b6cb086']),
    make: () => FREE_MAP_INTRINSIC,
  },
];

/** daml-prim's function composition, `(f . g) x = f (g x)`: its function, then its argument. */
export const COMPOSE: IntrinsicName = 'intrinsic GHC.Base:.';

const COMPOSE_INTRINSIC: MachineIntrinsic = { name: COMPOSE, arity: 3, machine: true };
const FREE_BIND_INTRINSIC: MachineIntrinsic = { name: FREE_BIND, arity: 3, machine: true };
const FREE_MAP_INTRINSIC: MachineIntrinsic = { name: FREE_MAP, arity: 3, machine: true };

/**
 * Fingerprints of daml-script's ScriptF `fmap` (`Daml.Script.Internal.LowLevel:$cfmap1`, which
 * puts its function after the question's `continue`): Free's intrinsics make chains only under a
 * Functor dictionary whose `fmap` is this (freeMonad.ts).
 */
export const SCRIPTF_FMAP_FINGERPRINTS: ReadonlySet<string> = new Set([
  // daml-script 3.3.0.
  '693fc79b7f8a2d2a9372c6f8bd088aff0506327ca7c11ab00c3f2a16aa9d3640',
]);

const BY_NAME = new Map<string, IntrinsicEntry>(ENTRIES.map((e) => [`${e.module}:${e.value}`, e]));

/** The definitions that have an intrinsic, with the fingerprints that let it replace them (for tests and docs). */
export const INTRINSICS: readonly { readonly module: string; readonly value: string; readonly fingerprints: ReadonlySet<string> }[] = ENTRIES;

/** Definitions checked so far: the intrinsic that replaces them, or null. */
const verdicts = new WeakMap<DefValue, Intrinsic | MachineIntrinsic | null>();

/**
 * The intrinsic that may replace the definition `def` (at `ref`), or undefined. Costs a map
 * look-up for every other name; a listed name is fingerprinted once per decoded definition.
 */
export function intrinsicFor(def: DefValue, ref: QualifiedName, getPackage: (id: string) => Package | undefined): Intrinsic | MachineIntrinsic | undefined {
  const entry = BY_NAME.get(`${ref.module}:${ref.name}`);
  if (entry === undefined) return undefined;
  let verdict = verdicts.get(def);
  if (verdict === undefined) {
    const fingerprint = definitionFingerprint(ref, getPackage);
    verdict = (fingerprint !== undefined && entry.fingerprints.has(fingerprint) ? entry.make(def, ref, getPackage) : undefined) ?? null;
    verdicts.set(def, verdict);
  }
  return verdict ?? undefined;
}

/**
 * Bounds of one fingerprint: the listed functions need a few dozen definitions of a few hundred
 * objects each. The names are any package's to take, so a look-alike definition must cost little:
 * a definition is measured (an iterative count that stops at the bound) before it is written out,
 * and at most `MAX_DEFINITIONS` distinct definitions are written out for one fingerprint.
 */
const MAX_DEFINITIONS = 64;
const MAX_OBJECTS_PER_DEFINITION = 4_000;

/**
 * The fingerprint of the top-level value `ref` (see the module comment), or undefined when a
 * definition it needs is missing, it needs more than `MAX_DEFINITIONS`, or a body is too deep to
 * write out (such a definition is simply never replaced).
 *
 * A definition referenced again is written out once when no reference below it led back to a
 * definition being written out: then no definition it reaches can be on the path when it is
 * referenced again (that would be a cycle through it), and writing it out again would give the
 * same text. A definition on a cycle is written out every time, as its `rec` markers depend on
 * the path. So fingerprints do not depend on the order of references; only the bound counts
 * distinct definitions (daml-prim's `showsPrecText` references `showLitChr` from several places).
 */
export function definitionFingerprint(
  ref: QualifiedName,
  getPackage: (id: string) => Package | undefined,
  /** false: every reference written out again, as the module comment defines it (tests compare the two). */
  remember = true,
): string | undefined {
  const onPath = new Set<DefValue>();
  const done = new Map<DefValue, string>();
  let written = 0;
  /** Whether a `rec` marker was written since the current definition began. */
  let cyclic = false;
  const walk = (at: QualifiedName): string => {
    const def = getPackage(at.packageId)?.modules.get(at.module)?.values.get(at.name);
    if (def === undefined) throw MISSING;
    const remembered = done.get(def);
    if (remembered !== undefined) return remembered;
    if (onPath.has(def)) {
      cyclic = true;
      return `rec ${at.module}:${at.name}`;
    }
    if ((++written > MAX_DEFINITIONS && remember) || !objectsAtMost(def.expr, MAX_OBJECTS_PER_DEFINITION)) throw MISSING;
    onPath.add(def);
    const outer = cyclic;
    cyclic = false;
    const canonical = canonicalJson(def.expr, walk);
    onPath.delete(def);
    const fingerprint = createHash('sha256').update(canonical).digest('hex');
    if (!cyclic && remember) done.set(def, fingerprint);
    cyclic ||= outer;
    return fingerprint;
  };
  try {
    return walk(ref);
  } catch (e) {
    if (e === MISSING || e instanceof RangeError) return undefined;
    throw e;
  }
}

const MISSING = new Error('no fingerprint');

/** Whether `root` holds at most `limit` objects and arrays, counted without recursion (shared ones once per path to them). */
function objectsAtMost(root: unknown, limit: number): boolean {
  let count = 0;
  for (const _ of objectsOf(root)) if (++count > limit) return false;
  return true;
}

/** `expr` as JSON: references to values by their fingerprints, other names without package ids. */
function canonicalJson(expr: Expr, valueFingerprint: (ref: QualifiedName) => string): string {
  return JSON.stringify(expr, (_key, v: unknown) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v !== 'object' || v === null) return v;
    const o = v as { kind?: unknown; ref?: QualifiedName; packageId?: unknown; module?: unknown; name?: unknown };
    if (o.kind === 'val' && o.ref !== undefined) return { kind: 'val', value: valueFingerprint(o.ref) };
    if (typeof o.packageId === 'string' && typeof o.module === 'string') return `${o.module}:${String(o.name)}`;
    return v;
  });
}
