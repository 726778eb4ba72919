import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../conformance/src/report/model.js';
import { validateReport } from '../../conformance/src/report/validateReport.js';
import { loadProfile } from '../../conformance/src/runner/profile.js';
import { runSuite, type JudgeMode, type OracleMode } from '../../conformance/src/runner/runSuite.js';
import type { ReinterpretMode } from '../../conformance/src/reinterpret/reinterpretTally.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import { startMutant, type Fault } from '../mutants/mutantProxy.js';
import { REINTERPRET_MUTANTS } from '../mutants/reinterpretMutants.js';

/**
 * The suite's own package on a writable target, and faults inside its transactions: each fault
 * fails `ledger.daml.own-package` with its `judge.daml.*` id when re-interpretation is on, and
 * passes unnoticed with `--reinterpret none` (no hand-written expectation looks at it).
 */
const CHECK = 'ledger.daml.own-package';
let reference: { url: string; close(): Promise<void> };

beforeAll(async () => {
  reference = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined });
}, 60_000);
afterAll(() => reference?.close());

async function certify(fault: Fault, reinterpret: ReinterpretMode, oracle: OracleMode = 'none', only = CHECK, judge: JudgeMode = 'model'): Promise<Report> {
  const server = await startMutant(reference.url, fault);
  try {
    const { report } = await runSuite({
      baseUrls: { registry: server.url, ledger: server.url, scan: server.url },
      target: server.url, profile: loadProfile('reference'), only: [only], seed: 7, runs: 2, timeoutMs: 5000,
      progress: 'quiet', toolVersion: 'reinterpret-test', oracle, reinterpret, judge,
    });
    return report;
  } finally {
    await server.close();
  }
}

const checkOf = (r: Report, id = CHECK) => r.checks.find((c) => c.id === id)!;

describe('ledger.daml.own-package and re-interpretation', () => {
  it('a conformant target passes, every transaction of the check re-interpreted', async () => {
    const report = await certify({}, 'engine');
    expect(checkOf(report).status, checkOf(report).message).toBe('pass');
    expect(report.reinterpretation).toMatchObject({ mode: 'engine', transactions: 5, handed: 5, reinterpreted: 5, differing: 0, share: 1, skipped: [] });
    expect(validateReport(JSON.parse(JSON.stringify(report)))).toEqual([]);
  }, 120_000);

  it('a conformant target passes with the oracle replaying the check on a reference twin too', async () => {
    const report = await certify({}, 'engine', 'reference');
    expect(checkOf(report).status, checkOf(report).message).toBe('pass');
    expect(report.reinterpretation).toMatchObject({ reinterpreted: 5, share: 1 });
  }, 120_000);

  it('a check on the sample templates: every transaction it commits is re-read and re-interpreted', async () => {
    const id = 'ledger.exercise.result-and-events';
    const report = await certify({}, 'engine', 'none', id);
    expect(checkOf(report, id).status, checkOf(report, id).message).toBe('pass');
    expect(report.reinterpretation).toMatchObject({ mode: 'engine', differing: 0, skipped: [] });
    expect(report.reinterpretation!.reinterpreted).toBeGreaterThanOrEqual(2); // the create, then the Split
    expect(report.reinterpretation!.share).toBe(1);
  }, 120_000);

  for (const m of REINTERPRET_MUTANTS) {
    it(`${m.name}: ${m.description}`, async () => {
      const caught = await certify(m.fault as Fault, 'engine', 'none', m.caughtBy);
      expect(checkOf(caught, m.caughtBy).status, checkOf(caught, m.caughtBy).message).toBe('fail');
      if (m.reinterpret !== undefined) {
        expect(checkOf(caught, m.caughtBy).message).toContain(m.reinterpret);
        // The judge off too: its reading of the update stream catches a fault the stream does not share.
        const unaided = await certify(m.fault as Fault, 'none', 'none', m.caughtBy, 'none');
        expect(checkOf(unaided, m.caughtBy).status, `${m.caughtBy} with --reinterpret none --judge none: ${checkOf(unaided, m.caughtBy).message}`).toBe('pass');
        expect(unaided.reinterpretation).toMatchObject({ mode: 'none', reinterpreted: 0 });
        expect(validateReport(JSON.parse(JSON.stringify(unaided)))).toEqual([]);
      }
    }, 180_000);
  }
});
