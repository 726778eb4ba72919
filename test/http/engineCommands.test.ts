/**
 * The JSON Ledger API over an uploaded package: a package the test builds (test/daml/samplePackage.ts)
 * for what any Daml code does, Splice's test token (needs ../shared) for a built-in model's
 * interface shared with an uploaded package.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DARS_DIR, HAS_DARS, loadDar } from '../daml/damlFixtures.js';
import { buildSamplePackage } from '../daml/samplePackage.js';
import { expectCantonError, expectNoStackTrace } from './support/cantonError.js';
import { post } from './support/ledgerApi.js';
import { upload } from './support/packages.js';
import { startServer, type TestServer } from './support/startServer.js';

const SAMPLE = buildSamplePackage('conformance-sample-commands');
const TOKEN = '#conformance-sample-commands:Sample.Asset:Asset';
const VIEWABLE = `${SAMPLE.id}:Sample.Asset:Describable`;
const TOKEN_DAR = 'splice/splice-test-token-v1-1.0.0.dar';
const SPLICE_TOKEN = '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1:Token';

let server: TestServer;
let alice: string;
let admin: string;
let holdingInterface: string;
let n = 0;
beforeAll(async () => {
  server = await startServer();
  const sync = server.ledger.config.synchronizers[0]!.id;
  expect((await upload(server, `/v2/dars?synchronizerId=${encodeURIComponent(sync)}`, SAMPLE.dar())).status).toBe(200);
  const party = async (hint: string) => ((await post(server, '/v2/parties', { partyIdHint: `${hint}-engine`, identityProviderId: '' })).body as { partyDetails: { party: string } }).partyDetails.party;
  alice = await party('alice');
  admin = await party('admin');
  if (!HAS_DARS) return;
  expect((await upload(server, `/v2/dars?synchronizerId=${encodeURIComponent(sync)}`, readFileSync(join(DARS_DIR, TOKEN_DAR)))).status).toBe(200);
  holdingInterface = `${[...loadDar(TOKEN_DAR).dar.packages].find((p) => p.metadata?.name === 'splice-api-token-holding-v1')!.id}:Splice.Api.Token.HoldingV1:Holding`;
});
afterAll(() => server.close());

const asset = (quantity: string) => ({ issuer: admin, owner: alice, description: 'a token', quantity });
const commands = (actAs: string[], cmds: unknown[], extra: Record<string, unknown> = {}) => ({ userId: 'engine-user', commandId: `engine-${++n}`, actAs, commands: cmds, ...extra });
const createToken = (quantity: string) => ({ CreateCommand: { templateId: TOKEN, createArguments: asset(quantity) } });

describe('JSON Ledger API over an uploaded package', () => {
  it('creates and exercises through every submit form; the answers conform to the spec', async () => {
    const created = await post(server, '/v2/commands/submit-and-wait-for-transaction', { commands: commands([alice, admin], [createToken('5')]) });
    expect(created.status).toBe(200);
    const ev = created.body.transaction.events[0].CreatedEvent;
    expect(ev).toMatchObject({ createArgument: asset('5'), packageName: 'conformance-sample-commands', signatories: [admin], observers: [alice] });

    const rules = await post(server, '/v2/commands/submit-and-wait', commands([admin], [{ CreateCommand: { templateId: TOKEN, createArguments: { ...asset('1'), owner: admin } } }]));
    expect(rules.status).toBe(200);
    expect(rules.body.updateId).toMatch(/^[0-9a-f]+$/);

    const tree = await post(server, '/v2/commands/submit-and-wait-for-transaction-tree', commands([alice, admin], [{ ExerciseCommand: { templateId: TOKEN, contractId: ev.contractId, choice: 'Archive', choiceArgument: {} } }]));
    expect(tree.status).toBe(200);
    expect(Object.values(tree.body.transactionTree.eventsById as Record<string, { ExercisedTreeEvent?: { value: { choice: string; consuming: boolean } } }>)[0]!.ExercisedTreeEvent?.value).toMatchObject({ choice: 'Archive', consuming: true });

    const async = await post(server, '/v2/commands/async/submit', commands([alice, admin], [createToken('1')]));
    expect(async.status).toBe(200);
  });

  it('an interface filter answers the view the engine evaluates, on the ACS and on the update', async () => {
    const created = await post(server, '/v2/commands/submit-and-wait-for-transaction', {
      commands: commands([alice, admin], [createToken('7')]),
      transactionFormat: {
        eventFormat: { filtersByParty: { [alice]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: VIEWABLE, includeInterfaceView: true, includeCreatedEventBlob: false } } } }] } }, verbose: true },
        transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
      },
    });
    expect(created.status).toBe(200);
    const ev = created.body.transaction.events[0].CreatedEvent;
    expect(ev.interfaceViews).toEqual([{ interfaceId: VIEWABLE, viewStatus: { code: 0, message: '' }, viewValue: { owner: alice, description: 'a token' } }]);
    const end = (await post(server, '/v2/state/active-contracts', {
      activeAtOffset: created.body.transaction.offset,
      eventFormat: { filtersByParty: { [alice]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: VIEWABLE, includeInterfaceView: true, includeCreatedEventBlob: false } } } }] } }, verbose: true },
    })).body as { contractEntry: { JsActiveContract?: { createdEvent: { contractId: string; interfaceViews: unknown[] } } } }[];
    const mine = end.find((e) => e.contractEntry.JsActiveContract?.createdEvent.contractId === ev.contractId);
    expect(mine?.contractEntry.JsActiveContract?.createdEvent.interfaceViews).toEqual(ev.interfaceViews);
  });

  it('refusals carry Canton error codes and statuses, never a 500', async () => {
    const cases: [unknown, number, string, RegExp?][] = [
      [commands([alice, admin], [createToken('lots')]), 400, 'COMMAND_PREPROCESSING_FAILED', /quantity/],
      [commands([alice], [createToken('1')]), 400, 'DAML_AUTHORIZATION_ERROR'],
      [commands([alice, admin], [{ ExerciseCommand: { templateId: TOKEN, contractId: `00${'ab'.repeat(32)}`, choice: 'Archive', choiceArgument: {} } }]), 404, 'CONTRACT_NOT_FOUND'],
      [commands([alice, admin], [{ ExerciseByKeyCommand: { templateId: TOKEN, contractKey: {}, choice: 'Archive', choiceArgument: {} } }]), 400, 'COMMAND_PREPROCESSING_FAILED'],
      [commands([alice, admin], [{ CreateCommand: { templateId: '#conformance-sample-commands:Sample.Asset:Nope', createArguments: {} } }]), 404, 'TEMPLATES_OR_INTERFACES_NOT_FOUND'],
    ];
    for (const [body, status, code, cause] of cases) {
      const res = await post(server, '/v2/commands/submit-and-wait', body);
      expect(res.status, code).toBe(status);
      expectCantonError(res.body, code, cause);
      expectNoStackTrace(res.text);
    }
  });

  it('interactive prepare of an engine command answers the engine transaction (the full flow: test/interactive/engineHttp.test.ts)', async () => {
    const res = await post(server, '/v2/interactive-submission/prepare', { ...commands([alice, admin], [createToken('1')]), synchronizerId: '', packageIdSelectionPreference: [], verboseHashing: false, disclosedContracts: [], readAs: [] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.hashingSchemeVersion).toBe('HASHING_SCHEME_VERSION_V2');
  });
});

describe.runIf(HAS_DARS)('JSON Ledger API over Splice\'s test token (needs ../shared/upstream/daml/dars)', () => {
  const holding = (amount: string) => ({ owner: alice, instrumentId: { admin, id: 'TEST' }, amount, lock: null, meta: { values: {} } });
  const createToken = (amount: string) => ({ CreateCommand: { templateId: SPLICE_TOKEN, createArguments: { holding: holding(amount) } } });
  it('a package-name interface filter matches the built-in model and the uploaded package alike', async () => {
    const created = await post(server, '/v2/commands/submit-and-wait-for-transaction', { commands: commands([alice, admin], [createToken('2.0')]) });
    const id = created.body.transaction.events[0].CreatedEvent.contractId as string;
    const byName = '#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding';
    const acs = (await post(server, '/v2/state/active-contracts', {
      activeAtOffset: created.body.transaction.offset,
      eventFormat: { filtersByParty: { [alice]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: byName, includeInterfaceView: true, includeCreatedEventBlob: false } } } }] } }, verbose: true },
    })).body as { contractEntry: { JsActiveContract?: { createdEvent: { contractId: string; interfaceViews: { interfaceId: string }[] } } } }[];
    const mine = acs.find((e) => e.contractEntry.JsActiveContract?.createdEvent.contractId === id);
    expect(mine?.contractEntry.JsActiveContract?.createdEvent.interfaceViews.map((v) => v.interfaceId)).toEqual([holdingInterface]);
  });
});
