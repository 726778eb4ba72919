import { API_VERSION, type CantonVersion } from '../../../conformance/src/schema/cantonVersions.js';
import { seedAppWorld } from '../../../reference-server/src/apps/world/seedAppWorld.js';
import { silentLogger } from '../../../reference-server/src/http/api/consoleLogger.js';
import { createLedger } from '../../../reference-server/src/ledger/index.js';
import { createReferenceServer } from '../../../reference-server/src/server.js';
import type { ClientTarget } from './ClientTarget.js';
import { installWebSocket } from './installWebSocket.js';

/** The Koa reference server on a free loopback port: every group on one port, Scan under /api/scan. */
export async function startKoaTarget(line?: CantonVersion): Promise<ClientTarget> {
  installWebSocket();
  const errors: string[] = [];
  const ledger = createLedger(line === undefined ? {} : { apiVersion: API_VERSION[line] });
  const appWorld = seedAppWorld(ledger);
  if (!appWorld.ok) throw new Error(`seeding the apps world: ${appWorld.error.cause}`);
  const server = await createReferenceServer({
    ledger,
    port: 0,
    host: '127.0.0.1',
    ...(line === undefined ? {} : { cantonVersion: line }),
    log: { ...silentLogger, error: (message, cause) => errors.push(`${message}: ${String(cause)}`) },
  });
  return {
    name: line === undefined ? 'the Koa reference server' : `the Koa reference server serving Canton ${line}`,
    ledgerUrl: new URL(server.url),
    streamsUrl: server.url.replace(/^http/, 'ws'),
    registryUrl: server.url,
    scanUrl: new URL(`${server.url}/api/scan`),
    scanProxyUrl: new URL(server.url),
    ledger: () => server.ledger,
    appWorld: appWorld.value,
    errors,
    close: () => server.close(),
  };
}
