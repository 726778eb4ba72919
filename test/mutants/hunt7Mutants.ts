import type { Mutant } from './mutants.js';
import { everywhere, type Json } from './mutantKit.js';

/**
 * A seventh hunt: the faults hunt6 found and could not catch. An archive read through an
 * interface filter that does not name the interface.
 */

const isCreatedEvent = (o: Json) => typeof o.contractId === 'string' && 'createArgument' in o;

/**
 * implementedInterfaces filled from the interface views the participant computes, which only
 * created events have: archived events and consuming exercised events never name the interfaces
 * the filter matched (the same everywhere).
 */
const archivesWithoutImplementedInterfaces = everywhere((o) => {
  if (isCreatedEvent(o) || !('implementedInterfaces' in o)) return o;
  const { implementedInterfaces: _gone, ...rest } = o;
  return rest;
});

export const HUNT7_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt7-archives-without-implemented-interfaces',
    description: 'implementedInterfaces is filled from the interface views computed for created events only: archived events (ACS_DELTA) and consuming exercised events (LEDGER_EFFECTS) read through an interface filter never name the interface (the same everywhere), so a wallet reading holdings through the Holding interface cannot tell an archive concerns a holding',
    caughtBy: 'ledger.updates.transaction-shape',
    fault: archivesWithoutImplementedInterfaces,
  },
];
