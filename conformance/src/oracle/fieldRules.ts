/**
 * What the oracle knows about fields: which strings are identifiers (paired through the
 * bijection, so later requests translate), which numbers are offsets (paired by order), and the
 * members two correct ledgers may answer or leave out, each with the reason. Values are never
 * compared (compareAnswers.ts), so nothing is tolerated for its value.
 */

/** Members a correct ledger may answer or leave out per request, whatever the request. */
export const MAY_DIFFER: Readonly<Record<string, string>> = {
  traceId: 'trace ids are minted per request by each server',
  correlationId: 'correlation ids are minted per request by each server',
  'x-request-id': 'request ids are minted per request',
  tid: 'the trace id in an error\'s context is minted per request by each server',
};

/**
 * Members holding a ledger's data, whose shape the target's own packages decide, not the request:
 * Daml values (a contract's payload, arguments, results, views, keys: Splice 0.1.22's AmuletRules
 * has members 0.1.14's lacks) and a registry's choice context (the entries its implementation's
 * choices read). The oracle pairs the identifiers inside but leaves their shape to the rules that
 * judge it against the target itself:
 * - payloads, choice arguments, results and views are the engine's evaluation of the target's own
 *   package (re-interpretation: `judge.daml.payload`, `choice-argument`, `exercise-result`, `view`);
 * - a contract (payload and key) is the same on every endpoint and read that shows it
 *   (`judge.facts.reread-equal`), and Scan and the registry serve the ledger's created event
 *   (`judge.payloads.unchanged`);
 * - a choice context lets its choice succeed on the target's ledger: accept, reject, withdraw,
 *   execute, cancel, settle (`registry.*.context-usable`, the `registry.cross-group.*-succeed` checks).
 */
const LEDGER_DATA_KEYS = new Set(['payload', 'createArgument', 'choiceArgument', 'exerciseResult', 'viewValue', 'contractKey', 'choiceContextData']);
export const isLedgerDataKey = (key: string): boolean => LEDGER_DATA_KEYS.has(key);

/** Numbers under these keys are ledger offsets. */
const OFFSET_KEYS = /^(offset|beginExclusive|endInclusive|ledgerEnd|begin|end|prunedUpTo)$|Offset|_offset|PrunedUpTo/;
export const isOffsetKey = (key: string): boolean => OFFSET_KEYS.test(key);
/**
 * Numbers under these keys (or anywhere inside them: `expectedTopologySerial.serial.Prior.value`)
 * are topology serials: they count every change the target ever made, so they pair by order like
 * offsets, on a line of their own.
 */
export const isSerialKey = (key: string): boolean => /Serial$/.test(key);
/** The serial line of an object: its synchronizer's vetting state (the target's synchronizer id names it). */
export const serialLineOf = (o: Record<string, unknown>, outer: string): string => (typeof o.synchronizerId === 'string' ? `serial@${o.synchronizerId}` : outer);
/** Opaque values that identify something on one ledger only. */
const OPAQUE_KEYS = /^(resourceVersion|createdEventBlob|created_event_blob|contract_id|preparedTransaction|preparedTransactionHash|hash|reassignmentId|unassignId|pageToken|nextPageToken|synchronizerId|source|target|workflowId|submissionId)$/;

/** `name::namespace` (parties, synchronizers, participants) or long lower-case hex (contract ids, update ids, hashes). */
const PARTY_LIKE = /^[^\s:]+::[0-9a-f]{40,}$/;
const LONG_HEX = /^[0-9a-f]{40,}$/;
/** The same shapes embedded in longer strings (filter expressions, keys), rewritten in requests. */
export const EMBEDDED_ID = /[A-Za-z0-9_.-]+::[0-9a-f]{40,}|\b[0-9a-f]{40,}\b/g;

/** Is this string, under this key, an identifier to compare through the bijection? */
export function isIdentifier(key: string, value: string): boolean {
  if (value === '') return false;
  return PARTY_LIKE.test(value) || LONG_HEX.test(value) || OPAQUE_KEYS.test(key);
}

/**
 * Page tokens pair like identifiers when both ledgers answer one; whether there is a next page at
 * all depends on how much state the target holds beyond the scenario, so presence may differ.
 */
export const PAGE_TOKEN_KEYS = new Set(['nextPageToken', 'next_page_token']);

/** Keys that name an element of a list, most telling first (a list is matched element by element through these). */
export const IDENTITY_KEYS = ['contractId', 'contract_id', 'updateId', 'reassignmentId', 'party', 'userId', 'id', 'identityProviderId', 'packageId', 'synchronizerId', 'offset', 'name', 'instrumentId', 'round', 'cid'] as const;
