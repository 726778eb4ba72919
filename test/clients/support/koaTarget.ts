import { silentLogger } from '../../../reference-server/src/http/api/consoleLogger.js';
import { createReferenceServer } from '../../../reference-server/src/server.js';
import type { ClientTarget } from './ClientTarget.js';
import { installWebSocket } from './installWebSocket.js';

/** The Koa reference server on a free loopback port: every group on one base URL. */
export async function startKoaTarget(): Promise<ClientTarget> {
  installWebSocket();
  const errors: string[] = [];
  const server = await createReferenceServer({
    port: 0,
    host: '127.0.0.1',
    log: { ...silentLogger, error: (message, cause) => errors.push(`${message}: ${String(cause)}`) },
  });
  return {
    name: 'the Koa reference server',
    ledgerUrl: new URL(server.url),
    streamsUrl: server.url.replace(/^http/, 'ws'),
    registryUrl: server.url,
    scanUrl: new URL(server.url),
    ledger: () => server.ledger,
    errors,
    close: () => server.close(),
  };
}
