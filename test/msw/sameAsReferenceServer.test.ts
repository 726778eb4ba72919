import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppWorld } from '../../reference-server/src/apps/world/seedAppWorld.js';
import { ASSET_TEMPLATE } from '../../reference-server/src/ledger/index.js';
import { startTwins, withoutTraceIds, type Probe, type Twins } from './support/twins.js';

const NS = '1220' + 'c0ffee'.repeat(10) + 'c0ff';
const alice = `alice::${NS}`;
const issuer = `issuer::${NS}`;
const json = (value: unknown) => JSON.stringify(value);
const wildcard = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] };
const createAsset = (commandId: string, amount: string) =>
  json({
    commands: [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer, owner: alice, amount, observers: null } } }],
    commandId,
    userId: 'participant_admin',
    actAs: [issuer],
  });

interface Row extends Probe {
  readonly title: string;
  /** The status both must answer: equality alone would let a shared bug through. */
  readonly status: number;
}

/**
 * One ledger history, step by step: each request goes to the Koa server and to the msw handlers,
 * and the two answers must be equal (status, content type, body bytes, trace ids aside).
 * Order matters: later rows read what earlier rows wrote.
 */
const rows: readonly Row[] = [
  { title: 'version', method: 'GET', path: '/v2/version', status: 200 },
  { title: 'ledger end of an empty ledger', method: 'GET', path: '/v2/state/ledger-end', status: 200 },
  { title: 'participant id', method: 'GET', path: '/v2/parties/participant-id', status: 200 },
  { title: 'allocate alice', method: 'POST', path: '/v2/parties', body: json({ partyIdHint: 'alice' }), status: 200 },
  { title: 'allocate alice again', method: 'POST', path: '/v2/parties', body: json({ partyIdHint: 'alice' }), status: 409 },
  { title: 'allocate issuer', method: 'POST', path: '/v2/parties', body: json({ partyIdHint: 'issuer', identityProviderId: '' }), status: 200 },
  { title: 'allocate with a bad hint', method: 'POST', path: '/v2/parties', body: json({ partyIdHint: 'no spaces' }), status: 400 },
  { title: 'list parties', method: 'GET', path: '/v2/parties', status: 200 },
  { title: 'list parties, bad page size', method: 'GET', path: '/v2/parties?pageSize=-1', status: 400 },
  { title: 'party by percent-encoded id', method: 'GET', path: `/v2/parties/${encodeURIComponent(alice)}`, status: 200 },
  { title: 'connected synchronizers', method: 'GET', path: '/v2/state/connected-synchronizers', status: 200 },
  {
    title: 'create user',
    method: 'POST',
    path: '/v2/users',
    body: json({ user: { id: 'alice-user', primaryParty: alice, isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanActAs: { value: { party: alice } } } }] }),
    status: 200,
  },
  { title: 'create the same user', method: 'POST', path: '/v2/users', body: json({ user: { id: 'alice-user' } }), status: 409 },
  { title: 'read user', method: 'GET', path: '/v2/users/alice-user', status: 200 },
  { title: 'read unknown user', method: 'GET', path: '/v2/users/nobody', status: 404 },
  { title: 'list users', method: 'GET', path: '/v2/users', status: 200 },
  {
    title: 'grant rights',
    method: 'POST',
    path: '/v2/users/alice-user/rights',
    body: json({ userId: 'alice-user', rights: [{ kind: { CanReadAs: { value: { party: issuer } } } }] }),
    status: 200,
  },
  { title: 'list rights', method: 'GET', path: '/v2/users/alice-user/rights', status: 200 },
  {
    title: 'revoke rights',
    method: 'PATCH',
    path: '/v2/users/alice-user/rights',
    body: json({ userId: 'alice-user', rights: [{ kind: { CanReadAs: { value: { party: issuer } } } }] }),
    status: 200,
  },
  { title: 'submit and wait', method: 'POST', path: '/v2/commands/submit-and-wait', body: createAsset('cmd-1', '10.0'), status: 200 },
  { title: 'the same command again (deduplicated)', method: 'POST', path: '/v2/commands/submit-and-wait', body: createAsset('cmd-1', '10.0'), status: 409 },
  { title: 'a create the template refuses', method: 'POST', path: '/v2/commands/submit-and-wait', body: createAsset('cmd-2', '-1.0'), status: 400 },
  {
    title: 'submit and wait for the transaction',
    method: 'POST',
    path: '/v2/commands/submit-and-wait-for-transaction',
    body: json({ commands: JSON.parse(createAsset('cmd-3', '5.5')) as unknown }),
    status: 200,
  },
  { title: 'ledger end after commits', method: 'GET', path: '/v2/state/ledger-end', status: 200 },
  {
    title: 'active contracts',
    method: 'POST',
    path: '/v2/state/active-contracts',
    body: json({ activeAtOffset: 4, eventFormat: { filtersByParty: { [alice]: wildcard }, verbose: true } }),
    status: 200,
  },
  {
    title: 'active contracts beyond ledger end',
    method: 'POST',
    path: '/v2/state/active-contracts',
    body: json({ activeAtOffset: 99, eventFormat: { filtersByParty: { [alice]: wildcard } } }),
    status: 400,
  },
  {
    title: 'updates, a bounded list',
    method: 'POST',
    path: '/v2/updates',
    body: json({ beginExclusive: 0, endInclusive: 4, verbose: false, filter: { filtersByParty: { [alice]: wildcard } } }),
    status: 200,
  },
  {
    title: 'completions list',
    method: 'POST',
    path: '/v2/commands/completions?limit=10&stream_idle_timeout_ms=20',
    body: json({ userId: 'participant_admin', parties: [issuer], beginExclusive: 0 }),
    status: 200,
  },
  { title: 'delete user', method: 'DELETE', path: '/v2/users/alice-user', status: 200 },
  { title: 'delete it again', method: 'DELETE', path: '/v2/users/alice-user', status: 404 },
  // Transport and decoding errors.
  { title: 'malformed JSON', method: 'POST', path: '/v2/parties', body: '{"partyIdHint":', status: 400 },
  { title: 'missing body', method: 'POST', path: '/v2/commands/submit-and-wait', status: 400 },
  { title: 'unknown field', method: 'POST', path: '/v2/parties', body: json({ partyIdHint: 'x', colour: 'red' }), status: 400 },
  { title: 'wrong type', method: 'POST', path: '/v2/updates', body: json({ beginExclusive: 'zero' }), status: 400 },
  {
    title: 'JSON sent as text/plain',
    method: 'POST',
    path: '/v2/parties',
    body: json({ partyIdHint: 'carol' }),
    headers: { 'content-type': 'text/plain' },
    status: 200,
  },
  { title: 'body over the limit', method: 'POST', path: '/v2/parties', body: json({ partyIdHint: 'x'.repeat(3000) }), status: 413 },
  { title: 'bad limit parameter', method: 'POST', path: '/v2/updates?limit=lots', body: json({ beginExclusive: 0, endInclusive: 1 }), status: 400 },
  { title: 'unknown path', method: 'GET', path: '/v2/nothing-here', status: 404 },
  { title: 'wrong method', method: 'DELETE', path: '/v2/version', status: 405 },
  { title: 'doubled slashes', method: 'GET', path: '//v2//version', status: 200 },
  { title: 'a path in another case is another path', method: 'GET', path: '/V2/VERSION', status: 404 },
  { title: 'a template path in another case', method: 'GET', path: '/v2/USERS/participant_admin/rights', status: 404 },
  { title: 'a trailing slash on a template path', method: 'GET', path: '/v2/users/participant_admin/rights/', status: 200 },
  { title: 'OPTIONS names the allowed methods', method: 'OPTIONS', path: '/v2/users/participant_admin', status: 405 },
  { title: 'trailing slash', method: 'GET', path: '/v2/state/ledger-end/', status: 200 },
  { title: 'HEAD answers like GET without a body', method: 'HEAD', path: '/v2/version', status: 200 },
  { title: 'liveness probe (no body)', method: 'GET', path: '/livez', status: 200 },
  { title: 'OpenAPI document', method: 'GET', path: '/docs/openapi', status: 200 },
  { title: 'unknown registry path speaks the registry dialect', method: 'GET', path: '/registry/nothing', status: 404 },
  { title: 'unknown scan path speaks the scan dialect', method: 'GET', path: '/v0/nothing', status: 404 },
];

