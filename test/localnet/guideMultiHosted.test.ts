import { signTransactionHash } from '@canton-network/wallet-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_PROVIDER_PARTICIPANT_ID } from '../../reference-server/src/localnet/localNetConfig.js';
import type { LocalNet } from '../../reference-server/src/localnet/startLocalNet.js';
import { installWebSocket } from '../clients/support/installWebSocket.js';
import { quietSdkLogs } from '../clients/support/quietSdkLogs.js';
import { guideEventsSdk, SELF_SIGNED, signAndRun, type ExternalParty } from './guideSdk.js';
import { localNetToken, loopbackUrls, startTestLocalNet } from './support.js';

quietSdkLogs();

const PING = '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping';

/**
 * Scripts 03-parties and 12-subscribe-to-events host a party on LocalNet's second participant too
 * (the app provider's, :3975), confirming or observing: the SDK asks that participant for its id,
 * generates the topology on the app user's participant naming it, and allocates on both with the
 * same signed transactions. Here the second participant is a second face of the one ledger.
 */
describe('wallet guide flows on serve --localnet: parties hosted on the app provider participant too', () => {
  let net: LocalNet;
  let sdk: Awaited<ReturnType<typeof guideEventsSdk>>;
  beforeAll(async () => {
    installWebSocket();
    net = await startTestLocalNet();
    sdk = await guideEventsSdk(net);
  });
  afterAll(() => net.close());

  const endpoints = () => [{ url: new URL(loopbackUrls(net).appProviderLedger), tokenProviderConfig: SELF_SIGNED as never }];

  async function multiHosted(hint: string, how: 'confirmingParticipantEndpoints' | 'observingParticipantEndpoints'): Promise<ExternalParty> {
    const keys = sdk.keys.generate();
    const party = await sdk.party.external.create(keys.publicKey, { partyHint: hint, [how]: endpoints() }).sign(keys.privateKey).execute();
    return { ...party, keys } as ExternalParty;
  }

  it('the app provider participant answers its own participant id on its own port', async () => {
    const get = async (base: string) => (await fetch(`${base}/v2/parties/participant-id`, { headers: { authorization: `Bearer ${await localNetToken()}` } })).json();
    const urls = loopbackUrls(net);
    expect(await get(urls.appProviderLedger)).toEqual({ participantId: APP_PROVIDER_PARTICIPANT_ID });
    expect(await get(urls.ledger)).not.toEqual({ participantId: APP_PROVIDER_PARTICIPANT_ID });
  });

  it('03/12: a party confirmed by both participants and one observed by the app provider are onboarded, listed and ping themselves; completions and Ping updates stream', async () => {
    const charlie = await multiHosted('guide-03-charlie', 'confirmingParticipantEndpoints');
    expect((await sdk.party.list()) as string[]).toContain(charlie.partyId);

    const completions = (async () => {
      for await (const c of sdk.events.completions({ beginOffset: 0, parties: [charlie.partyId] } as never)) return c;
      return undefined;
    })();
    const pinged = await signAndRun(sdk as never, charlie, sdk.utils.ping.create([{ initiator: charlie.partyId, responder: charlie.partyId }]));
    expect(pinged.updateId).toEqual(expect.any(String));
    const completion = (await completions) as { completionResponse?: { Completion?: { value?: { updateId?: string } } } } | undefined;
    expect(completion?.completionResponse?.Completion?.value?.updateId).toBe(pinged.updateId);

    const observed = await multiHosted('guide-03-observingCharlie', 'observingParticipantEndpoints');
    const updates = (async () => {
      for await (const u of sdk.events.updates({ partyId: observed.partyId, templateIds: [PING] } as never)) if ('Transaction' in ((u as { update?: object }).update ?? {})) return u;
      return undefined;
    })();
    const observedPing = await signAndRun(sdk as never, observed, sdk.utils.ping.create([{ initiator: observed.partyId, responder: observed.partyId }]));
    const update = (await updates) as { update?: { Transaction?: { value?: { updateId?: string } } } } | undefined;
    expect(update?.update?.Transaction?.value?.updateId).toBe(observedPing.updateId);
  }, 60_000);

  it('the second participant refuses onboarding transactions that do not name it', async () => {
    const keys = sdk.keys.generate();
    // Topology generated for the app user's participant alone, then sent to the app provider's.
    const single = await sdk.party.external.create(keys.publicKey, { partyHint: 'guide-03-single' }).topology();
    const token = await localNetToken();
    const signature = signTransactionHash(single.multiHash, keys.privateKey);
    const synchronizer = await defaultSynchronizer(token);
    const res = await fetch(`${loopbackUrls(net).appProviderLedger}/v2/parties/external/allocate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        synchronizer,
        onboardingTransactions: single.topologyTransactions!.map((transaction) => ({ transaction })),
        multiHashSignatures: [{ format: 'SIGNATURE_FORMAT_CONCAT', signature, signedBy: single.publicKeyFingerprint, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' }],
      }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { cause: string }).cause).toContain(`not hosted on this participant (${APP_PROVIDER_PARTICIPANT_ID})`);
  });

  it('allocating on the second participant with a userId grants that user the party, as on the first', async () => {
    const keys = sdk.keys.generate();
    const topology = await sdk.party.external
      .create(keys.publicKey, { partyHint: 'guide-03-granted', confirmingParticipantEndpoints: endpoints() })
      .topology();
    const token = await localNetToken();
    const synchronizer = await defaultSynchronizer(token);
    const signature = signTransactionHash(topology.multiHash, keys.privateKey);
    const post = (base: string, path: string, body: object) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const urls = loopbackUrls(net);
    expect((await post(urls.ledger, '/v2/users', { user: { id: 'provider-wallet', isDeactivated: false, identityProviderId: '' }, rights: [] })).status).toBe(200);
    const allocate = (base: string, userId?: string) =>
      post(base, '/v2/parties/external/allocate', {
        synchronizer,
        onboardingTransactions: topology.topologyTransactions!.map((transaction) => ({ transaction })),
        multiHashSignatures: [{ format: 'SIGNATURE_FORMAT_CONCAT', signature, signedBy: topology.publicKeyFingerprint, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' }],
        ...(userId === undefined ? {} : { userId }),
      });
    expect(await (await allocate(urls.ledger)).json()).toEqual({ partyId: topology.partyId });
    expect(await (await allocate(urls.appProviderLedger, 'provider-wallet')).json()).toEqual({ partyId: topology.partyId });
    const rights = (await (await fetch(`${urls.ledger}/v2/users/provider-wallet/rights`, { headers: { authorization: `Bearer ${token}` } })).json()) as { rights: unknown[] };
    expect(rights.rights).toContainEqual({ kind: { CanActAs: { value: { party: topology.partyId } } } });
    // The first participant, asked again, answers as Canton does for a party it already has.
    expect((await allocate(urls.ledger)).status).not.toBe(200);
  });

  async function defaultSynchronizer(token: string): Promise<string> {
    const res = await fetch(`${loopbackUrls(net).ledger}/v2/state/connected-synchronizers`, { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()) as { connectedSynchronizers: { synchronizerId: string }[] }).connectedSynchronizers[0]!.synchronizerId;
  }
});
