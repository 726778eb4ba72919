/**
 * Documented rules clients rely on, beyond "every operation is called": each names the checks
 * that enforce it. `list --coverage` and the reports list the rules whose checks are missing from
 * the catalogue (an empty `checkedBy` is a known gap, stated with why). Add a line when you add a
 * check for a rule that is not an operation's own.
 */
export interface DocumentedRule {
  readonly rule: string;
  /** Where the rule is written down. */
  readonly specRef: string;
  /** Check ids (or `prefix.*` globs) that enforce it; empty: not checked, see `gap`. */
  readonly checkedBy: readonly string[];
  /** Why a rule has no check (what the suite would need). */
  readonly gap?: string;
}

const B = 'Canton JSON Ledger API v2';

export const DOCUMENTED_RULES: readonly DocumentedRule[] = [
  { rule: 'one command, one update id and offset, wherever it is read (submit answer, completion, update stream, point lookups)', specRef: `${B}: Completion.update_id, offsets`, checkedBy: ['ledger.ids.agree-across-apis', 'ledger.submit.in-updates', 'ledger.submit-for-transaction.matches-stream'] },
  { rule: 'template, interface (includeInterfaceView) and wildcard filters, by party and for any party, in active contracts and updates (HTTP and WebSocket)', specRef: `${B}: EventFormat`, checkedBy: ['ledger.filters.active-contracts', 'ledger.filters.updates'] },
  { rule: 'includeCreatedEventBlob: blobs exactly when asked for', specRef: `${B}: CumulativeFilter`, checkedBy: ['ledger.acs.created-event-blob', 'ledger.filters.*'] },
  { rule: 'transactionShape: ACS_DELTA (created + archived) vs LEDGER_EFFECTS (created + exercised)', specRef: `${B}: TransactionShape`, checkedBy: ['ledger.updates.transaction-shape'] },
  { rule: 'read through an interface filter with includeInterfaceView, an archived event and a consuming exercised event name the interface in implementedInterfaces (how a wallet knows an archive concerns a holding)', specRef: `${B}: ArchivedEvent.implemented_interfaces, ExercisedEvent.implemented_interfaces`, checkedBy: ['ledger.updates.transaction-shape'] },
  { rule: 'values are labelled records whatever verbose says', specRef: `${B}: value rendering from the Daml type`, checkedBy: ['ledger.acs.verbose-values'] },
  { rule: 'an exercise answers its result and the events of what it did', specRef: `${B}: ExercisedEvent`, checkedBy: ['ledger.exercise.result-and-events'] },
  { rule: 'visibility: a party sees only contracts it is a stakeholder of', specRef: `${B}: visibility`, checkedBy: ['ledger.visibility.stakeholders-only'] },
  { rule: 'visibility holds in point reads: update-by-id/offset, events-by-contract-id, contract-by-id and the deprecated transaction-by-id/offset answer 404 to a party that sees nothing of it', specRef: `${B}: UPDATE_NOT_FOUND, CONTRACT_EVENTS_NOT_FOUND, CONTRACT_PAYLOAD_NOT_FOUND (not found, or not visible)`, checkedBy: ['ledger.visibility.point-reads-stakeholders-only'] },
  { rule: "filtersByParty: each party's filters apply to that party's events only, however many parties one request names", specRef: `${B}: EventFormat.filters_by_party`, checkedBy: ['ledger.filters.active-contracts', 'ledger.filters.updates'] },
  { rule: 'a template filter by package name (#name:Module:Entity) matches the template in every version of the package', specRef: `${B}: TemplateFilter.template_id (package-name reference)`, checkedBy: ['ledger.commands.package-selection'] },
  { rule: "a completion stream is one user's and its parties': it shows only commands that user submitted, acting as one of the requested parties", specRef: `${B}: CompletionStreamRequest.user_id, parties; Completion.act_as`, checkedBy: ['ledger.async.submit-then-completion', 'ledger.completions.websocket'] },
  { rule: "an offset checkpoint's synchronizer times never lie before an update it follows on that synchronizer", specRef: `${B}: OffsetCheckpoint.synchronizer_times`, checkedBy: ['ledger.updates.ordered'] },
  { rule: 'a created event in active contracts carries the offset of the transaction that created it, not the snapshot offset', specRef: `${B}: CreatedEvent.offset`, checkedBy: ['ledger.acs.active-at-offset'] },
  { rule: 'reads of moving state are not declared fresh for HTTP caches (a browser wallet would read a stale ledger end)', specRef: 'RFC 9111 §4.2', checkedBy: ['ledger.wire.state-reads-not-cacheable'] },
  { rule: 'user and party management round trips', specRef: `${B}: UserManagementService, PartyManagementService`, checkedBy: ['ledger.users.*', 'ledger.parties.*'] },
  { rule: 'command deduplication on (userId, actAs, commandId)', specRef: `${B}: command deduplication`, checkedBy: ['ledger.dedup.*', 'ledger.stateful.model'] },
  { rule: 'active contracts at any offset between the pruning offset and the ledger end', specRef: `${B}: activeAtOffset`, checkedBy: ['ledger.acs.active-at-offset', 'ledger.stateful.model', 'ledger.pruned-offsets.shape'] },
  { rule: 'the pruned offset a participant reports is one it can read from: the updates after it are answered', specRef: `${B}: GetLatestPrunedOffsets participant_pruned_up_to_inclusive; GetUpdatesRequest.begin_exclusive`, checkedBy: ['ledger.pruned-offsets.shape'] },
  { rule: "one party's cumulative filters are their union: a contract carries a blob when any filter matching it asks for one, and the view of every interface a matching filter asks a view of", specRef: `${B}: CumulativeFilter, include_created_event_blob, include_interface_view`, checkedBy: ['ledger.filters.active-contracts', 'ledger.filters.updates'] },
  { rule: "a completion's offset is its place in the completion stream: read from the offset before it, not from its own", specRef: `${B}: Completion.offset; CompletionStreamRequest.begin_exclusive`, checkedBy: ['ledger.async.rejection-completes'] },
  { rule: 'a minimum ledger time may be given relative to now: an hour ahead is refused as an absolute one is', specRef: `${B}: Commands.min_ledger_time_rel`, checkedBy: ['ledger.commands.ledger-time-bounded'] },
  { rule: 'registry choice contexts are complete and usable: the disclosed contracts let the choice succeed', specRef: 'Splice token standard: registry API', checkedBy: ['registry.accept.context-complete', 'registry.accept.context-usable', 'registry.withdraw.context-usable'] },
  { rule: 'factory requests with amounts that are not a positive Daml Numeric 10, unknown instruments, non-party receivers or oversized metadata get 400 {error}, or the factory valid arguments get (a registry need not read them: the Daml choice refuses them), never a 5xx or another factory', specRef: 'Splice token standard: transfer-instruction and allocation-instruction getFactory 400; Splice Scan\'s factory handlers', checkedBy: ['registry.transfer-factory.bad-input-400', 'registry.allocation-factory.bad-input-400', 'registry.allocation-factory.bad-input-400-v2', 'registry.settlement-factory.bad-input-400'] },
  { rule: "Scan and the registry answer from the ledger's contracts", specRef: 'service description: groups A, B, C share one ledger', checkedBy: ['registry.cross-group.disclosed-match-ledger', 'scan.cross-group.preapproval-matches-ledger'] },
  { rule: 'a change id may be reused once the deduplication period has passed', specRef: `${B}: deduplication_period`, checkedBy: ['ledger.dedup.reuse-after-period'] },
  { rule: 'only accepted changes are deduplicated: a command id the ledger refused may be retried', specRef: `${B}: command deduplication`, checkedBy: ['ledger.dedup.rejected-not-deduplicated'] },
  { rule: 'an async submission the ledger rejects completes with a non-OK status', specRef: `${B}: Completion.status`, checkedBy: ['ledger.async.rejection-completes'] },
  { rule: "a rejected command's completion names no update (update_id is only set for successfully executed commands)", specRef: `${B}: Completion.update_id`, checkedBy: ['ledger.async.rejection-completes'] },
  { rule: 'a command on a missing contract or an unknown package is refused as not found (404, errorCategory 11, not retryable), never as a transient or internal error', specRef: 'Canton ConsistencyErrors.ContractNotFound; JSON Ledger API GrpcHttpErrorCodes', checkedBy: ['ledger.errors.not-found-not-retryable'] },
  { rule: "a transaction's events are listed in node order (pre-order for LEDGER_EFFECTS)", specRef: `${B}: Event.node_id`, checkedBy: ['ledger.updates.transaction-shape', 'ledger.trees.node-ids-describe-tree'] },
  { rule: 'an expired token opens no WebSocket stream', specRef: `${B}: JWT exp; WebSocket subprotocol jwt.token.<JWT>`, checkedBy: ['ledger.auth.expired-token-401'] },
  { rule: "Scan's AmuletRules and rounds name a synchronizer the participant is connected to", specRef: 'Splice Scan: ContractWithState.domain_id', checkedBy: ['scan.cross-group.domain-id-connected'] },
  { rule: "Scan's caches: a contract is left out only when the caller named its id as cached (a stale cache gets the current AmuletRules and rounds)", specRef: 'Splice Scan: GetAmuletRulesRequest, GetOpenAndIssuingMiningRoundsRequest', checkedBy: ['scan.amulet-rules.cached-id', 'scan.rounds.cached-ids'] },
  { rule: "Scan's featured-apps lookup answers the provider's FeaturedAppRight as the ledger created it", specRef: 'Splice Scan: lookupFeaturedAppRight', checkedBy: ['scan.cross-group.featured-app-right-found', 'scan.featured-apps.party-checked'] },
  { rule: "Scan's round maps are keyed by each round's contract id (the cache is kept by these keys)", specRef: 'Splice Scan: GetOpenAndIssuingMiningRoundsResponse open_mining_rounds, issuing_mining_rounds', checkedBy: ['scan.rounds.cached-ids', 'scan.rounds.open-round-now'] },
  { rule: 'reassignment counters: 0 at creation, one more with each unassignment, the same on an unassignment and its assignment, the latest activation\'s in active contracts', specRef: `${B}: UnassignedEvent / AssignedEvent / ActiveContract reassignment_counter`, checkedBy: ['ledger.reassignment.unassign-assign'] },
  { rule: "an assignment carries its unassignment's reassignment id (the two halves of one reassignment pair by it)", specRef: `${B}: AssignedEvent.reassignment_id`, checkedBy: ['ledger.reassignment.unassign-assign'] },
  { rule: "a completion names the user whose command it completes", specRef: `${B}: Completion.user_id`, checkedBy: ['ledger.command-completions.by-party'] },
  { rule: 'a template named by package name runs the highest vetted version of that name, unless packageIdSelectionPreference names another, on prepare as on submit', specRef: `${B}: Commands.package_id_selection_preference, PrepareSubmissionRequest.package_id_selection_preference`, checkedBy: ['ledger.commands.package-selection'] },
  { rule: 'a contract is exercised through another version of its template (smart contract upgrades): upgraded with its missing fields None, the exercised event naming the version that ran; a downgrade never drops a field holding Some', specRef: `${B}: ExercisedEvent.template_id`, checkedBy: ['ledger.commands.contract-upgrade'] },
  { rule: "a transaction's command id is its submitters' alone: another party reading it gets none", specRef: `${B}: Transaction.command_id (missing for everyone except the submitting party)`, checkedBy: ['ledger.transactions.command-id-submitters-only'] },
  { rule: "readAs: the contracts of the parties a submission reads as are visible to its commands (they authorize nothing)", specRef: `${B}: Commands.read_as`, checkedBy: ['ledger.commands.read-as'] },
  { rule: 'uploaded Daml is validated before it is stored: a package that does not type-check or misses a dependency is refused', specRef: `${B}: UploadDarFile (DAR_VALIDATION_ERROR, DAR_NOT_SELF_CONSISTENT)`, checkedBy: ['ledger.packages.invalid-package-refused', 'ledger.packages.corrupt-dar-400'] },
  { rule: 'a package name and version name one package: another package under them is refused (KNOWN_PACKAGE_VERSION)', specRef: `${B}: UploadDarFile`, checkedBy: ['ledger.packages.same-name-and-version-refused'] },
  { rule: 'the versions of a package name vetted together each upgrade the one before: a version that drops what an older one has is refused (NOT_VALID_UPGRADE_PACKAGE)', specRef: `${B}: UploadDarFile; smart contract upgrades`, checkedBy: ['ledger.packages.upgrade-incompatible-refused'] },
  { rule: 'an external party is onboarded only with its own key\'s signature over the onboarding transactions', specRef: `${B}: AllocateExternalPartyRequest.multi_hash_signatures`, checkedBy: ['ledger.external-party.allocate-needs-the-key'] },
  { rule: 'allocation contexts (v1 and v2) disclose every contract they name, exist for allocations the v2 factory made, and an archived instruction has no context', specRef: 'Splice token standard: allocation-v1/v2 and transfer-instruction-v1 choice contexts', checkedBy: ['registry.allocation.contexts-v1', 'registry.allocation.contexts-v2', 'registry.cross-group.settlement-context-lets-settle-batch-succeed', 'registry.cross-group.transfer-context-lets-accept-succeed'] },
  // Meaning, not shape: rules whose checks judge what an answer says.
  { rule: "a transfer factory's transferKind agrees with the receiver's preapproval and with how the transfer ends", specRef: 'Splice token standard: TransferFactoryWithChoiceContext.transferKind', checkedBy: ['registry.transfer-factory.kind-matches-outcome'] },
  { rule: 'every factory of every served API version answers an id the ledger exercises', specRef: 'Splice token standard: FactoryWithChoiceContext.factoryId', checkedBy: ['registry.factories.ids-work-on-ledger', 'registry.transfer-factory.kind-matches-outcome', 'registry.cross-group.settlement-context-lets-settle-batch-succeed'] },
  { rule: "an instrument's supportedApis list a transfer-instruction API the registry's transfer factory transferred it through", specRef: 'token-metadata-v1 Instrument.supportedApis (the APIs supported for a given instrument)', checkedBy: ['registry.metadata.instrument-lists-transfer-api'] },
  { rule: "every factory API an instrument's supportedApis list is served: that version's transfer-instruction or allocation-instruction factory answers (400 to a malformed request, not 404)", specRef: 'token-metadata-v1 Instrument.supportedApis; the factory endpoints of transfer-instruction and allocation-instruction v1/v2', checkedBy: ['registry.metadata.instrument-apis-served'] },
  { rule: 'a page walk ends: a page never answers, as its nextPageToken, the token that serves it again (parties, users)', specRef: `${B}: ListKnownParties / ListUsers next_page_token (empty when there are no further results)`, checkedBy: ['ledger.lists.complete-on-every-page'] },
  { rule: 'a lookup answers what the list holds for the same id (instruments, parties, users)', specRef: 'token-metadata-v1 getInstrument; Canton JSON Ledger API v2 GetParties, GetUser', checkedBy: ['registry.metadata.instrument-read-equals-list-entry', 'ledger.lookups.agree-with-lists'] },
  { rule: "the validator's scan proxy answers what Scan answers, in full", specRef: 'Splice validator scan-proxy.yaml', checkedBy: ['scan.proxy.answers-in-full', 'scan.proxy.*'] },
  { rule: "the rounds' cache lifetime (time_to_live_in_microseconds) is no longer than a round's tick", specRef: 'Splice Scan: GetOpenAndIssuingMiningRoundsResponse', checkedBy: ['scan.rounds.cache-ttl-fits-tick'] },
  { rule: 'limit, maxPageSize and pageSize are bounds; a list walked page by page is the whole list', specRef: `${B}: limit, max_page_size, page_size, page tokens`, checkedBy: ['ledger.lists.size-bounds', 'ledger.lists.complete-on-every-page', 'ledger.acs-page.walk-equals-list', 'ledger.updates-page.walk-equals-list'] },
  { rule: "an active-contracts page token continues the walk it came from: the same offset and the same filter, so every page of a template-filtered walk holds that template's contracts only", specRef: `${B}: GetActiveContractsPageRequest.page_token (same active_at_offset and event_format)`, checkedBy: ['ledger.acs-page.walk-equals-list', 'ledger.acs-page-post.walk-equals-list'] },
  { rule: 'streams are bounded as asked: completions strictly after beginExclusive, nothing past endInclusive and then a close, the WebSocket snapshot equal to the HTTP one', specRef: `${B}: begin_exclusive, end_inclusive, active_at_offset`, checkedBy: ['ledger.completions.strictly-after-begin', 'ledger.updates.websocket-bounded-closes', 'ledger.acs.websocket-equals-http', 'ledger.updates.websocket-matches-http', 'ledger.completions.websocket'] },
  { rule: "a transaction is what the Daml engine builds from the submitted commands on the target's own packages (re-interpretation, judge.daml.*): nodes, payloads, signatories, observers, consuming flags, results", specRef: `${B}: CommandService; Canton confirmation (re-interpretation by every confirming participant)`, checkedBy: ['ledger.daml.own-package'] },
  { rule: 'node ids and lastDescendantNodeId describe the transaction tree', specRef: `${B}: ExercisedEvent.last_descendant_node_id`, checkedBy: ['ledger.trees.node-ids-describe-tree'] },
  { rule: 'write answers reflect the write (identity providers, vetting, parties, users)', specRef: `${B}: Update*Response`, checkedBy: ['ledger.writes.answer-reflects-write', 'ledger.parties.update-resource-version', 'ledger.users.update-primary-party'] },
  { rule: 'the hash recorded on a committed externally signed transaction is the hash the party signed', specRef: `${B}: Transaction.external_transaction_hash`, checkedBy: ['ledger.interactive.committed-hash-is-signed-hash'] },
  { rule: "errorCategory, grpcCodeValue, the error code and the HTTP status agree as Canton's error catalogue defines", specRef: 'Canton ErrorCategory; JSON Ledger API GrpcHttpErrorCodes', checkedBy: ['ledger.errors.metadata-agree'] },
  { rule: "an event names its template's package name; an archive names the template and package name the contract was created with (re-interpretation judge.daml.package-name; judge.facts.reread-equal)", specRef: `${B}: event.proto package_name, ArchivedEvent.template_id`, checkedBy: ['ledger.daml.own-package', 'ledger.events-by-contract-id.create-then-archive'] },
  { rule: "a created event's witnesses are the requesting stakeholders whose filter takes it (for any party: those the participant hosts), in ACS-delta reads no one else (judge.events.witnesses-requested)", specRef: `${B}: event.proto witness_parties`, checkedBy: ['ledger.daml.own-package', 'ledger.filters.active-contracts'] },
  { rule: 'a completion names the submission id and the acting parties its command was submitted with', specRef: `${B}: Completion.submission_id, act_as`, checkedBy: ['ledger.async.submit-then-completion'] },
  { rule: "an event's acsDelta says whether it belongs to the ACS-delta view of the same read (judge.events.acs-delta)", specRef: `${B}: event.proto acs_delta (3.4 on)`, checkedBy: ['ledger.commands.create-and-exercise', 'ledger.exercise.result-and-events'] },
  { rule: "a user update with a stale resource version is refused (CONCURRENT_USER_UPDATE_DETECTED) and leaves the user as the earlier update made it", specRef: `${B}: UpdateUser metadata.resource_version`, checkedBy: ['ledger.users.update-resource-version'] },
  { rule: 'an identity provider config created deactivated stays deactivated', specRef: `${B}: CreateIdentityProviderConfig (is_deactivated)`, checkedBy: ['ledger.idp.create-get'] },
  { rule: 'a user keeps the deactivation and annotations it was created with; a party the annotations it was allocated with', specRef: `${B}: CreateUser (is_deactivated, metadata), AllocateParty (local_metadata)`, checkedBy: ['ledger.users.create-get-round-trip', 'ledger.parties.allocate-round-trip'] },
  { rule: "a pending transfer's reject and withdraw contexts let the receiver reject it and the sender withdraw it on the ledger", specRef: 'Splice token standard: transfer-instruction-v1 choice contexts (reject, withdraw)', checkedBy: ['registry.cross-group.transfer-contexts-let-reject-withdraw-succeed'] },
  { rule: "a holding is of the instrument it was made of (admin and id), and one locked to a pending two-step transfer shows its lock in its Holding view: every holding shown unlocked is spendable by its owner alone", specRef: 'Splice token standard: holding-v1 HoldingView.lock; wallet-sdk listHoldingUtxos', checkedBy: ['registry.holdings.views-after-offer'] },
  { rule: "an allocation's execute-transfer, cancel and withdraw contexts let each choice succeed on the ledger, and none is served once the allocation is archived", specRef: 'Splice token standard: allocation-v1 choice contexts', checkedBy: ['registry.cross-group.allocation-contexts-let-choices-succeed'] },
  { rule: 'a transfer past its executeBefore does not execute (the registry or the ledger refuses it)', specRef: 'Splice token standard: Transfer.executeBefore', checkedBy: ['registry.transfer-factory.expired-refused'] },
  { rule: "an allocation past its deadline is not made (the registry or the ledger refuses it): v1's settlement allocateBefore, v2's settlementDeadline", specRef: 'Splice token standard: allocation-v1 SettlementInfo.allocateBefore; allocation-v2 AllocationSpecification.settlementDeadline', checkedBy: ['registry.factories.ids-work-on-ledger'] },
  { rule: 'the package list holds the packages the participant uses, not only uploads', specRef: `${B}: ListPackages`, checkedBy: ['ledger.packages.list'] },
  {
    rule: 'reads before the pruning offset are refused (PARTICIPANT_PRUNED_DATA_ACCESSED)',
    specRef: `${B}: pruning`,
    checkedBy: [],
    gap: 'needs a target that has pruned; the JSON API has no operation to prune with',
  },
  {
    rule: 'completion streams emit offset checkpoints while idle',
    specRef: `${B}: OffsetCheckpoint`,
    checkedBy: [],
    gap: 'checkpoint timing is a participant setting; not yet checked',
  },
];
