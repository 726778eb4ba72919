import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLedger, fingerprintOf, isValidPartyHint, isValidPartyId } from '../../reference-server/src/ledger/index.js';
import { must, refused } from './helpers.js';

describe('party ids', () => {
  it('accepts hint::1220<64 hex> and nothing else', () => {
    const ns = '1220' + 'ab'.repeat(32);
    expect(isValidPartyId(`alice::${ns}`)).toBe(true);
    expect(isValidPartyId(`a-b_c:d::${ns}`)).toBe(true);
    expect(isValidPartyId('alice')).toBe(false);
    expect(isValidPartyId(`::${ns}`)).toBe(false);
    expect(isValidPartyId(`alice::${ns.toUpperCase()}`)).toBe(false);
    expect(isValidPartyId(`alice::${ns}0`)).toBe(false);
    expect(isValidPartyId(`al ice::${ns}`)).toBe(false);
    expect(isValidPartyId(`${'a'.repeat(186)}::${ns}`)).toBe(false);
  });

  it('derives ids deterministically in the participant namespace', () => {
    const a = must(createLedger().allocateParty({ partyIdHint: 'alice' })).partyDetails;
    const b = must(createLedger().allocateParty({ partyIdHint: 'alice' })).partyDetails;
    expect(a.party).toBe(b.party);
    expect(a.party.split('::')[1]).toBe(createLedger().config.participantId.split('::')[1]);
    expect(a).toMatchObject({ isLocal: true, identityProviderId: '' });
  });

  it('computes external party namespaces from the key', () => {
    expect(fingerprintOf(Buffer.alloc(32, 1))).toMatch(/^1220[0-9a-f]{64}$/);
    expect(fingerprintOf(Buffer.alloc(32, 1))).not.toBe(fingerprintOf(Buffer.alloc(32, 2)));
  });
});

describe('party management', () => {
  it('allocates with or without a hint, once per hint, as a topology update', () => {
    const ledger = createLedger();
    const end = ledger.ledgerEnd().offset;
    const anon = must(ledger.allocateParty({})).partyDetails.party;
    expect(isValidPartyId(anon)).toBe(true);
    must(ledger.allocateParty({ partyIdHint: 'bob' }));
    refused(ledger.allocateParty({ partyIdHint: 'bob' }), 'PARTY_ALREADY_EXISTS');
    refused(ledger.allocateParty({ partyIdHint: 'b::c' }), 'INVALID_ARGUMENT');
    refused(ledger.allocateParty({ partyIdHint: 'x', identityProviderId: 'other-idp' }), 'INVALID_ARGUMENT');
    expect(ledger.ledgerEnd().offset).toBe(end + 2);
    const [topo] = [...must(ledger.updates({ beginExclusive: end, updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: {} } } }))];
    expect(topo?.update).toMatchObject({
      TopologyTransaction: { value: { events: [{ event: { ParticipantAuthorizationAdded: { value: { partyId: anon, participantPermission: 'PARTICIPANT_PERMISSION_SUBMISSION' } } } }] } },
    });
  });

  it('grants the allocating user CanActAs when userId is given', () => {
    const ledger = createLedger();
    must(ledger.createUser({ user: { id: 'u' } }));
    const p = must(ledger.allocateParty({ partyIdHint: 'carol', userId: 'u' })).partyDetails.party;
    expect(must(ledger.listUserRights('u')).rights).toEqual([{ kind: { CanActAs: { value: { party: p } } } }]);
    refused(ledger.allocateParty({ partyIdHint: 'dave', userId: 'nobody' }), 'USER_NOT_FOUND');
  });

  it('lists in pages and looks parties up', () => {
    const ledger = createLedger();
    const ids = ['d', 'b', 'a', 'c'].map((h) => must(ledger.allocateParty({ partyIdHint: h })).partyDetails.party);
    const p1 = must(ledger.listParties({ pageSize: 3 }));
    expect(p1.partyDetails.map((p) => p.party.split('::')[0])).toEqual(['a', 'b', 'c']);
    const p2 = must(ledger.listParties({ pageSize: 3, pageToken: p1.nextPageToken }));
    expect(p2.partyDetails.map((p) => p.party.split('::')[0])).toEqual(['d']);
    expect(p2.nextPageToken).toBe('');
    expect(must(ledger.getParties([ids[0] as string, 'zz::1220' + '00'.repeat(32)])).partyDetails.map((p) => p.party)).toEqual([ids[0]]);
    refused(ledger.getParties(['not-a-party']), 'INVALID_ARGUMENT');
  });

  it('reports connected synchronizers, per party', () => {
    const ledger = createLedger();
    const p = must(ledger.allocateParty({ partyIdHint: 'a' })).partyDetails.party;
    const all = must(ledger.connectedSynchronizers()).connectedSynchronizers;
    expect(all.map((s) => s.synchronizerAlias)).toEqual(['global', 'private']);
    expect(must(ledger.connectedSynchronizers({ party: p })).connectedSynchronizers).toHaveLength(2);
    expect(must(ledger.connectedSynchronizers({ party: 'zz::1220' + '00'.repeat(32) })).connectedSynchronizers).toEqual([]);
    refused(ledger.connectedSynchronizers({ party: 'bad' }), 'INVALID_ARGUMENT');
  });
});

describe('party ids, against the patterns they are defined by', () => {
  // The definition: `hint::namespace`, the last `::` splitting them (isValidPartyId checks by hand).
  const HINT = /^[A-Za-z0-9_-]+(?::[A-Za-z0-9_-]+)*$/;
  const NAMESPACE = /^1220[0-9a-f]{64}$/;
  const byPattern = (id: string): boolean => {
    const i = id.lastIndexOf('::');
    if (i <= 0) return false;
    const hint = id.slice(0, i);
    return hint.length <= 185 && HINT.test(hint) && !hint.includes('::') && NAMESPACE.test(id.slice(i + 2));
  };
  // Strings near the boundary: hint characters, colons, a few outsiders, and namespaces that are
  // right or off by a character, a case or a length.
  const hintChar = fc.constantFrom('a', 'Z', '0', '9', '_', '-', ':', ':', ' ', '.', 'é', '\n');
  const hint = fc.oneof(fc.array(hintChar, { maxLength: 12 }).map((cs) => cs.join('')), fc.string({ maxLength: 190 }), fc.constant('a'.repeat(185)), fc.constant('a'.repeat(186)));
  const hexChar = fc.constantFrom(...'0123456789abcdef');
  const namespace = fc.oneof(
    fc.array(hexChar, { minLength: 64, maxLength: 64 }).map((cs) => `1220${cs.join('')}`),
    fc.tuple(fc.array(hexChar, { minLength: 63, maxLength: 65 }), fc.constantFrom('1220', '1221', '220', ''), fc.constantFrom('', 'A', 'g', '\n', ':')).map(([cs, head, tail]) => `${head}${cs.join('')}${tail}`),
    fc.string({ maxLength: 70 }),
  );

  it('gives the verdicts of the regular expressions on random ids', () => {
    fc.assert(fc.property(hint, namespace, fc.constantFrom('::', ':::', ':', '::::'), (h, ns, sep) => {
      const id = `${h}${sep}${ns}`;
      expect(isValidPartyId(id)).toBe(byPattern(id));
      expect(isValidPartyHint(h)).toBe(h.length > 0 && h.length <= 185 && HINT.test(h) && !h.includes('::'));
    }), { numRuns: 20_000, seed: 31 });
  });
});
