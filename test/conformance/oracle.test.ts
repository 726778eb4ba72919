import { describe, expect, it } from 'vitest';
import { Bijection } from '../../conformance/src/oracle/bijection.js';
import { compareAnswers } from '../../conformance/src/oracle/compareAnswers.js';
import { responseSchemaOf } from '../../conformance/src/oracle/responseSchema.js';
import { refusedThere, signedElsewhere } from '../../conformance/src/oracle/oracleSession.js';
import { translateRequest } from '../../conformance/src/oracle/translateRequest.js';
import { classOf, sameRefusal } from '../../conformance/src/oracle/statusRules.js';
import { requestExclusion } from '../../conformance/src/oracle/exclusions.js';
import type { Exchange } from '../../conformance/src/target/exchange.js';

const hex = (c: string) => c.repeat(64);
const party = (name: string, c: string) => `${name}::1220${hex(c)}`;
const cid = (c: string) => `00${hex(c)}`;

/** GET /registry/metadata/v1/instruments's answer schema, from our registry spec. */
function instrumentsSchema() {
  const schema = responseSchemaOf('registry', 'GET', '/registry/metadata/v1/instruments', 200);
  expect(schema).toBeDefined();
  return schema;
}

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

describe('the oracle: only what the request alone decides (shapes, invalid-request codes)', () => {
  it('passes answers that differ in identifiers, offsets, clocks, values and texts, learning the pairs', () => {
    const b = new Bijection();
    const t = { party: party('alice', 'a'), contractId: cid('b'), offset: 500, recordTime: '2026-01-01T00:00:00Z', cause: 'ledger end (155)', amount: '10.0', isLocal: false };
    const r = { party: party('alice', 'c'), contractId: cid('d'), offset: 40, recordTime: '2026-01-01T00:00:01.5Z', cause: 'ledger end (63)', amount: '11.0', isLocal: true };
    expect(compareAnswers(t, r, b, {})).toEqual([]);
    expect(b.reference(cid('b'))).toBe(cid('d'));
    expect(b.referenceOffset(501)).toBe(41);
  });

  it('reports a member one side answers and the other does not, and a type that differs, with the JSON path', () => {
    const diffs = compareAnswers({ partyDetails: [{ party: party('x', 'a'), isLocal: false }] }, { partyDetails: [{ party: party('x', 'c'), isLocal: true, localMetadata: {} }] }, new Bijection(), {});
    expect(diffs).toMatchObject([{ path: '$.partyDetails[0].localMetadata' }]);
    expect(compareAnswers({ amount: 10 }, { amount: '10' }, new Bijection(), {})).toMatchObject([{ path: '$.amount', why: expect.stringContaining('types') }]);
  });

  it('compares list elements both answers hold, by identity; which elements a list holds is history, not compared', () => {
    const b = new Bijection();
    b.pair(cid('1'), cid('a'));
    const t = [{ contractId: cid('9'), v: 1 }, { contractId: cid('1'), v: 2 }];
    expect(compareAnswers(t, [{ contractId: cid('a'), v: 3 }, { contractId: cid('b'), v: 5 }], b, {})).toEqual([]);
    expect(compareAnswers(t, [{ contractId: cid('a'), v: 'x' }], b, {})).toMatchObject([{ path: '$[1].v' }]);
  });

  it("pairs first appearances in order only where they are the same fact: another client's transaction is not the reference's checkpoint or its own command", () => {
    const tx = (id: string, commandId: string) => ({ update: { Transaction: { value: { updateId: `1220${hex(id)}`, commandId, offset: 7, events: [] } } } });
    const checkpoint = { update: { OffsetCheckpoint: { value: { offset: 3, synchronizerTimes: [] } } } };
    // A target others write to: the last update is theirs; the reference's range holds a checkpoint, or the run's own command.
    expect(compareAnswers([tx('e', 'automation-1')], [checkpoint], new Bijection(), {})).toEqual([]);
    expect(compareAnswers([tx('e', 'automation-1')], [{ update: { Transaction: { value: { updateId: `1220${hex('f')}`, commandId: 'cc-run-1', offset: 3, events: [{}] } } } }], new Bijection(), {})).toEqual([]);
    // The same command on both sides still pairs in order and is compared.
    const b = new Bijection();
    const bare = (id: string) => ({ update: { Transaction: { value: { updateId: `1220${hex(id)}`, commandId: 'cc-run-1', offset: 7 } } } });
    expect(compareAnswers([bare('e')], [{ update: { Transaction: { value: { updateId: `1220${hex('f')}`, commandId: 'cc-run-1', offset: 3, events: [] } } } }], b, {})).toMatchObject([{ path: '$[0].update.Transaction.value.events' }]);
    expect(b.reference(`1220${hex('e')}`)).toBe(`1220${hex('f')}`);
  });

  it('does not compare an object a check wrote on the target alone (it left the oracle): its two copies differ by the run', () => {
    const b = new Bijection();
    b.noteDiverged('cc-user-1');
    const t = { users: [{ id: 'cc-user-1', metadata: { annotations: { note: 'first' } } }, { id: 'cc-user-2', metadata: { annotations: {} } }] };
    const r = { users: [{ id: 'cc-user-1', metadata: { annotations: {} } }, { id: 'cc-user-2', metadata: { annotations: { note: 'x' } } }] };
    expect(compareAnswers(t, r, b, {})).toMatchObject([{ path: '$.users[1].metadata.annotations.note' }]);
  });

  it("leaves the shape of a ledger's data alone (payloads, Daml values, choice contexts): identifiers inside still pair", () => {
    const b = new Bijection();
    // Splice 0.1.22's AmuletRules against a port's: members differ inside the payload, not around it.
    const t = { contract: { contract_id: cid('1'), payload: { dso: party('dso', 'a'), configSchedule: { initialValue: { transferPreapprovalFee: '1.0' } } } } };
    const r = { contract: { contract_id: cid('a'), payload: { dso: party('dso', 'c'), configSchedule: { initialValue: {}, futureValues: [] } } } };
    expect(compareAnswers(t, r, b, {})).toEqual([]);
    expect(b.reference(party('dso', 'a'))).toBe(party('dso', 'c'));
    const context = (values: Record<string, unknown>) => ({ choiceContext: { choiceContextData: { values }, disclosedContracts: [] }, transferKind: 'direct' });
    expect(compareAnswers(context({ 'amulet-rules': cid('2'), 'external-party-config-state': cid('3') }), context({ 'amulet-rules': cid('b') }), b, {})).toEqual([]);
    expect(b.reference(cid('2'))).toBe(cid('b'));
    // A registry on Splice 0.1.14 lists the v1 APIs only; the reference's default world v1 and v2:
    // supportedApis is a map in the schema, whose entries are the registry's.
    const apis = (more: Record<string, number>) => ({ instruments: [{ id: 'Amulet', supportedApis: { 'splice-api-token-holding-v1': 1, ...more } }] });
    expect(compareAnswers(apis({}), apis({ 'splice-api-token-holding-v2': 1 }), b, { schema: instrumentsSchema() })).toEqual([]);
    expect(compareAnswers(apis({}), apis({ 'splice-api-token-holding-v2': 1 }), b, {})).toMatchObject([{ path: '$.instruments[0].supportedApis["splice-api-token-holding-v2"]' }]);
    for (const key of ['createArgument', 'choiceArgument', 'exerciseResult', 'viewValue', 'contractKey']) {
      expect(compareAnswers({ [key]: { a: '1', extra: true } }, { [key]: { a: '2' } }, b, {}), key).toEqual([]);
    }
    // Around the data the shape is still compared.
    expect(compareAnswers({ contract: { payload: {} } }, { contract: { payload: {}, created_at: 'x' } }, b, {})).toMatchObject([{ path: '$.contract.created_at' }]);
  });

  it("leaves an error's context entries alone: the schema makes it a map, each participant fills its own (benign variant reworded-errors)", () => {
    const error = (context: Record<string, string>, more: Record<string, unknown> = {}) => ({ code: 'INVALID_ARGUMENT', cause: 'x', context, errorCategory: 8, grpcCodeValue: 3, ...more });
    const canton = { participant: 'participant1::1220ab', category: '8', definite_answer: 'false', tid: 'f00d' };
    const schema = responseSchemaOf('ledger', 'POST', '/v2/commands/submit-and-wait', 400);
    expect(schema).toBeDefined();
    expect(compareAnswers(error({ ...canton, servicename: 'JsonApiService' }), error(canton), new Bijection(), { schema })).toEqual([]);
    expect(compareAnswers(error({}), error(canton), new Bijection(), { schema })).toEqual([]);
    // The members around the context are the API's: still compared.
    expect(compareAnswers(error(canton), error(canton, { resources: [] }), new Bijection(), {})).toMatchObject([{ path: '$.resources' }]);
    expect(compareAnswers(error(canton, { errorCategory: undefined }), error(canton), new Bijection(), { schema })).toMatchObject([{ path: '$.errorCategory' }]);
    // A `context` that is not an error's is compared as any member.
    expect(compareAnswers({ context: {} }, { context: { a: '1' } }, new Bijection(), {})).toMatchObject([{ path: '$.context.a' }]);
  });

  it("leaves a registry's optional debug fields alone: one registry sends them, another does not (benign variant no-debug-fields)", () => {
    const disclosed = (more: Record<string, unknown>) => ({ choiceContextData: { values: {} }, disclosedContracts: [{ templateId: 'p:M:T', contractId: cid('1'), createdEventBlob: 'AQ==', synchronizerId: party('global', 'a'), ...more }] });
    const debug = { debugPackageName: 'splice-amulet', debugPayload: { dso: party('dso', 'a') }, debugCreatedAt: '2026-01-01T00:00:00Z' };
    const schema = responseSchemaOf('registry', 'POST', `/registry/transfer-instruction/v1/${cid('9')}/choice-contexts/accept`, 200);
    expect(schema).toBeDefined();
    expect(compareAnswers(disclosed({}), disclosed(debug), new Bijection(), { schema })).toEqual([]);
    expect(compareAnswers(disclosed(debug), disclosed({}), new Bijection(), { schema })).toEqual([]);
    // The DisclosedContract's required members are still compared.
    expect(compareAnswers(disclosed({ synchronizerId: undefined }), disclosed({}), new Bijection(), { schema })).toMatchObject([{ path: '$.disclosedContracts[0].synchronizerId' }]);
  });

  it("leaves optional members the server fills from its own state alone: an instrument's supply, pause and account fields, a transaction's trace context and paid traffic (benign variant other-instrument-metadata)", () => {
    const instrument = (more: Record<string, unknown>) => ({ instruments: [{ id: 'Amulet', name: 'Amulet', symbol: 'Amulet', decimals: 10, supportedApis: {}, ...more }] });
    const reference = { totalSupply: '1795.5', totalSupplyAsOf: '2025-01-01T00:00:00Z', accountInputFieldsToShow: [] };
    expect(compareAnswers(instrument({ paused: false }), instrument(reference), new Bijection(), { schema: instrumentsSchema() })).toEqual([]);
    expect(compareAnswers(instrument({ paused: true, pauseInfo: { reason: 'audit' }, showAccountInputFields: false }), instrument({}), new Bijection(), { schema: instrumentsSchema() })).toEqual([]);
    const tx = (more: Record<string, unknown>) => ({ transaction: { updateId: `1220${hex('a')}`, offset: 3, events: [], ...more } });
    const byId = responseSchemaOf('ledger', 'POST', '/v2/updates/transaction-by-id', 200);
    expect(byId).toBeDefined();
    expect(compareAnswers(tx({}), tx({ traceContext: { traceparent: '00-aa-bb-01' }, paidTrafficCost: 120 }), new Bijection(), { schema: byId })).toEqual([]);
    expect(compareAnswers(tx({ traceContext: { traceparent: '00-aa-bb-01' }, paidTrafficCost: 120 }), tx({}), new Bijection(), { schema: byId })).toEqual([]);
    // The instrument's required members are still compared; without a schema, every member is.
    expect(compareAnswers(instrument({ decimals: undefined }), instrument({}), new Bijection(), { schema: instrumentsSchema() })).toMatchObject([{ path: '$.instruments[0].decimals' }]);
    expect(compareAnswers(instrument({}), instrument(reference), new Bijection(), {})).toMatchObject([{ path: '$.instruments[0].totalSupply' }, { path: '$.instruments[0].totalSupplyAsOf' }, { path: '$.instruments[0].accountInputFieldsToShow' }]);
  });

  it('lets the target answer members the reference does not (response schemas are open): a newer Scan\'s initial_round (benign variant newer-scan-members)', () => {
    const dso = (more: Record<string, unknown>) => ({ sv_user: 'sv', dso_party_id: party('dso', 'a'), voting_threshold: 1, ...more });
    expect(compareAnswers(dso({ initial_round: '0' }), dso({}), new Bijection(), {})).toEqual([]);
    expect(compareAnswers({ partyDetails: [{ party: party('x', 'a'), isLocal: true, vendorTier: 'gold' }] }, { partyDetails: [{ party: party('x', 'c'), isLocal: true }] }, new Bijection(), {})).toEqual([]);
    // What the reference answers, the target must answer too: where the schema requires it, or no schema says.
    expect(compareAnswers(dso({}), dso({ initial_round: '0' }), new Bijection(), {})).toMatchObject([{ path: '$.initial_round', why: 'the reference answers this member, the target does not' }]);
    const schema = responseSchemaOf('scan', 'GET', '/v0/dso', 200);
    expect(schema).toBeDefined();
    expect(compareAnswers(dso({}), dso({ initial_round: '0' }), new Bijection(), { schema })).toEqual([]);
    expect(compareAnswers(dso({ voting_threshold: undefined }), dso({}), new Bijection(), { schema })).toMatchObject([{ path: '$.voting_threshold' }]);
  });

  it('pairs maps keyed by identifiers (Scan rounds by contract id) and compares their shapes', () => {
    const b = new Bijection();
    expect(compareAnswers({ [cid('1')]: { round: 3 } }, { [cid('a')]: { round: 4 } }, b, {})).toEqual([]);
    expect(b.reference(cid('1'))).toBe(cid('a'));
    expect(compareAnswers({ [cid('1')]: { round: 3 } }, { [cid('a')]: { round: 4, extra: 1 } }, b, {})).toHaveLength(1);
  });
});

