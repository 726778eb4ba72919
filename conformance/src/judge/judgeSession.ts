import type { CheckDefinition, Group } from '../checks/types.js';
import type { TargetClient } from '../target/createTarget.js';
import { jsonOf, type Exchange, type RequestSpec } from '../target/exchange.js';
import type { StreamOptions, StreamResult } from '../target/websocket.js';
import { observe, type Answer } from './observe.js';
import type { StreamFollower } from './streamFollower.js';
import { TargetModel, type Observation, type Violation } from './targetModel.js';

/** One check's view: its client, every answer judged on the way back, and what broke an invariant. */
export interface JudgeCheck {
  readonly http: TargetClient;
  /** Violations found in this check's answers, each with the exchange that showed it. */
  violations(): readonly JudgedViolation[];
  /**
   * Once the check ended: when it committed a write, reads the update stream up to the ledger end
   * and judges it (a violation found there fails this check).
   */
  settle(): Promise<void>;
}

export interface JudgedViolation {
  readonly violation: Violation;
  readonly exchange: Exchange;
}

export interface JudgeSession {
  readonly model: TargetModel;
  /** The update stream followed from the run's start (absent: judged only by the checks' answers). */
  readonly follower?: StreamFollower;
  check(check: CheckDefinition, client: TargetClient): JudgeCheck;
  totals(): { readonly answers: number; readonly violations: number };
  /** The end of the run: the rest of the update stream and the run's completions, judged. */
  finish(): Promise<readonly JudgedViolation[]>;
}

const bodyOf = (spec: RequestSpec): unknown => {
  if (spec.json !== undefined) return spec.json;
  if (spec.body === undefined) return undefined;
  try {
    return JSON.parse(spec.body) as unknown;
  } catch {
    return undefined;
  }
};

/**
 * The target judged by its own answers: every answer of every check goes through `observe`, which
 * records what it shows in the model and judges it by the named invariants (invariants.ts).
 */
export function createJudgeSession(model: TargetModel = new TargetModel(), follower?: StreamFollower): JudgeSession {
  let answers = 0;
  let violations = 0;
  return {
    model,
    ...(follower ? { follower } : {}),
    totals: () => ({ answers, violations }),
    async finish() {
      if (follower === undefined) return [];
      const found = await follower.finish();
      violations += found.length;
      return found;
    },
    check(check, client) {
      const found: JudgedViolation[] = [];
      let wrote = false;
      const seenOf = (e: Exchange, where: string): Observation => ({ checkId: check.id, where, seq: e.seq, at: e.startedAt });
      const judge = (e: Exchange, a: Answer, startTick: number, where: string) => {
        answers++;
        for (const v of observe(model, a, seenOf(e, where), startTick)) {
          violations++;
          found.push({ violation: v, exchange: e });
        }
      };
      const http: TargetClient = {
        baseUrl: (group: Group) => client.baseUrl(group),
        async request(group: Group, spec: RequestSpec) {
          const startTick = model.tick();
          const e = await client.request(group, spec);
          if (e.response !== undefined) {
            const j = jsonOf(e);
            const where = `${spec.method ?? 'GET'} ${e.path}`;
            const request = bodyOf(spec);
            const body = j.ok ? j.value : undefined;
            judge(e, { method: spec.method ?? 'GET', path: e.path, request, status: e.response.status, body }, startTick, where);
            if (follower?.noteWrite(check.id, { ...seenOf(e, where), write: true }, e, e.path, request, e.response.status, body)) wrote = true;
          }
          return e;
        },
        async stream(group: Group, path: string, options: StreamOptions): Promise<StreamResult> {
          const startTick = model.tick();
          const r = await client.stream(group, path, options);
          if (r.exchange.response !== undefined) {
            const cut = r.ended === 'until' || r.ended === 'limit' || options.until !== undefined || options.maxMessages !== undefined;
            judge(r.exchange, { method: 'GET', path: r.exchange.path, request: options.request, status: r.exchange.response.status, body: r.messages, stream: { ended: r.ended, cut, ...(r.closeCode === undefined ? {} : { closeCode: r.closeCode }) } }, startTick, `WS ${r.exchange.path}`);
          }
          return r;
        },
      };
      const settle = async () => {
        if (!wrote || follower === undefined || !follower.active) return;
        for (const v of await follower.sync(check.id)) {
          violations++;
          found.push(v);
        }
      };
      return { http, violations: () => found, settle };
    },
  };
}
