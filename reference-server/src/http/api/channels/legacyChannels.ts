import type { StreamChannel } from './StreamChannel.js';
import { updatesChannel } from './updatesChannel.js';

/**
 * The deprecated WebSocket streams Canton 3.5 still serves: flats (the updates stream under its
 * old name) and trees (ledger-effects transactions as trees, legacy filter only). Same request
 * frame, rights and tailing as `/v2/updates`.
 */
export const legacyUpdateChannels: readonly StreamChannel[] = [
  updatesChannel('/v2/updates/flats', 'postV2UpdatesFlats', 'updates'),
  updatesChannel('/v2/updates/trees', 'postV2UpdatesTrees', 'trees'),
];
