import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';
import { get, post } from './support/ledgerApi.js';
import { upload } from './support/packages.js';
import { startServer, type TestServer } from './support/startServer.js';

const SPLITWELL = '#splitwell:Splice.Splitwell';

let server: TestServer;
let n = 0;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

interface Created { contractId: string; templateId: string; createdEventBlob?: string; createArgument: Record<string, unknown> }

describe.runIf(HAS_DARS)('splitwell through the JSON Ledger API, beside the default world (needs ../shared/upstream/daml/dars)', () => {
  it('uploads next to the built-in Amulet model, then groups, invites and joins with disclosed contracts', async () => {
    const sync = server.ledger.config.synchronizers[0]!.id;
    expect((await upload(server, `/v2/dars?synchronizerId=${encodeURIComponent(sync)}`, readFileSync(join(DARS_DIR, 'splice/splitwell-0.1.23.dar')))).status).toBe(200);
    const party = async (hint: string) => ((await post(server, '/v2/parties', { partyIdHint: `${hint}-splitwell`, identityProviderId: '' })).body as { partyDetails: { party: string } }).partyDetails.party;
    const [provider, alice, bob, dso] = [await party('provider'), await party('alice'), await party('bob'), await party('dso')] as [string, string, string, string];
    const submit = async (actAs: string, command: unknown, disclosed: Created[] = []): Promise<Created[]> => {
      const res = await post(server, '/v2/commands/submit-and-wait-for-transaction', {
        commands: {
          userId: 'splitwell', commandId: `splitwell-${++n}`, actAs: [actAs], commands: [command],
          disclosedContracts: disclosed.map((c) => ({ contractId: c.contractId, templateId: c.templateId, createdEventBlob: c.createdEventBlob, synchronizerId: sync })),
        },
        transactionFormat: { eventFormat: { filtersForAnyParty: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.transaction.events as { CreatedEvent?: Created }[]).flatMap((e) => (e.CreatedEvent ? [e.CreatedEvent] : []));
    };
    const exercise = (template: string, contractId: string, choice: string, choiceArgument: unknown) => ({ ExerciseCommand: { templateId: `${SPLITWELL}:${template}`, contractId, choice, choiceArgument } });

    const [rules] = await submit(provider, { CreateCommand: { templateId: `${SPLITWELL}:SplitwellRules`, createArguments: { provider } } });
    const group = { owner: alice, dso, members: [], id: { unpack: 'trip' }, provider, acceptDuration: { microseconds: '60000000' } };
    const [request] = await submit(alice, exercise('SplitwellRules', rules!.contractId, 'SplitwellRules_RequestGroup', { group, user: alice }), [rules!]);
    const [groupContract] = await submit(provider, exercise('GroupRequest', request!.contractId, 'GroupRequest_Accept', {}));
    const [invite] = await submit(alice, exercise('SplitwellRules', rules!.contractId, 'SplitwellRules_CreateInvite', { group: groupContract!.contractId, user: alice }), [rules!]);
    const [accepted] = await submit(bob, exercise('SplitwellRules', rules!.contractId, 'SplitwellRules_AcceptInvite', { cid: invite!.contractId, user: bob }), [rules!, invite!]);
    const [joined] = await submit(alice, exercise('SplitwellRules', rules!.contractId, 'SplitwellRules_Join', { group: groupContract!.contractId, cid: accepted!.contractId, user: alice }), [rules!]);
    expect(joined!.createArgument).toEqual({ ...group, members: [bob] });

    // Bob's active contracts: the joined group, not the archived one, nor the rules he only saw disclosed.
    const end = (await get(server, '/v2/state/ledger-end')).body.offset as number;
    const acs = await post(server, '/v2/state/active-contracts', { activeAtOffset: end, eventFormat: { filtersByParty: { [bob]: {} }, verbose: true } });
    const ids = (acs.body as { contractEntry: { JsActiveContract?: { createdEvent: { contractId: string } } } }[]).map((e) => e.contractEntry.JsActiveContract?.createdEvent.contractId);
    expect(ids).toContain(joined!.contractId);
    expect(ids).not.toContain(groupContract!.contractId);
    expect(ids).not.toContain(rules!.contractId);
  });
});
