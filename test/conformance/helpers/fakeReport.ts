import type { CheckDefinition, Group, Kind, Level, Status } from '../../../conformance/src/checks/types.js';
import { summarize, type CheckResult, type Report } from '../../../conformance/src/report/model.js';

export function result(id: string, status: Status, extra: Partial<CheckResult> = {}): CheckResult {
  return {
    id,
    title: `title of ${id}`,
    group: (id.split('.')[0] as Group) ?? 'ledger',
    operationId: 'getV2Version',
    level: 'MUST',
    kind: 'example',
    status,
    specRef: 'service description',
    durationMs: 3,
    requests: 1,
    ...(status === 'pass' ? {} : { message: `${id} is ${status}` }),
    ...extra,
  };
}

export function report(checks: CheckResult[], extra: Partial<Report> = {}): Report {
  return {
    tool: { name: 'canton-conformance', version: '0.1.0' },
    target: 'http://127.0.0.1:7575',
    targets: { registry: 'http://127.0.0.1:7575', ledger: 'http://127.0.0.1:7575', scan: 'http://127.0.0.1:7575' },
    profile: 'test',
    startedAt: '2026-07-01T09:30:00.000Z',
    durationMs: 1234,
    seed: 42,
    runs: 10,
    warnings: [],
    summary: summarize(checks),
    verdict: checks.some((c) => c.status === 'fail' || c.status === 'error') ? 'fail' : 'pass',
    timings: [{ group: 'ledger', operationId: 'getV2Version', requests: 3, p50Ms: 1.5, p95Ms: 4, maxMs: 4 }],
    checks,
    ...extra,
  };
}

export function definition(id: string, extra: Partial<CheckDefinition> = {}): CheckDefinition {
  return {
    id,
    title: `title of ${id}`,
    group: (id.split('.')[0] as Group) ?? 'ledger',
    operationId: 'getV2Version',
    level: 'MUST' as Level,
    kind: 'example' as Kind,
    specRef: 'service description',
    run: () => Promise.resolve(),
    ...extra,
  };
}
