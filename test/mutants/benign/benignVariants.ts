import type { Fault } from '../mutantProxy.js';
import { acsOrder } from './acsOrder.js';
import { contextOrders } from './contextOrders.js';
import { dedupReportedOtherwise } from './dedupReportedOtherwise.js';
import { emptyLastUserPage } from './emptyLastUserPage.js';
import { extraMembers, registryExtraMembers } from './extraMembers.js';
import { failedCompletionDetails } from './failedCompletionDetails.js';
import { checkpointsWithinLimit, interleavedCheckpoints } from './interleavedCheckpoints.js';
import { largerPageLimits } from './largerPageLimits.js';
import { noLookaheadPages } from './noLookaheadPages.js';
import { omittedDefaults } from './omittedDefaults.js';
import { opaqueResourceVersions } from './opaqueResourceVersions.js';
import { paidTrafficCosts } from './paidTrafficCosts.js';
import { permissionOnlyWithParty } from './permissionOnlyWithParty.js';
import { proto3Defaults } from './proto3Defaults.js';
import { registryMetadataChoices } from './registryMetadataChoices.js';
import { remoteParties } from './remoteParties.js';
import { scanPayloadTimes } from './scanPayloadTimes.js';
import { snapshotVersion } from './snapshotVersion.js';
import { versionFeatureChoices } from './versionFeatureChoices.js';
import { zonedTimestamps } from './zonedTimestamps.js';
import { commandIdsElsewhere } from './commandIdsElsewhere.js';
import { composeFaults } from './composeFaults.js';
import { httpFraming } from './httpFraming.js';
import { instantTimestamps } from './instantTimestamps.js';
import { laterRecordTimes } from './laterRecordTimes.js';
import { ignoredInstrumentPageSize } from './ignoredInstrumentPageSize.js';
import { unvalidatedFactoryArguments } from './unvalidatedFactoryArguments.js';
import { nullOptionalMembers } from './nullOptionalMembers.js';
import { ignoredUnknownMembers } from './ignoredUnknownMembers.js';
import { numericStrings } from './numericStrings.js';
import { negativeOffsetCode } from './negativeOffsetCode.js';
import { latency } from './latency.js';
import { newerScanMembers } from './newerScanMembers.js';
import { noDebugFields } from './noDebugFields.js';
import { offsetGaps } from './offsetGaps.js';
import { otherInstrumentMetadata } from './otherInstrumentMetadata.js';
import { otherListOrders } from './otherListOrders.js';
import { otherPatchVersion } from './otherPatchVersion.js';
import { otherUpdateIds } from './otherUpdateIds.js';
import { shortUpdateIds } from './shortUpdateIds.js';
import { cappedAcsPages } from './cappedAcsPages.js';
import { prettyJson } from './prettyJson.js';
import { reorderedKeys } from './reorderedKeys.js';
import { rewordedErrors } from './rewordedErrors.js';
import { scanAndRegistryChoices } from './scanAndRegistryChoices.js';
import { smallPages } from './smallPages.js';
import { submissionIds } from './submissionIds.js';
import { traceContexts } from './traceContexts.js';
import { retryAfterUnderLoad } from './retryAfterUnderLoad.js';
import { EARLY_PATCH_VERSION, earlyPatchRelease } from './earlyPatchRelease.js';
import { busyParticipant } from './busyParticipant.js';
import { networkVetting } from './networkVetting.js';
import { movedRoundPath, SPLICE_064, splice064 } from './otherSpliceRelease.js';
import { manyInstruments } from './manyInstruments.js';
import { richContextValues } from './richContextValues.js';
import { trailingNonesDropped } from './trailingNonesDropped.js';
import { scanPayloadNumerics } from './scanPayloadNumerics.js';
import { unknownTrafficMembers } from './unknownTrafficMembers.js';
import { nodeIdGaps } from './nodeIdGaps.js';
import { iamUserIds } from './iamUserIds.js';

/**
 * A benign variant: the reference server behind a rewrite that keeps it conformant, as a real
 * Canton 3.5 participant or Splice app may answer, but differs from the reference. The suite must
 * not fail or warn on any of them where it passes the reference itself (the converse of a mutant).
 */
export interface BenignVariant {
  readonly name: string;
  /** What differs, and why a real participant may differ so. */
  readonly description: string;
  /** The rewrite, or a factory of it when it keeps state (each proxy gets its own). */
  readonly fault: Fault | (() => Fault);
}

