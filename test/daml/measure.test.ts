/**
 * TypeMeasures (daml-engine/check/measure.ts): a type's depth and whether it holds a type variable,
 * over shared (DAG) types, very deep chains and (hand-made) cycles, without recursion.
 */
import { describe, expect, it } from 'vitest';
import type { Type } from '../../daml-engine/ast/Type.js';
import { TypeMeasures } from '../../daml-engine/check/measure.js';

const INT: Type = { kind: 'builtin', builtin: 'INT64', args: [] };
const list = (t: Type): Type => ({ kind: 'builtin', builtin: 'LIST', args: [t] });
const tvar = (name: string): Type => ({ kind: 'var', name, args: [] });

describe('TypeMeasures', () => {
  it('measures depth as levels of the tree (a leaf is 1), through every kind of node', () => {
    const m = new TypeMeasures();
    expect(m.typeDepth(INT, 500)).toBe(1);
    expect(m.typeDepth(list(list(INT)), 500)).toBe(3);
    const struct: Type = { kind: 'struct', fields: [{ name: 'a', type: INT }, { name: 'b', type: list(list(list(INT))) }] };
    expect(m.typeDepth(struct, 500)).toBe(5);
    const forall: Type = { kind: 'forall', vars: [{ name: 'a', kind: { kind: 'star' } }], body: list(tvar('a')) };
    expect(m.typeDepth(forall, 500)).toBe(3);
    expect(m.typeDepth({ kind: 'app', lhs: list(INT), rhs: { kind: 'nat', value: 10 } }, 500)).toBe(3);
  });

  it('tells types without variables from types with one, wherever it stands', () => {
    const m = new TypeMeasures();
    const closed = list(list(INT));
    const open = list({ kind: 'con', tycon: { packageId: 'p', module: 'M', name: 'T' }, args: [INT, tvar('a')] });
    const forall: Type = { kind: 'forall', vars: [{ name: 'a', kind: { kind: 'star' } }], body: tvar('a') };
    for (const t of [closed, open, forall]) m.typeDepth(t, 500);
    expect(m.isVarFree(closed)).toBe(true);
    expect(m.isVarFree(open)).toBe(false);
    expect(m.isVarFree(forall)).toBe(false);
    expect(m.isVarFree(list(INT))).toBe(false); // not measured yet
  });

  it('measures a shared chain 100,000 deep without recursion, each node once', () => {
    const m = new TypeMeasures();
    let t: Type = INT;
    for (let i = 0; i < 100_000; i++) t = { kind: 'app', lhs: t, rhs: t }; // a tree of 2^100000 paths
    expect(m.typeDepth(t, 500)).toBe(100_001);
    expect(m.isVarFree(t)).toBe(true);
  });

  it('gives a cycle (only hand-made packages have one) a depth past the limit, and no variable-freeness', () => {
    const m = new TypeMeasures();
    const args: Type[] = [];
    const cyclic: Type = { kind: 'builtin', builtin: 'LIST', args };
    args.push(list(cyclic));
    expect(m.typeDepth(cyclic, 500)).toBeGreaterThan(500);
    expect(m.isVarFree(cyclic)).toBe(false);
  });
});
