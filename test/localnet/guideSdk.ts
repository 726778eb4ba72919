import { SDK } from '@canton-network/wallet-sdk';
import type { LocalNet } from '../../reference-server/src/localnet/startLocalNet.js';
import { sdkLogAdapter } from '../clients/support/quietSdkLogs.js';
import { loopbackUrls } from './support.js';
import '../clients/support/node20Builtins.js';

/** The wallet guide's token provider: self-signed HS256 with LocalNet's secret and audience. */
export const SELF_SIGNED = {
  method: 'self_signed',
  issuer: 'unsafe-auth',
  credentials: { clientId: 'ledger-api-user', clientSecret: 'unsafe', audience: 'https://canton.network.global', scope: '' },
} as const;

/**
 * wallet-sdk 1.4.0 configured as the guide's scripts configure it (their utils: the self-signed
 * provider, the validator URL, the registry under the scan proxy, Scan), pointed at our LocalNet's
 * ports on 127.0.0.1 instead of `localNetStaticConfig`'s fixed ports.
 */
export async function guideSdk(net: Pick<LocalNet, 'ports'>) {
  const u = loopbackUrls(net);
  const auth = SELF_SIGNED as never;
  const registry = new URL(u.registry);
  return SDK.create({
    auth,
    ledgerClientUrl: new URL(u.ledger),
    logAdapter: sdkLogAdapter,
    token: { validatorUrl: new URL(u.validator), registries: [registry], auth },
    amulet: { validatorUrl: new URL(u.validator), scanApiUrl: new URL(u.scan), auth, registryUrl: registry },
    asset: { registries: [registry], auth },
  });
}

/** The same, with the events namespace script 12 adds (the ledger's WebSocket). */
export async function guideEventsSdk(net: Pick<LocalNet, 'ports'>) {
  const u = loopbackUrls(net);
  const auth = SELF_SIGNED as never;
  return SDK.create({ auth, ledgerClientUrl: new URL(u.ledger), logAdapter: sdkLogAdapter, events: { websocketURL: u.ledger.replace(/^http/, 'ws'), auth } });
}

export type GuideSdk = Awaited<ReturnType<typeof guideSdk>>;

/** An external party onboarded the way the guide's scripts do it (create, sign, execute). */
export async function externalParty(sdk: GuideSdk, hint: string) {
  const keys = sdk.keys.generate();
  const party = await sdk.party.external.create(keys.publicKey, { partyHint: hint }).sign(keys.privateKey).execute();
  return { ...party, keys };
}

export type ExternalParty = Awaited<ReturnType<typeof externalParty>>;

/** Prepare, sign with the party's key, execute and wait: the guide's online signing. */
export function signAndRun(sdk: GuideSdk, party: ExternalParty, commands: unknown, disclosedContracts: unknown = []) {
  return sdk.ledger.prepare({ partyId: party.partyId, commands: commands as never, disclosedContracts: disclosedContracts as never }).sign(party.keys.privateKey).execute({ partyId: party.partyId });
}

/** The party's Amulet holdings (amounts), unlocked only, as `token.utxos.list` answers. */
export async function amuletAmounts(sdk: GuideSdk, partyId: string): Promise<string[]> {
  const utxos = await sdk.token.utxos.list({ partyId });
  return utxos.filter((u) => u.interfaceViewValue.instrumentId.id === 'Amulet').map((u) => u.interfaceViewValue.amount);
}
