import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyBaseline, BaselineError, loadBaseline, parseBaseline } from '../../conformance/src/report/baseline.js';
import { report, result } from './helpers/fakeReport.js';

const known = ['ledger.a.fails', 'ledger.a.errors', 'ledger.a.passes', 'ledger.a.warns', 'ledger.a.skips', 'ledger.a.new-failure'];

describe('baseline: the exit-code table', () => {
  const results = [
    result('ledger.a.fails', 'fail'),
    result('ledger.a.errors', 'error'),
    result('ledger.a.passes', 'pass'),
    result('ledger.a.warns', 'warn'),
    result('ledger.a.skips', 'skip'),
  ];

  it('without a baseline every fail and error is unexpected (exit 1), and results carry no mark', () => {
    const o = applyBaseline(results, undefined);
    expect(o.exitCode).toBe(1);
    expect(o.unexpected).toEqual(['ledger.a.fails', 'ledger.a.errors']);
    expect(o.checks.every((c) => c.baseline === undefined)).toBe(true);
  });

  it('expected failures do not fail the run (exit 0)', () => {
    const o = applyBaseline(results, parseBaseline('ledger.a.fails\nledger.a.errors\n', 'b.txt', known));
    expect(o.exitCode).toBe(0);
    expect(o.expected).toEqual(['ledger.a.fails', 'ledger.a.errors']);
    expect(o.checks.find((c) => c.id === 'ledger.a.fails')!.baseline).toBe('expected');
  });

  it('a baselined check that now passes is stale and fails the run (exit 1)', () => {
    const o = applyBaseline(results, parseBaseline('ledger.a.fails\nledger.a.errors\nledger.a.passes\n', 'b.txt', known));
    expect(o.exitCode).toBe(1);
    expect(o.stale).toEqual(['ledger.a.passes']);
    expect(o.checks.find((c) => c.id === 'ledger.a.passes')!.baseline).toBe('stale');
  });

  it('a failure outside the baseline is unexpected (exit 1); warn and skip entries have no effect', () => {
    const o = applyBaseline([...results, result('ledger.a.new-failure', 'fail')], parseBaseline('ledger.a.fails\nledger.a.errors\nledger.a.warns\nledger.a.skips', 'b.txt', known));
    expect(o.exitCode).toBe(1);
    expect(o.unexpected).toEqual(['ledger.a.new-failure']);
    expect(o.checks.find((c) => c.id === 'ledger.a.new-failure')!.baseline).toBe('unexpected');
    expect(o.checks.find((c) => c.id === 'ledger.a.warns')!.baseline).toBeUndefined();
    expect(o.checks.find((c) => c.id === 'ledger.a.skips')!.baseline).toBeUndefined();
  });

  it('an entry for a check that did not run has no effect', () => {
    const o = applyBaseline([result('ledger.a.passes', 'pass')], parseBaseline('ledger.a.fails', 'b.txt', known));
    expect(o.exitCode).toBe(0);
    expect(o.stale).toEqual([]);
  });
});

describe('baseline files', () => {
  it('reads one id per line with comments and reasons', () => {
    const b = parseBaseline('# known gaps\nledger.a.fails   # tracked in VENDOR-12\n\nledger.a.errors flaky network\n', 'b.txt', known);
    expect([...b.entries]).toEqual([
      ['ledger.a.fails', 'tracked in VENDOR-12'],
      ['ledger.a.errors', 'flaky network'],
    ]);
  });

  it('reads a JSON array of ids', () => {
    expect([...parseBaseline('["ledger.a.fails"]', 'b.json', known).entries.keys()]).toEqual(['ledger.a.fails']);
  });

  it('reads a previous report: its failed and errored checks', () => {
    const prev = report([result('ledger.a.fails', 'fail'), result('ledger.a.errors', 'error'), result('ledger.a.passes', 'pass'), result('ledger.gone.check', 'fail')]);
    const dir = mkdtempSync(join(tmpdir(), 'cc-baseline-'));
    writeFileSync(join(dir, 'report.json'), JSON.stringify(prev));
    expect([...loadBaseline(join(dir, 'report.json'), known).entries.keys()]).toEqual(['ledger.a.fails', 'ledger.a.errors']);
  });

  it('refuses an unknown id, quoting the line and guessing the typo', () => {
    expect(() => parseBaseline('ledger.a.fails\nledger.a.pases\n', 'b.txt', known)).toThrow(BaselineError);
    expect(() => parseBaseline('ledger.a.fails\nledger.a.pases\n', 'b.txt', known)).toThrow(/b\.txt:2: 'ledger\.a\.pases'.*did you mean 'ledger\.a\.passes'/);
    expect(() => parseBaseline('{"not": "a report"}', 'b.json', known)).toThrow(/expected a report\.json/);
    expect(() => loadBaseline('/nonexistent/baseline.txt', known)).toThrow(/cannot read baseline/);
  });
});