export const BENIGN_VARIANTS: readonly BenignVariant[] = [
  // The first layers see the answers last: whitespace, member order and the timestamps' format apply to what the others wrote.
  { name: 'pretty-json', description: 'JSON answers and frames indented, with a final newline', fault: prettyJson },
  { name: 'reordered-keys', description: 'JSON members in reverse order in every answer and frame', fault: reorderedKeys },
  // Before the variants that write timestamps (so it rewrites their answers after them), after the ones that only format.
  { name: 'zoned-timestamps', description: 'API timestamps written at +01:00 (RFC 3339)', fault: zonedTimestamps },
  { name: 'instant-timestamps', description: "the API's timestamps as Instant.toString writes them (0, 3, 6 or 9 fraction digits)", fault: instantTimestamps },
  { name: 'offset-gaps', description: 'offsets renumbered 3o+2^32+7 everywhere (answers, frames, error contexts), mapped back in requests', fault: offsetGaps },
  // Before other-update-ids: it shortens the ids that layer wrote (answers pass the layers last to first).
  { name: 'short-update-ids', description: 'update ids of 45 characters: the 32 bytes in base64url behind a tag (v:<43>), one to one', fault: shortUpdateIds },
  { name: 'other-update-ids', description: 'update ids upd-<64 hex> instead of 1220<64 hex>, one to one', fault: otherUpdateIds },
  { name: 'small-pages', description: 'parties 5 and users 100 a page, update and ACS pages of 7 by default, page tokens of another opaque format', fault: smallPages },
  { name: 'capped-acs-pages', description: 'active-contract pages of one entry whatever maxPageSize asks (max_page_size: "at most")', fault: cappedAcsPages },
  { name: 'other-list-orders', description: "lists whose order is the server's (actAs of completions, party lookups, witnesses, signatories, rights, synchronizers, package ids) reversed", fault: otherListOrders },
  { name: 'command-ids-elsewhere', description: 'no commandId, for anyone, on updates whose commands were not submitted through this participant (history its network submitted elsewhere)', fault: commandIdsElsewhere },
  { name: 'trace-contexts', description: 'a W3C traceContext on every transaction, reassignment and completion', fault: traceContexts },
  { name: 'later-record-times', description: 'every record time 250 ms after the reference records it (sequencing latency, another clock)', fault: laterRecordTimes },
  { name: 'submission-ids', description: 'a generated submissionId on every completion of a command submitted without one', fault: submissionIds },
  { name: 'no-debug-fields', description: 'a registry that never sends the optional debug* fields', fault: noDebugFields },
  { name: 'other-instrument-metadata', description: 'instruments without totalSupply and account input fields, paused: false written out', fault: otherInstrumentMetadata },
  { name: 'scan-and-registry-choices', description: "Scan's rounds cached half as long, every choice context with one more entry", fault: scanAndRegistryChoices },
  { name: 'newer-scan-members', description: "Scan's DSO info with its optional initial_round", fault: newerScanMembers },
  { name: 'other-patch-version', description: 'Canton 3.5.11 instead of 3.5.10', fault: otherPatchVersion },
  { name: 'reworded-errors', description: 'error causes and texts reworded, other trace and correlation ids, more context entries', fault: rewordedErrors },
  { name: 'latency', description: 'every answer 2 ms later', fault: latency(2) },
  { name: 'http-framing', description: 'gzip when accepted, chunked, Connection: close, charset in media types, header names in another case, extra headers', fault: httpFraming },
  // The eighth hunt's (each alone, then all of them with the above).
  { name: 'proto3-defaults', description: 'proto3 defaults written out: workflowId/commandId "", createdEventBlob "", interfaceViews/implementedInterfaces [], contractKey null, submissionId ""', fault: proto3Defaults },
  { name: 'omitted-defaults', description: 'optional members at their proto3 default left out (empty strings, false, empty lists, null error members)', fault: omittedDefaults },
  { name: 'extra-members', description: 'one more unknown member on every message of every answer and frame (response schemas are open)', fault: extraMembers },
  { name: 'registry-extra-members', description: "one more unknown member on every message of the registry's answers (the token standard's schemas are open; the ledger's requests are not)", fault: registryExtraMembers },
  { name: 'interleaved-checkpoints', description: 'an OffsetCheckpoint after every update and completion of a stream', fault: interleavedCheckpoints },
  { name: 'checkpoints-within-limit', description: 'interleaved checkpoints counted within an HTTP list limit', fault: checkpointsWithinLimit },
  { name: 'context-orders', description: 'disclosedContracts, sv_node_states, synchronizerTimes reversed', fault: contextOrders },
  { name: 'paid-traffic-costs', description: "paidTrafficCost on completions and on the submitter's transactions", fault: paidTrafficCosts },
  { name: 'dedup-reported-otherwise', description: 'completions omit or extend the deduplication period (DeduplicationPeriod: the ledger may extend it, the guarantee holds without it)', fault: dedupReportedOtherwise },
  { name: 'failed-completion-details', description: 'ErrorInfo details on failed completions', fault: failedCompletionDetails },
  { name: 'acs-order', description: 'the HTTP active-contracts list reversed', fault: acsOrder },
  { name: 'registry-metadata-choices', description: 'Amulet named Canton Coin (CC), more supportedApis', fault: registryMetadataChoices },
  { name: 'version-feature-choices', description: 'features.experimental empty', fault: versionFeatureChoices },
  { name: 'snapshot-version', description: 'version 3.5.11-SNAPSHOT', fault: snapshotVersion },
  { name: 'larger-page-limits', description: 'maxUsersPageSize 0 (no limit), 100000 parties, 1000 vetted packages a page', fault: largerPageLimits },
  { name: 'opaque-resource-versions', description: 'resourceVersion rv-<base64url> ("must not rely on the format")', fault: opaqueResourceVersions },
  { name: 'remote-parties', description: 'three parties hosted elsewhere listed (isLocal false) and found by lookups', fault: remoteParties },
  { name: 'permission-only-with-party', description: 'connected synchronizers name no permission unless a party is asked about (ConnectedSynchronizer.permission, optional since 3.5.1)', fault: permissionOnlyWithParty },
  { name: 'no-lookahead-pages', description: 'full last pages of users and parties carry a token to an empty page', fault: noLookaheadPages },
  // The ninth hunt's.
  { name: 'empty-last-user-page', description: 'every walk of the users ends on an empty page {"nextPageToken": ""} (users, a repeated field, left out)', fault: emptyLastUserPage },
  { name: 'scan-payload-times', description: "Scan's payloads write Daml Times with six zero fraction digits, or without trailing zeros (its own codec)", fault: scanPayloadTimes },
  // The tenth hunt's.
  // The fourteenth hunt's registry of many instruments answers its list itself, before the layer
  // that strips the list's query (a one-instrument registry's) sees it.
  { name: 'many-instruments', description: 'a registry of 30 instruments (Amulet first), metadata of their own (decimals 0-10, supplies absent or without trailing zeros, a paused one, one with accounts), the list paged by pageSize (25 by default)', fault: manyInstruments },
  { name: 'ignored-instrument-page-size', description: "the instrument list reads no pageSize (Splice Scan's: one instrument, a 200 for any page size)", fault: ignoredInstrumentPageSize },
  { name: 'null-optional-members', description: "registry requests' optional members written null read as absent (Splice's guardrail decoders)", fault: nullOptionalMembers },
  { name: 'unread-factory-arguments', description: "factories that read no more of the choice arguments than Splice Scan's (the transfer factory its receiver, the allocation factories nothing): a negative amount, an unknown instrument, large meta get the factory", fault: unvalidatedFactoryArguments },
  // The eleventh hunt's.
  { name: 'numeric-strings', description: "integer members of ledger requests (offsets, page sizes) written as JSON strings holding a number read as that number (circe's Decoder[Long])", fault: numericStrings },
  { name: 'negative-offset-code', description: 'a negative offset refused as NEGATIVE_OFFSET (Canton 3.5: ParticipantOffsetValidator), not INVALID_ARGUMENT', fault: negativeOffsetCode },
  // The twelfth hunt's: an ingress that sheds load, asking for the request again (Retry-After).
  { name: 'retry-after-under-load', description: 'one request in seven refused the first time with 429 or 503 and Retry-After: 0, served when repeated', fault: () => retryAfterUnderLoad() },
  // The thirteenth hunt's: a participant in use before the suite came, on a network. network-vetting
  // answers the vetting list itself (from the upstream's), so it comes after the layers that rewrite requests.
  { name: 'busy-participant', description: "parties, users (admins, a reader of any party, a deactivated one, one of another identity provider), identity providers and vetted packages (three versions of one name, a utility package) the suite did not make", fault: () => busyParticipant() },
  { name: 'network-vetting', description: "the vetted packages list names three other participants' entries first (sorted by synchronizer, then participant), two entries a page when no page size is asked", fault: networkVetting },
  // The fourteenth hunt's: a registry and a Scan of another vendor.
  { name: 'rich-context-values', description: 'every choice context with ten more entries, one of each AnyValue kind (Int, Decimal, Bool, Date, Time, RelTime, Party, List, Map, Text)', fault: richContextValues },
  { name: 'scan-payload-numerics', description: "Scan's payloads write Numerics without trailing zeros (0.005, not 0.0050000000)", fault: scanPayloadNumerics },
  { name: 'unknown-traffic-members', description: "Scan answers 404 for the traffic status of a member its sequencer does not know (any but the ledger's participant), as Splice's does", fault: () => unknownTrafficMembers() },
  // The fifteenth hunt's: a Canton 3.5 ledger writes records without their trailing None fields (Scan writes them null).
  { name: 'trailing-nones-dropped', description: "the ledger's Daml values without each record's trailing None fields (Canton 3.5's JSON codec: removeTrailingNonesInRecords)", fault: trailingNonesDropped },
  // The sixteenth hunt's: what a real Canton 3.5 participant writes that the reference does not.
  { name: 'node-id-gaps', description: "node ids of a transaction's whole execution order (fetch, lookup and rollback nodes numbered, not shown): event n at 2n, an exercise's last descendant at 2L+1 (Canton's TransactionTraversalUtils)", fault: nodeIdGaps },
  { name: 'iam-user-ids', description: "users named as identity providers name subjects (auth0|…@…, svc:….ops(ci), quotes, ~`^$!#): Canton's user id characters", fault: () => iamUserIds() },
  // Last: it sends the request upstream itself, after every other layer rewrote it.
  { name: 'ignored-unknown-members', description: "unknown top-level members of a ledger request ignored, not refused (Canton 3.5's circe decoders: strictDecoding off)", fault: ignoredUnknownMembers },
];

