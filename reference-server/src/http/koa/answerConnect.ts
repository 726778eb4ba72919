import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { renderNoRoute } from '../api/createDispatcher.js';
import type { RouteMatcher } from '../api/matchRoute.js';
import type { Route } from '../api/route.js';
import type { ApiServices } from '../api/services.js';
import { writeRawResponse } from './writeRawResponse.js';

/**
 * Answers `CONNECT` as the participant does: pekko-http parses it like any request (its target in
 * authority form, `host:port`, has no path) and routing finds no operation for it, so it is a 404,
 * or a 405 naming the allowed methods when its target is a path the table knows. Node hands CONNECT
 * to the server's `connect` event instead of the request handler, and closes the connection
 * unanswered when nobody listens.
 */
export function answerConnect(match: RouteMatcher<Route>, services: ApiServices): (req: IncomingMessage, socket: Duplex) => void {
  return (req, socket) => {
    const target = req.url ?? '';
    // Origin form (`/v2/version`) is routed; authority form (`host:443`) names no path at all.
    const found = target.startsWith('/') ? match('CONNECT', target.split('?')[0] ?? target) : undefined;
    const path = found?.path ?? target;
    // Routes take the methods of HttpMethod, CONNECT not among them: the matcher answers `method` or `none`.
    const allowed = found?.kind === 'method' ? found.allowed : undefined;
    writeRawResponse(socket, renderNoRoute({ method: 'CONNECT', path }, allowed, services));
  };
}
