import { LedgerClient } from '@canton-network/core-ledger-client';
import { WebSocketClient } from '@canton-network/core-asyncapi-client';
import { ScanClient, ScanProxyClient } from '@canton-network/core-splice-client';
import { TokenStandardClient } from '@canton-network/core-token-standard';
import { AuthTokenProvider } from '@canton-network/core-wallet-auth';
import { sandboxToken } from '../../../reference-server/src/msw/index.js';
import type { ClientTarget } from './ClientTarget.js';

type PinoLike = ConstructorParameters<typeof LedgerClient>[0]['logger'];

/** The WebSocketClient makes its own pino logger at level info (JSON lines on stdout): silence it. */
export function quietStreams(client: WebSocketClient): WebSocketClient {
  // Private in its typings; a pino logger at run time.
  (client as unknown as { logger: { level: string } }).logger.level = 'silent';
  return client;
}

/** A quiet stand-in for pino: the clients call its level methods and `child`. */
function quietLogger(): PinoLike {
  const noop = () => undefined;
  const logger = { trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, level: 'silent', child: () => logger };
  return logger as unknown as PinoLike;
}

export interface RealClients {
  readonly ledger: LedgerClient;
  readonly streams: WebSocketClient;
  readonly scan: ScanClient;
  readonly scanProxy: ScanProxyClient;
  readonly registry: TokenStandardClient;
}

/**
 * The published clients, unchanged, as a wallet builds them: a static token provider (the token
 * must decode and be unexpired even though the server checks nothing) and a pino-like logger.
 */
export function realClients(target: ClientTarget, userId = 'participant_admin'): RealClients {
  const logger = quietLogger();
  const accessTokenProvider = AuthTokenProvider.fromToken(sandboxToken(userId), logger);
  return {
    ledger: new LedgerClient({ baseUrl: target.ledgerUrl, logger, accessTokenProvider, version: '3.4' }),
    streams: quietStreams(new WebSocketClient({ baseUrl: target.streamsUrl, accessTokenProvider, version: '3.4' })),
    scan: new ScanClient(target.scanUrl, logger, accessTokenProvider),
    scanProxy: new ScanProxyClient(target.scanProxyUrl, logger, accessTokenProvider),
    registry: new TokenStandardClient(target.registryUrl, logger, accessTokenProvider),
  };
}
