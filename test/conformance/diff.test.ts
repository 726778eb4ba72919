import { describe, expect, it } from 'vitest';
import { diffReports, renderDiff } from '../../conformance/src/report/diffReports.js';
import { report, result } from './helpers/fakeReport.js';

describe('report --diff', () => {
  const a = report([result('ledger.a.regresses', 'pass'), result('ledger.a.fixed', 'fail'), result('ledger.a.same', 'pass'), result('ledger.a.changes', 'pass'), result('ledger.a.removed', 'pass')]);
  const b = report([result('ledger.a.regresses', 'fail'), result('ledger.a.fixed', 'pass'), result('ledger.a.same', 'pass'), result('ledger.a.changes', 'skip'), result('ledger.a.added', 'error')]);

  it('sorts every change into regressed, fixed, changed, added and removed', () => {
    const d = diffReports(a, b);
    expect(d.regressed.map((e) => e.id)).toEqual(['ledger.a.regresses']);
    expect(d.fixed.map((e) => e.id)).toEqual(['ledger.a.fixed']);
    expect(d.changed.map((e) => [e.id, e.before, e.after])).toEqual([['ledger.a.changes', 'pass', 'skip']]);
    expect(d.added.map((e) => e.id)).toEqual(['ledger.a.added']);
    expect(d.removed.map((e) => e.id)).toEqual(['ledger.a.removed']);
    expect(d.unchanged).toBe(1);
  });

  it('renders Markdown with a one-line tally', () => {
    const md = renderDiff(a, b, diffReports(a, b));
    expect(md).toContain('1 regressed · 1 fixed · 1 changed · 1 added · 1 removed · 1 unchanged');
    expect(md).toContain('| `ledger.a.regresses` | pass | fail |');
  });

  it('a run compared with itself shows no change', () => {
    const d = diffReports(a, a);
    expect([d.regressed, d.fixed, d.changed, d.added, d.removed].every((x) => x.length === 0)).toBe(true);
  });
});
