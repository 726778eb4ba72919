import type { Bijection } from './bijection.js';
import { IDENTITY_KEYS, isIdentifier, isLedgerDataKey, isOffsetKey, isSerialKey, serialLineOf, MAY_DIFFER, PAGE_TOKEN_KEYS } from './fieldRules.js';
import type { SchemaCursor } from './responseSchema.js';

/** One place where the target's answer is not the reference ledger's, after normalisation. */
export interface Difference {
  /** JSON path into the target's answer (`$.partyDetails[2].isLocal`). */
  readonly path: string;
  readonly target: unknown;
  readonly reference: unknown;
  readonly why: string;
}

export interface CompareOptions {
  /**
   * Offsets in this answer name points of each ledger (false for refusals, whose offsets echo the
   * request: those must equal the translated request's, and are not learned).
   */
  readonly learnOffsets?: boolean;
  /**
   * The answer's response schema: a member the reference answers and the target leaves out is a
   * difference only where the schema requires it (or does not say). Without it, every one is.
   */
  readonly schema?: SchemaCursor;
}

const MAX_DIFFERENCES = 20;
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Compares the shape of the target's answer with the reference's: which members are answered (the
 * reference's must be; the target may answer more) and their JSON types, element by element where lists pair through their identities. Values are not
 * compared: they carry each ledger's history (ids, offsets, times, other clients' state), which the
 * target's own model judges (conformance/src/judge/). Identifier and offset pairs are still learned,
 * so that later requests translate.
 */
export function compareAnswers(target: unknown, reference: unknown, bijection: Bijection, options: CompareOptions): Difference[] {
  const out: Difference[] = [];
  walk(target, reference, '$', '', { bijection, options, out, line: 'serial', schema: options.schema });
  return out;
}

interface Walk {
  /** The serial line numbers under `*Serial` members pair on here. */
  readonly line: string;
  /** Inside a ledger's data (`isLedgerDataKey`): identifiers pair, shapes are not compared. */
  readonly learnOnly?: boolean;
  readonly bijection: Bijection;
  readonly options: CompareOptions;
  readonly out: Difference[];
  /** The schema of the value being walked, while it is known. */
  readonly schema: SchemaCursor | undefined;
}

function differ(w: Walk, path: string, target: unknown, reference: unknown, why: string): void {
  if (w.learnOnly !== true && w.out.length < MAX_DIFFERENCES) w.out.push({ path, target, reference, why });
}

