import { localNetStaticConfig, SDK } from '@canton-network/wallet-sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { createHandlers } from '../../reference-server/src/msw/index.js';
import { SELF_SIGNED } from './guideSdk.js';
import { quietSdkLogs, sdkLogAdapter } from '../clients/support/quietSdkLogs.js';

quietSdkLogs();

/**
 * `createHandlers({ localnet: true })`: the same tables as `serve --localnet`, at the URLs of the
 * SDK's own `localNetStaticConfig` (scan.localhost included, no DNS needed), so code written for
 * LocalNet runs in a unit test unchanged.
 */
describe('msw handlers at LocalNet\'s URLs', () => {
  const mock = createHandlers({ localnet: true, log: silentLogger });
  const server = setupServer(...mock.handlers);
  const unhandled: string[] = [];
  server.events.on('request:unhandled', ({ request }) => void unhandled.push(`${request.method} ${request.url}`));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    mock.reset();
    expect(unhandled.splice(0)).toEqual([]);
  });
  afterAll(() => server.close());

  it('answers at the URLs localNetStaticConfig names', () => {
    expect(mock.urls.ledger).toBe(localNetStaticConfig.LOCALNET_APP_USER_LEDGER_URL.href.replace(/\/$/, ''));
    expect(mock.urls.validator).toBe(localNetStaticConfig.LOCALNET_APP_VALIDATOR_URL.href);
    expect(mock.urls.registry).toBe(localNetStaticConfig.LOCALNET_REGISTRY_API_URL.href);
    expect(mock.urls.scan).toBe(localNetStaticConfig.LOCALNET_SCAN_API_URL.href);
    expect(mock.urls.tokenStandard).toBe(localNetStaticConfig.LOCALNET_TOKEN_STANDARD_URL.href.replace(/\/$/, ''));
  });

  it('runs the guide\'s configuration unchanged: validator party, an external party, a tap, a two-step transfer accepted', async () => {
    const c = localNetStaticConfig;
    const auth = SELF_SIGNED as never;
    const sdk = await SDK.create({
      auth,
      ledgerClientUrl: c.LOCALNET_APP_USER_LEDGER_URL,
      logAdapter: sdkLogAdapter,
      token: { validatorUrl: c.LOCALNET_APP_VALIDATOR_URL, registries: [c.LOCALNET_REGISTRY_API_URL], auth },
      amulet: { validatorUrl: c.LOCALNET_APP_VALIDATOR_URL, scanApiUrl: c.LOCALNET_SCAN_API_URL, auth, registryUrl: c.LOCALNET_REGISTRY_API_URL },
    });
    const party = async (hint: string) => {
      const keys = sdk.keys.generate();
      return { ...(await sdk.party.external.create(keys.publicKey, { partyHint: hint }).sign(keys.privateKey).execute()), keys };
    };
    const [alice, bob] = await Promise.all([party('msw-alice'), party('msw-bob')]);
    const run = (p: typeof alice, commands: unknown, disclosed: unknown) =>
      sdk.ledger.prepare({ partyId: p.partyId, commands: commands as never, disclosedContracts: disclosed as never }).sign(p.keys.privateKey).execute({ partyId: p.partyId });
    const [tap, tapDisclosed] = await sdk.amulet.tap(alice.partyId, '100');
    await run(alice, tap, tapDisclosed);
    const [transfer, transferDisclosed] = await sdk.token.transfer.create({ sender: alice.partyId, recipient: bob.partyId, amount: '40', instrumentId: 'Amulet', registryUrl: c.LOCALNET_REGISTRY_API_URL });
    await run(alice, transfer, transferDisclosed);
    const [pending] = await sdk.token.transfer.pending(bob.partyId);
    const [accept, acceptDisclosed] = await sdk.token.transfer.accept({ transferInstructionCid: pending!.contractId, registryUrl: c.LOCALNET_REGISTRY_API_URL });
    await run(bob, accept, acceptDisclosed);
    const bobs = await sdk.token.utxos.list({ partyId: bob.partyId });
    expect(bobs.map((u) => u.interfaceViewValue.amount)).toEqual(['40.0000000000']);
  }, 60_000);

  it('hosts a party on the app provider participant (http://localhost:3975) too, as scripts 03 and 12 do', async () => {
    const auth = SELF_SIGNED as never;
    const sdk = await SDK.create({ auth, ledgerClientUrl: localNetStaticConfig.LOCALNET_APP_USER_LEDGER_URL, logAdapter: sdkLogAdapter });
    expect(mock.urls.appProviderLedger).toBe('http://localhost:3975');
    const keys = sdk.keys.generate();
    const charlie = await sdk.party.external
      .create(keys.publicKey, { partyHint: 'msw-charlie', confirmingParticipantEndpoints: [{ url: new URL(mock.urls.appProviderLedger!), tokenProviderConfig: auth }] })
      .sign(keys.privateKey)
      .execute();
    const pinged = await sdk.ledger
      .prepare({ partyId: charlie.partyId, commands: sdk.utils.ping.create([{ initiator: charlie.partyId, responder: charlie.partyId }]) as never })
      .sign(keys.privateKey)
      .execute({ partyId: charlie.partyId });
    expect(pinged.updateId).toEqual(expect.any(String));
  }, 60_000);
});
