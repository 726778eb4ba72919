import type { AppWorld } from '../../../reference-server/src/apps/world/seedAppWorld.js';
import type { Ledger } from '../../../reference-server/src/ledger/index.js';

/** Where the real clients are pointed: the Koa reference server or the msw handlers. */
export interface ClientTarget {
  readonly name: string;
  readonly ledgerUrl: URL;
  /** ws:// base for WebSocketClient. */
  readonly streamsUrl: string;
  readonly registryUrl: string;
  readonly scanUrl: URL;
  /** Where the validator's scan proxy answers `/v0/scan-proxy/...` (ScanProxyClient's base). */
  readonly scanProxyUrl: URL;
  /** The ledger behind the target, for setup the APIs offer no endpoint for. */
  ledger(): Ledger;
  /** The registry's and Scan's sample world, seeded on the target's ledger before it serves. */
  readonly appWorld: AppWorld;
  /** Everything the target logged as an unexpected failure (must stay empty). */
  readonly errors: string[];
  close(): Promise<void>;
}

export type StartTarget = () => Promise<ClientTarget>;
