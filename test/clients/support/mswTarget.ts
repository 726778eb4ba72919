import { setupServer } from 'msw/node';
import type { AppWorld } from '../../../reference-server/src/apps/world/seedAppWorld.js';
import { silentLogger } from '../../../reference-server/src/http/api/consoleLogger.js';
import { createHandlers } from '../../../reference-server/src/msw/index.js';
import type { ClientTarget } from './ClientTarget.js';
import { installWebSocket } from './installWebSocket.js';

/**
 * The msw handlers, with a base URL per group as a client team would configure them. Anything
 * the handlers do not answer fails the request (`onUnhandledRequest: 'error'`) and is recorded.
 */
export async function startMswTarget(): Promise<ClientTarget> {
  installWebSocket();
  const errors: string[] = [];
  const mock = createHandlers({
    ledgerUrl: 'http://participant.test:7575',
    registryUrl: 'http://registry.test',
    scanUrl: 'http://scan.test/api/scan',
    appWorld: true,
    log: { ...silentLogger, error: (message, cause) => errors.push(`${message}: ${String(cause)}`) },
  });
  const server = setupServer(...mock.handlers);
  server.events.on('request:unhandled', ({ request }) => errors.push(`unhandled ${request.method} ${request.url}`));
  server.listen({ onUnhandledRequest: 'error' });
  return {
    name: 'the msw handlers',
    ledgerUrl: new URL(mock.urls.ledger),
    streamsUrl: mock.urls.streams,
    registryUrl: mock.urls.registry,
    scanUrl: new URL(mock.urls.scan),
    scanProxyUrl: new URL(mock.urls.ledger),
    ledger: () => mock.ledger,
    appWorld: mock.appWorld as AppWorld,
    errors,
    close: () => {
      server.close();
      return Promise.resolve();
    },
  };
}
