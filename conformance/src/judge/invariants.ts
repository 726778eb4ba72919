/**
 * The invariants the suite judges every answer by, against the target's own earlier answers (the
 * model, targetModel.ts). Ids are stable: never reused for another rule.
 */
export interface Invariant {
  readonly id: InvariantId;
  readonly title: string;
  /** The rule it enforces, cited. */
  readonly rule: string;
}

export const INVARIANTS = [
  {
    id: 'judge.facts.reread-equal',
    title: 'a fact read again has the fields it was first seen with',
    rule: 'Ledger API v2: contracts, created events and committed updates are immutable once committed; a party, user or identity-provider config changes only by a write (service description, "ledger model"). A fact read through another endpoint, page, stream or API version has the same fields, times included.',
  },
  {
    id: 'judge.writes.visible-after',
    title: 'after a write every lookup and list shows the change',
    rule: 'PartyManagementService, UserManagementService and IdentityProviderConfigService: an acknowledged update is the state every later read answers (read-your-writes of the participant\'s own stores), all elements of a list, not a sample.',
  },
  {
    id: 'judge.writes.answer-is-committed',
    title: "a write's answer names the committed update",
    rule: 'CommandService: submit-and-wait answers the updateId and completionOffset of the transaction the command committed; the update stream, the completion stream and point lookups show that update at that offset on that synchronizer with that record time.',
  },
  {
    id: 'judge.numbers.add-up',
    title: 'derived numbers add up',
    rule: 'CostEstimation (interactive submission): totalTrafficCostEstimation = confirmationRequestTrafficCostEstimation + confirmationResponseTrafficCostEstimation.',
  },
  {
    id: 'judge.payloads.unchanged',
    title: 'contracts served by Scan, the scan proxy or the registry carry the ledger payload',
    rule: 'Splice Scan and the token-standard registry serve ledger contracts (payload, created_at, created_event_blob) as the ledger created them; a disclosed contract is the ledger\'s created event blob.',
  },
  {
    id: 'judge.events.created-at',
    title: "a created event's createdAt is the ledger effective time of the transaction that created it",
    rule: 'Ledger API v2 event.proto: CreatedEvent.created_at is the ledger effective time of the transaction that created the contract (Transaction.effective_at of the update at the created event\'s offset).',
  },
  {
    id: 'judge.events.parties-computed',
    title: 'created events carry the signatories and observers their template computes',
    rule: 'Daml ledger model: a contract\'s signatories and observers are the template\'s `signatory` and `observer` expressions over its arguments; CreatedEvent.observers holds no signatory (ledger API v2 event.proto). Judged for the templates the suite knows (canton-conformance-samples).',
  },
  {
    id: 'judge.events.witnesses-requested',
    title: 'a created event names as witnesses the requesting parties among its stakeholders (in ACS-delta reads, only those)',
    rule: "Ledger API v2 event.proto: CreatedEvent.witness_parties are the requesting parties that are stakeholders of the contract (ACS-delta transactions, the active contract set) or informees of its node and the nodes above it (ledger effects). A read for any party requests every party the participant hosts: judged for the parties the target itself answered as local. A party whose filter takes the contract only through an interface may be left out.",
  },
  {
    id: 'judge.events.views-requested',
    title: 'a created event carries interface views only of interfaces the read asked views of',
    rule: 'Ledger API v2 event.proto: CreatedEvent.interface_views holds a view for each interface with an InterfaceFilter whose include_interface_view is set (and that the template implements), and no other.',
  },
  {
    id: 'judge.events.acs-delta',
    title: "an event's acsDelta says whether it belongs to the ACS-delta view of the same read",
    rule: 'Ledger API v2 event.proto (Canton 3.4 on): CreatedEvent.acs_delta and ExercisedEvent.acs_delta, "whether this event would be part of respective ACS_DELTA shaped stream, and should therefore be considered when tracking contract activeness on the client-side": true for every created event of an ACS-delta read or the active contract set, false for a non-consuming exercise and for a contract created and archived in one transaction, true for a created event that stays active and that one of its stakeholders witnesses.',
  },
  {
    id: 'judge.errors.consistent',
    title: "an error's code, category, gRPC code and HTTP status agree",
    rule: "Canton's error codes (base/errors ErrorCode.scala, ErrorCategory.scala): a code has one category and one gRPC code, every time it is answered; the JSON Ledger API answers a gRPC code with one HTTP status (GrpcHttpErrorCodes); the context's category repeats errorCategory.",
  },
  {
    id: 'judge.errors.definitive-not-retryable',
    title: 'a definitive refusal is never reported as retryable',
    rule: "Canton's ErrorCategory: only TransientServerFailure, ContentionOnSharedResources and DeadlineExceededRequestStateUnknown are retryable (carry retryInfo); a code whose category is definitive (invalid, not found, already exists, failed precondition) is never answered with a retryable one.",
  },
  {
    id: 'judge.streams.bounded-close',
    title: 'a bounded stream ends with a normal close',
    rule: 'JSON Ledger API AsyncAPI: a stream with an end (endInclusive, an active-contracts snapshot at an offset) sends its elements and closes normally (RFC 6455: 1000, or a Close frame without a status, 1005; Canton sends 1000); it does not hang open or end with an error.',
  },
  {
    id: 'judge.stream.offsets-increase',
    title: 'the update stream shows each update once, at strictly increasing offsets within its range',
    rule: 'Ledger API v2 UpdateService (update_service.proto, GetUpdatesRequest): updates come in ledger order, each at its own offset, after beginExclusive and up to endInclusive; an offset and an updateId name one update for the life of the ledger.',
  },
  {
    id: 'judge.contracts.archived-stays-archived',
    title: 'an archived contract is archived once and never active at a later offset',
    rule: 'Daml ledger model (consistency): a contract is consumed at most once and is inactive from the offset of its archive on; the active contract set at an offset holds no contract archived at or before it (state_service.proto, GetActiveContracts activeAtOffset).',
  },
  {
    id: 'judge.contracts.used-while-active',
    title: 'a contract is exercised only while active: not before the transaction that created it, nor after the one that archived it',
    rule: 'Daml ledger model (consistency): an action on a contract (an exercise, consuming or not) comes after its create and not after its consuming exercise; a synchronizer orders its transactions, and a participant\'s offsets keep that order (update_service.proto). Judged for transactions of one synchronizer, as far as the reads of the run showed the create and the archive.',
  },
  {
    id: 'judge.contracts.active-after-created',
    title: 'an active-contracts snapshot at an offset holds no contract created after it',
    rule: "state_service.proto GetActiveContracts: the set of contracts active at active_at_offset; ActiveContract.created_event is the event as it appeared in its last update (its create, or its last assignment), at or before that offset. Judged against the snapshot's own created event, and against the transaction that created the contract on the same synchronizer, as the run's reads showed it.",
  },
  {
    id: 'judge.completions.once-per-command',
    title: 'every committed command of the run has exactly one completion, naming the committed update',
    rule: 'Ledger API v2 CommandCompletionService (command_completion_service.proto): a submitted command yields one completion for its user and parties, whose updateId and offset are the transaction the command committed (the one submit-and-wait answered).',
  },
] as const satisfies readonly { id: string; title: string; rule: string }[];

export type InvariantId = (typeof INVARIANTS)[number]['id'];

export const invariantOf = (id: InvariantId): Invariant => INVARIANTS.find((i) => i.id === id)!;
