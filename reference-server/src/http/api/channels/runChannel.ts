import { logRedacted } from '../errors/logRedacted.js';
import { ledgerError } from '../../../ledger/errors.js';
import { checkAccess } from '../auth/checkAccess.js';
import { decodeJsonBody } from '../decodeJsonBody.js';
import { problemMessage } from '../errors/renderProblem.js';
import type { ApiServices } from '../services.js';
import type { Problem } from '../types.js';
import { sliced } from '../streams/sliceClock.js';
import { ViewSettler } from '../../../ledger/pendingViews.js';
import type { LedgerError } from '../../../ledger/errors.js';
import type { StreamChannel } from './StreamChannel.js';
import { watchAccess } from './watchAccess.js';

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
 * request, authenticate, check access, count it against the user's stream limit, then send one
 * message per element, in slices that let other work run. While it is open, access is checked
 * again on every change of the user and at token expiry (`watchAccess`): a stream that lost it
 * ends with that error as its last message. Every refusal is a single JsCantonError message (a
 * WebSocket has no status line); the caller closes afterwards. Every channel gets all of this.
 */
export async function runChannel(
  channel: StreamChannel,
  requestFrame: string,
  credentials: ChannelCredentials,
  services: ApiServices,
  session: ChannelSession,
): Promise<void> {
  const refuse = (problem: Problem) =>
    session.send(JSON.stringify(problemMessage(problem, { participantId: services.participantId, onRedacted: logRedacted(services.log, `stream ${channel.path}`) })));
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

    const counted = services.streams.open(principal.value, channel.path);
    if (!counted.ok) return await refuse({ kind: 'ledger', error: counted.error });
    // Ends the stream when the client leaves or the caller loses access, whichever comes first.
    const stop = new AbortController();
    const onGone = () => stop.abort();
    session.signal.addEventListener('abort', onGone, { once: true });
    let lost: LedgerError | undefined;
    const watch =
      services.config.streamAccessChecks === 'at-open'
        ? { close: () => undefined }
        : watchAccess(principal.value, services.ledger, (error) => {
            lost = error;
            stop.abort();
          });
    try {
      const stream = channel.open(request, principal.value, services, stop.signal);
      if (!stream.ok) return await refuse({ kind: 'ledger', error: stream.error });
      // Interface views of uploaded code are evaluated in slices before each element is sent.
      const views = new ViewSettler();
      for await (const element of sliced(stream.value)) {
        if (views.due()) await views.settle();
        if (stop.signal.aborted) break;
        await session.send(JSON.stringify(element));
      }
      if (lost !== undefined && !session.signal.aborted) await refuse({ kind: 'ledger', error: lost });
    } finally {
      watch.close();
      counted.value();
      session.signal.removeEventListener('abort', onGone);
    }
  } catch (e) {
    if (session.signal.aborted) return;
    services.log.error(`WebSocket ${channel.path} failed`, e);
    await refuse({ kind: 'internal' }).catch(() => undefined);
  }
}
