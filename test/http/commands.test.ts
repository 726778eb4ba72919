import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCantonError } from './support/cantonError.js';
import { post } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';
import { ASSET, allocateParty, fresh, ledgerEnd } from './support/world.js';

let server: TestServer;
let issuer: string;
let owner: string;
beforeAll(async () => {
  server = await startServer();
  issuer = await allocateParty(server, fresh('issuer'));
  owner = await allocateParty(server, fresh('owner'));
});
afterAll(() => server.close());

const createAsset = (commandId = fresh('cmd'), extra: Record<string, unknown> = {}) => ({
  commands: [{ CreateCommand: { templateId: ASSET, createArguments: { issuer, owner, amount: '5.0', observers: null } } }],
  commandId,
  userId: 'participant_admin',
  actAs: [issuer],
  ...extra,
});

describe('POST /v2/commands/submit-and-wait', () => {
  it('commits and answers the update id and completion offset', async () => {
    const before = await ledgerEnd(server);
    const res = await post(server, '/v2/commands/submit-and-wait', createAsset());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ updateId: expect.any(String), completionOffset: expect.any(Number) });
    expect(res.body.completionOffset).toBeGreaterThan(before);
    expect(await ledgerEnd(server)).toBe(res.body.completionOffset);
  });

  it('deduplicates a resubmitted command id with 409 DUPLICATE_COMMAND', async () => {
    const commandId = fresh('dedup');
    expect((await post(server, '/v2/commands/submit-and-wait', createAsset(commandId))).status).toBe(200);
    const again = await post(server, '/v2/commands/submit-and-wait', createAsset(commandId));
    expect(again.status).toBe(409);
    expectCantonError(again.body, 'DUPLICATE_COMMAND');
  });

  it('echoes the submission id as the error correlation id', async () => {
    const commandId = fresh('dedup');
    await post(server, '/v2/commands/submit-and-wait', createAsset(commandId));
    const again = await post(server, '/v2/commands/submit-and-wait', createAsset(commandId, { submissionId: 'sub-42' }));
    expect(again.body.correlationId).toBe('sub-42');
  });

  it('refuses a create not authorized by its signatory with a Daml error (400)', async () => {
    const res = await post(server, '/v2/commands/submit-and-wait', { ...createAsset(), actAs: [owner] });
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'DAML_AUTHORIZATION_ERROR');
  });

  it('answers an unknown package with 404 PACKAGE_NAMES_NOT_FOUND', async () => {
    const body = createAsset();
    const res = await post(server, '/v2/commands/submit-and-wait', {
      ...body,
      commands: [{ CreateCommand: { templateId: '#no-such-package:No:Template', createArguments: {} } }],
    });
    expect(res.status).toBe(404);
    expectCantonError(res.body, 'PACKAGE_NAMES_NOT_FOUND');
  });

  it('answers an unknown template of a known package with 404 TEMPLATES_OR_INTERFACES_NOT_FOUND', async () => {
    const res = await post(server, '/v2/commands/submit-and-wait', {
      ...createAsset(),
      commands: [{ CreateCommand: { templateId: '#canton-conformance-samples:Sample.Asset:Nothing', createArguments: {} } }],
    });
    expect(res.status).toBe(404);
    expectCantonError(res.body, 'TEMPLATES_OR_INTERFACES_NOT_FOUND');
  });

  it('answers an unknown contract in an exercise with 404 CONTRACT_NOT_FOUND', async () => {
    const res = await post(server, '/v2/commands/submit-and-wait', {
      commands: [{ ExerciseCommand: { templateId: ASSET, contractId: '00' + 'ab'.repeat(33), choice: 'Archive', choiceArgument: {} } }],
      commandId: fresh('ex'),
      userId: 'participant_admin',
      actAs: [owner],
    });
    expect(res.status).toBe(404);
    expectCantonError(res.body, 'CONTRACT_NOT_FOUND');
  });
});

