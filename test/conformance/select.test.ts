import { describe, expect, it } from 'vitest';
import { catalogue } from '../../conformance/src/checks/catalogue.js';
import { matches, parseSelectors, selectChecks, SelectionError } from '../../conformance/src/runner/select.js';
import { definition } from './helpers/fakeReport.js';

const checks = [
  definition('registry.accept.context-shape', { operationId: 'getAllocationInstructionAcceptContext' }),
  definition('registry.accept.unknown-id-404', { operationId: 'getAllocationInstructionAcceptContext', kind: 'property' }),
  definition('ledger.acs.offset-zero-empty', { operationId: 'postV2StateActive-contracts' }),
  definition('ledger.acs.active-at-offset', { operationId: 'postV2StateActive-contracts', level: 'SHOULD' }),
  definition('scan.preapproval.known-party', { operationId: 'lookupTransferPreapprovalByParty' }),
];
const ids = (cs: { id: string }[]) => cs.map((c) => c.id);

describe('check selection (--only / --skip)', () => {
  it('selects everything without selectors, in catalogue order', () => {
    expect(ids(selectChecks(checks, [], []))).toEqual(ids(checks));
  });

  it('selects by id, group, kind, operationId, level and glob', () => {
    expect(ids(selectChecks(checks, ['ledger.acs.offset-zero-empty'], []))).toEqual(['ledger.acs.offset-zero-empty']);
    expect(ids(selectChecks(checks, ['registry'], []))).toEqual(['registry.accept.context-shape', 'registry.accept.unknown-id-404']);
    expect(ids(selectChecks(checks, ['property'], []))).toEqual(['registry.accept.unknown-id-404']);
    expect(ids(selectChecks(checks, ['lookupTransferPreapprovalByParty'], []))).toEqual(['scan.preapproval.known-party']);
    expect(ids(selectChecks(checks, ['SHOULD'], []))).toEqual(['ledger.acs.active-at-offset']);
    expect(ids(selectChecks(checks, ['*.acs.*'], []))).toEqual(['ledger.acs.offset-zero-empty', 'ledger.acs.active-at-offset']);
  });

  it('unions several --only selectors and lets --skip win', () => {
    expect(ids(selectChecks(checks, ['registry', 'scan'], ['property']))).toEqual(['registry.accept.context-shape', 'scan.preapproval.known-party']);
    expect(ids(selectChecks(checks, [], ['ledger.acs.*', 'registry']))).toEqual(['scan.preapproval.known-party']);
  });

  it('splits comma lists and ignores blanks', () => {
    expect(parseSelectors(['a,b', ' c ', ',,'])).toEqual(['a', 'b', 'c']);
  });

  it('refuses a selector that matches nothing, suggesting the closest name', () => {
    expect(() => selectChecks(checks, ['ledger.acs.ofset-zero-empty'], [])).toThrow(SelectionError);
    expect(() => selectChecks(checks, ['ledger.acs.ofset-zero-empty'], [])).toThrow(/did you mean 'ledger.acs.offset-zero-empty'/);
    expect(() => selectChecks(checks, [], ['registy'])).toThrow(/did you mean 'registry'/);
    expect(() => selectChecks(checks, ['nothing-like-it-at-all-xyz'], [])).toThrow(/matches no check; `canton-conformance list`/);
  });

  it('a glob must match whole ids', () => {
    expect(matches('ledger.acs', checks[2]!)).toBe(false);
    expect(matches('ledger.acs*', checks[2]!)).toBe(true);
  });
});

describe('the catalogue', () => {
  const all = catalogue();

  it('has unique, well-formed ids and every field the report needs', () => {
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    for (const c of all) {
      expect(c.id).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
      expect(c.id.startsWith(`${c.group}.`)).toBe(true);
      expect(['MUST', 'SHOULD', 'MAY']).toContain(c.level);
      expect(c.title.length).toBeGreaterThan(10);
      expect(c.specRef.length).toBeGreaterThan(5);
      // A clause left empty (`Source: ` at the end, or `: ;`) names nothing a reader can look up.
      expect(c.specRef, c.id).not.toMatch(/:\s*(;|$)/);
      expect(c.operationId).not.toBe('');
    }
  });

  it('covers every operation of the service description with at least one behaviour check', () => {
    const behaviour = new Set(all.filter((c) => c.kind !== 'schema').map((c) => c.operationId));
    const sd = [
      'getAllocationInstructionAcceptContext',
      'getV2Version',
      'deleteV2UsersUser-id',
      'postV2CommandsSubmit-and-wait',
      'postV2StateActive-contracts',
      'getV2StateLedger-end',
      'postV2Updates',
      'postV2CommandsAsyncSubmit',
      'postV2Interactive-submissionExecute',
      'getDocsOpenapi',
      'getDocsAsyncapi',
      'lookupTransferPreapprovalByParty',
      'getRewardAccountingEarliestAvailableRound',
    ];
    expect(sd.filter((op) => !behaviour.has(op))).toEqual([]);
    // submit-and-wait-for-transaction and prepare are exercised by helpers; their responses are schema-checked.
    const observed = new Set(all.filter((c) => c.kind === 'schema').map((c) => c.operationId));
    for (const op of ['postV2CommandsSubmit-and-wait-for-transaction', 'postV2Interactive-submissionPrepare', ...sd]) expect(observed.has(op)).toBe(true);
  });

  it('names the checks the issue asks for', () => {
    const ids = new Set(all.map((c) => c.id));
    for (const id of [
      'registry.accept.unknown-id-404',
      'registry.accept.malformed-body-400',
      'registry.accept.in-flight-409',
      'registry.accept.exclude-debug-equivalence',
      'ledger.acs.offset-after-ledger-end',
      'ledger.dedup.duplicate-409',
      'ledger.users.delete-then-404',
      'ledger.async.submit-then-completion',
      'ledger.updates.websocket-matches-http',
      'ledger.interactive.round-trip',
      'ledger.stateful.model',
      'ledger.auth.expired-token-401',
      'ledger.auth.no-right-403',
      'scan.preapproval.unknown-party-404',
      'scan.earliest-round.shape',
      'registry.cross-group.disclosed-match-ledger',
      'scan.cross-group.preapproval-matches-ledger',
    ]) {
      expect(ids.has(id), id).toBe(true);
    }
  });
});
