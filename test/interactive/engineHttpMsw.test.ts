/**
 * The msw mocks over the same core: a DAR given to createHandlers({ dars }) is prepared, signed
 * and executed by an external party through fetch, and the committed create is the one prepare
 * showed (its contract id, its argument).
 */
import { join } from 'node:path';
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { createHandlers } from '../../reference-server/src/msw/index.js';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';
import { executeBody, prepareBody } from './support/externalParties.js';
import { newKey, signHash } from './support/keys.js';

const URL_BASE = 'http://engine-interactive.test';
const DUMMY = '#splice-token-test-dummy-holding:Splice.Api.Token.Test.DummyHolding:DummyHolding';
const USER = 'wallet';

async function postJson(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${URL_BASE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe.runIf(HAS_DARS)('msw mocks: interactive submission of a DAR given to createHandlers (needs ../shared/upstream/daml/dars)', () => {
  const mock = HAS_DARS ? createHandlers({ ledgerUrl: URL_BASE, dars: [join(DARS_DIR, 'splice/splice-token-test-dummy-holding-0.0.4.dar')], log: silentLogger }) : undefined;
  const server = setupServer(...(mock?.handlers ?? []));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('onboards an external party, prepares, signs and executes a create of the uploaded template', async () => {
    const synchronizer = mock!.ledger.config.synchronizers[0]!.id;
    const key = newKey('ed25519');
    const topology = await postJson('/v2/parties/external/generate-topology', { synchronizer, partyHint: 'msw-owner', publicKey: key.publicKey });
    expect(topology.status).toBe(200);
    const allocated = await postJson('/v2/parties/external/allocate', {
      synchronizer,
      onboardingTransactions: (topology.body.topologyTransactions as string[]).map((transaction) => ({ transaction })),
      multiHashSignatures: [signHash(key, topology.body.multiHash as string)],
    });
    expect(allocated.status).toBe(200);
    const owner = allocated.body.partyId as string;

    const prepared = await postJson('/v2/interactive-submission/prepare', {
      ...prepareBody(owner, [{ CreateCommand: { templateId: DUMMY, createArguments: { owner, issuer: owner, amount: '4.0' } } }]),
      userId: USER,
      synchronizerId: synchronizer,
    });
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
    const bytes = prepared.body.preparedTransaction as string;
    const hash = prepared.body.preparedTransactionHash as string;
    expect(await hashPreparedTransaction(bytes, 'base64')).toBe(hash);
    const node = PreparedTransaction.fromBinary(Buffer.from(bytes, 'base64')).transaction!.nodes[0]!.versionedNode;
    const create = node.oneofKind === 'v1' && node.v1.nodeType.oneofKind === 'create' ? node.v1.nodeType.create : undefined;
    expect(create?.templateId).toMatchObject({ moduleName: 'Splice.Api.Token.Test.DummyHolding', entityName: 'DummyHolding' });

    const executed = await postJson('/v2/interactive-submission/executeAndWaitForTransaction', executeBody(bytes, [{ party: owner, signatures: [signHash(key, hash)] }], { userId: USER }));
    expect(executed.status, JSON.stringify(executed.body)).toBe(200);
    const events = (executed.body.transaction as { events: { CreatedEvent: { contractId: string; createArgument: unknown } }[] }).events;
    expect(events.map((e) => e.CreatedEvent.contractId)).toEqual([create!.contractId]);
    expect(events[0]!.CreatedEvent.createArgument).toEqual({ owner, issuer: owner, amount: '4.0000000000' });
  });
});
