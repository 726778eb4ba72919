import { ledgerError } from '../../../ledger/errors.js';
import { checkAccess } from '../auth/checkAccess.js';
import { decodeJsonBody } from '../decodeJsonBody.js';
import { problemMessage } from '../errors/renderProblem.js';
import type { ApiServices } from '../services.js';
import type { Problem } from '../types.js';
import type { StreamChannel } from './StreamChannel.js';

/** The transport under a channel: how to send one text message, and whether the client is gone. */
export interface ChannelSession {
  /** Resolves once the message is handed to the transport (waits when the client reads slowly). */
  send(text: string): Promise<void>;
  /** Aborted when the client disconnects. */
  readonly signal: AbortSignal;
}

export interface ChannelCredentials {
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly subprotocols: readonly string[];
}

/**
 * Serves one WebSocket stream from its first (request) frame to its end: decode and validate the
 * request, authenticate, check access, then send one message per element. Every refusal is a
 * single JsCantonError message (a WebSocket has no status line); the caller closes afterwards.
 */
export async function runChannel(
  channel: StreamChannel,
  requestFrame: string,
  credentials: ChannelCredentials,
  services: ApiServices,
  session: ChannelSession,
): Promise<void> {
  const refuse = (problem: Problem) => session.send(JSON.stringify(problemMessage(problem, { participantId: services.participantId })));
  try {
    const decoded = decodeJsonBody(requestFrame, services.config.maxWebSocketMessageBytes);
    if (!decoded.ok) return await refuse(decoded.error);
    const check = services.validateBody(channel.requestOperationId, decoded.value);
    if (!check.ok) {
      return await refuse(
        check.kind === 'shape'
          ? { kind: 'decode', message: check.message }
          : { kind: 'ledger', error: ledgerError('INVALID_ARGUMENT', `The submitted request has invalid arguments: Unexpected fields: ${check.fields.join(', ')}`) },
      );
    }
    const request = decoded.value;

    const principal = await services.authenticator.authenticate(credentials);
    if (!principal.ok) return await refuse({ kind: 'ledger', error: principal.error });
    const allowed = checkAccess(principal.value, channel.access(request), services.ledger);
    if (!allowed.ok) return await refuse({ kind: 'ledger', error: allowed.error });

    const stream = channel.open(request, principal.value, services, session.signal);
    if (!stream.ok) return await refuse({ kind: 'ledger', error: stream.error });
    for await (const element of stream.value) {
      if (session.signal.aborted) break;
      await session.send(JSON.stringify(element));
    }
  } catch (e) {
    if (session.signal.aborted) return;
    services.log.error(`WebSocket ${channel.path} failed`, e);
    await refuse({ kind: 'internal' }).catch(() => undefined);
  }
}