describe('POST /v2/commands/submit-and-wait-for-transaction', () => {
  it('answers the transaction with the created event, in the ACS delta shape by default', async () => {
    const res = await post(server, '/v2/commands/submit-and-wait-for-transaction', { commands: createAsset() });
    expect(res.status).toBe(200);
    const tx = res.body.transaction;
    expect(tx).toMatchObject({ updateId: expect.any(String), offset: expect.any(Number), synchronizerId: expect.any(String) });
    expect(tx.events).toHaveLength(1);
    expect(tx.events[0].CreatedEvent).toMatchObject({ templateId: expect.stringContaining('Sample.Asset:Asset'), signatories: [issuer] });
  });

  it('honours transactionFormat: an owner-only filter still sees the asset, a stranger filter sees no events', async () => {
    const stranger = await allocateParty(server, fresh('stranger'));
    const format = (party: string) => ({
      eventFormat: { filtersByParty: { [party]: { cumulative: [] } }, verbose: true },
      transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
    });
    const seen = await post(server, '/v2/commands/submit-and-wait-for-transaction', { commands: createAsset(), transactionFormat: format(owner) });
    expect(seen.body.transaction.events).toHaveLength(1);
    const unseen = await post(server, '/v2/commands/submit-and-wait-for-transaction', { commands: createAsset(), transactionFormat: format(stranger) });
    expect(unseen.status).toBe(200);
    expect(unseen.body.transaction.events).toEqual([]);
  });
});

describe('POST /v2/commands/async/submit', () => {
  it('answers {} at once and reports the outcome on completions', async () => {
    const begin = await ledgerEnd(server);
    const commandId = fresh('async');
    const res = await post(server, '/v2/commands/async/submit', createAsset(commandId));
    expect(res.status).toBe(200);
    expect(res.text).toBe('{}');

    const completions = await post(server, '/v2/commands/completions?stream_idle_timeout_ms=200', {
      userId: 'participant_admin',
      parties: [issuer],
      beginExclusive: begin,
    });
    expect(completions.status).toBe(200);
    const mine = (completions.body as { completionResponse: { Completion?: { value: { commandId: string; status?: { code: number } } } } }[])
      .map((c) => c.completionResponse.Completion?.value)
      .find((c) => c?.commandId === commandId);
    expect(mine).toBeDefined();
    expect(mine?.status?.code ?? 0).toBe(0);
  });

  it('refuses an invalid submission synchronously', async () => {
    const res = await post(server, '/v2/commands/async/submit', { ...createAsset(), actAs: ['not a party'] });
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'INVALID_FIELD');
  });
});

describe('bad inputs for the submit endpoints', () => {
  const valid = () => createAsset();
  const table: { name: string; body: () => unknown; status: number; kind: 'text' | 'json' }[] = [
    { name: 'malformed JSON', body: () => '{"commands": [', status: 400, kind: 'text' },
    { name: 'commands of the wrong type', body: () => ({ ...valid(), commands: 'create' }), status: 400, kind: 'text' },
    { name: 'missing commandId', body: () => ({ ...valid(), commandId: undefined }), status: 400, kind: 'text' },
    { name: 'actAs of the wrong type', body: () => ({ ...valid(), actAs: issuer }), status: 400, kind: 'text' },
    { name: 'unknown field', body: () => ({ ...valid(), priority: 'high' }), status: 400, kind: 'json' },
    { name: 'invalid party id in actAs', body: () => ({ ...valid(), actAs: ['alice'] }), status: 400, kind: 'json' },
    { name: 'empty commands', body: () => ({ ...valid(), commands: [] }), status: 400, kind: 'json' },
    { name: 'negative deduplication offset', body: () => ({ ...valid(), deduplicationPeriod: { DeduplicationOffset: { value: -1 } } }), status: 400, kind: 'json' },
    // Daml values are free JSON to the decoder: a number out of any range is the ledger's to refuse.
    { name: 'huge amount number', body: () => JSON.stringify(valid()).replace('"5.0"', '1e400'), status: 400, kind: 'json' },
    {
      name: 'deeply nested argument',
      body: () => JSON.stringify(valid()).replace('"observers":null', `"observers":${'['.repeat(200)}${']'.repeat(200)}`),
      status: 400,
      kind: 'text',
    },
    { name: 'create argument missing a field', body: () => ({ ...valid(), commands: [{ CreateCommand: { templateId: ASSET, createArguments: { issuer } } }] }), status: 400, kind: 'json' },
  ];
  for (const path of ['/v2/commands/submit-and-wait', '/v2/commands/async/submit']) {
    for (const row of table) {
      it(`${path}: ${row.name} -> ${row.status} ${row.kind}`, async () => {
        const res = await post(server, path, row.body());
        expect(res.status, res.text).toBe(row.status);
        expect(res.headers['content-type']).toMatch(row.kind === 'text' ? /^text\/plain/ : /^application\/json/);
      });
    }
  }
});
