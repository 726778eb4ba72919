import type { CheckDefinition, Group } from '../checks/types.js';
import type { Target, TargetClient } from '../target/createTarget.js';
import { jsonOf, type Exchange, type RequestSpec } from '../target/exchange.js';
import type { StreamOptions, StreamResult } from '../target/websocket.js';
import { Bijection } from './bijection.js';
import { compareAnswers, type Difference } from './compareAnswers.js';
import { responseSchemaOf } from './responseSchema.js';
import { checkExclusion, requestExclusion } from './exclusions.js';
import { isIdentifier, isOffsetKey, isSerialKey, serialLineOf } from './fieldRules.js';
import { classOf, sameRefusal } from './statusRules.js';
import { translateRequest, type Translation } from './translateRequest.js';

/** A difference found by the oracle, with the two exchanges that show it. */
export interface OracleFinding {
  readonly difference: Difference;
  readonly target: Exchange;
  readonly reference: Exchange;
}

/** What the oracle did for one check. */
export interface OracleOutcome {
  readonly findings: readonly OracleFinding[];
  /** Requests answered by both ledgers and compared. */
  readonly compared: number;
  /** Why the check's scenario left the oracle part way (or entirely), if it did. */
  readonly stopped?: string;
}

/** One check's view: a client that plays each request on the target and, in lockstep, on the reference. */
export interface OracleCheck {
  readonly http: TargetClient;
  outcome(): OracleOutcome;
}

export interface OracleSession {
  /** The reference ledger's URL (for reports). */
  readonly url: string;
  check(check: CheckDefinition, targetClient: TargetClient): OracleCheck;
  /** Requests compared and checks that left the oracle, over the whole run. */
  totals(): { readonly compared: number; readonly stoppedChecks: number };
}

/**
 * The reference as the oracle: every request a check makes goes to the target and (translated
 * through the identifier bijection) to the reference twin, one pair at a time so both ledgers see
 * the same writes in the same order; the two answers are compared after normalisation.
 */
export function createOracleSession(twin: Target, url: string, seeds: readonly (readonly [string, string])[] = [], targetState: readonly string[] = [], anonymousTwin = false): OracleSession {
  const bijection = new Bijection();
  for (const [t, r] of seeds) bijection.pair(t, r);
  for (const t of targetState) bijection.noteTarget(t);
  let chain: Promise<unknown> = Promise.resolve();
  const locked = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work);
    chain = next.catch(() => undefined);
    return next;
  };
  let compared = 0;
  let stoppedChecks = 0;

  return {
    url,
    totals: () => ({ compared, stoppedChecks }),
    check(check, targetClient) {
      const findings: OracleFinding[] = [];
      let stopped = checkExclusion(check);
      let count = 0;
      const twinClient = twin.bind(check.id, () => undefined);
      const stop = (why: string) => {
        if (stopped === undefined) stoppedChecks++;
        stopped ??= why;
      };
      const judge = (tx: Exchange, rx: Exchange) => {
        count++;
        compared++;
        for (const d of judgeExchanges(tx, rx, bijection)) findings.push({ difference: d, target: tx, reference: rx });
      };

      const http: TargetClient = {
        baseUrl: (group: Group) => targetClient.baseUrl(group),
        request(group: Group, spec: RequestSpec) {
          if (stopped !== undefined || requestExclusion(spec, anonymousTwin) !== undefined) {
            divergedBy(spec, bijection);
            return targetClient.request(group, spec);
          }
          return locked(async () => {
            const translated = signedElsewhere(spec, translateRequest(spec, bijection), bijection);
            if (!translated.ok) {
              divergedBy(spec, bijection);
              const tx = await targetClient.request(group, spec);
              stop(translated.reason);
              noteAnswer(tx, bijection);
              return tx;
            }
            // The two ledgers answer at once; the lock keeps pairs in order, so both see the same sequence.
            const [tx, rx] = await Promise.all([targetClient.request(group, spec), twinClient.request(group, translated.spec)]);
            const missing = modelMissing(tx, rx) ?? refusedThere(tx, rx);
            if (missing !== undefined) stop(missing);
            else judge(tx, rx);
            noteAnswer(tx, bijection);
            return tx;
          });
        },
        async stream(group: Group, path: string, options: StreamOptions): Promise<StreamResult> {
          if (stopped !== undefined || requestExclusion({ ...options, path }, anonymousTwin) !== undefined) return targetClient.stream(group, path, options);
          const translated = translateRequest({ method: 'GET', path, json: options.request }, bijection);
          // Streams are not serialised with the writes: a check may write while its stream is open.
          const tr = await targetClient.stream(group, path, options);
          if (!translated.ok) {
            stop(translated.reason);
            noteMessages(tr.messages, bijection);
            return tr;
          }
          if (tr.ended === 'timeout' || tr.ended === 'error') return tr;
          const cut = tr.ended === 'until' || tr.ended === 'limit';
          const rr = await twinClient.stream(group, translated.spec.path, {
            ...options,
            request: translated.spec.json,
            // The check's own stop condition names the target's identifiers; the twin stops at the same count.
            until: cut ? (m) => m.length >= tr.messages.length : undefined,
            ...(tr.ended === 'closed' ? {} : { idleMs: options.idleMs ?? 1000 }),
          });
          judge(withMessages(tr), withMessages(rr));
          noteMessages(tr.messages, bijection);
          return tr;
        },
      };
      return { http, outcome: () => ({ findings, compared: count, ...(stopped === undefined ? {} : { stopped }) }) };
    },
  };
}

