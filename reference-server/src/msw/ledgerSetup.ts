import { randomUUID } from 'node:crypto';
import { TRANSFER_PREAPPROVAL_TEMPLATE } from '../apps/index.js';
import type { Ledger, LedgerError, Result } from '../ledger/index.js';
import { localPartyId, PARTICIPANT_ADMIN_USER } from '../ledger/index.js';
import type { DamlRecord, Right } from '../ledger/wire.js';
import { parseRfc3339 } from '../ledger/rfc3339.js';

/**
 * Test setup through the ledger core, not HTTP: what a client team arranges before the code under
 * test runs. Each helper throws on refusal (a setup mistake should fail the test at once, with the
 * ledger's own code and cause).
 */

export interface NewUser {
  readonly primaryParty?: string;
  readonly actAs?: readonly string[];
  readonly readAs?: readonly string[];
  readonly readAsAnyParty?: boolean;
  readonly admin?: boolean;
}

export interface NewContract {
  /** `#package-name:Module:Entity` or `packageId:Module:Entity`. */
  readonly templateId: string;
  /** Daml-LF JSON of the create argument. */
  readonly createArguments: DamlRecord;
  /** The submitting parties; the template's signatories must be among them. */
  readonly actAs: readonly string[];
  readonly readAs?: readonly string[];
  /** Default: the ledger's first synchronizer. */
  readonly synchronizerId?: string;
}

export interface CreatedContract {
  readonly contractId: string;
  readonly templateId: string;
  readonly createdEventBlob: string;
  readonly synchronizerId: string;
  readonly offset: number;
  readonly updateId: string;
}

export function unwrap<T>(what: string, result: Result<T, LedgerError>): T {
  if (result.ok) return result.value;
  throw new Error(`[canton-conformance] ${what} failed: ${result.error.code}: ${result.error.cause}`);
}

/** Allocates a local party and returns its id (`hint::1220...`). */
export function allocateParty(ledger: Ledger, hint: string): string {
  return unwrap(`allocateParty('${hint}')`, ledger.allocateParty({ partyIdHint: hint })).partyDetails.party;
}

/** Creates a user with the given rights and returns its id. */
export function createUser(ledger: Ledger, userId: string, user: NewUser = {}): string {
  const rights: Right[] = [
    ...(user.actAs ?? []).map((party): Right => ({ kind: { CanActAs: { value: { party } } } })),
    ...(user.readAs ?? []).map((party): Right => ({ kind: { CanReadAs: { value: { party } } } })),
    ...(user.readAsAnyParty === true ? [{ kind: { CanReadAsAnyParty: { value: {} } } } satisfies Right] : []),
    ...(user.admin === true ? [{ kind: { ParticipantAdmin: { value: {} } } } satisfies Right] : []),
  ];
  const created = ledger.createUser({
    user: { id: userId, ...(user.primaryParty === undefined ? {} : { primaryParty: user.primaryParty }), isDeactivated: false, identityProviderId: '' },
    rights,
  });
  return unwrap(`createUser('${userId}')`, created).user.id;
}

/** Submits one CreateCommand and returns what a test needs to refer to the contract. */
export function createContract(ledger: Ledger, contract: NewContract): CreatedContract {
  const what = `createContract(${contract.templateId})`;
  const { transaction } = unwrap(
    what,
    ledger.submitAndWaitForTransaction({
      commands: {
        commands: [{ CreateCommand: { templateId: contract.templateId, createArguments: contract.createArguments } }],
        commandId: `setup-${randomUUID()}`,
        userId: PARTICIPANT_ADMIN_USER,
        actAs: [...contract.actAs],
        readAs: [...(contract.readAs ?? [])],
        ...(contract.synchronizerId === undefined ? {} : { synchronizerId: contract.synchronizerId }),
      },
    }),
  );
  const created = transaction.events.flatMap((e) => ('CreatedEvent' in e ? [e.CreatedEvent] : []))[0];
  if (created === undefined) throw new Error(`[canton-conformance] ${what} committed no create event`);
  const blob = ledger.createdEventBlob(created.contractId);
  if (blob === undefined) throw new Error(`[canton-conformance] ${what}: no blob for ${created.contractId}`);
  return {
    contractId: created.contractId,
    templateId: created.templateId,
    createdEventBlob: blob,
    synchronizerId: transaction.synchronizerId,
    offset: transaction.offset,
    updateId: transaction.updateId,
  };
}

export interface NewPreapproval {
  /** The party that accepts transfers through it. */
  readonly receiver: string;
  /** Who manages it (renews it); default the receiver itself. */
  readonly provider?: string;
  /** The DSO party; default `dso::<participant namespace>`, allocated when missing. */
  readonly dso?: string;
  /** RFC 3339; default now, by the ledger's clock. */
  readonly validFrom?: string;
  /** RFC 3339; default a year after `validFrom`. */
  readonly expiresAt?: string;
}

/**
 * Creates a Splice `TransferPreapproval` for a receiver: what Scan's lookup by party answers.
 * Its signatories (receiver, provider, DSO) all submit, as the DSO's automation arranges upstream.
 */
export function addPreapproval(ledger: Ledger, preapproval: NewPreapproval): CreatedContract {
  const dso = preapproval.dso ?? localPartyId('dso', ledger.config.participantId);
  if (!ledger.isKnownParty(dso)) unwrap(`addPreapproval: allocating ${dso}`, ledger.allocateParty({ partyIdHint: dso.split('::')[0] ?? 'dso' }));
  const provider = preapproval.provider ?? preapproval.receiver;
  const validFrom = preapproval.validFrom ?? new Date(ledger.config.clock.now()).toISOString();
  const from = parseRfc3339(validFrom);
  if (from === undefined) throw new Error(`addPreapproval: validFrom ${validFrom} is not an RFC 3339 timestamp (years 0001-9999)`);
  const expiresAt = preapproval.expiresAt ?? new Date(from + 365 * 24 * 3600 * 1000).toISOString();
  return createContract(ledger, {
    templateId: TRANSFER_PREAPPROVAL_TEMPLATE,
    createArguments: { dso, receiver: preapproval.receiver, provider, validFrom, lastRenewedAt: validFrom, expiresAt },
    actAs: [...new Set([preapproval.receiver, provider, dso])],
  });
}
