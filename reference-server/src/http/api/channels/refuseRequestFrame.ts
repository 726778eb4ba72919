import { problemMessage } from '../errors/renderProblem.js';
import type { ApiServices } from '../services.js';
import type { ChannelSession } from './runChannel.js';

/** Why a stream never got a request it could read: a binary first frame, or no frame in time. */
export type RequestFrameFault = { readonly kind: 'binary'; readonly bytes: number } | { readonly kind: 'timeout'; readonly waitedMs: number };

/**
 * Answers a stream whose request frame is unusable with one JsCantonError message (INVALID_ARGUMENT,
 * worded like the other request-decoding refusals); the caller closes afterwards, as for every refusal.
 */
export function refuseRequestFrame(fault: RequestFrameFault, services: ApiServices, session: ChannelSession): Promise<void> {
  const reason =
    fault.kind === 'binary'
      ? `the request must be a JSON text frame, got a binary frame of ${fault.bytes} bytes`
      : `no request frame within ${fault.waitedMs} ms; the request must be a JSON text frame sent once the socket is open`;
  return session.send(JSON.stringify(problemMessage({ kind: 'decode', message: `Invalid value for: body (${reason})` }, { participantId: services.participantId })));
}