/**
 * An earlier release of the 3.5 line, run on its own (benignVariants.test.ts): it lacks what 3.5.7
 * added, so the checks of that skip as rules its release lacks, which the composed run would count
 * as findings against the control.
 */
export const EARLY_PATCH_RELEASE: BenignVariant = {
  name: 'early-patch-release',
  description: `Canton ${EARLY_PATCH_VERSION}: no GetCompletions (POST and WebSocket) and no POST active-contracts-page, 404 for them`,
  fault: earlyPatchRelease,
};

/**
 * A Scan of a Splice release since 0.6.5, run on its own (benignVariants.test.ts): it has no route
 * at the pre-0.6.5 path of the earliest round, so that path's MAY check skips, which the composed
 * run would count as a finding against the control.
 */
export const MOVED_ROUND_PATH: BenignVariant = {
  name: 'moved-round-path',
  description: 'a Scan of Splice 0.6.5 or later: no route at /v0/reward-accounting-process/... (404, a text body), the round only under /v0/internal/',
  fault: movedRoundPath,
};

/**
 * A Scan of Splice 0.6.4, run on its own (benignVariants.test.ts): it says its release, and serves
 * the earliest round only at the pre-0.6.5 path, so the checks of the moved path skip as rules its
 * release lacks, which the composed run would count as findings against the control.
 */
export const SPLICE_064_RELEASE: BenignVariant = {
  name: 'splice-0.6.4',
  description: `a Scan of Splice ${SPLICE_064}: GET /version says so, the earliest round only at /v0/reward-accounting-process/... (no route under /v0/internal/: 404, a text body)`,
  fault: splice064,
};

/** Every variant at once, in the order listed (the first rewrites requests first and answers last). */
export const allBenignVariants = (variants: readonly BenignVariant[] = BENIGN_VARIANTS): Fault => composeFaults(variants.map((v) => faultOf(v)));

/** A variant's rewrite, a fresh one for a stateful variant. */
export const faultOf = (v: BenignVariant): Fault => (typeof v.fault === 'function' ? v.fault() : v.fault);
