import { describe, expect, it, vi } from 'vitest';
import { main } from '../../conformance/src/cli/main.js';
import { observe } from '../../conformance/src/judge/observe.js';
import { TargetModel, type Observation } from '../../conformance/src/judge/targetModel.js';
import { INVARIANTS } from '../../conformance/src/judge/invariants.js';

const at = (where: string, seq: number): Observation => ({ checkId: 'c', where, seq, at: `2026-01-01T00:00:0${seq}Z` });
const created = (createdAt: string, observers: string[] = []) => ({ CreatedEvent: { contractId: '00aa', templateId: 'p:Sample.Asset:Asset', packageName: 'canton-conformance-samples', createArgument: { issuer: 'i', owner: 'o', amount: '1.0' }, signatories: ['i'], observers: ['o', ...observers], createdAt } });

describe('the judge: answers against the target\'s own earlier answers', () => {
  it('a created event read again with another createdAt breaks judge.facts.reread-equal, naming both observations', () => {
    const m = new TargetModel();
    expect(observe(m, { method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction', request: {}, status: 200, body: { transaction: { events: [created('2026-01-01T00:00:00.123Z')] } } }, at('POST /a', 1), m.tick())).toEqual([]);
    const v = observe(m, { method: 'POST', path: '/v2/state/active-contracts', request: {}, status: 200, body: [{ contractEntry: { JsActiveContract: { createdEvent: created('2026-01-01T00:00:01.123Z').CreatedEvent } } }] }, at('POST /b', 2), m.tick());
    expect(v).toMatchObject([{ invariant: 'judge.facts.reread-equal', first: { where: 'POST /a' }, second: { where: 'POST /b' } }]);
    // The same instant written with trailing zeros is the same fact.
    expect(observe(m, { method: 'POST', path: '/v2/x', request: {}, status: 200, body: created('2026-01-01T00:00:00.123000Z') }, at('POST /c', 3), m.tick())).toEqual([]);
  });

  it("a contract's key is a fact of the contract: read again with another key breaks judge.facts.reread-equal", () => {
    const m = new TargetModel();
    const keyed = (contractKey: unknown) => ({ ...created('2026-01-01T00:00:00Z').CreatedEvent, contractKey });
    expect(observe(m, { method: 'POST', path: '/v2/x', request: {}, status: 200, body: keyed({ owner: 'o', n: '1.0' }) }, at('POST /a', 1), m.tick())).toEqual([]);
    expect(observe(m, { method: 'POST', path: '/v2/y', request: {}, status: 200, body: keyed({ owner: 'o', n: '1.0000000000' }) }, at('POST /b', 2), m.tick())).toEqual([]);
    expect(observe(m, { method: 'POST', path: '/v2/z', request: {}, status: 200, body: keyed({ owner: 'x', n: '1.0' }) }, at('POST /c', 3), m.tick()).map((v) => v.invariant)).toEqual(['judge.facts.reread-equal']);
  });

  it('witnesses: every requesting stakeholder whose filter takes the contract, and in ACS-delta reads no one else', () => {
    const ev = (witnessParties: string[]) => [{ contractEntry: { JsActiveContract: { createdEvent: { ...created('2026-01-01T00:00:00Z').CreatedEvent, witnessParties } } } }];
    const wildcard = { cumulative: [{ identifierFilter: { WildcardFilter: { value: {} } } }] };
    const viaInterface = { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: '#x:M:I' } } } }] };
    const acs = (m: TargetModel, eventFormat: unknown, witnesses: string[]) =>
      observe(m, { method: 'POST', path: '/v2/state/active-contracts', request: { activeAtOffset: 0, eventFormat }, status: 200, body: ev(witnesses) }, at('POST /acs', 1), m.tick()).map((x) => x.invariant);
    const m = new TargetModel();
    expect(acs(m, { filtersByParty: { i: wildcard, o: wildcard } }, ['i', 'o'])).toEqual([]);
    expect(acs(m, { filtersByParty: { i: wildcard, o: wildcard } }, ['i'])).toEqual(['judge.events.witnesses-requested']);
    expect(acs(m, { filtersByParty: { i: wildcard } }, ['i', 'o'])).toEqual(['judge.events.witnesses-requested']);
    // A party whose filter takes the contract only through an interface may be left out, or named.
    expect(acs(m, { filtersByParty: { i: wildcard, o: viaInterface } }, ['i'])).toEqual([]);
    expect(acs(m, { filtersByParty: { i: wildcard, o: viaInterface } }, ['i', 'o'])).toEqual([]);
    // For any party: the stakeholders the target said it hosts, once it said so.
    expect(acs(m, { filtersForAnyParty: wildcard }, ['i'])).toEqual([]);
    observe(m, { method: 'GET', path: '/v2/parties', request: undefined, status: 200, body: { partyDetails: [{ party: 'o', isLocal: true }] } }, at('GET /v2/parties', 2), m.tick());
    expect(acs(m, { filtersForAnyParty: wildcard }, ['i'])).toEqual(['judge.events.witnesses-requested']);
    expect(acs(m, { filtersForAnyParty: wildcard }, ['i', 'o'])).toEqual([]);
    // Ledger effects also name the informees of the exercises above: more is allowed, less is not.
    const effects = (witnesses: string[]) => observe(m, {
      method: 'POST', path: '/v2/updates', status: 200,
      request: { updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { i: wildcard, x: wildcard } }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } } },
      body: [{ update: { Transaction: { value: { events: [{ CreatedEvent: { ...created('2026-01-01T00:00:00Z').CreatedEvent, witnessParties: witnesses } }] } } } }],
    }, at('POST /v2/updates', 3), m.tick()).map((x) => x.invariant);
    expect(effects(['i', 'x'])).toEqual([]);
    expect(effects([])).toEqual(['judge.events.witnesses-requested']);
  });

  it('interface views: only of interfaces a filter of the read asked views of', () => {
    const m = new TargetModel();
    const views = (asked: unknown, ids: string[]) => observe(m, {
      method: 'POST', path: '/v2/state/active-contracts', status: 200,
      request: { activeAtOffset: 0, eventFormat: { filtersByParty: { i: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: '#pkg:Sample.Holding:Holding', includeInterfaceView: asked } } } }] } } } },
      body: [{ contractEntry: { JsActiveContract: { createdEvent: { ...created('2026-01-01T00:00:00Z').CreatedEvent, witnessParties: ['i'], interfaceViews: ids.map((interfaceId) => ({ interfaceId, viewStatus: { code: 0 }, viewValue: {} })) } } } }],
    }, at('POST /acs', 1), m.tick()).map((x) => x.invariant);
    expect(views(true, ['p:Sample.Holding:Holding'])).toEqual([]);
    expect(views(true, ['p:Sample.Holding:Holding', 'p:Other:View'])).toEqual(['judge.events.views-requested']);
    expect(views(false, ['p:Sample.Holding:Holding'])).toEqual(['judge.events.views-requested']);
  });

  it('acsDelta: false for a non-consuming exercise and a transient contract, true for a contract that stays with a stakeholder witness and in ACS-delta reads', () => {
    const m = new TargetModel();
    const base = created('2026-01-01T00:00:00Z').CreatedEvent;
    const exercise = (consuming: boolean, acsDelta: boolean, contractId = '00aa') => ({ ExercisedEvent: { contractId, choice: 'C', consuming, actingParties: ['i'], witnessParties: ['i'], acsDelta, offset: 9, nodeId: 1 } });
    const tx = (events: unknown[], request: unknown = {}) =>
      observe(m, { method: 'POST', path: '/v2/updates', request, status: 200, body: [{ update: { Transaction: { value: { updateId: 'u1', events } } } }] }, at('POST /v2/updates', 1), m.tick()).map((x) => x.invariant).filter((x) => x === 'judge.events.acs-delta');
    const effects = { updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { i: {} } }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } } };
    const delta = { updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { i: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } };
    expect(tx([{ CreatedEvent: { ...base, contractId: '00bb', witnessParties: ['i'], acsDelta: true } }, exercise(false, false, '00bb')], effects)).toEqual([]);
    expect(tx([exercise(false, true)], effects)).toEqual(['judge.events.acs-delta']);
    // Created and archived in one transaction: neither belongs to the ACS delta.
    expect(tx([{ CreatedEvent: { ...base, contractId: '00cc', witnessParties: ['i'], acsDelta: false } }, exercise(true, false, '00cc')], effects)).toEqual([]);
    expect(tx([{ CreatedEvent: { ...base, contractId: '00cc', witnessParties: ['i'], acsDelta: true } }, exercise(true, true, '00cc')], effects)).toEqual(['judge.events.acs-delta', 'judge.events.acs-delta']);
    // A contract witnessed only by a party above it (no stakeholder) may stay out of the delta.
    expect(tx([{ CreatedEvent: { ...base, contractId: '00dd', witnessParties: ['x'], acsDelta: false } }], effects)).toEqual([]);
    expect(tx([{ CreatedEvent: { ...base, contractId: '00ee', witnessParties: ['i'], acsDelta: false } }], effects)).toEqual(['judge.events.acs-delta']);
    expect(tx([{ CreatedEvent: { ...base, contractId: '00ff', witnessParties: ['i'], acsDelta: false } }], delta)).toEqual(['judge.events.acs-delta']);
  });

  it("an archive or exercise names the contract's template and package name; an upgraded package id is no difference", () => {
    const m = new TargetModel();
    observe(m, { method: 'POST', path: '/v2/x', request: {}, status: 200, body: created('2026-01-01T00:00:00Z') }, at('POST /x', 1), m.tick());
    const archived = (templateId: string, packageName = 'canton-conformance-samples') =>
      observe(m, { method: 'POST', path: '/v2/y', request: {}, status: 200, body: { ArchivedEvent: { contractId: '00aa', offset: 7, templateId, packageName, witnessParties: ['i'] } } }, at('POST /y', 2), m.tick()).map((x) => x.invariant);
    expect(archived('q:Sample.Asset:Asset')).toEqual([]);
    expect(archived('p:Sample.Asset:Other')).toEqual(['judge.facts.reread-equal']);
    expect(archived('p:Sample.Asset:Asset', 'another-name')).toEqual(['judge.facts.reread-equal']);
  });

  it('a signatory listed as observer breaks judge.events.parties-computed', () => {
    const v = observe(new TargetModel(), { method: 'POST', path: '/v2/x', request: {}, status: 200, body: created('2026-01-01T00:00:00Z', ['i']) }, at('POST /x', 1), 0);
    expect(v.map((x) => x.invariant)).toEqual(['judge.events.parties-computed']);
  });

  it('after a write, a read that misses it breaks judge.writes.visible-after', () => {
    const m = new TargetModel();
    observe(m, { method: 'POST', path: '/v2/users', request: { user: { id: 'u1', primaryParty: 'p' } }, status: 200, body: { user: { id: 'u1', primaryParty: 'p', isDeactivated: false } } }, at('POST /v2/users', 1), m.tick());
    const v = observe(m, { method: 'GET', path: '/v2/users', request: undefined, status: 200, body: { users: [{ id: 'u1', primaryParty: 'p', isDeactivated: true }] } }, at('GET /v2/users', 2), m.tick());
    expect(v.map((x) => x.invariant)).toEqual(['judge.writes.visible-after']);
  });

  it("rights the run granted to or revoked from a user it did not create show in every later read of that user's rights", () => {
    const m = new TargetModel();
    const right = (party: string) => ({ kind: { CanActAs: { value: { party } } } });
    const rights = (status: number, list: unknown[]) => observe(m, { method: 'GET', path: '/v2/users/vendor/rights', request: undefined, status, body: { rights: list } }, at('GET /v2/users/vendor/rights', 3), m.tick()).map((x) => x.invariant);
    // Before any write of the run, the user's rights are not judged (another writer may change them).
    expect(rights(200, [right('other')])).toEqual([]);
    observe(m, { method: 'POST', path: '/v2/users/vendor/rights', request: { userId: 'vendor', rights: [right('p1'), right('p2')] }, status: 200, body: { newlyGrantedRights: [] } }, at('POST /v2/users/vendor/rights', 1), m.tick());
    expect(rights(200, [right('other'), right('p2'), right('p1')])).toEqual([]);
    expect(rights(200, [right('other'), right('p1')])).toEqual(['judge.writes.visible-after']);
    observe(m, { method: 'PATCH', path: '/v2/users/vendor/rights', request: { userId: 'vendor', rights: [right('p1')] }, status: 200, body: {} }, at('PATCH /v2/users/vendor/rights', 2), m.tick());
    expect(rights(200, [right('p2')])).toEqual([]);
    expect(rights(200, [right('p2'), right('p1')])).toEqual(['judge.writes.visible-after']);
  });

  it('errors: gRPC code against HTTP status, one category per code, and no retryable definitive refusal', () => {
    const m = new TargetModel();
    const err = (status: number, body: object) => observe(m, { method: 'GET', path: '/v2/users/x', request: undefined, status, body }, at('GET /v2/users/x', 1), m.tick()).map((x) => x.invariant);
    expect(err(404, { code: 'USER_NOT_FOUND', errorCategory: 11, grpcCodeValue: 5 })).toEqual([]);
    expect(err(404, { code: 'USER_NOT_FOUND', errorCategory: 11, grpcCodeValue: 3 })).toContain('judge.errors.consistent');
    expect(err(409, { code: 'USER_ALREADY_EXISTS', errorCategory: 2, grpcCodeValue: 10, retryInfo: '1 second' })).toEqual(['judge.errors.definitive-not-retryable']);
  });

  it('cost estimates add up; a bounded stream that does not close normally breaks judge.streams.bounded-close', () => {
    const m = new TargetModel();
    const cost = (total: number) => observe(m, { method: 'POST', path: '/v2/interactive-submission/prepare', request: {}, status: 200, body: { costEstimation: { confirmationRequestTrafficCostEstimation: 2, confirmationResponseTrafficCostEstimation: 3, totalTrafficCostEstimation: total } } }, at('POST /p', 1), 0);
    expect(cost(5)).toEqual([]);
    expect(cost(2).map((x) => x.invariant)).toEqual(['judge.numbers.add-up']);
    const stream = (closeCode: number) => observe(m, { method: 'GET', path: '/v2/updates', request: { endInclusive: 5 }, status: 101, body: [], stream: { ended: 'closed', cut: false, closeCode } }, at('WS /v2/updates', 2), 0);
    expect(stream(1000)).toEqual([]);
    // A Close frame without a status (RFC 6455 §5.5.1 allows it) reaches the client as 1005: clean.
    expect(stream(1005)).toEqual([]);
    expect(stream(1011).map((x) => x.invariant)).toEqual(['judge.streams.bounded-close']);
  });

  it('every invariant has a stable judge.* id and a rule, and `list --invariants` prints them', async () => {
    expect(INVARIANTS.length).toBeGreaterThanOrEqual(9);
    for (const i of INVARIANTS) expect(i.id).toMatch(/^judge\.[a-z-]+\.[a-z-]+$/);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(await main(['list', '--invariants'])).toBe(0);
      const printed = log.mock.calls.map((c) => c.join(' ')).join('\n');
      for (const i of INVARIANTS) expect(printed).toContain(i.id);
    } finally {
      log.mockRestore();
    }
  });
});