const SIGNATURE_KEYS = /^(partySignatures|multiHashSignatures|signatures|signature)$/;
const carriesSignatures = (v: unknown): boolean =>
  Array.isArray(v) ? v.some(carriesSignatures) : typeof v === 'object' && v !== null && Object.entries(v).some(([k, x]) => SIGNATURE_KEYS.test(k) || carriesSignatures(x));

/** Every `preparedTransaction` a request body holds. */
const preparedIn = (v: unknown): string[] =>
  Array.isArray(v) ? v.flatMap(preparedIn) : typeof v === 'object' && v !== null ? Object.entries(v).flatMap(([k, x]) => (k === 'preparedTransaction' && typeof x === 'string' ? [x] : preparedIn(x))) : [];

/**
 * A request carrying signatures (interactive submission, external parties) signs what the target
 * prepared. It is replayed only when its translation is the request itself and every prepared
 * transaction it executes is one the reference answered too: then the reference prepared the same
 * bytes and the signatures hold there. A prepared transaction the check edited (or the target
 * alone prepared) was never the reference's: the scenario leaves the oracle.
 */
export function signedElsewhere(spec: RequestSpec, t: Translation, b: Bijection): Translation {
  if (!t.ok || !carriesSignatures(spec.json)) return t;
  if (JSON.stringify(t.spec.json) !== JSON.stringify(spec.json)) return { ok: false, reason: 'the request signs what the target prepared, which differs from what the reference prepared; the signatures cannot hold there' };
  const foreign = preparedIn(spec.json).some((p) => b.reference(p) !== p);
  return foreign ? { ok: false, reason: 'the request executes a prepared transaction the reference did not prepare (the check edited it, or the target alone prepared it)' } : t;
}

/** A stream's frames as one JSON array body, so it compares like a list. */
function withMessages(s: StreamResult): Exchange {
  const r = s.exchange.response;
  return r === undefined || r.status !== 101 ? s.exchange : { ...s.exchange, response: { ...r, text: JSON.stringify(s.messages) } };
}

const MODEL_MISSING = new Set(['TEMPLATES_OR_INTERFACES_NOT_FOUND', 'PACKAGE_NOT_FOUND', 'PACKAGE_NAMES_NOT_FOUND']);

/**
 * The target runs a Daml model the reference ledger does not have (a vendor's template): what the
 * scenario does with it cannot be replayed, so it leaves the oracle rather than fail.
 */
function modelMissing(tx: Exchange, rx: Exchange): string | undefined {
  const ts = tx.response?.status ?? 0;
  if (ts < 200 || ts >= 300 || (rx.response?.status ?? 0) < 400) return undefined;
  const body = jsonOf(rx);
  const code = body.ok && typeof body.value === 'object' && body.value !== null ? (body.value as Record<string, unknown>).code : undefined;
  return typeof code === 'string' && MODEL_MISSING.has(code) ? `the target's Daml model is not on the reference ledger (${code})` : undefined;
}

/**
 * The target did what the reference refuses for who asks or for its state: the reference's users
 * and rights are not the target's (a user that exists only there, rights the run granted through a
 * check that left the oracle), or its state differs there (a contract another check changed on the
 * target alone). What follows cannot be replayed: counted as leaving the oracle, not as a
 * comparison that found nothing. (A refusal as invalid is the request's own, compared as such.)
 */
