import type { Route } from '../route.js';
import { updatesListRoute } from './updatesListRoute.js';

/**
 * The deprecated update lists Canton 3.5 still serves (wallet-sdk 1.4.0 reads holdings through
 * flats): `flats` answers exactly as `/v2/updates`; `trees` takes the legacy filter only and answers
 * ledger-effects transactions as trees. Both run on the same list pipeline as `/v2/updates`.
 */
export const legacyStreamRoutes: readonly Route[] = [
  updatesListRoute('/v2/updates/flats', 'postV2UpdatesFlats', 'updates'),
  updatesListRoute('/v2/updates/trees', 'postV2UpdatesTrees', 'trees'),
];
