import { absentChannels, absentOperations, type CantonVersion } from '../../../../conformance/src/schema/cantonVersions.js';
import type { StreamChannel } from './channels/StreamChannel.js';
import type { Route } from './route.js';

// The per-line tables are shared with the suite, which judges a target by the same data.
export { API_VERSION, CANTON_VERSIONS, DEFAULT_CANTON_VERSION, absentOperations, isCantonVersion, type CantonVersion } from '../../../../conformance/src/schema/cantonVersions.js';

/** The routes a version serves: the others are gone, so their paths answer 404 as on that version. */
export function routesOf(routes: readonly Route[], v: CantonVersion): readonly Route[] {
  const absent = absentOperations(v);
  return routes.filter((r) => !absent.has(r.operationId));
}

export function channelsOf(channels: readonly StreamChannel[], v: CantonVersion): readonly StreamChannel[] {
  const absent = absentChannels(v);
  return channels.filter((c) => !absent.has(c.path));
}
