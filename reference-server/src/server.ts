import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadSpec, SPEC_GROUPS } from '../../conformance/src/schema/index.js';
import { createApps } from './apps/index.js';
import { noneAuthenticator } from './http/api/auth/noneAuthenticator.js';
import type { Authenticator } from './http/api/auth/types.js';
import { ledgerApiChannels } from './http/api/channels/channelTable.js';
import type { StreamChannel } from './http/api/channels/StreamChannel.js';
import { OpenStreams } from './http/api/channels/OpenStreams.js';
import { defaultHttpConfig, type HttpConfig } from './http/api/config.js';
import { consoleLogger } from './http/api/consoleLogger.js';
import { readDocuments } from './http/api/readDocuments.js';
import type { Route } from './http/api/route.js';
import { ledgerApiRoutes } from './http/api/routes/routeTable.js';
import type { ApiLogger, ApiServices } from './http/api/services.js';
import { specBodyValidator } from './http/api/specBodyValidator.js';
import type { RequestBodyValidator } from './http/api/validation.js';
import { routeMatcherOf } from './http/api/createDispatcher.js';
import { answerConnect } from './http/koa/answerConnect.js';
import { attachWebSockets } from './http/koa/attachWebSockets.js';
import { createKoaApp } from './http/koa/createKoaApp.js';
import { attachRequestLog } from './http/requestLog.js';
import { API_VERSION, channelsOf, DEFAULT_CANTON_VERSION, routesOf, type CantonVersion } from './http/api/cantonVersion.js';
import { lineOfApiVersion } from '../../conformance/src/schema/cantonVersions.js';
import { lineSpecFile } from '../../conformance/src/schema/lineSpecText.js';
import { createLedger, type Ledger, type LedgerOptions } from './ledger/index.js';

export interface ReferenceServerOptions {
  /** Default 7575; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Serve this ledger (tests and benchmarks set it up beforehand); otherwise one is created. */
  readonly ledger?: Ledger;
  readonly ledgerOptions?: LedgerOptions;
  /**
   * The Canton line served (default 3.5, as of 3.5.10): operations that line's document lacks are
   * not served (404), and a ledger created here answers that line's version on /v2/version.
   */
  readonly cantonVersion?: CantonVersion;
  readonly http?: Partial<HttpConfig>;
  /** Default `none` (an unsecured sandbox). */
  readonly authenticator?: Authenticator;
  readonly log?: ApiLogger;
  /** One line per request and WebSocket upgrade (`serve --log-requests`); default none. */
  readonly requestLog?: (line: string) => void;
  /** Routes and streams of other groups (registry, scan) served beside the Ledger API. */
  readonly extraRoutes?: readonly Route[];
  /** Serve exactly these routes and streams instead of the whole table (one listener of `serve --localnet`). */
  readonly routes?: readonly Route[];
  readonly channels?: readonly StreamChannel[];
  readonly extraChannels?: readonly StreamChannel[];
  /**
   * The participant this server answers as (default the ledger's own): LocalNet's app-provider
   * participant is a second face of the same ledger under its own id.
   */
  readonly participantId?: string;
  /** Override request validation (default: our spec, specs/ledger.openapi.yaml). */
  readonly validateBody?: RequestBodyValidator;
}

export interface ReferenceServer {
  /** `http://host:port`, no trailing slash. */
  readonly url: string;
  readonly ledger: Ledger;
  readonly server: Server;
  /** Stops accepting, ends open streams and connections; resolves once the port is free. */
  close(): Promise<void>;
}

/** Builds what every adapter shares: the ledger, configuration, auth, validation, documents. */
export function createApiServices(options: ReferenceServerOptions = {}): ApiServices {
  const ledger = options.ledger ?? createLedger({ apiVersion: API_VERSION[options.cantonVersion ?? DEFAULT_CANTON_VERSION], ...options.ledgerOptions });
  // A ledger handed in answers its own line unless told otherwise (the mocks pass theirs).
  const line = options.cantonVersion ?? lineOfApiVersion(ledger.config.apiVersion) ?? DEFAULT_CANTON_VERSION;
  // The registry (A) and Scan (C) answer from apps attached to this ledger (a no-op if attached).
  createApps(ledger);
  const config = { ...defaultHttpConfig, ...options.http };
  return {
    ledger,
    config,
    participantId: options.participantId ?? ledger.config.participantId,
    authenticator: options.authenticator ?? noneAuthenticator,
    validateBody: options.validateBody ?? ourSpecsBodyValidator(line),
    documents: readDocuments(line),
    log: options.log ?? consoleLogger,
    streams: new OpenStreams(config.maxStreamsPerUser),
  };
}

/**
 * The documents request validation uses (cached per process), each request-body schema compiled
 * when a request first needs it: a server sees a small part of the documents' operations, and
 * compiling them all took about a third of the main thread's start-up without Splice's DARs.
 */
function loadOurSpecs(line: CantonVersion): ReturnType<typeof loadSpec>[] {
  return SPEC_GROUPS.map((group) => loadSpec(group === 'ledger' ? lineSpecFile(line) : group, { compileOnFirstUse: true }));
}

/**
 * Request validation against whichever of our specs declares the operation (registry, scan, and the
 * served line's ledger document: a 3.5 participant cannot decode 3.6's CanActAsAnyParty right).
 */
function ourSpecsBodyValidator(line: CantonVersion): RequestBodyValidator {
  const specs = loadOurSpecs(line);
  const validators = specs.map((spec) => specBodyValidator(spec));
  const fallback = validators[SPEC_GROUPS.indexOf('ledger')] as RequestBodyValidator;
  return (operationId, body) => (validators[specs.findIndex((spec) => spec.operations.has(operationId))] ?? fallback)(operationId, body);
}

/**
 * Starts the reference server: the Koa app and the WebSocket streams on one HTTP server. Resolves
 * once it listens.
 */
export async function createReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const services = createApiServices(options);
  const version = options.cantonVersion ?? DEFAULT_CANTON_VERSION;
  const routes = routesOf([...(options.routes ?? ledgerApiRoutes), ...(options.extraRoutes ?? [])], version);
  const app = createKoaApp(routes, services);
  const { headersTimeoutMs, requestTimeoutMs } = services.config;
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // How often Node looks for requests past those timeouts (its default, 30 s, would let a slow client stay far longer).
      connectionsCheckingInterval: Math.max(10, Math.min(1000, headersTimeoutMs, requestTimeoutMs)),
    },
    app.callback(),
  );
  // Idle keep-alive connections live 60 s, as the participant's HTTP server (pekko-http's
  // idle-timeout) keeps them. Node's 5 s default races clients that reuse a socket just as it closes
  // (a request sent on a socket the server is closing gets ECONNRESET).
  server.keepAliveTimeout = 60_000;
  server.on('connect', answerConnect(routeMatcherOf(routes), services));
  const upgraded = options.requestLog === undefined ? undefined : attachRequestLog(server, services.authenticator, options.requestLog);
  const sockets = attachWebSockets(server, channelsOf([...(options.channels ?? ledgerApiChannels), ...(options.extraChannels ?? [])], version), services, upgraded);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 7575, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    ledger: services.ledger,
    server,
    close: () =>
      (closing ??= (async () => {
        await sockets.close();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Keep-alive connections would hold the port open until they time out.
        server.closeAllConnections();
        await closed;
      })()),
  };
}