function walk(t: unknown, r: unknown, path: string, key: string, w: Walk): void {
  if (w.out.length >= MAX_DIFFERENCES) return;
  if (key in MAY_DIFFER) return;
  if (w.learnOnly !== true && isLedgerDataKey(key)) w = { ...w, learnOnly: true };
  if (PAGE_TOKEN_KEYS.has(key) && (t === '' || t === null || t === undefined || r === '' || r === null || r === undefined)) return;
  // An absent member and a null one mean the same in JSON encodings of optional fields.
  if ((t === null || t === undefined) && (r === null || r === undefined)) return;
  const asOffset = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v);
  if (isOffsetKey(key) && typeof asOffset(t) === 'number' && typeof asOffset(r) === 'number') {
    const to = asOffset(t) as number;
    const ro = asOffset(r) as number;
    if (w.options.learnOffsets !== false) w.bijection.pairOffset(to, ro);
    return;
  }
  if (typeof t === 'string' && typeof r === 'string') return learnIdentifier(t, r, key, w);
  if (typeof t === 'boolean' && typeof r === 'boolean') return;
  if (typeof t === 'number' && typeof r === 'number') {
    if (isSerialKey(key) && w.options.learnOffsets !== false) w.bijection.pairOffset(t, r, w.line);
    return;
  }
  if (Array.isArray(t) && Array.isArray(r)) return compareArrays(t, r, path, w);
  if (isObject(t) && isObject(r)) {
    const line = serialLineOf(t, w.line);
    if (line !== w.line) w = { ...w, line };
    const keyed = pairIdentifierKeys(t, r, path, w);
    if (keyed !== undefined) {
      for (const [tk, rk] of keyed) walk(t[tk], r[rk], `${path}[${JSON.stringify(tk)}]`, '', { ...w, schema: w.schema?.member(tk) });
      return;
    }
    for (const k of new Set([...Object.keys(t), ...Object.keys(r)])) {
      if (k in MAY_DIFFER) continue;
      const child = `${path}${/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`}`;
      const tv = t[k];
      const rv = r[k];
      const tAbsent = tv === undefined || tv === null;
      const rAbsent = rv === undefined || rv === null;
      // A member only the target answers is not one the request decided it may not have: response
      // schemas are open (specs/README.md), and servers fill optional members the reference leaves
      // out (a newer Scan's initial_round, a participant's traceContext); their shape is the schema
      // checks'. A member only the reference answers is one the target lacks, where the schema
      // requires it: an optional one is the server's to send (responseSchema.ts).
      if (tAbsent && !rAbsent) {
        if (w.schema?.requires(k) ?? true) differ(w, child, tv, rv, 'the reference answers this member, the target does not');
      } else if (!tAbsent && !rAbsent) walk(tv, rv, child, k, { ...w, schema: w.schema?.member(k) });
    }
    return;
  }
  if (t !== r) differ(w, path, t, r, `different types (${typeName(t)} vs ${typeName(r)})`);
}

/**
 * An object keyed by identifiers (Scan's rounds by contract id) is a map: its keys pair through the
 * bijection like a list's elements. Undefined when the object is a record.
 */
function pairIdentifierKeys(t: Json, r: Json, path: string, w: Walk): [string, string][] | undefined {
  const tk = Object.keys(t);
  const rk = Object.keys(r);
  if (tk.length === 0 || !tk.every((k) => isIdentifier('', k)) || !rk.every((k) => isIdentifier('', k))) return undefined;
  const pairs: [string, string][] = [];
  const freeT: string[] = [];
  const taken = new Set<string>();
  for (const k of tk) {
    const c = w.bijection.reference(k) ?? (w.bijection.target(k) === undefined ? k : undefined);
    if (c !== undefined && c in r && !taken.has(c)) {
      pairs.push([k, c]);
      taken.add(c);
    } else freeT.push(k);
  }
  const freeR = rk.filter((k) => !taken.has(k));
  if (freeT.length === freeR.length) {
    freeT.forEach((k, i) => {
      if (w.bijection.pair(k, freeR[i]!).ok) pairs.push([k, freeR[i]!]);
    });
  }
  return pairs;
}

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * Identifiers pair (for translating later requests); text and values are the ledger's own, not
 * compared. An identifier both ledgers answer alike pairs with itself: a target that serves the
 * reference's world (the same participant namespace, synchronizer and DSO) allocates the same
 * party ids, and those must translate in later requests like any other pair.
 */
function learnIdentifier(t: string, r: string, key: string, w: Walk): void {
  if (t === '' || r === '') return;
  if (isIdentifier(key, t) || isIdentifier(key, r)) w.bijection.pair(t, r);
}

type Identity = { readonly kind: 'id'; readonly value: string } | { readonly kind: 'offset'; readonly value: number };

/** What names a list element: the element itself (a string), or its first identity member, breadth first. */
function identityOf(v: unknown): Identity | undefined {
  if (typeof v === 'string') return { kind: 'id', value: v };
  if (!isObject(v)) return undefined;
  // The most telling key at any depth wins (an ACS entry is named by its contract, not its synchronizer).
  for (const k of IDENTITY_KEYS) {
    let level: Json[] = [v];
    for (let depth = 0; depth < 5 && level.length > 0; depth++) {
      for (const node of level) {
        const x = node[k];
        if (typeof x === 'string' && x !== '') return { kind: 'id', value: x };
        if (typeof x === 'number' && isOffsetKey(k)) return { kind: 'offset', value: x };
      }
      level = level.flatMap((n) => Object.values(n).filter(isObject));
    }
  }
  return undefined;
}

const keyOf = (i: Identity) => `${i.kind}:${String(i.value)}`;

function uniqueIdentities(xs: readonly unknown[]): Identity[] | undefined {
  const ids = xs.map(identityOf);
  if (ids.some((i) => i === undefined)) return undefined;
  const keys = new Set(ids.map((i) => keyOf(i!)));
  return keys.size === ids.length ? (ids as Identity[]) : undefined;
}

/** The reference identity a target identity stands for: its pair, or the same value when neither side has paired it. */
function counterpart(i: Identity, w: Walk): string | undefined {
  if (i.kind === 'offset') {
    const r = w.bijection.pairedOffset(i.value);
    return r === undefined ? undefined : `offset:${r}`;
  }
  const r = w.bijection.reference(i.value);
  if (r !== undefined) return `id:${r}`;
  return w.bijection.target(i.value) === undefined ? `id:${i.value}` : undefined;
}

/**
 * Lists are matched element by element through their identities; only elements both answers hold
 * are compared (which elements a list holds is history: the target's own model judges it). Lists
 * without identities are not paired at all.
 */
function compareArrays(t: readonly unknown[], r: readonly unknown[], path: string, w: Walk): void {
  const tIds = uniqueIdentities(t);
  const rIds = uniqueIdentities(r);
  // Without identities nothing says which elements correspond: pairing by position would compare
  // (and learn ids from) different facts of two histories, such as an update stream's first items.
  // Their shapes are the schema checks'; their content is the target's own model's.
  if (tIds === undefined || rIds === undefined) return;
  const rIndex = new Map(rIds.map((id, j) => [keyOf(id), j]));
  const pairs: [number, number][] = [];
  const takenR = new Set<number>();
  const freeT: number[] = [];
  tIds.forEach((id, i) => {
    // An object one ledger alone was written to: its two copies are not the same state. The
    // target's copy is judged by its own model (judge.writes.visible-after, judge.facts.reread-equal).
    if (id.kind === 'id' && w.bijection.isDiverged(id.value)) return;
    const c = counterpart(id, w);
    const j = c === undefined ? undefined : rIndex.get(c);
    if (j !== undefined && !takenR.has(j)) {
      pairs.push([i, j]);
      takenR.add(j);
    } else freeT.push(i);
  });
  const freeR = r.map((_, j) => j).filter((j) => !takenR.has(j));
  const knownR = freeR.filter((j) => rIds[j]!.kind === 'id' && w.bijection.target(String(rIds[j]!.value)) !== undefined);
  const newT = freeT.filter((i) => tIds[i]!.kind === 'offset' || w.bijection.reference(String(tIds[i]!.value)) === undefined);
  const newR = freeR.filter((j) => !knownR.includes(j));
  // Same size: the elements neither side has named yet pair in order (first appearances), when
  // each pair is the same kind of fact of the same command: on a target others write to, a read of
  // the last offsets holds their transaction where the reference's holds a checkpoint or its own.
  // Which elements a list holds is history, the target's own model's (judge.facts.reread-equal).
  if (t.length === r.length && knownR.length === 0 && newT.length === newR.length && newT.every((i, k) => sameFact(t[i], r[newR[k]!]))) newT.forEach((i, k) => pairs.push([i, newR[k]!]));
  const items = { ...w, schema: w.schema?.items() };
  for (const [i, j] of pairs) walk(t[i], r[j], `${path}[${i}]`, '', items);
}

/**
 * Whether two elements can be the same fact: the same members down their one-member wrappers
 * (`update.Transaction.value` is not `update.OffsetCheckpoint.value`), and the same command id
 * where both name one (the check chose it, so the replay carries it unchanged).
 */
function sameFact(t: unknown, r: unknown): boolean {
  let a = t;
  let b = r;
  for (let depth = 0; depth < 6 && isObject(a) && isObject(b); depth++) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== 1 || kb.length !== 1) break;
    if (ka[0] !== kb[0]) return false;
    a = a[ka[0]!];
    b = b[kb[0]!];
  }
  if (!isObject(a) || !isObject(b)) return true;
  return typeof a.commandId !== 'string' || typeof b.commandId !== 'string' || a.commandId === b.commandId;
}
