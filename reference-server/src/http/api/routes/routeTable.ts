import type { Route } from '../route.js';
import { commandRoutes } from './commandRoutes.js';
import { completionRoutes } from './completionRoutes.js';
import { docsRoutes } from './docsRoutes.js';
import { healthRoutes } from './healthRoutes.js';
import { partyRoutes } from './partyRoutes.js';
import { stateRoutes } from './stateRoutes.js';
import { updateRoutes } from './updateRoutes.js';
import { userRoutes } from './userRoutes.js';
import { versionRoutes } from './versionRoutes.js';

/**
 * Every group B operation the reference server answers. Groups A and C add their own tables
 * (registry, scan) beside this one; adapters mount whatever list they are given.
 */
export const ledgerApiRoutes: readonly Route[] = [
  ...versionRoutes,
  ...userRoutes,
  ...partyRoutes,
  ...commandRoutes,
  ...completionRoutes,
  ...stateRoutes,
  ...updateRoutes,
  ...docsRoutes,
  ...healthRoutes,
];
