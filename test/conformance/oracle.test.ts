import { describe, expect, it } from 'vitest';
import { Bijection } from '../../conformance/src/oracle/bijection.js';
import { compareAnswers } from '../../conformance/src/oracle/compareAnswers.js';
import { translateRequest } from '../../conformance/src/oracle/translateRequest.js';

const hex = (c: string) => c.repeat(64);
const party = (name: string, c: string) => `${name}::1220${hex(c)}`;
const cid = (c: string) => `00${hex(c)}`;
const whole = { partial: false };

describe('the oracle: identifiers pair one to one, offsets by order', () => {
  it('learns pairs and refuses a second partner on either side', () => {
    const b = new Bijection();
    expect(b.pair('t1', 'r1').ok).toBe(true);
    expect(b.pair('t1', 'r1').ok).toBe(true);
    expect(b.pair('t1', 'r2')).toMatchObject({ ok: false, reason: expect.stringContaining('t1') });
    expect(b.pair('t2', 'r1')).toMatchObject({ ok: false, reason: expect.stringContaining('r1') });
    expect(b.reference('t1')).toBe('r1');
    expect(b.target('r1')).toBe('t1');
  });

  it('pairs offsets keeping their order, and carries an unnamed offset at its distance from the nearest one below', () => {
    const b = new Bijection();
    expect(b.pairOffset(100, 10).ok).toBe(true);
    expect(b.pairOffset(105, 12).ok).toBe(true);
    expect(b.pairOffset(103, 13)).toMatchObject({ ok: false, reason: expect.stringContaining('out of order') });
    expect(b.pairOffset(103, 11).ok).toBe(true);
    expect(b.referenceOffset(106)).toBe(13);
    expect(b.referenceOffset(0)).toBe(0);
  });
});

describe('the oracle: answers compared field by field after normalisation', () => {
  it('passes answers that differ only in identifiers, offsets, clocks and trace ids', () => {
    const b = new Bijection();
    const t = { party: party('alice', 'a'), contractId: cid('b'), offset: 500, recordTime: '2026-01-01T00:00:00Z', context: { tid: 'aaaa' }, amount: '10.0' };
    const r = { party: party('alice', 'c'), contractId: cid('d'), offset: 40, recordTime: '2026-01-01T00:00:01.5Z', context: { tid: 'bbbb' }, amount: '10.0' };
    expect(compareAnswers(t, r, b, whole)).toEqual([]);
    expect(b.reference(cid('b'))).toBe(cid('d'));
    // The same contract must keep its partner in later answers.
    expect(compareAnswers({ contractId: cid('b') }, { contractId: cid('e') }, b, whole)).toMatchObject([{ path: '$.contractId' }]);
  });

  it('reports a wrong value with its JSON path and both values', () => {
    const diffs = compareAnswers({ partyDetails: [{ party: party('x', 'a'), isLocal: false }] }, { partyDetails: [{ party: party('x', 'c'), isLocal: true }] }, new Bijection(), whole);
    expect(diffs).toMatchObject([{ path: '$.partyDetails[0].isLocal', target: false, reference: true }]);
  });

  it('matches list elements by identity: extra target state is ignored, a paired element the target lacks is a difference', () => {
    const b = new Bijection();
    b.pair(cid('1'), cid('a'));
    const t = [{ contractId: cid('9'), v: 1 }, { contractId: cid('1'), v: 2 }];
    expect(compareAnswers(t, [{ contractId: cid('a'), v: 2 }], b, whole)).toEqual([]);
    expect(compareAnswers(t, [{ contractId: cid('a'), v: 3 }], b, whole)).toMatchObject([{ path: '$[1].v' }]);
    b.pair(cid('2'), cid('b'));
    const lacking = compareAnswers(t, [{ contractId: cid('a'), v: 2 }, { contractId: cid('b'), v: 5 }], b, whole);
    expect(lacking).toMatchObject([{ why: expect.stringContaining('lacks') }]);
    // A page may hold it on the next page.
    expect(compareAnswers(t, [{ contractId: cid('a'), v: 2 }, { contractId: cid('b'), v: 5 }], b, { partial: true })).toEqual([]);
  });

  it('reads error texts through the pairing and the clock', () => {
    const b = new Bijection();
    const diffs = compareAnswers(
      { cause: `party ${party('p', 'a')} unknown at 2026-01-01T00:00:00Z` },
      { cause: `party ${party('p', 'c')} unknown at 2026-01-01T00:00:09Z` },
      b,
      whole,
    );
    expect(diffs).toEqual([]);
    expect(b.reference(party('p', 'a'))).toBe(party('p', 'c'));
    expect(compareAnswers({ cause: 'contract not found' }, { cause: 'contract archived' }, b, whole)).toHaveLength(1);
  });

  it('pairs maps keyed by identifiers (Scan rounds by contract id)', () => {
    const b = new Bijection();
    expect(compareAnswers({ [cid('1')]: { round: 3 } }, { [cid('a')]: { round: 3 } }, b, whole)).toEqual([]);
    expect(b.reference(cid('1'))).toBe(cid('a'));
    expect(compareAnswers({ [cid('1')]: { round: 3 } }, { [cid('a')]: { round: 4 } }, b, whole)).toHaveLength(1);
  });
});

describe('the oracle: requests translated for the reference', () => {
  it('rewrites paired identifiers in the path, query and body, and offsets by order', () => {
    const b = new Bijection();
    b.pair(party('alice', 'a'), party('alice', 'c'));
    b.pairOffset(500, 40);
    const t = translateRequest({ method: 'POST', path: `/v2/parties/${encodeURIComponent(party('alice', 'a'))}`, query: { parties: party('alice', 'a') }, json: { actAs: [party('alice', 'a')], beginExclusive: 501, userId: 'u1' } }, b);
    expect(t).toEqual({
      ok: true,
      spec: { method: 'POST', path: `/v2/parties/${encodeURIComponent(party('alice', 'c'))}`, query: { parties: party('alice', 'c') }, json: { actAs: [party('alice', 'c')], beginExclusive: 41, userId: 'u1' } },
    });
  });

  it('translates topology serials on their own line, anywhere under a *Serial member', () => {
    const b = new Bijection();
    expect(compareAnswers({ vettedPackages: [{ packageId: hex('1'), topologySerial: 15 }] }, { vettedPackages: [{ packageId: hex('1'), topologySerial: 4 }] }, b, whole)).toEqual([]);
    const t = translateRequest({ method: 'POST', path: '/v2/package-vetting/update', json: { expectedTopologySerial: { serial: { Prior: { value: 14 } } } } }, b);
    expect(t).toMatchObject({ ok: true, spec: { json: { expectedTopologySerial: { serial: { Prior: { value: 3 } } } } } });
    // The refusals name both serials, each the other's counterpart.
    expect(compareAnswers({ cause: 'expected serial 14, current 15' }, { cause: 'expected serial 3, current 4' }, b, { partial: false, learnOffsets: false })).toEqual([]);
  });

  it('refuses a request naming target state the reference does not share, and passes generated ids through', () => {
    const b = new Bijection();
    b.noteTarget(cid('7'));
    expect(translateRequest({ method: 'POST', path: '/v2/x', json: { contractId: cid('7') } }, b)).toMatchObject({ ok: false });
    expect(translateRequest({ method: 'POST', path: '/v2/x', json: { contractId: cid('8') } }, b)).toMatchObject({ ok: true, spec: { json: { contractId: cid('8') } } });
  });
});
