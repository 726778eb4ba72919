import { createAuthenticator } from '../http/api/auth/authConfig.js';
import type { ApiLogger } from '../http/api/services.js';
import type { Ledger } from '../ledger/index.js';
import { createApiServices, createReferenceServer, type ReferenceServer } from '../server.js';
import { openLedger, type StartOptions } from '../startReferenceServer.js';
import { APP_PROVIDER_PARTICIPANT_ID, LOCALNET_AUDIENCE, LOCALNET_PORTS, LOCALNET_SECRET, localNetUrls, type LocalNetPorts } from './localNetConfig.js';
import { localNetRoutes } from './localNetRoutes.js';
import { declareLocalNetTemplates, seedLocalNet } from './seedLocalNet.js';
import { attachValidatorAutomation } from './ValidatorAutomation.js';
import { consoleLogger } from '../http/api/consoleLogger.js';

export interface LocalNetOptions extends Omit<StartOptions, 'port' | 'auth' | 'declareTemplates'> {
  /** Default: LocalNet's own (2975, 2000, 4000, 5003, 3975); 0 picks a free port for that listener. */
  readonly ports?: Partial<LocalNetPorts>;
  readonly log?: ApiLogger;
}

export interface LocalNet {
  readonly ledger: Ledger;
  /** The ports actually bound (useful when some were 0). */
  readonly ports: LocalNetPorts;
  /** The URLs the wallet SDK's `localNetStaticConfig` names, for these ports (on `localhost` and `scan.localhost`). */
  readonly urls: ReturnType<typeof localNetUrls>;
  /** The validator operator's party (`GET /api/validator/v0/validator-user`). */
  readonly validatorParty: string;
  /** The DARs this start loaded (`--dar`, then the fixture file's), as named. */
  readonly dars: readonly string[];
  close(): Promise<void>;
}

/** A listener that could not be opened: which one, and the system's reason (`code` kept for the CLI). */
export class LocalNetListenError extends Error {
  override readonly name = 'LocalNetListenError';
  constructor(
    readonly listener: keyof LocalNetPorts,
    readonly port: number,
    readonly code: string | undefined,
    cause: unknown,
  ) {
    super(`the ${listener} listener cannot listen on port ${port} (${code ?? String(cause)})`);
  }
}

/**
 * `serve --localnet`: one ledger behind the listeners of Splice LocalNet's app-user side, so code
 * written against LocalNet (the wallet SDK's `localNetStaticConfig`, the wallet integration
 * guide's scripts) runs unchanged: the JSON Ledger API, the validator (validator-user, scan
 * proxy, the registry under it), Scan and the token-standard registry, each on its port; HS256
 * tokens with the secret `unsafe` for LocalNet's audience; a token for a user the participant does not know is refused (PERMISSION_DENIED), as there.
 */
export async function startLocalNet(options: LocalNetOptions): Promise<LocalNet> {
  const ports = { ...LOCALNET_PORTS, ...options.ports };
  const { ledger, store, dars } = openLedger({ ...options, declareTemplates: declareLocalNetTemplates });
  const servers: ReferenceServer[] = [];
  let detach = () => {};
  const closeAll = async () => {
    detach();
    await Promise.all(servers.map((s) => s.close()));
    await ledger.close();
    store?.close();
  };
  try {
    const validatorParty = seedLocalNet(ledger);
    detach = attachValidatorAutomation(ledger, validatorParty, options.log ?? consoleLogger);
    const jwt = await createAuthenticator({ mode: 'hs256', key: { kind: 'secret', secret: LOCALNET_SECRET }, audience: LOCALNET_AUDIENCE }, { participantId: ledger.config.participantId, ...(options.log === undefined ? {} : { log: options.log }) });
    // As LocalNet's participant (user management on): a token for a user it does not know is refused.
    const authenticator = jwt;
    // One compiled request validator for all listeners.
    const { validateBody } = createApiServices({ ledger, authenticator });
    const listeners: readonly (keyof LocalNetPorts)[] = ['ledger', 'validator', 'scan', 'tokenStandard', 'appProviderLedger'];
    const participant = (listener: keyof LocalNetPorts) => listener === 'ledger' || listener === 'appProviderLedger';
    const bound: Record<keyof LocalNetPorts, number> = { ...ports };
    for (const listener of listeners) {
      let server: ReferenceServer;
      try {
        server = await createReferenceServer({
          ledger,
          authenticator,
          validateBody,
          port: ports[listener],
          host: options.host,
          routes: localNetRoutes[listener],
          // The update and completion streams live on the participants' ports only.
          ...(participant(listener) ? {} : { channels: [] }),
          ...(listener === 'appProviderLedger' ? { participantId: APP_PROVIDER_PARTICIPANT_ID } : {}),
          ...(options.http === undefined ? {} : { http: options.http }),
          ...(options.log === undefined ? {} : { log: options.log }),
          ...(options.requestLog === undefined ? {} : { requestLog: options.requestLog }),
        });
      } catch (e) {
        throw new LocalNetListenError(listener, ports[listener], (e as NodeJS.ErrnoException).code, e);
      }
      servers.push(server);
      bound[listener] = Number(new URL(server.url).port);
    }
    // Loopback listeners are named as LocalNet names them (localhost, scan.localhost).
    const loopback = options.host === '127.0.0.1' || options.host === 'localhost' || options.host === '::1';
    const urls = loopback ? localNetUrls(bound) : localNetUrls(bound, options.host.includes(':') ? `[${options.host}]` : options.host, options.host.includes(':') ? `[${options.host}]` : options.host);
    ledger.prepareEngineThread();
    return { ledger, ports: bound, urls, validatorParty, dars, close: closeAll };
  } catch (e) {
    await closeAll();
    throw e;
  }
}
