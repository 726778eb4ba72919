/**
 * Sliced evaluation: a long run yields to the event loop every `steps` steps, so other work is
 * served while it is in progress. Proven by events, not clocks: another task, scheduled after the
 * run started, completes before the run ends; the sliced result is the synchronous one; runs
 * interleave without seeing each other's state; budgets hold across slices.
 */
import { describe, expect, it } from 'vitest';

import type { Expr } from '../../daml-engine/ast/Expr.js';
import type { Package } from '../../daml-engine/ast/Package.js';
import { Evaluator, type Slicing } from '../../daml-engine/eval/Evaluator.js';
import { exerciseCommand, UpdateEngine, type LedgerContract } from '../../daml-engine/update/UpdateEngine.js';
import type { RecordValue, Value } from '../../daml-engine/value/Value.js';
import { int64 } from '../../daml-engine/value/Value.js';
import { buildHostilePackage } from './hostilePackage.js';

const built = buildHostilePackage('hostile-sliced');
const getPackage = (id: string): Package | undefined => (id === built.id ? built.package : undefined);
const OWNER = 'owner::1220aa';
const BOMB = built.ref('Hostile', 'Bomb');
const CID = `00${'ab'.repeat(32)}`;
const contract: LedgerContract = {
  templateId: BOMB,
  argument: { kind: 'record', tycon: BOMB, fieldNames: ['owner', 'depth'], fields: [{ kind: 'party', value: OWNER }, int64(3n)] } satisfies RecordValue,
};

/** A slicing that yields through setImmediate and counts its pauses. */
function counting(steps: number): Slicing & { pauses: number } {
  const s = { steps, pauses: 0, pause: () => new Promise<void>((resolve) => { s.pauses++; setImmediate(resolve); }) };
  return s;
}

const choiceArg = (choice: string, fields: Record<string, Value>): RecordValue => ({
  kind: 'record', tycon: built.ref('Hostile', choice), fieldNames: Object.keys(fields), fields: Object.values(fields),
});
const submission = (choice: string, fields: Record<string, Value> = {}) => ({
  update: exerciseCommand(BOMB, CID, choice, choiceArg(choice, fields)),
  submitters: [OWNER], transactionSeed: new Uint8Array(32).fill(1), preparationTime: 1_764_000_000_000_000n,
  getContract: (cid: string) => (cid === CID ? contract : undefined),
});

describe('the evaluator in slices', () => {
  // double 16 "x": 2^16 characters built by 16 recursive calls, a few hundred steps.
  const double: Expr = { kind: 'app', fun: { kind: 'val', ref: built.ref('Hostile', 'double') }, args: [{ kind: 'lit', value: int64(16n) }, { kind: 'lit', value: { kind: 'text', value: 'x' } }] };

  it('gives the synchronous result, and other work completes while it runs', async () => {
    const sync = new Evaluator({ getPackage }).evaluate(double);
    const events: string[] = [];
    const slicing = counting(10);
    const e = new Evaluator({ getPackage });
    // Another client's request: a macrotask queued once the run has started, served only if the run yields.
    const run = e.runMachineSliced(() => {
      e.evalWith(double, null);
      setImmediate(() => events.push('other request served'));
    }, slicing).then((r) => {
      events.push('evaluation done');
      return r;
    });
    const result = await run;
    // Step counts differ by where top-level values were first evaluated; the value may not.
    expect(result.ok && sync.ok && result.value).toEqual(sync.ok && sync.value);
    expect(events).toEqual(['other request served', 'evaluation done']);
    expect(slicing.pauses).toBeGreaterThan(1);
  });

  it('without slices nothing else runs until it ends (the check above can fail)', async () => {
    const events: string[] = [];
    const e = new Evaluator({ getPackage });
    const run = e.runMachineSliced(() => {
      e.evalWith(double, null);
      setImmediate(() => events.push('other request served'));
    }, counting(Number.MAX_SAFE_INTEGER)).then(() => events.push('evaluation done'));
    await run;
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['evaluation done', 'other request served']);
  });
});

describe('the update engine in slices', () => {
  it('commits the same transaction as a synchronous submit, runs interleaved without mixing', async () => {
    const engine = new UpdateEngine({ getPackage });
    const syncHuge = engine.submit(submission('Huge', { n: int64(12n) }));
    const syncNest = engine.submit(submission('Nest', { n: int64(20n) }));
    const a = counting(50);
    const b = counting(50);
    const [huge, nest] = await Promise.all([engine.submitSliced(submission('Huge', { n: int64(12n) }), a), engine.submitSliced(submission('Nest', { n: int64(20n) }), b)]);
    // The same result and transaction (step counts differ: the synchronous runs evaluated the top-level values first).
    expect({ ...huge, steps: 0 }).toEqual({ ...syncHuge, steps: 0 });
    expect({ ...nest, steps: 0 }).toEqual({ ...syncNest, steps: 0 });
    expect(a.pauses).toBeGreaterThan(0);
    expect(b.pauses).toBeGreaterThan(0);
  });

  it('keeps the step and allocation budgets across slices', async () => {
    const engine = new UpdateEngine({ getPackage, stepBudget: 20_000, allocationBudget: 1024 * 1024 });
    const loop = await engine.submitSliced(submission('Loop'), counting(1000));
    expect(loop.ok ? 'ok' : loop.error.kind).toBe('budgetExceeded');
    expect(loop.steps).toBe(new UpdateEngine({ getPackage, stepBudget: 20_000 }).submit(submission('Loop')).steps);
    const huge = await engine.submitSliced(submission('Huge', { n: int64(22n) }), counting(7));
    expect(huge.ok ? 'ok' : huge.error.kind).toBe('allocationExceeded');
  });
});