describe('the msw handlers answer as the Koa reference server does', () => {
  let twins: Twins;
  beforeAll(async () => {
    twins = await startTwins({ http: { maxRequestBodyBytes: 2048 } });
  });
  afterAll(async () => {
    await twins?.close();
  });

  // Sequential on purpose: each row sees the state the rows before it left.
  for (const row of rows) {
    it(`${row.method} ${row.path.slice(0, 60)}: ${row.title} (${row.status})`, async () => {
      const { koa, msw } = await twins.send(row);
      expect(koa.status, koa.body).toBe(row.status);
      expect({ ...msw, body: withoutTraceIds(msw.body) }).toEqual({ ...koa, body: withoutTraceIds(koa.body) });
    });
  }

  it('logs no unexpected failure on either face', () => {
    expect(twins.errors).toEqual([]);
  });
});

/** The registry (A) and Scan (C) over the apps' sample world, seeded alike on both ledgers. */
const appRows = (w: AppWorld): readonly Row[] => {
  const accept = (cid: string) => `/registry/allocation-instruction/v2/${encodeURIComponent(cid)}/choice-contexts/accept`;
  const byParty = (party: string) => `/v0/transfer-preapprovals/by-party/${encodeURIComponent(party)}`;
  const { instructions } = w.registry;
  const { dso, alice: sender, bob: receiver } = w.parties;
  const instrumentId = { admin: dso, id: 'Amulet' };
  const transfer = (amount: string) => ({
    expectedAdmin: dso,
    transfer: { sender, receiver, amount, instrumentId, requestedAt: '2025-01-01T00:00:00Z', executeBefore: '2099-01-01T00:00:00Z', inputHoldingCids: [], meta: { values: {} } },
    extraArgs: { context: { values: {} }, meta: { values: {} } },
  });
  const allocation = (amount: string) => ({
    expectedAdmin: dso,
    allocation: {
      settlement: { executor: receiver, settlementRef: { id: 'msw', cid: null }, requestedAt: '2025-01-01T00:00:00Z', allocateBefore: '2099-01-01T00:00:00Z', settleBefore: '2099-01-02T00:00:00Z', meta: { values: {} } },
      transferLegId: 'leg-1',
      transferLeg: { sender, receiver, amount, instrumentId, meta: { values: {} } },
    },
    requestedAt: '2025-01-01T00:00:00Z',
    inputHoldingCids: [],
    extraArgs: { context: { values: {} }, meta: { values: {} } },
  });
  return [
    { title: 'accept context of an active instruction', method: 'POST', path: accept(instructions.aliceActive), body: json({}), status: 200 },
    { title: 'the same, without debug fields', method: 'POST', path: accept(instructions.aliceActive), body: json({ excludeDebugFields: true }), status: 200 },
    {
      title: 'withdraw context',
      method: 'POST',
      path: `/registry/allocation-instruction/v2/${instructions.bobActive}/choice-contexts/withdraw`,
      body: json({ meta: { note: 'x' } }),
      status: 200,
    },
    { title: 'accept context of a withdrawn instruction', method: 'POST', path: accept(instructions.aliceWithdrawn), body: json({}), status: 404 },
    { title: 'accept context while a contract is reassigned', method: 'POST', path: accept(instructions.carolInFlight), body: json({}), status: 409 },
    { title: 'accept context, meta values not strings', method: 'POST', path: accept(instructions.aliceActive), body: json({ meta: { n: 1 } }), status: 400 },
    { title: 'accept context without a body', method: 'POST', path: accept(instructions.aliceActive), status: 400 },
    { title: 'accept context, malformed JSON', method: 'POST', path: accept(instructions.aliceActive), body: '{', status: 400 },
    { title: 'preapproval of alice', method: 'GET', path: byParty(w.parties.alice), status: 200 },
    { title: 'preapproval of bob (the newer of two)', method: 'GET', path: byParty(w.parties.bob), status: 200 },
    { title: 'expired but unarchived preapproval', method: 'GET', path: byParty(w.parties.carol), status: 200 },
    { title: 'cancelled preapproval', method: 'GET', path: byParty(w.parties.dave), status: 404 },
    { title: 'preapproval of a malformed party id', method: 'GET', path: byParty('not a party'), status: 400 },
    { title: 'preapproval under the /api/scan prefix', method: 'GET', path: `/api/scan${byParty(w.parties.alice)}`, status: 200 },
    { title: 'earliest round', method: 'GET', path: '/v0/internal/reward-accounting-process/rounds/earliest-available', status: 200 },
    { title: 'earliest round, pre-0.6.5 path', method: 'GET', path: '/v0/reward-accounting-process/rounds/earliest-available', status: 200 },
    { title: 'wrong method on a scan path', method: 'POST', path: '/v0/internal/reward-accounting-process/rounds/earliest-available', body: '{}', status: 405 },
    // Bad factory input: one shared core, so the same 400 {error} from both faces.
    { title: 'transfer factory v1, NaN amount', method: 'POST', path: '/registry/transfer-instruction/v1/transfer-factory', body: json({ choiceArguments: transfer('NaN') }), status: 400 },
    { title: 'transfer factory v1, 11 decimals', method: 'POST', path: '/registry/transfer-instruction/v1/transfer-factory', body: json({ choiceArguments: transfer('1.00000000001') }), status: 400 },
    { title: 'allocation factory v1, exponent amount', method: 'POST', path: '/registry/allocation-instruction/v1/allocation-factory', body: json({ choiceArguments: allocation('1e3') }), status: 400 },
    ...tokenV2Rows(w),
  ];
};

