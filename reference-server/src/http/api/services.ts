import type { Ledger } from '../../ledger/index.js';
import type { Authenticator } from './auth/types.js';
import type { OpenStreams } from './channels/OpenStreams.js';
import type { HttpConfig } from './config.js';
import type { RequestBodyValidator } from './validation.js';

/** Where the HTTP face reports what the caller must not see (stack traces, unexpected failures). */
export interface ApiLogger {
  error(message: string, cause?: unknown): void;
  warn(message: string): void;
  info(message: string): void;
}

/** Everything routes and adapters share, built once per server. */
export interface ApiServices {
  readonly ledger: Ledger;
  readonly config: HttpConfig;
  /** Named in every error's context, as the participant does. */
  readonly participantId: string;
  readonly authenticator: Authenticator;
  readonly validateBody: RequestBodyValidator;
  /** Our OpenAPI and AsyncAPI documents, read once at start-up, served as text. */
  readonly documents: { readonly openapi: string; readonly asyncapi: string };
  readonly log: ApiLogger;
  /** Open WebSocket streams per user, under `config.maxStreamsPerUser`. */
  readonly streams: OpenStreams;
}
