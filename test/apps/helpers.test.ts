import { describe, expect, it } from 'vitest';
import { ContractIndex } from '../../reference-server/src/apps/ContractIndex.js';
import { partyIdProblem } from '../../reference-server/src/apps/partyIdProblem.js';
import { isContractIdSyntax } from '../../reference-server/src/apps/registry/isContractIdSyntax.js';
import { parseChoiceContextRequest } from '../../reference-server/src/apps/registry/parseChoiceContextRequest.js';
import { compareTimes, microsToTimestamp, timeMicros } from '../../reference-server/src/apps/time.js';
import { ASSET_TEMPLATE, createLedger, ManualClock } from '../../reference-server/src/ledger/index.js';

describe('timeMicros', () => {
  it('keeps microseconds that Date.parse would drop, and honours offsets', () => {
    expect(timeMicros('2025-01-01T00:00:00Z')).toBe(1735689600000000n);
    expect(timeMicros('2025-01-01T00:00:00.000001Z')).toBe(1735689600000001n);
    expect(timeMicros('2025-01-01T01:00:00.5+01:00')).toBe(1735689600500000n);
    expect(compareTimes('2025-01-01T00:00:00.000001Z', '2025-01-01T00:00:00.000002Z')).toBe(-1);
    expect(compareTimes('2025-01-01T00:00:00Z', '2025-01-01T00:00:00.000000Z')).toBe(0);
  });
  it('is undefined for what is not an RFC 3339 timestamp', () => {
    for (const bad of ['2025-01-01', 'yesterday', '2025-13-01T00:00:00Z', '2025-01-01T00:00:00']) expect(timeMicros(bad)).toBeUndefined();
  });
  it('prints microseconds as the ledger does', () => {
    expect(microsToTimestamp(1735689600000001n)).toBe('2025-01-01T00:00:00.000001Z');
  });
});

describe('partyIdProblem', () => {
  const ns = '1220' + 'ab'.repeat(32);
  it('accepts party ids', () => {
    expect(partyIdProblem(`alice::${ns}`)).toBeUndefined();
    expect(partyIdProblem(`a:b_c-d::${ns}`)).toBeUndefined();
  });
  it.each([
    ['alice', "missing '::' separator"],
    [`::${ns}`, 'the part before'],
    [`a b::${ns}`, 'the part before'],
    ['alice::1220', 'the namespace after'],
    [`alice::${ns.toUpperCase()}`, 'the namespace after'],
  ])('says what is wrong with %s', (id, words) => {
    expect(partyIdProblem(id)).toContain(words);
  });
  it('shortens what it quotes', () => {
    expect(partyIdProblem('x'.repeat(1000))?.length).toBeLessThan(250);
  });
});

describe('isContractIdSyntax', () => {
  it('accepts V1 contract ids with and without suffix', () => {
    expect(isContractIdSyntax('00' + 'a'.repeat(64))).toBe(true);
    expect(isContractIdSyntax('00' + 'a'.repeat(64) + 'ca1220' + 'b'.repeat(64))).toBe(true);
  });
  it('refuses other strings', () => {
    for (const bad of ['', '00', '01' + 'a'.repeat(64), '00' + 'A'.repeat(64), '00' + 'a'.repeat(65), '00' + 'a'.repeat(64) + 'zz', '00' + 'a'.repeat(600)]) {
      expect(isContractIdSyntax(bad)).toBe(false);
    }
  });
});

describe('parseChoiceContextRequest', () => {
  it('reads meta and excludeDebugFields with their defaults; null stands for absent; unknown members are ignored', () => {
    expect(parseChoiceContextRequest({})).toEqual({ ok: true, value: { meta: {}, excludeDebugFields: false } });
    expect(parseChoiceContextRequest({ meta: null, excludeDebugFields: null, other: 1 })).toEqual({ ok: true, value: { meta: {}, excludeDebugFields: false } });
    expect(parseChoiceContextRequest({ meta: { a: 'b' }, excludeDebugFields: true })).toEqual({ ok: true, value: { meta: { a: 'b' }, excludeDebugFields: true } });
  });
  it.each([
    [[], /expected a JSON object, got an array/],
    [null, /got null/],
    [7, /got number/],
    [{ meta: 'x' }, /meta must be an object/],
    [{ meta: { a: 1 } }, /meta\.a must be a string, got number/],
    [{ excludeDebugFields: 'true' }, /excludeDebugFields must be a boolean/],
  ])('refuses %j with INVALID_ARGUMENT', (body, message) => {
    const r = parseChoiceContextRequest(body);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('INVALID_ARGUMENT');
      expect(r.error.cause).toMatch(message);
    }
  });
});

describe('ContractIndex', () => {
  it('indexes the active set when attached, then follows creates and archives, sorted within a key', () => {
    const ledger = createLedger({ clock: new ManualClock() });
    const party = (hint: string) => {
      const r = ledger.allocateParty({ partyIdHint: hint });
      if (!r.ok) throw new Error(r.error.cause);
      return r.value.partyDetails.party;
    };
    const issuer = party('issuer');
    const [alice, bob] = [party('alice'), party('bob')];
    let n = 0;
    const createAsset = (owner: string, amount: string): string => {
      const r = ledger.interpret({ userId: 'u', commandId: `c${++n}`, actAs: [issuer], commands: [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer, owner, amount } } }] });
      if (!r.ok) throw new Error(r.error.cause);
      expect(ledger.commit(r.value).ok).toBe(true);
      return r.value.results[0] as string;
    };
    const early = createAsset(alice, '5');
    const template = ledger.catalogue.resolveTemplate(ASSET_TEMPLATE);
    if (!template.ok) throw new Error('no template');
    // Largest amount first.
    const index = new ContractIndex(ledger, template.value, (c) => [c.argument.owner as string], (a, b) => Number(b.argument.amount) - Number(a.argument.amount));
    expect(index.get(alice).map((c) => c.contractId)).toEqual([early]);
    const big = createAsset(alice, '50');
    const mid = createAsset(alice, '10');
    createAsset(bob, '1');
    expect(index.get(alice).map((c) => c.contractId)).toEqual([big, mid, early]);
    expect(index.size).toBe(2);
    const archive = ledger.interpret({ userId: 'u', commandId: `c${++n}`, actAs: [issuer], commands: [{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: big, choice: 'Archive', choiceArgument: {} } }] });
    if (!archive.ok) throw new Error(archive.error.cause);
    ledger.commit(archive.value);
    expect(index.first(alice)?.contractId).toBe(mid);
    index.detach();
    createAsset(alice, '99');
    expect(index.first(alice)?.contractId).toBe(mid);
  });
});
