/**
 * Daml Script's free monad, run natively (the evaluator's side is in Evaluator.ts: `evFree`,
 * `freeBuiltin` and the FreeChain frame).
 *
 * Why: daml-script 3.x builds a script as `Free ScriptF`, where `Free x >>= f` is
 * `Free ((>>= f) <$> x)` and ScriptF's `fmap g` puts `g` after the question's `continue`. Each
 * bind or fmap over a pending question wraps its `continue` in one more layer, and every later
 * answer runs through all of them, each layer rebuilding the question (the classic quadratic cost
 * of a left-nested free monad: a `forA` over n actions keeps n layers open). In Splice's
 * splice-amulet-test that was 120,000 wraps for 8,315 questions, about half of all steps.
 *
 * What: Free's `>>=` and `fmap` of daml-script (listed by fingerprint, intrinsics.ts) over a
 * `Free (ScriptF question)` put their function at the end of the question's continuation, kept as
 * a *chain*: the continuation the script built (`first`) and the operations after it, in order
 * (`ops`: a struct whose field names say `>>=` or `fmap` and whose fields are the functions).
 * Applying a chain to an answer applies `first`, then each operation in turn while the result is
 * `Pure`; at the first `Free`, the rest of the chain moves onto that question's continuation at
 * once, instead of each operation rewrapping it.
 *
 * Exactness: a chain is the function the layers compose: `first`, then for each operation
 * `m >>= f` (`Pure a` gives `f a`) or `fmap f m` (`Pure a` gives `Pure (f a)`), where a `Free`
 * result stays a `Free` with the rest of the operations after its continuation, which is what
 * wrapping does, one layer at a time. Daml code cannot tell functions apart (no equality, no
 * show), so a chain and the closures it replaces answer the same, in the same order (the Daml
 * functions are called as the layers would call them), failing as they fail. A chain is made only
 * when the Functor dictionary's `fmap` is daml-script's ScriptF `fmap` (by fingerprint, so it puts
 * its function after `continue` and keeps the other fields); under any other functor, and for any
 * value not of ScriptF's shape, the definition's own Daml body runs. Steps are fewer (steps are
 * this engine's own measure of work).
 */
import type { RecordValue, StructValue, Value, VariantValue } from '../value/Value.js';
import type { IntrinsicName } from './intrinsics.js';

/** Free's `>>=` (its Functor dictionary, the action, the function). */
export const FREE_BIND: IntrinsicName = 'intrinsic Daml.Script.Internal.Free:>>=';
/** Free's `fmap` (its Functor dictionary, the function, the action). */
export const FREE_MAP: IntrinsicName = 'intrinsic Daml.Script.Internal.Free:fmap';
/** A chain applied (its first continuation, its operations, the answer). */
export const FREE_CONTINUE: IntrinsicName = 'intrinsic Daml.Script.Internal.Free:continue';

/** The operation names of a chain's `ops` struct. */
export const BIND_OP = '>>=';
export const MAP_OP = 'fmap';

/** A chain without operations (a `fmap` over `Pure` waits on its function with it). */
export const NO_OPS: StructValue = { kind: 'struct', fieldNames: [], fields: [] };

/** The operations `first` (none when undefined), then `ops[from..]`. */
export function opsAfter(first: StructValue | undefined, ops: StructValue, from: number): StructValue {
  const head = first === undefined ? 0 : first.fields.length;
  if (head === 0 && from === 0) return ops;
  const fieldNames = first === undefined ? ops.fieldNames.slice(from) : first.fieldNames.concat(ops.fieldNames.slice(from));
  const fields = first === undefined ? ops.fields.slice(from) : first.fields.concat(ops.fields.slice(from));
  return { kind: 'struct', fieldNames, fields };
}

/** One operation as a chain's `ops`. */
export const oneOp = (op: typeof BIND_OP | typeof MAP_OP, f: Value): StructValue => ({ kind: 'struct', fieldNames: [op], fields: [f] });

/** Where a `Free (ScriptF question)`'s parts are: the ScriptF record, the question, and their field positions. */
export interface PendingQuestion {
  readonly free: VariantValue;
  readonly scriptF: RecordValue;
  readonly unpackAt: number;
  readonly question: RecordValue;
  readonly continueAt: number;
}

/** Field positions by the type's (shared) field names. */
const positions = new WeakMap<readonly string[], number>();
function fieldAt(names: readonly string[], name: string): number {
  let at = positions.get(names);
  if (at === undefined) positions.set(names, (at = names.indexOf(name)));
  return at;
}

/** `m` as a `Free (ScriptF question)`, or undefined when it is not of that shape. */
export function pendingQuestion(m: VariantValue): PendingQuestion | undefined {
  const scriptF = m.value;
  if (scriptF.kind !== 'record' || scriptF.fields.length !== 1) return undefined;
  const unpackAt = fieldAt(scriptF.fieldNames, 'unpack');
  const question = scriptF.fields[unpackAt];
  if (unpackAt !== 0 || question === undefined || question.kind !== 'record') return undefined;
  const continueAt = fieldAt(question.fieldNames, 'continue');
  if (continueAt < 0 || question.fields[continueAt]!.kind !== 'function') return undefined;
  return { free: m, scriptF, unpackAt, question, continueAt };
}

/** The pending question `p` with `next` as its continuation (the other fields shared). */
export function withContinue(p: PendingQuestion, next: Value): VariantValue {
  const fields = p.question.fields.slice();
  fields[p.continueAt] = next;
  const question: RecordValue = { kind: 'record', tycon: p.question.tycon, fieldNames: p.question.fieldNames, fields };
  const scriptF: RecordValue = { kind: 'record', tycon: p.scriptF.tycon, fieldNames: p.scriptF.fieldNames, fields: [question] };
  return { kind: 'variant', tycon: p.free.tycon, constructor: p.free.constructor, rank: p.free.rank, value: scriptF };
}

/** `Pure v`, of the type of the `Pure` value `like`. */
export const pureLike = (like: VariantValue, v: Value): VariantValue => ({ kind: 'variant', tycon: like.tycon, constructor: 'Pure', rank: like.rank, value: v });