const exchange = (status: number, body: unknown): Exchange =>
  ({ seq: 0, group: 'ledger', operationId: undefined, path: '/v2/x', request: { method: 'POST', url: 'http://x/v2/x', headers: {} }, response: { status, headers: {}, contentType: 'application/json', text: JSON.stringify(body), size: 0, truncated: false }, startedAt: '', durationMs: 0, curl: '', checkId: 'c' }) as unknown as Exchange;

describe('the oracle: which answers the request alone decides', () => {
  it('leaves alone a request whose check marks input a conformant server may not read, and only that one', () => {
    const spec = { method: 'GET' as const, path: '/registry/metadata/v1/instruments?pageSize=-1' };
    expect(requestExclusion(spec)).toBeUndefined();
    expect(requestExclusion({ ...spec, unreadInput: 'a pageSize of -1' })).toContain('a pageSize of -1');
  });

  it('a refusal for what the request says is invalid; auth and state-dependent answers are not compared', () => {
    expect(classOf(exchange(400, { code: 'INVALID_ARGUMENT', errorCategory: 8 }))).toBe('invalid');
    expect(classOf(exchange(400, { error: 'bad party' }))).toBe('invalid');
    expect(classOf(exchange(400, { code: 'OFFSET_AFTER_LEDGER_END', errorCategory: 12 }))).toBe('state');
    expect(classOf(exchange(403, { code: 'NA', errorCategory: -1 }))).toBe('auth');
    expect(classOf(exchange(404, { code: 'USER_NOT_FOUND', errorCategory: 11 }))).toBe('state');
    expect(classOf(exchange(200, {}))).toBe('ok');
  });

  it('a replay the reference refuses for who asks or for its state, where the target answered, leaves the oracle; a refusal as invalid stays a comparison', () => {
    const done = exchange(200, {});
    expect(refusedThere(done, exchange(403, { code: 'NA', errorCategory: -1 }))).toMatch(/HTTP 403, which the target answered: the reference's users and rights are not the target's/);
    expect(refusedThere(done, exchange(404, { code: 'CONTRACT_NOT_FOUND', errorCategory: 11 }))).toMatch(/HTTP 404 CONTRACT_NOT_FOUND, .*states differ/);
    expect(refusedThere(done, exchange(400, { code: 'INVALID_FIELD', errorCategory: 8 }))).toBeUndefined();
    expect(refusedThere(done, exchange(200, {}))).toBeUndefined();
    expect(refusedThere(exchange(404, { code: 'CONTRACT_NOT_FOUND', errorCategory: 11 }), exchange(403, { code: 'NA' }))).toBeUndefined();
  });

  it('two refusals of an invalid request must name the same code, whatever their texts', () => {
    expect(sameRefusal(exchange(400, { code: 'INVALID_FIELD', cause: 'a' }), exchange(400, { code: 'INVALID_FIELD', cause: 'b' }))).toBeUndefined();
    expect(sameRefusal(exchange(400, { code: 'INVALID_FIELD' }), exchange(400, { code: 'MISSING_FIELD' }))).toMatchObject({ path: '$.code' });
    // Canton 3.5's NEGATIVE_OFFSET refuses what the reference refuses as INVALID_ARGUMENT.
    expect(sameRefusal(exchange(400, { code: 'NEGATIVE_OFFSET' }), exchange(400, { code: 'INVALID_ARGUMENT' }))).toBeUndefined();
    // A DALF the archive reader refuses: DAR_PARSE_ERROR on Canton 3.x, INVALID_DAR on a participant reading it with the zip.
    expect(sameRefusal(exchange(400, { code: 'INVALID_DAR' }), exchange(400, { code: 'DAR_PARSE_ERROR' }))).toBeUndefined();
    expect(sameRefusal(exchange(400, { code: 'INVALID_ARGUMENT' }), exchange(400, { code: 'DAR_PARSE_ERROR' }))).toMatchObject({ path: '$.code' });
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

  it("translates identifiers that key a map (filtersByParty): the reference is asked about its own party, not the target's", () => {
    const b = new Bijection();
    b.pair(party('alice', 'a'), party('alice', 'c'));
    const filters = (p: string) => ({ eventFormat: { filtersByParty: { [p]: { cumulative: [] } }, verbose: false } });
    expect(translateRequest({ method: 'POST', path: '/v2/state/active-contracts', json: filters(party('alice', 'a')) }, b)).toEqual({ ok: true, spec: { method: 'POST', path: '/v2/state/active-contracts', json: filters(party('alice', 'c')) } });
    // A key naming target state the reference does not share is no more replayable than a value.
    b.noteTarget(party('bob', 'b'));
    expect(translateRequest({ method: 'POST', path: '/v2/state/active-contracts', json: filters(party('bob', 'b')) }, b)).toMatchObject({ ok: false });
  });

  it('translates a query written into the path key by key, a repeated key kept in its order, the path segment apart from it', () => {
    // GET /v2/parties/{party}?parties=..&parties=..: the ids the target listed, a generated one between them.
    const b = new Bijection();
    b.pair(party('alice', 'a'), party('alice', 'c'));
    b.pair(party('bob', 'b'), party('bob', 'd'));
    const nobody = party('cc-nobody', '0');
    const path = `/v2/parties/${encodeURIComponent(party('alice', 'a'))}?parties=${encodeURIComponent(nobody)}&parties=${encodeURIComponent(party('bob', 'b'))}`;
    const t = translateRequest({ method: 'GET', path }, b);
    expect(t).toEqual({ ok: true, spec: { method: 'GET', path: `/v2/parties/${encodeURIComponent(party('alice', 'c'))}?parties=${encodeURIComponent(nobody)}&parties=${encodeURIComponent(party('bob', 'd'))}` } });
    // Only the query's ids paired: the path segment stays as it was sent.
    const q = translateRequest({ method: 'GET', path: `/v2/parties/${encodeURIComponent(nobody)}?parties=${encodeURIComponent(party('bob', 'b'))}` }, b);
    expect(q).toMatchObject({ ok: true, spec: { path: `/v2/parties/${encodeURIComponent(nobody)}?parties=${encodeURIComponent(party('bob', 'd'))}` } });
  });

  it('translates topology serials on their own line, anywhere under a *Serial member', () => {
    const b = new Bijection();
    expect(compareAnswers({ vettedPackages: [{ packageId: hex('1'), topologySerial: 15 }] }, { vettedPackages: [{ packageId: hex('1'), topologySerial: 4 }] }, b, {})).toEqual([]);
    const t = translateRequest({ method: 'POST', path: '/v2/package-vetting/update', json: { expectedTopologySerial: { serial: { Prior: { value: 14 } } } } }, b);
    expect(t).toMatchObject({ ok: true, spec: { json: { expectedTopologySerial: { serial: { Prior: { value: 3 } } } } } });
  });

  it('translates an identifier both ledgers answered alike (a target serving the reference\'s world allocates the same party ids)', () => {
    const b = new Bijection();
    const same = party('cc-suite', 'c');
    expect(compareAnswers({ partyDetails: { party: same } }, { partyDetails: { party: same } }, b, {})).toEqual([]);
    b.noteTarget(same);
    expect(translateRequest({ method: 'POST', path: '/v2/x', json: { actAs: [same] } }, b)).toEqual({ ok: true, spec: { method: 'POST', path: '/v2/x', json: { actAs: [same] } } });
  });

  it('replays a signed execution only of a prepared transaction the reference answered too, never of one the check edited', () => {
    const b = new Bijection();
    const prepared = Buffer.from('prepared by both').toString('base64');
    expect(compareAnswers({ preparedTransaction: prepared }, { preparedTransaction: prepared }, b, {})).toEqual([]);
    const execute = (preparedTransaction: string) => ({ method: 'POST' as const, path: '/v2/interactive-submission/executeAndWait', json: { preparedTransaction, partySignatures: { signatures: [] } } });
    const replay = (spec: ReturnType<typeof execute>) => signedElsewhere(spec, translateRequest(spec, b), b);
    expect(replay(execute(prepared))).toMatchObject({ ok: true });
    expect(replay(execute(Buffer.from('edited by the check').toString('base64')))).toMatchObject({ ok: false, reason: expect.stringContaining('did not prepare') });
  });

  it('refuses a request naming target state the reference does not share, and passes generated ids through', () => {
    const b = new Bijection();
    b.noteTarget(cid('7'));
    expect(translateRequest({ method: 'POST', path: '/v2/x', json: { contractId: cid('7') } }, b)).toMatchObject({ ok: false });
    expect(translateRequest({ method: 'POST', path: '/v2/x', json: { contractId: cid('8') } }, b)).toMatchObject({ ok: true, spec: { json: { contractId: cid('8') } } });
  });
});
