import { randomUUID } from 'node:crypto';
import { awaitCompletion, isJsCantonError } from '@canton-network/core-ledger-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSFER_PREAPPROVAL_TEMPLATE, type LookupTransferPreapprovalByPartyResponse } from '../../../reference-server/src/apps/index.js';
import { ASSET_TEMPLATE } from '../../../reference-server/src/ledger/index.js';
import type { ClientTarget, StartTarget } from './ClientTarget.js';
import { realClients, type RealClients } from './realClients.js';

const ADMIN = 'participant_admin';

/** Runs an async iterable to its end (the stream closes at `endInclusive`), with a deadline. */
async function collect<T>(stream: AsyncIterable<T>, max = 1000): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) {
    out.push(item);
    if (out.length >= max) break;
  }
  return out;
}

/** The same calls, through the unchanged published clients, against one target. */
export function describeClientSuite(start: StartTarget): void {
  let target: ClientTarget;
  let clients: RealClients;
  let issuer: string;
  let alice: string;

  beforeAll(async () => {
    target = await start();
    clients = realClients(target);
  });
  afterAll(async () => {
    await target?.close();
  });

  const allocate = async (hint: string) => {
    const res = await clients.ledger.post('/v2/parties', { partyIdHint: `${hint}-${randomUUID().slice(0, 8)}`, identityProviderId: '' });
    return res.partyDetails.party;
  };

  const createAsset = async (owner: string, amount = '10.0') => {
    const commandId = `create-${randomUUID()}`;
    const res = await clients.ledger.post('/v2/commands/submit-and-wait', {
      commands: [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer, owner, amount, observers: null } } }],
      commandId,
      userId: ADMIN,
      actAs: [issuer],
    });
    return { ...res, commandId };
  };

  describe('ledger API (LedgerClient)', () => {
    it('reads the version and settles on a supported client version', async () => {
      const version = await clients.ledger.get('/v2/version');
      expect(version.version).toMatch(/^3\.[45]\./);
      expect(version.features.userManagement.supported).toBe(true);
      await clients.ledger.init();
      expect(clients.ledger.getCurrentClientVersion()).toBe(version.version.slice(0, 3));
    });

    it('allocates parties and finds them (checkIfPartyExists, list)', async () => {
      issuer = await allocate('issuer');
      alice = await allocate('alice');
      expect(issuer).toMatch(/^issuer-[0-9a-f]{8}::1220[0-9a-f]{64}$/);
      await expect(clients.ledger.checkIfPartyExists(alice)).resolves.toBe(true);
      await expect(clients.ledger.checkIfPartyExists(`nobody::1220${'0'.repeat(64)}`)).resolves.toBe(false);
      const listed = await clients.ledger.get('/v2/parties');
      expect(listed.partyDetails.map((p) => p.party)).toEqual(expect.arrayContaining([issuer, alice]));
    });

    it('creates a user, grants rights, reads them back', async () => {
      const userId = `alice-${randomUUID().slice(0, 8)}`;
      const user = await clients.ledger.createUser(userId, alice);
      expect(user).toMatchObject({ id: userId, primaryParty: alice });
      const granted = await clients.ledger.grantRights(userId, { actAs: [alice], readAs: [issuer] });
      expect(granted.newlyGrantedRights).toEqual(
        expect.arrayContaining([{ kind: { CanActAs: { value: { party: alice } } } }, { kind: { CanReadAs: { value: { party: issuer } } } }]),
      );
      const rights = await clients.ledger.get('/v2/users/{user-id}/rights', { path: { 'user-id': userId } });
      expect(rights.rights).toEqual(expect.arrayContaining([{ kind: { CanActAs: { value: { party: alice } } } }]));
    });

    it('submits and waits, then finds the contract among the active contracts at ledger end', async () => {
      const created = await createAsset(alice, '42.5');
      expect(created.updateId).toMatch(/^[0-9a-f]+$/);
      const end = await clients.ledger.get('/v2/state/ledger-end');
      expect(end.offset).toBeGreaterThanOrEqual(created.completionOffset);

      const acs = await clients.ledger.post('/v2/state/active-contracts', {
        activeAtOffset: end.offset ?? 0,
        eventFormat: {
          filtersByParty: { [alice]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] } },
          verbose: true,
        },
      });
      const events = acs.flatMap((r) => (r.contractEntry !== undefined && 'JsActiveContract' in r.contractEntry ? [r.contractEntry.JsActiveContract.createdEvent] : []));
      // Numeric values come back in the ledger's canonical form (scale 10), so compare numbers.
      const mine = events.find((e) => Number((e.createArgument as { amount?: string }).amount) === 42.5);
      expect(mine).toBeDefined();
      expect(mine?.signatories).toEqual([issuer]);
      expect(mine?.createdEventBlob).toMatch(/^[A-Za-z0-9+/]+=*$/);
    });

    it('finds the completion of an asynchronous submission (awaitCompletion)', async () => {
      const end = await clients.ledger.get('/v2/state/ledger-end');
      const commandId = `async-${randomUUID()}`;
      await clients.ledger.post('/v2/commands/async/submit', {
        commands: [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer, owner: alice, amount: '1.0', observers: null } } }],
        commandId,
        userId: ADMIN,
        actAs: [issuer],
      });
      const completion = await awaitCompletion(clients.ledger, end.offset ?? 0, issuer, ADMIN, commandId);
      expect(completion.commandId).toBe(commandId);
      expect(completion.status?.code ?? 0).toBe(0);
      expect(completion.actAs).toEqual([issuer]);
    });

    it('reports a refused submission as a JsCantonError the client can recognise', async () => {
      const failure: unknown = await clients.ledger
        .post('/v2/commands/submit-and-wait', {
          commands: [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer, owner: alice, amount: '-1.0', observers: null } } }],
          commandId: `bad-${randomUUID()}`,
          userId: ADMIN,
          actAs: [issuer],
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(isJsCantonError(failure)).toBe(true);
      expect(failure).toMatchObject({ cause: expect.stringContaining('amount must be positive'), grpcCodeValue: expect.any(Number) });
    });

    it('deletes a user (DELETE through the generated client), after which it is gone', async () => {
      const userId = `doomed-${randomUUID().slice(0, 8)}`;
      await clients.ledger.createUser(userId, alice);
      // LedgerClient has no delete helper: wallets reach the generated client underneath.
      const raw = (clients.ledger as unknown as { currentClient: RawClient }).currentClient;
      const deleted = await raw.DELETE('/v2/users/{user-id}', { params: { path: { 'user-id': userId } } });
      expect(deleted.response.status).toBe(200);
      expect(deleted.data).toEqual({});
      const again: unknown = await clients.ledger.get('/v2/users/{user-id}', { path: { 'user-id': userId } }).catch((e: unknown) => e);
      expect(again).toMatchObject({ code: 'USER_NOT_FOUND' });
    });
  });

  describe('point reads and the deprecated update list (LedgerClient)', () => {
    it('reads a commit through flats as wallet-sdk 1.4.0 asks (updateFormat with verbose: false), then by update id and by contract id', async () => {
      const before = await clients.ledger.get('/v2/state/ledger-end');
      const created = await createAsset(alice, '7.0');
      const eventFormat = { filtersByParty: { [alice]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } }, verbose: false };
      const updateFormat = { includeTransactions: { eventFormat, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' as const } };
      const flats = await clients.ledger.post('/v2/updates/flats', { beginExclusive: before.offset ?? 0, endInclusive: created.completionOffset, updateFormat, verbose: false });
      const txs = flats.flatMap((u) => (u.update !== undefined && 'Transaction' in u.update ? [u.update.Transaction.value] : []));
      expect(txs.map((t) => t.updateId)).toEqual([created.updateId]);
      const byId = await clients.ledger.post('/v2/updates/update-by-id', { updateId: created.updateId, updateFormat });
      expect(byId.update !== undefined && 'Transaction' in byId.update ? byId.update.Transaction.value : undefined).toEqual(txs[0]);
      const event = txs[0]?.events?.[0];
      const contractId = event !== undefined && 'CreatedEvent' in event ? event.CreatedEvent.contractId : '';
      const events = await clients.ledger.post('/v2/events/events-by-contract-id', { contractId, eventFormat });
      expect(events.created?.createdEvent.contractId).toBe(contractId);
      const missing: unknown = await clients.ledger.post('/v2/updates/update-by-id', { updateId: `1220${'0'.repeat(64)}`, updateFormat }).catch((e: unknown) => e);
      expect(isJsCantonError(missing)).toBe(true);
      expect(missing).toMatchObject({ code: 'UPDATE_NOT_FOUND' });
    });
  });

  describe('WebSocket streams (WebSocketClient)', () => {
    it('streams the updates up to a given offset, then ends', async () => {
      const created = await createAsset(alice, '7.0');
      const updates = await collect(
        clients.streams.streamUpdates({ beginExclusive: 0, endInclusive: created.completionOffset, partyId: alice, templateIds: [ASSET_TEMPLATE] }),
      );
      const transactions = updates.flatMap((u) => (u.update !== undefined && 'Transaction' in u.update ? [u.update.Transaction.value] : []));
      expect(transactions.length).toBeGreaterThan(0);
      const last = transactions[transactions.length - 1];
      expect(last?.updateId).toBe(created.updateId);
      expect(last?.offset).toBe(created.completionOffset);
    });

    it('streams completions as they happen', async () => {
      const end = await clients.ledger.get('/v2/state/ledger-end');
      const stream = clients.streams.streamCompletions({ beginExclusive: end.offset ?? 0, userId: ADMIN, parties: [issuer] });
      const first = stream.next();
      const created = await createAsset(alice, '3.0');
      let found: unknown;
      for (let next = await first; next.done !== true; next = await stream.next()) {
        const c = next.value.completionResponse;
        if (c !== undefined && 'Completion' in c && c.Completion.value.commandId === created.commandId) {
          found = c.Completion.value;
          break;
        }
      }
      await stream.return?.(undefined);
      expect(found).toMatchObject({ commandId: created.commandId, updateId: created.updateId, offset: created.completionOffset });
    });
  });

  describe('registry (TokenStandardClient)', () => {
    // The installed client types only the v1 paths; openapi-fetch substitutes `{param}` in any path.
    const acceptPath = '/registry/allocation-instruction/v2/{allocationInstructionId}/choice-contexts/accept';
    const postUntyped = (path: string, body: unknown, params: { path: Record<string, string> }) =>
      (clients.registry.post as unknown as (p: string, b: unknown, q: unknown) => Promise<unknown>).call(clients.registry, path, body, params);

    it('fetches the accept context of an allocation instruction, with the contracts to disclose', async () => {
      const cid = target.appWorld.registry.instructions.aliceActive;
      const context = (await postUntyped(acceptPath, { excludeDebugFields: false }, { path: { allocationInstructionId: cid } })) as ChoiceContextShape;
      expect(Object.keys(context.choiceContextData.values).length).toBeGreaterThan(0);
      expect(context.disclosedContracts.length).toBeGreaterThan(0);
      for (const d of context.disclosedContracts) {
        // What a wallet forwards unchanged to the ledger: the blob the ledger itself holds.
        expect(d.createdEventBlob).toBe(target.ledger().createdEventBlob(d.contractId));
        expect(d.synchronizerId).toBe(target.ledger().config.synchronizers[0].id);
        expect(d.debugPayload).toBeDefined();
      }
      const lean = (await postUntyped(acceptPath, { excludeDebugFields: true }, { path: { allocationInstructionId: cid } })) as ChoiceContextShape;
      expect(lean.disclosedContracts.every((d) => Object.keys(d).every((k) => !k.startsWith('debug')))).toBe(true);
    });

    it('rejects with the registry error body for a withdrawn instruction (404) and one being reassigned (409)', async () => {
      const { aliceWithdrawn, carolInFlight } = target.appWorld.registry.instructions;
      for (const cid of [aliceWithdrawn, carolInFlight]) {
        const failure = await postUntyped(acceptPath, {}, { path: { allocationInstructionId: cid } }).catch((e: unknown) => e);
        expect(failure).toEqual({ error: expect.any(String) });
      }
    });
  });

  describe('Scan (ScanClient)', () => {
    const getUntyped = (path: string) => (clients.scan.get as unknown as (p: string) => Promise<unknown>).call(clients.scan, path);
    // The generated Scan types leave this response untyped; read it as our apps' type.
    const lookup = (party: string) => clients.scan.get('/v0/transfer-preapprovals/by-party/{party}', { path: { party } }) as Promise<LookupTransferPreapprovalByPartyResponse>;

    it('looks up the transfer preapproval of a receiver (the newest when there are several)', async () => {
      const { parties, preapprovals } = target.appWorld;
      const alicePre = await lookup(parties.alice);
      expect(alicePre.transfer_preapproval.contract).toMatchObject({ contract_id: preapprovals.alice, payload: { receiver: parties.alice } });
      expect(alicePre.transfer_preapproval.contract.template_id).toMatch(/:Splice\.AmuletRules:TransferPreapproval$/);
      expect((await lookup(parties.bob)).transfer_preapproval.contract.contract_id).toBe(preapprovals.bobNewer);
    });

    it('rejects with the Scan error body when the receiver has none', async () => {
      const failure = await lookup(target.appWorld.parties.dave).catch((e: unknown) => e);
      expect(failure).toEqual({ error: expect.any(String) });
    });

    it('finds a preapproval created through the ledger API (Scan follows the ledger)', async () => {
      const { dso } = target.appWorld.parties;
      const receiver = await allocate('receiver');
      await clients.ledger.post('/v2/commands/submit-and-wait', {
        commands: [
          {
            CreateCommand: {
              templateId: TRANSFER_PREAPPROVAL_TEMPLATE,
              createArguments: { dso, receiver, provider: receiver, validFrom: '2025-01-01T00:00:00Z', lastRenewedAt: '2025-01-01T00:00:00Z', expiresAt: '2099-01-01T00:00:00Z' },
            },
          },
        ],
        commandId: `preapproval-${randomUUID()}`,
        userId: ADMIN,
        actAs: [receiver, dso],
      });
      expect((await lookup(receiver)).transfer_preapproval.contract.payload).toMatchObject({ receiver, dso });
    });

    // Wallets read the synchronizer to submit on from the AmuletRules' config schedule; ScanClient's
    // version throws when the payload has no configSchedule, the proxy's answers undefined.
    it('finds the amulet synchronizer and DevNet in the AmuletRules, through Scan and through the scan proxy', async () => {
      const synchronizerId = target.ledger().config.synchronizers[0].id;
      expect(await clients.scan.getAmuletSynchronizerId()).toBe(synchronizerId);
      expect(await clients.scanProxy.getAmuletSynchronizerId()).toBe(synchronizerId);
      expect(await clients.scan.isDevNet()).toBe(true);
    });

    // What tap, traffic purchases and preapproval renewals submit against: the latest round open at
    // the client's own clock (read before it asks), from Scan and from the validator's scan proxy.
    it('finds the active open mining round, the same through Scan and through the scan proxy', async () => {
      const before = Date.now();
      const viaScan = await clients.scan.getActiveOpenMiningRound();
      const viaProxy = await clients.scanProxy.getActiveOpenMiningRound();
      expect(viaScan?.contract_id).toEqual(expect.any(String));
      expect(viaProxy?.contract_id).toBe(viaScan?.contract_id);
      const payload = viaScan?.payload as { opensAt: string; targetClosesAt: string; round: { number: string } };
      expect(Date.parse(payload.opensAt)).toBeLessThanOrEqual(before);
      expect(Date.parse(payload.targetClosesAt)).toBeGreaterThan(before);
      expect((await clients.scan.getOpenMiningRounds()).map((r) => r.contract_id)).toContain(viaScan?.contract_id);
    });

    it('reads the earliest round with complete reward accounting, at the current and the pre-0.6.5 path', async () => {
      expect(await getUntyped('/v0/internal/reward-accounting-process/rounds/earliest-available')).toEqual({ earliest_round: target.appWorld.rounds.earliestRound });
      expect(await clients.scan.get('/v0/reward-accounting-process/rounds/earliest-available')).toEqual({ earliest_round: target.appWorld.rounds.earliestRound });
    });
  });

  it('logs no unexpected failure', () => {
    expect(target.errors).toEqual([]);
  });
}

/** The shape of the openapi-fetch client LedgerClient keeps privately. */
interface RawClient {
  DELETE(path: '/v2/users/{user-id}', init: { params: { path: { 'user-id': string } } }): Promise<{ data?: unknown; response: Response }>;
}

interface ChoiceContextShape {
  choiceContextData: { values: Record<string, unknown> };
  disclosedContracts: { templateId: string; contractId: string; createdEventBlob: string; synchronizerId: string; debugPayload?: unknown }[];
}
