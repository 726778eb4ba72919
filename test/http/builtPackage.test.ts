/**
 * A package the project builds itself (test/daml/samplePackage.ts, no upstream file) uploaded
 * with POST /v2/dars and driven through the JSON Ledger API over a socket: create, a consuming
 * and a non-consuming choice, the interface view on reads, a choice through the interface, an
 * exception thrown by Daml code, and the precondition; proof that built packages execute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { BuiltPackage } from '../../daml-engine/build/PackageBuilder.js';
import { buildSamplePackage } from '../daml/samplePackage.js';
import { createdIn, exercisedIn, JsonApiClient } from '../engineApps/JsonApiClient.js';
import { startServer, type TestServer } from './support/startServer.js';

let server: TestServer;
let api: JsonApiClient;
let built: BuiltPackage;
let ASSET: string;
let DESCRIBABLE: string;

beforeAll(async () => {
  built = buildSamplePackage('conformance-sample-http');
  ASSET = `${built.id}:Sample.Asset:Asset`;
  DESCRIBABLE = `${built.id}:Sample.Asset:Describable`;
  server = await startServer();
  api = await new JsonApiClient(server.url).connect();
  await api.uploadDar(built.dar());
});
afterAll(() => server.close());

describe('a built package through the JSON Ledger API', () => {
  it('is listed among the packages, with its name and version', async () => {
    const ids = (await api.ok('GET', '/v2/packages')).packageIds as string[];
    expect(ids).toContain(built.id);
    const status = await api.ok('GET', `/v2/packages/${built.id}/status`);
    expect(status.packageStatus).toBe('PACKAGE_STATUS_REGISTERED');
  });

  it('creates, transfers (consuming), queries (non-consuming) and reads the interface view', async () => {
    const issuer = await api.party('issuer');
    const alice = await api.party('alice');
    const bob = await api.party('bob');
    const [asset] = createdIn(await api.must([issuer], [{ CreateCommand: { templateId: `#conformance-sample-http:Sample.Asset:Asset`, createArguments: { issuer, owner: alice, description: 'gold', quantity: '10' } } }]));
    expect(asset).toMatchObject({ templateId: ASSET, packageName: 'conformance-sample-http', signatories: [issuer], observers: [alice], createArgument: { issuer, owner: alice, description: 'gold', quantity: '10' } });

    const quantity = await api.must([alice], [{ ExerciseCommand: { templateId: ASSET, contractId: asset!.contractId, choice: 'Quantity', choiceArgument: {} } }]);
    expect(exercisedIn(quantity)).toMatchObject([{ choice: 'Quantity', consuming: false, exerciseResult: '10', actingParties: [alice] }]);

    const transfer = await api.must([alice], [{ ExerciseCommand: { templateId: ASSET, contractId: asset!.contractId, choice: 'Transfer', choiceArgument: { newOwner: bob } } }]);
    const [exercised] = exercisedIn(transfer);
    const [moved] = createdIn(transfer);
    expect(exercised).toMatchObject({ choice: 'Transfer', consuming: true, choiceArgument: { newOwner: bob }, exerciseResult: moved!.contractId });
    expect(moved).toMatchObject({ signatories: [issuer], observers: [bob], createArgument: { owner: bob, quantity: '10' } });

    expect(await api.byTemplate(alice, ASSET)).toEqual([]);
    const [held] = await api.byInterface(bob, DESCRIBABLE);
    expect(held).toMatchObject({ contractId: moved!.contractId, interfaceViews: [{ interfaceId: DESCRIBABLE, viewStatus: { code: 0 }, viewValue: { owner: bob, description: 'gold' } }] });

    const described = await api.must([bob], [{ ExerciseCommand: { templateId: DESCRIBABLE, contractId: moved!.contractId, choice: 'Describe', choiceArgument: {} } }]);
    expect(exercisedIn(described)).toMatchObject([{ choice: 'Describe', interfaceId: DESCRIBABLE, exerciseResult: 'gold', consuming: false }]);
    expect(server.errors).toEqual([]);
  });

  it('refuses a create whose precondition fails and a choice whose Daml code throws, naming the cause', async () => {
    const issuer = await api.party('issuer');
    const bad = await api.submit([issuer], [{ CreateCommand: { templateId: ASSET, createArguments: { issuer, owner: issuer, description: 'none', quantity: '0' } } }]);
    expect([bad.status, bad.body.code]).toEqual([400, 'TEMPLATE_PRECONDITION_VIOLATED']);

    const [asset] = createdIn(await api.must([issuer], [{ CreateCommand: { templateId: ASSET, createArguments: { issuer, owner: issuer, description: 'silver', quantity: '5' } } }]));
    const split = await api.submit([issuer], [{ ExerciseCommand: { templateId: ASSET, contractId: asset!.contractId, choice: 'Split', choiceArgument: { amount: '7' } } }]);
    expect(split.status).toBe(400);
    expect(split.body.code).toBe('UNHANDLED_EXCEPTION');
    // Canton names the exception's type and payload, not its message.
    expect(split.body.cause).toContain('Unhandled Daml exception: Sample.Asset:InsufficientQuantity@');
    expect(split.body.cause).toContain('{ requested = 7 }');
    const ok = await api.must([issuer], [{ ExerciseCommand: { templateId: ASSET, contractId: asset!.contractId, choice: 'Split', choiceArgument: { amount: '2' } } }]);
    expect(createdIn(ok)).toMatchObject([{ createArgument: { quantity: '3' } }]);
    expect(server.errors).toEqual([]);
  });
});
