/**
 * Settings of the HTTP face (the list size limit, `http-list-max-elements-limit`, is the ledger's
 * `listMaxElements`). Names follow the participant's `http-ledger-api` block where one
 * exists, so an operator recognises them.
 */
export interface HttpConfig {
  /** Request bodies above this many bytes answer 413. */
  readonly maxRequestBodyBytes: number;
  /** Binary uploads (DARs, `application/octet-stream`) above this many bytes answer 413. */
  readonly maxUploadBodyBytes: number;
  /** How long a list endpoint waits for a new element of an open-ended stream before answering. */
  readonly defaultStreamIdleTimeoutMs: number;
  /** Upper bound a client may ask for with `stream_idle_timeout_ms`. */
  readonly maxStreamIdleTimeoutMs: number;
  /** Largest WebSocket message (the request frame) accepted. */
  readonly maxWebSocketMessageBytes: number;
  /** A WebSocket whose request frame has not arrived after this long gets an error frame and is closed. */
  readonly webSocketRequestTimeoutMs: number;
  /** Open WebSocket streams one user may hold; the next is refused with MAXIMUM_NUMBER_OF_STREAMS. */
  readonly maxStreamsPerUser: number;
  /** A client must send its request headers within this long, or gets 408 and a close (slow-header clients). */
  readonly headersTimeoutMs: number;
  /** A client must send its whole request (headers and body) within this long, or gets 408 and a close. */
  readonly requestTimeoutMs: number;
  /**
   * `ongoing` (the participant's behaviour): an open stream ends when its user's rights change or
   * its token expires. `at-open` checks access only when the stream opens; it exists so the mutant
   * bed can show that the suite catches a server that does so.
   */
  readonly streamAccessChecks: 'ongoing' | 'at-open';
}

export const defaultHttpConfig: HttpConfig = {
  // The participant's default gRPC inbound message size is 4 MiB; the JSON face follows it.
  maxRequestBodyBytes: 4 * 1024 * 1024,
  // DARs routinely exceed the JSON limit (the Splice DARs are several MiB each).
  maxUploadBodyBytes: 64 * 1024 * 1024,
  defaultStreamIdleTimeoutMs: 1000,
  maxStreamIdleTimeoutMs: 60_000,
  maxWebSocketMessageBytes: 4 * 1024 * 1024,
  // Idle sockets that never ask for anything would otherwise stay open forever.
  webSocketRequestTimeoutMs: 30_000,
  // The participant's default limit of concurrent streams (rate-limiting max-streams), here per user.
  maxStreamsPerUser: 1000,
  // Against clients that send a request a byte at a time and hold a connection open (slowloris).
  // Only receiving the request counts; a long response (a stream) is not cut.
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 60_000,
  streamAccessChecks: 'ongoing',
};