/** The token standard v2 factories, the settlement factory included (allocation v2). */
const tokenV2Rows = (w: AppWorld): readonly Row[] => {
  const account = (owner: string) => ({ owner, provider: null, id: '' });
  const { alice, bob, dso } = w.parties;
  const venue = w.parties['trading-venue'];
  const settlement = { executors: [venue], id: 'msw-1', cid: null, meta: { values: {} } };
  const legs = [{ transferLegId: 'leg-1', sender: account(alice), receiver: account(bob), amount: '1.0', instrumentId: 'Amulet', meta: { values: {} } }];
  const settle = { settlement, transferLegs: legs, allocations: [{ allocationCid: w.amulet.allocation, extraTransferLegSides: [], nextIterationFunding: null }], actors: [venue], extraArgs: { context: { values: {} }, meta: { values: {} } } };
  const transfer = {
    transfer: { sender: account(alice), receiver: account(bob), amount: '1.0', instrumentId: { admin: dso, id: 'Amulet' }, requestedAt: '2025-01-01T00:00:00Z', executeBefore: '2099-01-01T00:00:00Z', inputHoldingCids: [], meta: { values: {} } },
    actors: [alice],
    extraArgs: { context: { values: {} }, meta: { values: {} } },
  };
  // splice-api-token-allocation-instruction-v2 1.0.0: the settlement beside the specification.
  const spec = {
    admin: dso,
    authorizer: account(alice),
    transferLegSides: [{ transferLegId: 'leg-1', side: 'SenderSide', otherside: account(bob), amount: '1.0', instrumentId: 'Amulet', meta: { values: {} } }],
    settlementDeadline: null,
    nextIterationFunding: null,
    committed: false,
    meta: { values: {} },
  };
  const allocate = { settlement, allocation: spec, requestedAt: '2025-01-01T00:00:00Z', inputHoldingCids: [], extraArgs: { context: { values: {} }, meta: { values: {} } }, actors: [alice] };
  const { settlement: _, ...draft } = { ...allocate, allocation: { ...spec, settlement } };
  return [
    { title: 'v2 allocation factory', method: 'POST', path: '/registry/allocation-instruction/v2/allocation-factory', body: json({ choiceArguments: allocate }), status: 200 },
    { title: 'v2 allocation factory, the settlement inside the specification', method: 'POST', path: '/registry/allocation-instruction/v2/allocation-factory', body: json({ choiceArguments: draft }), status: 400 },
    { title: 'v2 transfer factory', method: 'POST', path: '/registry/transfer-instruction/v2/transfer-factory', body: json({ choiceArguments: transfer }), status: 200 },
    { title: 'settlement factory', method: 'POST', path: '/registry/allocation/v2/settlement-factory', body: json({ choiceArguments: settle }), status: 200 },
    { title: 'v2 transfer factory, NaN amount', method: 'POST', path: '/registry/transfer-instruction/v2/transfer-factory', body: json({ choiceArguments: { ...transfer, transfer: { ...transfer.transfer, amount: 'NaN' } } }), status: 400 },
    { title: 'settlement factory without legs', method: 'POST', path: '/registry/allocation/v2/settlement-factory', body: json({ choiceArguments: { ...settle, transferLegs: [] } }), status: 400 },
  ];
};

describe('the msw handlers answer the registry and Scan as the Koa reference server does', () => {
  let twins: Twins;
  beforeAll(async () => {
    twins = await startTwins({ appWorld: true });
  });
  afterAll(async () => {
    await twins?.close();
  });

  it('over the same seeded world', () => {
    expect(twins.mock.appWorld?.rounds.earliestRound).toBe(1);
    expect(twins.mock.ledger.ledgerEnd()).toEqual(twins.koa.ledger.ledgerEnd());
  });

  it('answers every row alike', async () => {
    const world = twins.mock.appWorld as AppWorld;
    for (const row of appRows(world)) {
      const { koa, msw } = await twins.send(row);
      expect(koa.status, `${row.title}: ${koa.body}`).toBe(row.status);
      expect({ ...msw, body: withoutTraceIds(msw.body) }, row.title).toEqual({ ...koa, body: withoutTraceIds(koa.body) });
    }
  });

  it('logs no unexpected failure on either face', () => {
    expect(twins.errors).toEqual([]);
  });
});
