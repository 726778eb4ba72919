import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Ledger } from '../../reference-server/src/ledger/index.js';
import { ASSET_TEMPLATE } from '../../reference-server/src/ledger/index.js';
import { createAsset, submit, world } from './helpers.js';

/**
 * The HTTP face validates bodies against the spec, but the core must not rely on it: whatever
 * arrives, every operation answers with a Result and never throws.
 */
describe('the core never throws on bad input', () => {
  const { ledger, alice, bank } = world();
  const [cid] = submit(ledger, [bank], [createAsset(bank, alice)]);

  // Values near the real shapes reach deeper code than pure noise.
  const party = fc.constantFrom(alice, bank, 'alice', '', 'x::1220' + '0'.repeat(64));
  const value: fc.Arbitrary<unknown> = fc.oneof(fc.anything(), party, fc.constantFrom(cid, '1.5', '-0', '1e3', 'NaN', {}, [], null));
  const record = fc.dictionary(fc.constantFrom('issuer', 'owner', 'amount', 'observers', 'x', 'newOwner', 'splitAmount'), value);
  const command = fc.oneof(
    fc.record({ CreateCommand: fc.record({ templateId: fc.constantFrom(ASSET_TEMPLATE, 'a:b:c', '#x:Y:Z', ''), createArguments: fc.oneof(record, value) }) }),
    fc.record({
      ExerciseCommand: fc.record({
        templateId: fc.constantFrom(ASSET_TEMPLATE, '#canton-conformance-samples:Sample.Holding:Holding'),
        contractId: fc.constantFrom(cid, '00', 'zz', ''),
        choice: fc.constantFrom('Transfer', 'Split', 'Archive', 'Describe', 'Holding_Owner', 'Nope'),
        choiceArgument: fc.oneof(record, value),
      }),
    }),
    fc.record({ ExerciseByKeyCommand: fc.record({ templateId: fc.constantFrom(ASSET_TEMPLATE, '#canton-conformance-samples:Sample.Account:Account'), contractKey: value, choice: fc.string(), choiceArgument: value }) }),
    value,
  );
  const commands = fc.record(
    {
      userId: fc.oneof(fc.constantFrom('u', ''), value),
      commandId: fc.oneof(fc.string(), value),
      actAs: fc.oneof(fc.array(party), value),
      readAs: fc.oneof(fc.array(party), value),
      commands: fc.oneof(fc.array(command, { maxLength: 3 }), value),
      deduplicationPeriod: value,
      disclosedContracts: fc.oneof(fc.array(fc.record({ createdEventBlob: fc.oneof(fc.base64String(), value), contractId: value }), { maxLength: 2 }), value),
      minLedgerTimeAbs: value,
      minLedgerTimeRel: value,
      synchronizerId: value,
    },
    { requiredKeys: [] },
  );
  const filters = fc.oneof(value, fc.record({ cumulative: fc.oneof(value, fc.array(fc.record({ identifierFilter: value }))) }));
  const format = fc.oneof(value, fc.record({ filtersByParty: fc.oneof(value, fc.dictionary(party, filters)), filtersForAnyParty: filters, verbose: value }, { requiredKeys: [] }));

  const noThrow = (f: (l: Ledger) => unknown) => {
    const r = f(ledger) as { ok: boolean; value?: unknown };
    expect(typeof r.ok).toBe('boolean');
    // iterate lazily produced results too: rendering must not throw either
    if (r.ok && r.value && typeof (r.value as Iterable<unknown>)[Symbol.iterator] === 'function') expect(Array.isArray(Array.from(r.value as Iterable<unknown>))).toBe(true);
  };

  it('submissions', () => {
    fc.assert(fc.property(commands, (c) => noThrow((l) => l.submitAndWait(c as never))), { numRuns: 400, seed: 42 });
    fc.assert(fc.property(commands, value, (c, tf) => noThrow((l) => l.submitAndWaitForTransaction({ commands: c, transactionFormat: tf } as never))), { numRuns: 200, seed: 43 });
  });

  it('reads', () => {
    fc.assert(fc.property(value, format, value, value, (at, ef, filter, verbose) => noThrow((l) => l.activeContracts({ activeAtOffset: at, eventFormat: ef, filter, verbose } as never))), { numRuns: 300, seed: 44 });
    fc.assert(
      fc.property(value, value, fc.oneof(value, fc.record({ includeTransactions: fc.record({ eventFormat: format, transactionShape: value }), includeReassignments: format, includeTopologyEvents: value }, { requiredKeys: [] })), value, (b, e, uf, d) =>
        noThrow((l) => l.updates({ beginExclusive: b, endInclusive: e, updateFormat: uf, descendingOrder: d } as never)),
      ),
      { numRuns: 300, seed: 45 },
    );
    fc.assert(fc.property(value, value, value, (u, p, b) => noThrow((l) => l.completions({ userId: u, parties: p, beginExclusive: b } as never))), { numRuns: 200, seed: 46 });
  });

  it('parties and users', () => {
    fc.assert(
      fc.property(value, value, value, (a, b, c) => {
        noThrow((l) => l.allocateParty({ partyIdHint: a, localMetadata: b, userId: c } as never));
        noThrow((l) => l.createUser({ user: a, rights: b } as never));
        noThrow((l) => l.updateUser('u', { user: a, updateMask: b } as never));
        noThrow((l) => l.grantUserRights('participant_admin', { userId: 'participant_admin', rights: a } as never));
        noThrow((l) => l.listUsers({ pageSize: a, pageToken: b } as never));
        noThrow((l) => l.listParties({ pageSize: a, pageToken: b, filterParty: c } as never));
        noThrow((l) => l.getParties(a as never));
        noThrow((l) => l.prune(a as never));
      }),
      { numRuns: 300, seed: 47 },
    );
  });
});
