import { interactive } from './interactiveModule.js';
import type { AllocateExternalPartyRequest, GenerateExternalPartyTopologyRequest } from '../../../ledger/interactive/index.js';
import { jsonResult } from '../ledgerResult.js';
import { defineRoute, type Route } from '../route.js';

/** External party onboarding (party management: participant or identity provider admins). */
export const externalPartyRoutes: readonly Route[] = [
  defineRoute<GenerateExternalPartyTopologyRequest>({
    method: 'POST',
    path: '/v2/parties/external/generate-topology',
    operationId: 'postV2PartiesExternalGenerate-topology',
    group: 'B',
    body: 'json',
    access: () => ({ admin: true }),
    handle: async ({ body, services }) => jsonResult((await interactive()).interactiveSubmissionOf(services.ledger).generateTopology(body, services.participantId)),
  }),
  defineRoute<AllocateExternalPartyRequest>({
    method: 'POST',
    path: '/v2/parties/external/allocate',
    operationId: 'postV2PartiesExternalAllocate',
    group: 'B',
    body: 'json',
    access: () => ({ admin: true }),
    handle: async ({ body, services }) => jsonResult((await interactive()).interactiveSubmissionOf(services.ledger).allocateExternalParty(body, services.participantId)),
  }),
];
