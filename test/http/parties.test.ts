import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCantonError } from './support/cantonError.js';
import { get, post } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';
import { fresh } from './support/world.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('parties', () => {
  it('allocates a party from a hint, in the participant namespace', async () => {
    const hint = fresh('alice');
    const res = await post(server, '/v2/parties', { partyIdHint: hint });
    expect(res.status).toBe(200);
    const party = res.body.partyDetails.party as string;
    expect(party).toMatch(new RegExp(`^${hint}::1220[0-9a-f]{64}$`));
    expect(res.body.partyDetails.isLocal).toBe(true);
  });

  it('allocates a party without a hint', async () => {
    const res = await post(server, '/v2/parties', {});
    expect(res.status).toBe(200);
    expect(res.body.partyDetails.party).toMatch(/::1220[0-9a-f]{64}$/);
  });

  it('answers 409 for a hint already taken', async () => {
    const hint = fresh('twice');
    await post(server, '/v2/parties', { partyIdHint: hint });
    const res = await post(server, '/v2/parties', { partyIdHint: hint });
    expect(res.status).toBe(409);
    expectCantonError(res.body, 'PARTY_ALREADY_EXISTS');
  });

  it('refuses an invalid hint with 400', async () => {
    const res = await post(server, '/v2/parties', { partyIdHint: 'no/slashes::here' });
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'INVALID_ARGUMENT');
  });

  it('finds a party by its percent-encoded id, as the ledger client sends it', async () => {
    const party = (await post(server, '/v2/parties', { partyIdHint: fresh('bob') })).body.partyDetails.party as string;
    const res = await get(server, `/v2/parties/${encodeURIComponent(party)}`);
    expect(res.status).toBe(200);
    expect(res.body.partyDetails[0].party).toBe(party);
    // The raw form (colons unescaped) is the same party.
    expect((await get(server, `/v2/parties/${party}`)).body.partyDetails[0].party).toBe(party);
  });

  it('answers an unknown but well-formed party with an empty list, and a malformed one with 400', async () => {
    const unknown = `nobody::1220${'0'.repeat(64)}`;
    const res = await get(server, `/v2/parties/${encodeURIComponent(unknown)}`);
    // As on the participant: unknown parties are simply absent from the answer.
    expect(res.status).toBe(200);
    expect(res.body.partyDetails).toEqual([]);
    const bad = await get(server, `/v2/parties/${encodeURIComponent('not a party id')}`);
    expect(bad.status).toBe(400);
    expectCantonError(bad.body, 'INVALID_ARGUMENT');
  });

  it('lists known parties, paging with pageSize and pageToken', async () => {
    for (let i = 0; i < 3; i++) await post(server, '/v2/parties', { partyIdHint: fresh('page') });
    const first = await get(server, '/v2/parties?pageSize=2');
    expect(first.status).toBe(200);
    expect(first.body.partyDetails).toHaveLength(2);
    expect(first.body.nextPageToken).toEqual(expect.any(String));
    const second = await get(server, `/v2/parties?pageSize=2&pageToken=${encodeURIComponent(first.body.nextPageToken as string)}`);
    expect(second.status).toBe(200);
    const firstIds = (first.body.partyDetails as { party: string }[]).map((p) => p.party);
    for (const p of second.body.partyDetails as { party: string }[]) expect(firstIds).not.toContain(p.party);
  });

  it('refuses a non-numeric pageSize with 400 text/plain', async () => {
    const res = await get(server, '/v2/parties?pageSize=many');
    expect(res.status).toBe(400);
    expect(res.text).toBe('Invalid value for: query parameter pageSize');
  });

  it('answers the participant id', async () => {
    const res = await get(server, '/v2/parties/participant-id');
    expect(res.status).toBe(200);
    expect(res.body.participantId).toBe(server.ledger.config.participantId);
  });
});

describe('bad inputs for POST /v2/parties', () => {
  const table: { name: string; body: unknown; kind: 'text' | 'json' }[] = [
    { name: 'malformed JSON', body: '{', kind: 'text' },
    { name: 'hint of the wrong type', body: { partyIdHint: 42 }, kind: 'text' },
    { name: 'unknown field', body: { partyIdHint: 'x', colour: 'red' }, kind: 'json' },
    { name: 'hint too long', body: { partyIdHint: 'a'.repeat(300) }, kind: 'json' },
    { name: 'annotations of the wrong type', body: { localMetadata: { annotations: { a: 1 } } }, kind: 'text' },
    { name: 'deeply nested', body: `{"localMetadata":${'['.repeat(300)}${']'.repeat(300)}}`, kind: 'text' },
  ];
  for (const row of table) {
    it(`${row.name} -> 400 ${row.kind}`, async () => {
      const res = await post(server, '/v2/parties', row.body);
      expect(res.status, res.text).toBe(400);
      expect(res.headers['content-type']).toMatch(row.kind === 'text' ? /^text\/plain/ : /^application\/json/);
    });
  }
});
