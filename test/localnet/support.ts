import { SignJWT, type JWTPayload } from 'jose';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { startLocalNet, type LocalNet } from '../../reference-server/src/localnet/startLocalNet.js';
import { SERVE_ENGINE_THREAD } from '../support/builtEngineWorker.js';

/**
 * `CANTON_CONFORMANCE_SPLICE_DARS=DIR` runs the flows against `--localnet --splice-dars DIR`
 * instead of the ports (README "Splice's own DARs": how many pass on each). DIR holds LocalNet's
 * DARs and, for script 04's trading app, `splice-token-test-trading-app-*.dar` (LocalNet ships it).
 */
const SPLICE_DARS = process.env['CANTON_CONFORMANCE_SPLICE_DARS'];

/**
 * `serve --localnet` in process, every listener on a free loopback port, with the engine thread
 * as `serve` has it by default (where `npm run build` made its module; else runs stay on the
 * ledger's thread, with the same answers).
 */
export function startTestLocalNet(): Promise<LocalNet> {
  return startLocalNet({
    host: '127.0.0.1',
    fixtures: undefined,
    ports: { ledger: 0, validator: 0, scan: 0, tokenStandard: 0, appProviderLedger: 0 },
    log: silentLogger,
    ...SERVE_ENGINE_THREAD,
    ...(SPLICE_DARS === undefined || SPLICE_DARS === '' ? {} : { spliceDars: SPLICE_DARS }),
  });
}

/** The URLs on 127.0.0.1: this machine's resolver does not know `scan.localhost`. */
export function loopbackUrls(net: Pick<LocalNet, 'ports'>) {
  const p = net.ports;
  return {
    ledger: `http://127.0.0.1:${p.ledger}`,
    validator: `http://127.0.0.1:${p.validator}/api/validator`,
    registry: `http://127.0.0.1:${p.validator}/api/validator/v0/scan-proxy`,
    scan: `http://127.0.0.1:${p.scan}/api/scan`,
    tokenStandard: `http://127.0.0.1:${p.tokenStandard}`,
    appProviderLedger: `http://127.0.0.1:${p.appProviderLedger}`,
  };
}

/** A token as the wallet SDK's self-signed provider makes it for LocalNet (sub, aud, empty scope, iss). */
export async function localNetToken(sub = 'ledger-api-user', secret = 'unsafe', claims: JWTPayload = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub, aud: 'https://canton.network.global', scope: '', iat: now, exp: now + 3600, iss: 'unsafe-auth', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(secret));
}
