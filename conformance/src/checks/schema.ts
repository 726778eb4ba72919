import { findOperation, loadSpec, validateResponse, type CompiledSpec, type Problem } from '../schema/index.js';
import { OPERATION_SINCE } from '../schema/cantonVersions.js';
import type { Exchange } from '../target/exchange.js';
import { CheckNotOnRelease } from './outcomes.js';
import { releasePredates, reportedInRun, spliceLacks, spliceReportedInRun } from './support/targetVersion.js';
import { GROUPS, type CheckContext, type CheckDefinition, type Group } from './types.js';

/**
 * Schema observers: one per operation of our specs. Each judges every response of that operation
 * seen in the run (status declared, content type declared, body valid, problems located by JSON
 * pointer) against --spec documents first (when they describe the path) and ours otherwise.
 */
export function schemaChecks(): CheckDefinition[] {
  const out: CheckDefinition[] = [];
  for (const group of GROUPS) {
    const spec = loadSpec(group);
    for (const op of spec.operations.values()) {
      out.push({
        id: `${group}.schema.${kebab(op.operationId)}`,
        title: `Every response to ${op.method.toUpperCase()} ${op.template} matches the spec (status, content type, body)`,
        group,
        operationId: op.operationId,
        level: 'MUST',
        kind: 'schema',
        specRef: `specs/${group}.openapi.yaml ${op.method.toUpperCase()} ${op.template}`,
        observer: true,
        // Observers judge what the run has already recorded: no I/O of their own.
        run: (ctx) => Promise.resolve().then(() => judge(ctx, group, op.operationId)),
      });
    }
  }
  return out;
}

/** Check ids are lower-case kebab (`getV2StateLedger-end` -> `get-v2-state-ledger-end`). */
export function kebab(operationId: string): string {
  return operationId
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function bodyFor(e: Exchange): unknown {
  const r = e.response!;
  if (r.text === '') return undefined;
  if (!/json/.test(r.contentType)) return r.text;
  try {
    return JSON.parse(r.text) as unknown;
  } catch {
    return r.text; // the validator reports it as not JSON
  }
}

function specFor(ctx: CheckContext, group: Group, e: Exchange): CompiledSpec | Group {
  for (const file of ctx.specFiles) {
    const s = loadSpec(file);
    if (s.match(e.request.method, e.path)) return s;
  }
  return group;
}

function judge(ctx: CheckContext, group: Group, operationId: string): void {
  const mine = ctx.seen.filter((e) => e.group === group && !e.websocket && e.response !== undefined && operationOf(group, e) === operationId);
  if (mine.length === 0) {
    notOnRelease(ctx, group, operationId);
    ctx.skip('no response to this operation was seen in this run (its checks were skipped or deselected)');
  }
  const failures: { e: Exchange; problems: Problem[] }[] = [];
  // A body larger than the suite reads is not validated, and not a deviation by itself (a read of
  // ten thousand contracts with their views may well be that large): said, never a pass alone.
  const unread: Exchange[] = [];
  const deprecated = loadSpec(group).operations.get(operationId)?.deprecated === true;
  for (const e of mine) {
    if ((deprecated || UNSAID.has(operationId)) && noRoute(e)) continue;
    if (e.response!.truncated) {
      unread.push(e);
      continue;
    }
    const v = validateResponse({ spec: specFor(ctx, group, e), method: e.request.method, path: e.path, status: e.response!.status, contentType: e.response!.headers['content-type'], body: bodyFor(e) });
    if (!v.ok) failures.push({ e, problems: v.problems });
  }
  if (failures.length === 0) {
    if (unread.length > 0) {
      const note = `${unread.length} of ${mine.length} response(s) larger than the suite reads (${unread[0]!.response!.size} bytes, from ${unread[0]!.checkId}) were not validated`;
      if (unread.length === mine.length) {
        ctx.setEvidence(unread[0]!);
        ctx.warn(note);
      }
    }
    return;
  }
  const first = failures[0]!;
  const lines = first.problems.slice(0, 5).map((p) => `${p.pointer || '(body)'}: ${p.message}`);
  const more = first.problems.length > 5 ? ` (+${first.problems.length - 5} more)` : '';
  ctx.fail(`${failures.length} of ${mine.length} response(s) deviate from the spec; first (HTTP ${first.e.response!.status} from ${first.e.checkId}): ${lines.join('; ')}${more}`, first.e);
}

/**
 * No response because the target's release predates the operation (a 3.5.4 participant has no
 * GetCompletions): its checks skipped as rules the release lacks, and so does its schema, rather
 * than as a MUST check the run could not judge (which `--fail-on-skip` fails).
 */
function notOnRelease(ctx: CheckContext, group: Group, operationId: string): void {
  if (group === 'scan') {
    // A Scan is judged by the Splice release it said (GET /version), as the checks that skipped were.
    const said = ctx.spliceVersion ?? spliceReportedInRun(ctx.seen);
    const why = spliceLacks(said, operationId);
    if (why !== undefined) throw new CheckNotOnRelease(`${why}, so no response to it was seen`, `Splice ${said!}`);
    return;
  }
  const since = group === 'ledger' ? OPERATION_SINCE[operationId] : undefined;
  if (since === undefined) return;
  const reported = reportedInRun(ctx.seen);
  if (releasePredates(reported, since)) throw new CheckNotOnRelease(`the target reports Canton ${String(reported)}; ${operationId} came with Canton ${since}, so no response to it was seen`);
}

/** A Scan without `GET /version` does not say its release, and is judged as the newest: its no-route 404 is not a deviation. */
const UNSAID: ReadonlySet<string> = new Set(['getVersion']);

/**
 * A 404 without a JSON body is the server's answer to a path it has no route for (pekko-http's
 * rejection: a text body), not an answer of the operation. For a deprecated operation it is what
 * a release that dropped it answers (Splice 0.6.5 moved the earliest round under /v0/internal/;
 * later Scans have no route at the old path), and a client of it was told to move: no deviation.
 */
const noRoute = (e: Exchange): boolean => e.response!.status === 404 && !/json/.test(e.response!.contentType);

/** The operation an exchange belongs to in our spec (its recorded operationId, or matched by path). */
function operationOf(group: Group, e: Exchange): string | undefined {
  return e.operationId ?? findOperation(e.request.method, e.path, group)?.operationId;
}
