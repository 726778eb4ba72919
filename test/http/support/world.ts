import { expect } from 'vitest';
import { post } from './ledgerApi.js';
import type { TestServer } from './startServer.js';

export const ASSET = '#canton-conformance-samples:Sample.Asset:Asset';

let counter = 0;
/** A fresh id for users, command ids, hints: tests share one ledger per file. */
export const fresh = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

/** Allocates a party through the API and returns its id. */
export async function allocateParty(server: TestServer, hint = fresh('party')): Promise<string> {
  const res = await post(server, '/v2/parties', { partyIdHint: hint });
  expect(res.status, res.text).toBe(200);
  return (res.body as { partyDetails: { party: string } }).partyDetails.party;
}

/** Creates a sample asset issued by `issuer` for `owner` through submit-and-wait. */
export async function createAsset(
  server: TestServer,
  issuer: string,
  owner: string,
  amount = '10.0',
): Promise<{ updateId: string; completionOffset: number }> {
  const res = await post(server, '/v2/commands/submit-and-wait', {
    commands: [{ CreateCommand: { templateId: ASSET, createArguments: { issuer, owner, amount, observers: null } } }],
    commandId: fresh('create'),
    userId: 'participant_admin',
    actAs: [issuer],
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { updateId: string; completionOffset: number };
}

export async function ledgerEnd(server: TestServer): Promise<number> {
  const res = await server.http.get('/v2/state/ledger-end');
  return (res.body as { offset: number }).offset;
}
