import type { Route } from '../route.js';
import { updatesListRoute } from './updatesListRoute.js';

/** The update service as a list: a closed range answers at once, an open one until it goes quiet. */
export const updateRoutes: readonly Route[] = [updatesListRoute('/v2/updates', 'postV2Updates', 'updates')];
