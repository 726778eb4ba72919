import { describe, expect, it } from 'vitest';
import { mergeReports, MergeError } from '../../conformance/src/report/mergeReports.js';
import { parseShard, shardChecks, ShardError } from '../../conformance/src/runner/shard.js';
import { definition, report, result } from './helpers/fakeReport.js';

const OPS = ['getV2Version', 'getV2StateLedger-end', 'postV2Updates', 'postV2Parties', 'getV2Users'];
const checks = [
  ...Array.from({ length: 11 }, (_, i) => definition(`ledger.area.rule-${String(i).padStart(2, '0')}`, { operationId: OPS[i % OPS.length]! })),
  definition('ledger.schema.get-v2-version', { observer: true, kind: 'schema' }),
  definition('ledger.schema.post-v2-updates', { observer: true, kind: 'schema', operationId: 'postV2Updates' }),
];

describe('--shard K/N', () => {
  it('parses K/N and refuses nonsense', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, total: 4 });
    for (const bad of ['0/3', '4/3', '1/0', 'a/b', '1-3', '']) expect(() => parseShard(bad)).toThrow(ShardError);
  });

  it('deals disjoint shards that together cover the selection; an observer goes with its operation', () => {
    const shards = [1, 2, 3].map((index) => shardChecks(checks, { index, total: 3 }));
    const ids = shards.flatMap((s) => s.map((c) => c.id));
    expect(ids.sort()).toEqual(checks.map((c) => c.id).sort());
    expect(new Set(ids).size).toBe(checks.length);
    for (const s of shards) expect(s.length).toBeGreaterThanOrEqual(3);
    for (const s of shards) for (const c of s) expect(s.filter((x) => x.operationId === c.operationId)).toEqual(checks.filter((x) => x.operationId === c.operationId));
  });

  it('is stable: the same shard of the same selection is the same whatever the catalogue order', () => {
    const a = shardChecks(checks, { index: 2, total: 3 }).map((c) => c.id).sort();
    const b = shardChecks([...checks].reverse(), { index: 2, total: 3 }).map((c) => c.id).sort();
    expect(a).toEqual(b);
  });
});

describe('report merge', () => {
  it('merging the shard reports gives the report of the whole run, with the worst result for duplicates', () => {
    const a = report([result('ledger.a.one', 'pass'), result('ledger.schema.x', 'pass', { kind: 'schema' })], { shard: { index: 1, total: 2 }, startedAt: '2026-07-01T09:30:00.000Z', durationMs: 1000 });
    const b = report([result('ledger.a.two', 'fail'), result('ledger.schema.x', 'fail', { kind: 'schema' })], { shard: { index: 2, total: 2 }, startedAt: '2026-07-01T09:30:02.000Z', durationMs: 3000 });
    const m = mergeReports([a, b]);
    expect(m.checks.map((c) => [c.id, c.status])).toEqual([
      ['ledger.a.one', 'pass'],
      ['ledger.a.two', 'fail'],
      ['ledger.schema.x', 'fail'],
    ]);
    expect(m.summary).toMatchObject({ total: 3, passed: 1, failed: 2 });
    expect(m.verdict).toBe('fail');
    expect(m.shard).toBeUndefined();
    expect(m.mergedFrom).toBe(2);
    expect(m.startedAt).toBe('2026-07-01T09:30:00.000Z');
    expect(m.durationMs).toBe(5000);
    expect(m.warnings).toEqual([]);
    expect(m.timings[0]).toMatchObject({ operationId: 'getV2Version', requests: 6 });
  });

  it('warns about missing shards and different seeds, and refuses different targets', () => {
    const a = report([result('ledger.a.one', 'pass')], { shard: { index: 1, total: 3 }, seed: 1 });
    const b = report([result('ledger.a.two', 'pass')], { shard: { index: 3, total: 3 }, seed: 2 });
    const m = mergeReports([a, b]);
    expect(m.warnings.join('\n')).toMatch(/shard\(s\) 2\/3 missing/);
    expect(m.warnings.join('\n')).toMatch(/different seeds \(1, 2\)/);
    expect(() => mergeReports([a, report([], { target: 'http://elsewhere' })])).toThrow(MergeError);
    expect(() => mergeReports([])).toThrow(MergeError);
  });

  it('keeps an unexpected failure over an expected one of the same status', () => {
    const a = report([result('ledger.a.one', 'fail', { baseline: 'expected' })]);
    const b = report([result('ledger.a.one', 'fail', { baseline: 'unexpected' })]);
    expect(mergeReports([a, b]).checks[0]!.baseline).toBe('unexpected');
  });
});
