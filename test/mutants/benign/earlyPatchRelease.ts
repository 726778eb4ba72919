import type { Fault } from '../mutantProxy.js';
import { pathOf } from '../mutantProxy.js';
import { versionAnswered } from './otherPatchVersion.js';

/**
 * An earlier patch of the 3.5 line: Canton 3.5.4 (its document: ../shared/upstream/canton-json-api-v2/
 * openapi.3.5.yaml, 3.5.4-SNAPSHOT). 3.5.7 added `POST /v2/commands/command-completions` (with its
 * WebSocket channel) and the POST form of `/v2/state/active-contracts-page`; a 3.5.4 participant
 * answers 404 for them, as for any path it does not route, and `/v2/version` says 3.5.4.
 */
export const EARLY_PATCH_VERSION = '3.5.4';

const ABSENT = new Set(['POST /v2/commands/command-completions', 'POST /v2/state/active-contracts-page']);
const version = versionAnswered(EARLY_PATCH_VERSION);

export const earlyPatchRelease: Fault = {
  // The server's own answer to a path it does not route.
  request: (req) => (ABSENT.has(`${req.method} ${pathOf(req.url)}`) ? { ...req, url: '/v2/not-routed-on-3.5.4' } : req),
  response: version.response,
  upgrade: (req) => (pathOf(req.url) === '/v2/commands/command-completions' ? 404 : undefined),
};
