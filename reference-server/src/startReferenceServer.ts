import { createReferenceServer, type ReferenceServer } from './server.js';

export interface StartOptions {
  readonly port: number;
  readonly host: string;
  /** A fixtures file; undefined means the default world in fixtures/. */
  readonly fixtures: string | undefined;
}

/** What `canton-conformance serve` and `npm start` run: the reference server over a fixtures world. */
export async function startReferenceServer(options: StartOptions): Promise<ReferenceServer> {
  return createReferenceServer({ port: options.port, host: options.host });
}
