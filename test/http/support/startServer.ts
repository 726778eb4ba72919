import supertest from 'supertest';
import { silentLogger } from '../../../reference-server/src/http/api/consoleLogger.js';
import type { ApiLogger } from '../../../reference-server/src/http/api/services.js';
import { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../../reference-server/src/server.js';

export interface TestServer extends ReferenceServer {
  /** supertest bound to the server's URL. */
  readonly http: ReturnType<typeof supertest>;
  /** Everything the server logged as an error (tests assert it stays empty where nothing may fail). */
  readonly errors: string[];
}

/** The reference server on a free loopback port, quiet, with its logged errors collected. */
export async function startServer(options: ReferenceServerOptions = {}): Promise<TestServer> {
  const errors: string[] = [];
  const log: ApiLogger = { ...silentLogger, error: (message, cause) => errors.push(`${message}: ${String(cause)}`) };
  const server = await createReferenceServer({ port: 0, host: '127.0.0.1', log, ...options });
  return Object.assign(server, { http: supertest(server.url), errors });
}
