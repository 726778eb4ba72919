import type { GetUpdatesRequest } from '../../../ledger/wire.js';
import type { RequiredAccess } from '../auth/types.js';
import { readersOf } from './readersOf.js';

/**
 * The parties an updates request reads for, in any of its formats. Topology events name parties
 * too: asking for those of some parties needs to read as them, and asking for every party's
 * (an empty list) needs CanReadAsAnyParty, as on the participant.
 */
export function updatesReaders(body: GetUpdatesRequest): RequiredAccess {
  const format = body.updateFormat;
  const readers = readersOf(format?.includeTransactions?.eventFormat, format?.includeReassignments, body.filter);
  const topology = format?.includeTopologyEvents?.includeParticipantAuthorizationEvents;
  if (topology === undefined || topology === null) return readers;
  const parties = Array.isArray(topology.parties) ? topology.parties.filter((p): p is string => typeof p === 'string') : [];
  return parties.length === 0
    ? { ...readers, readAsAnyParty: true }
    : { ...readers, readAs: [...new Set([...(readers.readAs ?? []), ...parties])] };
}
