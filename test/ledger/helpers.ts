import { expect } from 'vitest';
import type { Command, Ledger, LedgerError, Result } from '../../reference-server/src/ledger/index.js';
import { ASSET_TEMPLATE, createLedger, ManualClock } from '../../reference-server/src/ledger/index.js';
import type { CreateLedgerOptions } from '../../reference-server/src/ledger/Ledger.js';

/** Unwraps a Result, failing the test with the error's code and cause. */
export function must<T>(r: Result<T, LedgerError>): T {
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.cause}`);
  return r.value;
}

/** Asserts a refusal with the given code and returns the error. */
export function refused<T>(r: Result<T, LedgerError>, code: string): LedgerError {
  expect(r.ok ? 'ok' : r.error.code).toBe(code);
  if (r.ok) throw new Error('unreachable');
  return r.error;
}

export interface World {
  ledger: Ledger;
  clock: ManualClock;
  alice: string;
  bob: string;
  bank: string;
  carol: string;
}

/** A ledger with four parties and a manual clock. */
export function world(options: CreateLedgerOptions = {}): World {
  const clock = new ManualClock();
  const ledger = createLedger({ clock, ...options });
  const party = (hint: string) => must(ledger.allocateParty({ partyIdHint: hint })).partyDetails.party;
  return { ledger, clock, alice: party('alice'), bob: party('bob'), bank: party('bank'), carol: party('carol') };
}

let counter = 0;
export const nextCommandId = () => `cmd-${++counter}`;

export const createAsset = (issuer: string, owner: string, amount = '100', observers?: string[]): Command => ({
  CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer, owner, amount, ...(observers ? { observers } : {}) } },
});

/** Submits and returns the created contract ids of the transaction, in order. */
export function submit(ledger: Ledger, actAs: string[], commands: Command[], extra: Record<string, unknown> = {}): string[] {
  const r = must(
    ledger.submitAndWaitForTransaction({
      commands: { userId: 'tester', commandId: nextCommandId(), actAs, commands, ...extra },
      transactionFormat: {
        eventFormat: { filtersForAnyParty: {}, verbose: true },
        transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
      },
    }),
  );
  return r.transaction.events.flatMap((e) => ('CreatedEvent' in e ? [e.CreatedEvent.contractId] : []));
}

export function acsIds(ledger: Ledger, party: string, at = ledger.ledgerEnd().offset): string[] {
  const r = must(ledger.activeContracts({ activeAtOffset: at, eventFormat: { filtersByParty: { [party]: {} } } }));
  return [...r].map((e) => {
    const entry = e.contractEntry;
    if ('JsActiveContract' in entry) return entry.JsActiveContract.createdEvent.contractId;
    if ('JsIncompleteUnassigned' in entry) return entry.JsIncompleteUnassigned.createdEvent.contractId;
    throw new Error('unexpected entry');
  });
}
