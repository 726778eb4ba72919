import type { LedgerError } from '../../../ledger/errors.js';
import type { Result } from '../../../ledger/result.js';
import type { Principal, RequiredAccess } from '../auth/types.js';
import type { ApiServices } from '../services.js';

/**
 * A WebSocket stream of the Ledger API: the client sends one request frame, the server answers one
 * JSON message per element (or a JsCantonError) and closes when the stream ends.
 */
export interface StreamChannel<Request = unknown> {
  readonly path: string;
  /** The HTTP operation whose request schema the request frame must match. */
  readonly requestOperationId: string;
  readonly access: (request: Request) => RequiredAccess;
  readonly open: (
    request: Request,
    principal: Principal,
    services: ApiServices,
    signal: AbortSignal,
  ) => Result<AsyncIterable<unknown>, LedgerError>;
}

/** Declares a channel with a typed request (kept by the validator, as for routes). */
export function defineChannel<Request>(channel: StreamChannel<Request>): StreamChannel {
  return channel as unknown as StreamChannel;
}