export function refusedThere(tx: Exchange, rx: Exchange): string | undefined {
  const ts = tx.response?.status ?? 0;
  if (ts < 200 || ts >= 300 || rx.response === undefined) return undefined;
  const r = classOf(rx);
  if (r !== 'auth' && r !== 'state') return undefined;
  const j = jsonOf(rx);
  const code = j.ok && typeof j.value === 'object' && j.value !== null ? (j.value as Record<string, unknown>).code : undefined;
  const refusal = `HTTP ${rx.response.status}${typeof code === 'string' && code !== 'NA' ? ` ${code}` : ''}`;
  const why = r === 'auth' ? "the reference's users and rights are not the target's" : "the two ledgers' states differ there";
  return `the reference refused the replayed ${tx.request.method} ${tx.path} with ${refusal}, which the target answered: ${why}`;
}

/**
 * What the request alone decides, compared answer by answer: whether it is refused as invalid (and
 * with which code), and the shape of what is answered. Whether something exists, who may see it and
 * what the values are depend on each ledger's history, users and configuration: not compared here
 * (the target's own model judges them, conformance/src/judge/); authentication and permission
 * answers are judged by rule (the auth checks, the token and its rights).
 */
function judgeExchanges(tx: Exchange, rx: Exchange, b: Bijection): Difference[] {
  // A transport failure is the check's own finding (error), not a semantic difference.
  if (tx.response === undefined || rx.response === undefined) return [];
  const t = classOf(tx);
  const r = classOf(rx);
  if (t === 'auth' || r === 'auth') return [];
  if ((t === 'invalid') !== (r === 'invalid')) {
    return [{ path: 'status', target: tx.response.status, reference: rx.response.status, why: t === 'invalid' ? 'the target refuses as invalid a request the reference ledger accepts as well-formed' : 'the reference ledger refuses the request as invalid (the request alone decides that), the target does not' }];
  }
  if (t === 'invalid') {
    const differs = sameRefusal(tx, rx);
    if (differs !== undefined) return [differs];
  }
  if (t !== r || (t !== 'ok' && t !== 'invalid')) return [];
  const tj = jsonOf(tx);
  const rj = jsonOf(rx);
  if (tj.ok && rj.ok) {
    // A stream's frames (a 101 upgrade, compared as one array) are the messages its HTTP twin
    // lists (POST on the same path): their schema says which members are optional there too.
    const schema = responseSchemaOf(tx.group, tx.request.method, tx.path, rx.response.status)
      ?? (rx.response.status === 101 ? responseSchemaOf(tx.group, 'POST', tx.path, 200) : undefined);
    return compareAnswers(tj.value, rj.value, b, { learnOffsets: t === 'ok', ...(schema === undefined ? {} : { schema }) });
  }
  if (tj.ok !== rj.ok) return [{ path: 'body', target: tx.response.contentType, reference: rx.response.contentType, why: tj.ok ? 'the target answers JSON where the reference does not' : 'the reference answers JSON where the target does not' }];
  return [];
}

function noteAnswer(tx: Exchange, b: Bijection): void {
  const j = jsonOf(tx);
  if (j.ok) noteValue(j.value, '', b);
}

function noteMessages(ms: readonly unknown[], b: Bijection): void {
  for (const m of ms) noteValue(m, '', b);
}

/** Every identifier, offset and serial a target answer holds becomes known target state. */
function noteValue(v: unknown, key: string, b: Bijection, line = 'serial'): void {
  if (typeof v === 'string' && isIdentifier(key, v)) b.noteTarget(v);
  else if (typeof v === 'number' && isOffsetKey(key)) b.noteTargetOffset(v);
  else if (typeof v === 'number' && isSerialKey(key)) b.noteTargetOffset(v, line);
  else if (Array.isArray(v)) for (const x of v) noteValue(x, key, b, line);
  else if (typeof v === 'object' && v !== null) {
    const here = serialLineOf(v as Record<string, unknown>, line);
    for (const [k, x] of Object.entries(v)) noteValue(x, k, b, here);
  }
}

/**
 * A write that reaches the target alone (its check left the oracle) changes the object its path
 * names (`PATCH /v2/users/{id}`) on one ledger only: other checks' reads of it, a whole list
 * while checks run at once, would compare two copies the run made differ.
 */
function divergedBy(spec: RequestSpec, b: Bijection): void {
  if (spec.method === 'GET') return;
  for (const seg of spec.path.split('/').slice(3)) {
    try {
      if (seg !== '') b.noteDiverged(decodeURIComponent(seg));
    } catch {
      // not an encoded name
    }
  }
}
