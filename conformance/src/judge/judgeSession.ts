import type { CheckDefinition, Group } from '../checks/types.js';
import type { TargetClient } from '../target/createTarget.js';
import { jsonOf, type Exchange, type RequestSpec } from '../target/exchange.js';
import type { StreamOptions, StreamResult } from '../target/websocket.js';
import { observe, type Answer } from './observe.js';
import { TargetModel, type Observation, type Violation } from './targetModel.js';

/** One check's view: its client, every answer judged on the way back, and what broke an invariant. */
export interface JudgeCheck {
  readonly http: TargetClient;
  /** Violations found in this check's answers, each with the exchange that showed it. */
  violations(): readonly JudgedViolation[];
}

export interface JudgedViolation {
  readonly violation: Violation;
  readonly exchange: Exchange;
}

export interface JudgeSession {
  readonly model: TargetModel;
  check(check: CheckDefinition, client: TargetClient): JudgeCheck;
  totals(): { readonly answers: number; readonly violations: number };
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
export function createJudgeSession(model: TargetModel = new TargetModel()): JudgeSession {
  let answers = 0;
  let violations = 0;
  return {
    model,
    totals: () => ({ answers, violations }),
    check(check, client) {
      const found: JudgedViolation[] = [];
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
            judge(e, { method: spec.method ?? 'GET', path: e.path, request: bodyOf(spec), status: e.response.status, body: j.ok ? j.value : undefined }, startTick, `${spec.method ?? 'GET'} ${e.path}`);
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
      return { http, violations: () => found };
    },
  };
}
