/**
 * The wallet's view of an uploaded token: @canton-network/wallet-sdk, configured for LocalNet as
 * the wallet guide configures it, lists the holdings of the real test token v1 (DAR given to
 * createHandlers({ localnet: true, dars })) through the token standard's Holding interface, with
 * no change to the SDK.
 */
import { localNetStaticConfig, SDK } from '@canton-network/wallet-sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { LOCALNET_USER } from '../../reference-server/src/localnet/localNetConfig.js';
import { createHandlers } from '../../reference-server/src/msw/index.js';
import { quietSdkLogs, sdkLogAdapter } from '../clients/support/quietSdkLogs.js';
import { HAS_DARS } from '../daml/damlFixtures.js';
import { JsonApiClient } from '../engineApps/JsonApiClient.js';
import { darBytes, TOKEN_V1_DAR } from '../engineApps/realDars.js';
import { decide, decimal, mint, offerTransfer, tokenWorld } from '../engineApps/tokenV1Flow.js';
import { SELF_SIGNED } from '../localnet/guideSdk.js';
import { localNetToken } from '../localnet/support.js';

quietSdkLogs();

describe.runIf(HAS_DARS)('wallet-sdk lists the holdings of an uploaded token (needs ../shared/upstream/daml/dars)', () => {
  const mock = HAS_DARS ? createHandlers({ localnet: true, dars: [darBytes(TOKEN_V1_DAR)], log: silentLogger }) : undefined;
  const server = setupServer(...(mock?.handlers ?? []));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('utxos.list answers the test token holdings the ledger shows, the pending offer as the sender`s locked holding', async () => {
    const api = await new JsonApiClient(mock!.urls.ledger, LOCALNET_USER, await localNetToken()).connect();
    const w = await tokenWorld(api);
    const minted = await mint(api, w, w.alice, '25.0');
    const offer = await offerTransfer(api, w, w.alice, w.bob, '5.0', [minted.contractId]);

    const auth = SELF_SIGNED as never;
    const c = localNetStaticConfig;
    const sdk = await SDK.create({
      auth, ledgerClientUrl: c.LOCALNET_APP_USER_LEDGER_URL, logAdapter: sdkLogAdapter,
      token: { validatorUrl: c.LOCALNET_APP_VALIDATOR_URL, registries: [c.LOCALNET_REGISTRY_API_URL], auth },
    });
    const list = async (partyId: string, includeLocked = true) => (await sdk.token.utxos.list({ partyId, includeLocked }))
      .map((u) => ({ contractId: u.contractId, amount: u.interfaceViewValue.amount, locked: u.interfaceViewValue.lock !== null && u.interfaceViewValue.lock !== undefined }))
      .sort((a, b) => Number(a.amount) - Number(b.amount));
    expect(await list(w.alice)).toEqual([
      { contractId: offer.offer.contractId, amount: decimal('5'), locked: true },
      { contractId: offer.change!.contractId, amount: decimal('20'), locked: false },
    ]);
    // Without includeLocked the SDK leaves out holdings whose lock has not expired (its own filter on the view).
    expect(await list(w.alice, false)).toEqual([{ contractId: offer.change!.contractId, amount: decimal('20'), locked: false }]);
    const accepted = await decide(api, w, w.bob, offer.offer.contractId, 'TransferInstruction_Accept');
    expect(await list(w.bob)).toEqual([{ contractId: accepted.token.contractId, amount: decimal('5'), locked: false }]);
    expect(await list(w.alice)).toEqual([{ contractId: offer.change!.contractId, amount: decimal('20'), locked: false }]);
  }, 60_000);
});
