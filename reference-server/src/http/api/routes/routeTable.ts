import type { Route } from '../route.js';
import { activeContractsPageRoutes } from './activeContractsPageRoutes.js';
import { contractRoutes } from './contractRoutes.js';
import { legacyStreamRoutes } from './legacyStreamRoutes.js';
import { transactionTreeCommandRoutes } from './transactionTreeCommandRoutes.js';
import { updateLookupRoutes } from './updateLookupRoutes.js';
import { adminRoutes } from './adminRoutes.js';
import { commandRoutes } from './commandRoutes.js';
import { completionRoutes } from './completionRoutes.js';
import { docsRoutes } from './docsRoutes.js';
import { externalPartyRoutes } from './externalPartyRoutes.js';
import { healthRoutes } from './healthRoutes.js';
import { interactiveRoutes } from './interactiveRoutes.js';
import { packageRoutes } from './packageRoutes.js';
import { partyRoutes } from './partyRoutes.js';
import { registryRoutes } from './registryRoutes.js';
import { scanRoutes } from './scanRoutes.js';
import { stateRoutes } from './stateRoutes.js';
import { testTokenRegistryRoutes } from './testTokenRegistryRoutes.js';
import { updateRoutes } from './updateRoutes.js';
import { userRoutes } from './userRoutes.js';
import { joseRoutes } from './joseRoutes.js';
import { versionRoutes } from './versionRoutes.js';

/**
 * Every operation the reference server answers: group B (the Ledger API), then the registry's
 * (group A) and Scan's (group C) tables, whose routes read the apps attached to the same ledger
 * (reference-server/src/apps). Adapters mount whatever list they are given.
 */
export const ledgerApiRoutes: readonly Route[] = [
  ...versionRoutes,
  ...userRoutes,
  ...partyRoutes,
  ...externalPartyRoutes,
  ...commandRoutes,
  ...interactiveRoutes,
  ...completionRoutes,
  ...stateRoutes,
  ...updateRoutes,
  // Point reads, pages and the deprecated forms Canton 3.5 still serves.
  ...updateLookupRoutes,
  ...joseRoutes,
  ...legacyStreamRoutes,
  ...contractRoutes,
  ...activeContractsPageRoutes,
  ...transactionTreeCommandRoutes,
  ...packageRoutes,
  ...adminRoutes,
  ...docsRoutes,
  ...healthRoutes,
  ...registryRoutes,
  ...testTokenRegistryRoutes,
  ...scanRoutes,
];
