/**
 * What the wallet SDK's `localNetStaticConfig` and self-signed token provider expect of Splice
 * LocalNet: the app-user participant's JSON API, its validator (with the scan proxy and, under it,
 * the registry), Scan, and the token-standard registry, each on its own port; HS256 tokens signed
 * with the secret `unsafe` for the audience `https://canton.network.global`; the user
 * `ledger-api-user`.
 */
export interface LocalNetPorts {
  /** The app-user participant's JSON Ledger API (LocalNet: 2975). */
  readonly ledger: number;
  /** The app-user validator, under `/api/validator` (LocalNet: 2000). */
  readonly validator: number;
  /** Scan, under `/api/scan`, reached as `scan.localhost` (LocalNet: 4000). */
  readonly scan: number;
  /** The token-standard registry (LocalNet: 5003). */
  readonly tokenStandard: number;
  /** The app-provider participant's JSON Ledger API (LocalNet: 3975): a second participant that can co-host parties. */
  readonly appProviderLedger: number;
}

export const LOCALNET_PORTS: LocalNetPorts = { ledger: 2975, validator: 2000, scan: 4000, tokenStandard: 5003, appProviderLedger: 3975 };

/** The app-provider participant's id: its own name and namespace, beside the app user's participant. */
export const APP_PROVIDER_PARTICIPANT_ID = `app-provider::1220${'a99'.repeat(21)}a`;

export const VALIDATOR_PREFIX = '/api/validator';
export const SCAN_PREFIX = '/api/scan';
/** The registry as the SDK finds it on LocalNet: behind the validator's scan proxy. */
export const SCAN_PROXY_PREFIX = `${VALIDATOR_PREFIX}/v0/scan-proxy`;

export const LOCALNET_SECRET = 'unsafe';
export const LOCALNET_AUDIENCE = 'https://canton.network.global';
/** The participant's admin user, which is also the validator's ledger API user on LocalNet. */
export const LOCALNET_USER = 'ledger-api-user';
/** The app-user validator's operator party (LocalNet names it after its validator). */
export const LOCALNET_VALIDATOR_PARTY_HINT = 'app_user_localnet-localparty-1';

/** Ports counted from a base (ledger, validator, scan, token standard, app-provider ledger), for tests and side-by-side runs. */
export function portsFrom(base: number): LocalNetPorts {
  return { ledger: base, validator: base + 1, scan: base + 2, tokenStandard: base + 3, appProviderLedger: base + 4 };
}

/** The base URLs the SDK's `localNetStaticConfig` names, for a host and ports. */
export function localNetUrls(ports: LocalNetPorts, host = 'localhost', scanHost = 'scan.localhost') {
  return {
    ledger: `http://${host}:${ports.ledger}`,
    validator: `http://${host}:${ports.validator}${VALIDATOR_PREFIX}`,
    registry: `http://${host}:${ports.validator}${SCAN_PROXY_PREFIX}`,
    scan: `http://${scanHost}:${ports.scan}${SCAN_PREFIX}`,
    tokenStandard: `http://${host}:${ports.tokenStandard}`,
    appProviderLedger: `http://${host}:${ports.appProviderLedger}`,
  } as const;
}
