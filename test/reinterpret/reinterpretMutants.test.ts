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

async function certify(fault: Fault, reinterpret: ReinterpretMode, oracle: OracleMode = 'none', judge: JudgeMode = 'model'): Promise<Report> {
  const server = await startMutant(reference.url, fault);
  try {
    const { report } = await runSuite({
      baseUrls: { registry: server.url, ledger: server.url, scan: server.url },
      target: server.url, profile: loadProfile('reference'), only: [CHECK], seed: 7, runs: 2, timeoutMs: 5000,
      progress: 'quiet', toolVersion: 'reinterpret-test', oracle, reinterpret, judge,
    });
    return report;
  } finally {
    await server.close();
  }
}

const checkOf = (r: Report) => r.checks.find((c) => c.id === CHECK)!;

describe('ledger.daml.own-package and re-interpretation', () => {
  it('a conformant target passes, every transaction of the check re-interpreted', async () => {
    const report = await certify({}, 'engine');
    expect(checkOf(report).status, checkOf(report).message).toBe('pass');
    expect(report.reinterpretation).toMatchObject({ mode: 'engine', transactions: 4, handed: 4, reinterpreted: 4, differing: 0, share: 1, skipped: [] });
    expect(validateReport(JSON.parse(JSON.stringify(report)))).toEqual([]);
  }, 120_000);

  it('a conformant target passes with the oracle replaying the check on a reference twin too', async () => {
    const report = await certify({}, 'engine', 'reference');
    expect(checkOf(report).status, checkOf(report).message).toBe('pass');
    expect(report.reinterpretation).toMatchObject({ reinterpreted: 4, share: 1 });
  }, 120_000);

  for (const m of REINTERPRET_MUTANTS) {
    it(`${m.name}: ${m.description}`, async () => {
      const caught = await certify(m.fault as Fault, 'engine');
      expect(checkOf(caught).status, checkOf(caught).message).toBe('fail');
      if (m.reinterpret !== undefined) {
        expect(checkOf(caught).message).toContain(m.reinterpret);
        // The judge off too: its reading of the update stream catches a fault the stream does not share.
        const unaided = await certify(m.fault as Fault, 'none', 'none', 'none');
        expect(checkOf(unaided).status, `${CHECK} with --reinterpret none --judge none: ${checkOf(unaided).message}`).toBe('pass');
        expect(unaided.reinterpretation).toMatchObject({ mode: 'none', reinterpreted: 0 });
        expect(validateReport(JSON.parse(JSON.stringify(unaided)))).toEqual([]);
      }
    }, 180_000);
  }
});
