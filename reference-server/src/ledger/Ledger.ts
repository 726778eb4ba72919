import { resolveEngineLimits, type EngineLimits } from './engine/engineLimits.js';
import type { EngineWorkerOptions } from './engine/EngineWorker.js';
import { createHash, hash as digest, randomBytes } from 'node:crypto';
import type { AdminStore } from '../store/AdminStore.js';
import type { LedgerStore } from '../store/LedgerStore.js';
import type { LogEntry, ReassignmentEntry, SubmissionInfo, TransactionEntry } from '../store/LogEntry.js';
import { MemoryStore } from '../store/MemoryStore.js';
import type { ReassignmentStep, StoredContract } from '../store/StoredContract.js';
import { activeContracts } from './acs.js';
import { encodeBlob } from './blob.js';
import type { LedgerConfig, LedgerOptions } from './config.js';
import { resolveConfig } from './config.js';
import type { LedgerContext } from './context.js';
import { type CompletionQuery, completionQueryOf, completionsAt, completionsRange, getCompletionsQueryOf } from './completions.js';
import type { LedgerError } from './errors.js';
import { toTimestamp } from './clock.js';
import { fail, ledgerError } from './errors.js';
import { ledgerTimeOutOfBound } from './ledgerTime.js';
import { resolveEventFormat, wildcardEventQuery } from './filters.js';
import { Interner } from './intern.js';
import { cachedSelection } from './engine/cachedSelection.js';
import { EngineRuntime } from './engine/EngineRuntime.js';
import type { EngineCommand } from './engine/engineCommandOf.js';
import { engineCommandsOf, interpretWithEngine } from './engine/interpretWithEngine.js';
import { ENGINE_SLICING } from './engine/engineSlicing.js';
import { inSlicesTwice, preRunEngineCommands, runEngineCommands, type EngineRun, type EngineRunOptions } from './engine/runEngineCommands.js';
import type { EngineContract, EngineSubmission, EngineSubmitted } from './engine/engineNative.js';
import { activeEngineContracts, engineSubmissionOf } from './engine/engineNative.js';
import type { DefValue } from '../../../daml-engine/ast/Package.js';
import type { QualifiedName } from '../../../daml-engine/ast/Type.js';
import type { BuiltinName, FirstOrderBuiltin } from '../../../daml-engine/builtins/Builtin.js';
import type { PackageCache } from '../../../daml-engine/decode/decodeArchive.js';
import type { Value as EngineValue } from '../../../daml-engine/value/Value.js';
import type { InterpretEnv, PreparedTransaction, Seeding } from './interpret.js';
import { contractIdFrom, contractViewOf, interpret, transactionSeedBase, transactionSeedOf } from './interpret.js';
import { parseOffset } from './offsets.js';
import { fingerprintOf, isValidPartyHint, isValidPartyId } from './parties.js';
import * as identityProviders from './identityProviders.js';
import type { IdentityProviderConfig } from './identityProviders.js';
import type * as P from './packages/packageWire.js';
import * as packageService from './packages/packageService.js';
import type { PackageContext, UploadOptions } from './packages/packageService.js';
import * as partyService from './partyService.js';
import { Renderer } from './render.js';
import type { Result } from './result.js';
import { err, ok } from './result.js';
import type { UnzipResult } from './packages/unzipDar.js';
import type { PassedChecks } from './packages/validateDarPackages.js';
import type { ValidatedSubmission } from './submission.js';
import { validateSubmission } from './submission.js';
import type { ValidatedReassignment } from './reassignmentCommands.js';
import { validateReassignmentCommands } from './reassignmentCommands.js';
import { CommitPulse, tail } from './tail.js';
import { partiesTouchedBy } from './partiesTouchedBy.js';
import { Catalogue } from './templates/Catalogue.js';
import { registerSampleTemplates } from './templates/sampleTemplates.js';
import type { ContractView } from './templates/types.js';
import { checkpointAt, renderUpdate, resolveUpdateFormat, updateInterest, updateQueryOf, updatesAt, updatesDescending, updatesRange, validateRange } from './updates.js';
import type { Claim, UserCaller } from './userService.js';
import * as userService from './userService.js';
import { PARTICIPANT_ADMIN_USER } from './users.js';
import { isPlainObject, show } from './values.js';
import type * as W from './wire.js';
import type * as WR from './wireReads.js';
import { activeContractsPage } from './acsPage.js';
import { contractById, eventsByContractId } from './contractReads.js';
import { legacyLookupFormat, treeOf, treesOf, treesQuery, visibleTransaction } from './legacyUpdates.js';
import { updatesPage } from './updatesPage.js';
import { completionByHash, requestedHash, TransactionHashIndex } from './transactionHashes.js';
import { partyJwks } from './partyJwks.js';

export type { Claim } from './userService.js';

export interface SubscribeOptions {
  /** Ends the stream (the iterator returns) when aborted. */
  readonly signal?: AbortSignal;
}

export type R<T> = Result<T, LedgerError>;

/** What a successful commit produced. */
export interface Committed {
  readonly offset: number;
  readonly updateId: string;
  readonly entry: TransactionEntry;
}

export interface ReassignOptions {
  readonly submitter: string;
  readonly userId?: string;
  readonly commandId?: string;
  readonly submissionId?: string;
  readonly workflowId?: string;
}

export { ENGINE_SLICE_STEPS } from './engine/engineSlicing.js';

export interface CreateLedgerOptions extends LedgerOptions {
  readonly store?: LedgerStore;
  /** Packages, vetting state and identity provider configs; in memory unless given. */
  readonly adminStore?: AdminStore;
  /** Register the sample templates (asset, account, holding interface). Default true. */
  readonly sampleTemplates?: boolean;
  /** Evaluation steps one engine submission may take (a looping choice stops there). Default 10,000,000; `engineLimits.stepBudget` too. */
  readonly engineStepBudget?: number;
  /** The bounds on uploaded code (steps, allocation, transaction size, views); defaults otherwise (DEFAULT_ENGINE_LIMITS). */
  readonly engineLimits?: Partial<EngineLimits>;
  /** Receives `trace` / `debug` output of uploaded packages' choices (a Daml Script run reports it). */
  readonly engineOnTrace?: (message: string) => void;
  /** Decoded packages to share with the caller (a Daml Script run decoded its DAR already). */
  readonly enginePackageCache?: PackageCache;
  /** Top-level values to share with other ledgers of the same packages (a Daml Script run's participants). Default: those of the package cache. */
  readonly engineSharedValues?: Map<DefValue, EngineValue>;
  /** Packages the upload check passed before, in another process (`passedChecksIn`): not checked again. */
  readonly passedChecks?: PassedChecks;
  /** For tests only: builtins replacing the engine's, to prove checks can fail. Never set by the server or CLI. */
  readonly engineBuiltinOverrides?: ReadonlyMap<BuiltinName, FirstOrderBuiltin>;
  /**
   * Engine runs made ahead (the command service's, interactive submission's) on a thread of their
   * own (EngineWorker.ts), so this thread serves other requests meanwhile; `serve` turns it on. Where the worker's module is not built
   * (the TypeScript sources) runs stay on this thread, in slices. `close()` stops the thread.
   */
  readonly engineWorker?: boolean | EngineWorkerOptions;
}

/**
 * One participant with two synchronizers: parties, users, templates, commands, the update log,
 * the active contract set. No HTTP here; every refusal is a LedgerError in a Result.
 */
export class Ledger {
  readonly config: LedgerConfig;
  readonly catalogue: Catalogue;
  readonly store: LedgerStore;
  readonly admin: AdminStore;
  readonly #ctx: LedgerContext;
  readonly #packages: PackageContext;
  /** Bumped by every call that may write packages or vetting, so the selection stamp is O(1) per command. */
  #adminChanges = 0;
  #stampAt = -1;
  #stamp: string | undefined;
  readonly #interner = new Interner();
  /** The Daml-LF engine over the uploaded packages. */
  readonly engine: EngineRuntime;
  readonly #pulse: CommitPulse;
  readonly #listeners = new Set<(entry: LogEntry) => void>();
  readonly #userListeners = new Set<(userId: string) => void>();
  /** Change ids of accepted async submissions not yet committed. */
  readonly #inFlight = new Set<string>();
  /** In-flight reassignments by id. */
  readonly #unassigned = new Map<string, StoredContract>();
  #nonce: number;
  #seedBase: Uint8Array | undefined;
  /** Nonces up to this one are recorded as used in the store (see #nextNonce). */
  #nonceReserved: number;
  /** A prepared transaction commits at most once (its contracts become ledger state). */
  readonly #committedTransactions = new WeakSet<PreparedTransaction>();
  /** Transaction UUIDs of committed externally signed transactions, with when each may be used again (the mediator's deduplication). */
  readonly #usedTransactionUuids = new Map<string, number>();
  /** Externally signed submissions' commits by their hash (the 3.6 lookups by hash). */
  readonly #hashes = new TransactionHashIndex();

  constructor(options: CreateLedgerOptions = {}) {
    this.config = resolveConfig(options);
    this.#pulse = new CommitPulse(this.config.streamTimers);
    this.catalogue = new Catalogue();
    this.store = options.store ?? new MemoryStore();
    this.admin = options.adminStore ?? this.store;
    this.#ctx = {
      config: this.config,
      store: this.store,
      admin: this.admin,
      catalogue: this.catalogue,
      renderer: new Renderer(this.config),
      interner: this.#interner,
    };
    this.#nonce = this.#nonceReserved = Number(this.store.meta(NONCE_KEY) ?? 0);
    this.#packages = {
      config: this.config,
      admin: this.admin,
      catalogue: this.catalogue,
      isKnownParty: (party) => this.isKnownParty(party),
      enginePackage: (id) => this.engine.packages.get(id),
      decodedPackage: (id) => this.engine.packages.decoded(id),
      passedChecks: options.passedChecks,
    };
    this.engine = new EngineRuntime({
      admin: this.admin,
      selectPackageId: cachedSelection(
        (name, preference, uploadedOnly) => packageService.selectPackageId(this.#packages, name, this.config.clock.now(), preference, uploadedOnly),
        () => this.#vettingStamp(),
      ),
      limits: resolveEngineLimits({ ...options.engineLimits, ...(options.engineStepBudget === undefined ? {} : { stepBudget: options.engineStepBudget }) }),
      onTrace: options.engineOnTrace,
      packageCache: options.enginePackageCache,
      sharedValues: options.engineSharedValues,
      builtinOverrides: options.engineBuiltinOverrides,
      worker: options.engineWorker,
    });
    this.catalogue.useUploaded(this.engine.catalogue);
    if (options.sampleTemplates !== false) registerSampleTemplates(this.catalogue);
    if (!this.store.user(PARTICIPANT_ADMIN_USER)) {
      this.store.putUser({
        id: PARTICIPANT_ADMIN_USER,
        primaryParty: undefined,
        isDeactivated: false,
        annotations: {},
        resourceVersion: 0,
        identityProviderId: '',
        rights: new Set(['ParticipantAdmin']),
      });
    }
  }

  /**
   * Hands the package names of the declared (built-in) templates that uploaded packages also have
   * to the uploaded packages (Catalogue.yieldToUploaded), less `keep`: from now on `#name` ids in
   * commands, filters and reads name the uploaded package of that name, and package selection and
   * `/v2/packages` no longer see the built-in one. Returns the names yielded.
   */
  preferUploadedPackageNames(keep: ReadonlySet<string> = new Set()): readonly string[] {
    const yielded = this.catalogue.yieldToUploaded(new Set(this.admin.packages().map((p) => p.packageName)), keep);
    this.#adminChanges++;
    return yielded;
  }

  /**
   * Puts back what a durable store found on disk: the update log is replayed through the commit
   * listeners (so the apps' views rebuild), and in-flight reassignments are found again. Call
   * once every template is declared and every listener attached; a no-op for a new store.
   */
  recover(): void {
    this.store.recover?.(this.catalogue, (entry) => this.#committed(entry));
    for (const c of this.store.activeSnapshot({ kind: 'all' })) if (c.inFlight) this.#unassigned.set(c.inFlight.reassignmentId, c);
  }

  // ------------------------------------------------------------------ packages and vetting

  /**
   * Reads, decodes and checks a DAR whole, then records and vets its packages (all or none).
   * `inflated`: the DAR's entries already inflated by `unzipDarAsync` (the HTTP route does so in
   * slices, off the event loop's critical path); otherwise they are inflated here.
   */
  uploadDar(bytes: Uint8Array, options: UploadOptions = {}, inflated?: UnzipResult): R<Record<string, never>> {
    const r = this.uploadDarChecked(bytes, options, inflated);
    return r.ok ? ok({}) : r;
  }
  /**
   * Reads, decodes and checks a DAR ahead of `uploadDar` / `validateDar` with the same `inflated`
   * entries, in slices that yield to the event loop (a large DAR never holds other clients); the
   * upload then records synchronously what this checked, all or none.
   */
  async prepareDar(bytes: Uint8Array, inflated: UnzipResult): Promise<void> {
    await packageService.prepareDar(this.#packages, bytes, inflated);
  }
  /** `uploadDar`, answering what it read and decoded: to record on another ledger in this one's state with `recordCheckedDar`. */
  uploadDarChecked(bytes: Uint8Array, options: UploadOptions = {}, inflated?: UnzipResult): R<packageService.CheckedDar> {
    this.#adminChanges++;
    const r = packageService.uploadDar(this.#packages, bytes, options, true, this.config.clock.now(), inflated);
    if (!r.ok) return r;
    // The engine keeps the packages the check decoded, so the first command does not decode them again.
    for (const p of r.value.decoded) this.engine.packages.adopt(p);
    return r;
  }
  /**
   * Records a DAR another ledger read and checked (`uploadDarChecked`), without reading, decoding
   * or checking it again: the same packages, vetting and errors as uploading its bytes here, when
   * this ledger knows the same packages that one did (msw's `reset()` rebuilding the same world).
   */
  recordCheckedDar(dar: packageService.CheckedDar, options: UploadOptions = {}): R<Record<string, never>> {
    this.#adminChanges++;
    const r = packageService.recordDar(this.#packages, dar, options, true, this.config.clock.now());
    if (!r.ok) return r;
    for (const p of dar.decoded) this.engine.packages.adopt(p);
    return ok({});
  }
  validateDar(bytes: Uint8Array, options: UploadOptions = {}, inflated?: UnzipResult): R<Record<string, never>> {
    this.#adminChanges++;
    const r = packageService.uploadDar(this.#packages, bytes, options, false, this.config.clock.now(), inflated);
    return r.ok ? ok({}) : r;
  }
  listPackages(): { packageIds: string[] } {
    return packageService.listPackages(this.#packages);
  }
  getPackage(packageId: string): R<{ payload: Uint8Array; hash: string }> {
    return packageService.getPackage(this.#packages, packageId);
  }
  packageStatus(packageId: string): R<{ packageStatus: P.PackageStatus }> {
    return packageService.packageStatus(this.#packages, packageId);
  }
  listVettedPackages(req: P.ListVettedPackagesRequest): R<P.ListVettedPackagesResponse> {
    return packageService.listVettedPackages(this.#packages, req);
  }
  updateVettedPackages(req: P.UpdateVettedPackagesRequest): R<P.UpdateVettedPackagesResponse> {
    this.#adminChanges++;
    return packageService.updateVettedPackages(this.#packages, req);
  }
  preferredPackageVersion(query: { parties: readonly string[]; packageName: string | undefined; vettingValidAt: string | undefined; synchronizerId: string | undefined }): R<P.GetPreferredPackageVersionResponse> {
    return packageService.preferredPackageVersion(this.#packages, query, this.config.clock.now());
  }
  preferredPackages(req: P.GetPreferredPackagesRequest): R<P.GetPreferredPackagesResponse> {
    return packageService.preferredPackages(this.#packages, req, this.config.clock.now());
  }

  // ------------------------------------------------------------------ identity providers

  createIdentityProvider(req: { identityProviderConfig?: unknown }): R<{ identityProviderConfig: IdentityProviderConfig }> {
    return identityProviders.createIdentityProvider(this.admin, req);
  }
  getIdentityProvider(id: string): R<{ identityProviderConfig: IdentityProviderConfig }> {
    return identityProviders.getIdentityProvider(this.admin, id);
  }
  listIdentityProviders(): { identityProviderConfigs: IdentityProviderConfig[] } {
    return identityProviders.listIdentityProviders(this.admin);
  }
  /** The identity provider config that issues tokens as `issuer`, if any. */
  identityProviderOfIssuer(issuer: string): IdentityProviderConfig | undefined {
    return identityProviders.identityProviderOfIssuer(this.admin, issuer);
  }
  updateIdentityProvider(id: string, req: { identityProviderConfig?: unknown; updateMask?: { paths?: unknown } }): R<{ identityProviderConfig: IdentityProviderConfig }> {
    return identityProviders.updateIdentityProvider(this.admin, id, req);
  }
  deleteIdentityProvider(id: string): R<Record<string, never>> {
    return identityProviders.deleteIdentityProvider(this.admin, id);
  }
  updateUserIdentityProvider(userId: string, req: { userId?: unknown; sourceIdentityProviderId?: unknown; targetIdentityProviderId?: unknown }): R<Record<string, never>> {
    // A moved user's tokens belong to its new identity provider: its open streams end.
    return this.#userChanged(userId, identityProviders.updateUserIdentityProvider(this.admin, this.store, userId, req));
  }
  /**
   * The identity provider an administrating user is confined to: undefined for a participant
   * admin (or an unknown user, which the access check has already refused).
   */
  adminScopeOf(userId: string): string | undefined {
    const u = this.store.user(userId);
    if (!u || u.rights.has('ParticipantAdmin')) return undefined;
    return u.identityProviderId;
  }

  /**
   * The parties a user reads as (CanReadAs, CanActAs), `'all'` with CanReadAsAnyParty or
   * CanActAsAnyParty: what Canton backfills a by-hash lookup with (MatchReadAsParties).
   */
  readerScopeOf(userId: string): ReadonlySet<string> | 'all' {
    const rights = this.store.user(userId)?.rights ?? new Set<string>();
    if (rights.has('CanReadAsAnyParty') || rights.has('CanActAsAnyParty')) return 'all';
    const parties = new Set<string>();
    for (const r of rights) {
      const m = /^Can(?:ReadAs|ActAs):(.*)$/s.exec(r);
      if (m) parties.add(m[1] as string);
    }
    return parties;
  }

  // ------------------------------------------------------------------ version and state

  version(): W.GetLedgerApiVersionResponse {
    return { version: this.config.apiVersion, features: this.config.features };
  }
  ledgerEnd(): W.GetLedgerEndResponse {
    const offset = this.store.ledgerEnd;
    if (!this.config.shapes.ledgerEndSynchronizerTimes) return { offset };
    // The reference sequences by its own clock: every synchronizer it is connected to has reached now,
    // so a command whose maxRecordTime is before it and has no completion yet is lost.
    const recordTime = toTimestamp(Math.max(this.config.clock.now(), this.store.entryAt(offset)?.recordTime ?? 0));
    return { offset, synchronizerTimes: this.config.synchronizers.map((s) => ({ synchronizerId: s.id, recordTime })) };
  }
  latestPrunedOffsets(): W.GetLatestPrunedOffsetsResponse {
    const p = this.store.prunedUpTo;
    return { participantPrunedUpToInclusive: p, allDivulgedContractsPrunedUpToInclusive: p };
  }
  connectedSynchronizers(query: { party?: string; participantId?: string } = {}): R<W.GetConnectedSynchronizersResponse> {
    if (query.party !== undefined && query.party !== '') {
      if (!isValidPartyId(query.party)) return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: '${query.party.slice(0, 80)}' is not a valid party id`);
      if (!this.store.party(query.party)) return ok({ connectedSynchronizers: [] });
    }
    if (query.participantId !== undefined && query.participantId !== '' && query.participantId !== this.config.participantId) {
      return ok({ connectedSynchronizers: [] });
    }
    return ok({
      connectedSynchronizers: this.config.synchronizers.map((s) => ({
        synchronizerAlias: s.alias,
        synchronizerId: s.id,
        permission: 'PARTICIPANT_PERMISSION_SUBMISSION' as const,
      })),
    });
  }

  // ------------------------------------------------------------------ parties

  allocateParty(req: W.AllocatePartyRequest): R<W.AllocatePartyResponse> {
    const prepared = partyService.prepareAllocation(this.#ctx, req, () => `party-${randomBytes(8).toString('hex')}`);
    if (!prepared.ok) return prepared;
    let user;
    if (req.userId !== undefined && req.userId !== '') {
      const u = userService.getUser(this.#ctx, req.userId);
      if (!u.ok) return u;
      user = this.store.user(u.value.user.id);
    }
    const party = prepared.value;
    this.store.putParty(party);
    this.#appendTopology(party.party);
    if (user) {
      user.rights.add(`CanActAs:${party.party}`);
      this.store.putUser(user);
      this.#userChanged(user.id, ok(undefined));
    }
    return ok({ partyDetails: partyService.partyDetailsOf(party) });
  }

  /**
   * Adds an external party (its namespace is its own key's fingerprint). The interactive
   * submission service checks signatures against `publicKey`.
   */
  allocateExternalParty(hint: string, publicKey: { format: string; keyData: string; keySpec: string }): R<W.PartyDetails> {
    if (!isValidPartyHint(hint)) return fail('INVALID_ARGUMENT', `Party hint '${show(hint)}' is not valid`);
    const bytes = Buffer.from(publicKey.keyData, 'base64');
    if (bytes.length === 0) return fail('INVALID_ARGUMENT', 'The public key is empty');
    const party = `${hint}::${fingerprintOf(bytes)}`;
    if (this.store.party(party)) return fail('PARTY_ALREADY_EXISTS', `Party ${party} already exists on this participant`, { context: { party } });
    const stored = { party: this.#interner.string(party), isLocal: true, annotations: {}, resourceVersion: 0, identityProviderId: '', externalKey: publicKey };
    this.store.putParty(stored);
    this.#appendTopology(stored.party);
    return ok(partyService.partyDetailsOf(stored));
  }

  listParties(req: W.ListKnownPartiesRequest = {}): R<W.ListKnownPartiesResponse> {
    return partyService.listParties(this.#ctx, req);
  }
  getParties(parties: readonly string[]): R<W.GetPartiesResponse> {
    return partyService.getParties(this.#ctx, parties);
  }
  /** `callerIdentityProvider`: the identity provider an identity provider admin is scoped to. */
  updatePartyDetails(party: string, req: W.UpdatePartyDetailsRequest, callerIdentityProvider?: string): R<W.UpdatePartyDetailsResponse> {
    return partyService.updatePartyDetails(this.#ctx, party, req, callerIdentityProvider);
  }
  isKnownParty(party: string): boolean {
    return this.store.party(party) !== undefined;
  }

  // ------------------------------------------------------------------ users and rights

  /*
   * User management takes the caller (`userCallerOf`) where an API client asks: it works within
   * the caller's identity provider. Without one (fixtures, LocalNet, Daml Script) no identity
   * provider applies.
   */

  /** Who asks, as user management reads the caller's claims; `undefined`: the unsecured participant's wildcard claims. */
  userCallerOf(userId: string | undefined): UserCaller {
    if (userId === undefined) return { participantAdmin: true, identityProviderId: undefined };
    const u = this.store.user(userId);
    return { participantAdmin: u?.rights.has('ParticipantAdmin') === true, identityProviderId: u === undefined || u.identityProviderId === '' ? undefined : u.identityProviderId };
  }
  createUser(req: W.CreateUserRequest, caller?: UserCaller): R<W.CreateUserResponse> {
    return userService.createUser(this.#ctx, req, caller);
  }
  /** `identityProviderId`: the one the request names (the JSON API's `identity-provider-id`). */
  getUser(userId: string, identityProviderId?: string, caller?: UserCaller): R<W.GetUserResponse> {
    return userService.getUser(this.#ctx, userId, identityProviderId, caller);
  }
  listUsers(req: W.ListUsersRequest = {}, caller?: UserCaller): R<W.ListUsersResponse> {
    return userService.listUsers(this.#ctx, req, caller);
  }
  updateUser(userId: string, req: W.UpdateUserRequest, caller?: UserCaller): R<W.UpdateUserResponse> {
    return this.#userChanged(userId, userService.updateUser(this.#ctx, userId, req, caller));
  }
  /** `callerUserId` is the authenticated user; a user cannot delete itself. */
  deleteUser(userId: string, callerUserId?: string, caller?: UserCaller): R<W.DeleteUserResponse> {
    return this.#userChanged(userId, userService.deleteUser(this.#ctx, userId, callerUserId, caller));
  }
  grantUserRights(userId: string, req: W.GrantUserRightsRequest, caller?: UserCaller): R<W.GrantUserRightsResponse> {
    return this.#userChanged(userId, userService.grantRights(this.#ctx, userId, req, caller));
  }
  revokeUserRights(userId: string, req: W.RevokeUserRightsRequest, caller?: UserCaller): R<W.RevokeUserRightsResponse> {
    return this.#userChanged(userId, userService.revokeRights(this.#ctx, userId, req, caller));
  }
  /**
   * What a stream's authorization rests on: the user's rights and whether it is active, as one
   * comparable string; undefined for a user that does not exist. Open streams compare it on
   * every change of their user (see `onUserChange`).
   */
  userAccessState(userId: string): string | undefined {
    const u = this.store.user(userId);
    return u === undefined ? undefined : `${u.isDeactivated ? 'deactivated' : 'active'}|${u.identityProviderId}|${[...u.rights].sort().join('|')}`;
  }
  /** Called after a user's rights, record or existence changed. Returns an unsubscribe function. */
  onUserChange(listener: (userId: string) => void): () => void {
    this.#userListeners.add(listener);
    return () => this.#userListeners.delete(listener);
  }
  listUserRights(userId: string, caller?: UserCaller): R<W.ListUserRightsResponse> {
    return userService.listRights(this.#ctx, userId, caller);
  }
  /** Rights check for the auth layer: does `userId` hold every claim? (Unsecured mode skips it.) */
  /** `identityProviderId`: the one whose issuer signed the caller's token, which the user must belong to (undefined: not checked). */
  authorize(userId: string, claims: readonly Claim[], identityProviderId?: string): R<void> {
    return userService.authorize(this.#ctx, userId, claims, identityProviderId);
  }

  // ------------------------------------------------------------------ command submission

  /** Starts the engine thread, if the ledger has one, decoding the uploaded packages there meanwhile (a server calls it once it listens). */
  prepareEngineThread(): void {
    this.engine.worker?.prepare(this.admin.packages().map((p) => p.packageId));
  }

  /** Stops what the ledger runs beside its own thread (the engine thread); the ledger answers on without it. */
  async close(): Promise<void> {
    await this.engine.worker?.close();
  }

  /**
   * The command service's engine work ahead of its commit: commands on uploaded templates are
   * interpreted in slices that yield to the event loop (`ENGINE_SLICE_STEPS` steps each), so other
   * clients are served meanwhile; the outcome waits for `submitAndWait` (and the other submit
   * methods) of the same `commands` object, which commits it synchronously if every contract it
   * read is unchanged, else interprets again. Anything else (bad input, built-in templates) is
   * left to the submit method, which answers it.
   */
  async preRunEngine(commands: W.JsCommands): Promise<void> {
    const v = this.#validate(commands);
    if (!v.ok) return;
    const env = this.#interpretEnv();
    const c = engineCommandsOf(env, this.engine, v.value);
    if (c === undefined || !c.ok || c.value.length === 0) return;
    await preRunEngineCommands(env, this.engine, v.value, c.value, this.config.clock.now(), ENGINE_SLICING);
  }

  /**
   * Runs a synchronous operation whose engine runs are seeded inside it (interactive prepare and
   * execute) with those runs made in slices that yield to the event loop (`inSlicesTwice`): the
   * same answer, and others are served while the engine works.
   */
  inEngineSlices<T>(operation: () => T): Promise<T> {
    return inSlicesTwice(operation, ENGINE_SLICING);
  }

  /** Shape checks and interpretation, no commit: the first half of every submission. */
  interpret(commands: W.JsCommands): R<PreparedTransaction> {
    const v = this.#validate(commands);
    if (!v.ok) return v;
    return this.#interpret(v.value);
  }

  /**
   * Interactive submission's first step: the validated submission, with its engine commands when
   * its commands are on uploaded templates (undefined when on declared ones: `interpretValidated`).
   */
  engineCommands(commands: W.JsCommands): R<{ readonly submission: ValidatedSubmission; readonly commands: EngineCommand[] | undefined }> {
    const v = this.#validate(commands);
    if (!v.ok) return v;
    const c = engineCommandsOf(this.#interpretEnv(), this.engine, v.value);
    if (c !== undefined && !c.ok) return c;
    return ok({ submission: v.value, commands: c?.value });
  }

  /**
   * `interpret` of a submission `engineCommands` validated. `seeding` seeds the built-in models'
   * nodes and derives their contract ids as a participant's engine does (interactive submission
   * shows the seeds, and derives the same ids again at execution); `now` is the clock's time to
   * interpret at.
   */
  interpretValidated(v: ValidatedSubmission, options: { readonly seeding?: Seeding; readonly now?: number } = {}): R<PreparedTransaction> {
    return this.#interpret(v, options);
  }

  /** Runs engine commands as one transaction of `submission`, seeded and timed as the caller decides (interactive submission); nothing is written. */
  runEngine(submission: ValidatedSubmission, commands: readonly EngineCommand[], options: EngineRunOptions): R<EngineRun> {
    return runEngineCommands(this.#interpretEnv(), this.engine, submission, commands, this.config.clock.now(), options);
  }

  /**
   * Second half: re-checks the inputs are still active and where they were, applies command
   * deduplication, assigns the offset. A refusal here is recorded as a rejected completion.
   */
  commit(prepared: PreparedTransaction): R<Committed> {
    const sub = prepared.submission;
    if (this.#committedTransactions.has(prepared)) {
      return fail('INVALID_ARGUMENT', `This prepared transaction (command ${sub.commandId}) has already been committed`);
    }
    const now = this.config.clock.now();
    const replayed = prepared.transactionUuid === undefined ? undefined : this.transactionUuidReplay(prepared.transactionUuid);
    if (replayed) return this.#reject(sub, replayed);
    for (const c of prepared.inputs) {
      if (!c.isActive) return this.#reject(sub, fail('CONTRACT_NOT_ACTIVE', `Contract ${c.contractId} was archived before the transaction committed`, { context: { contract_id: c.contractId } }).error);
      if (c.inFlight || c.synchronizer !== prepared.synchronizer) {
        return this.#reject(
          sub,
          fail('UNKNOWN_CONTRACT_SYNCHRONIZERS', `Contract ${c.contractId} moved to another synchronizer before the transaction committed`, {
            context: { contract_id: c.contractId },
          }).error,
        );
      }
    }
    const duplicate = this.#duplicateOf(sub, now);
    if (duplicate) return this.#reject(sub, duplicate);
    // The confirmers' check: a ledger time (minLedgerTime, or an interactive transaction's bounds) too far from the record time.
    const outOfBound = ledgerTimeOutOfBound(prepared.ledgerTime, now);
    if (outOfBound) return this.#reject(sub, outOfBound);
    const actAsKey = this.#interner.string(sub.actAs.join('\n'));
    const offset = this.store.ledgerEnd + 1;
    const updateId = this.#updateId(offset);
    for (const c of prepared.created) {
      c.createdOffset = offset;
      c.synchronizer = prepared.synchronizer;
      c.originSynchronizer = prepared.synchronizer;
    }
    const archived: StoredContract[] = [];
    for (const c of prepared.consumed) {
      c.archivedOffset = offset;
      archived.push(c);
    }
    for (const n of prepared.nodes) {
      if (n.kind === 'create' && n.transient) {
        n.contract.archivedOffset = offset;
        archived.push(n.contract);
      }
    }
    // The optional fields set after the literal, in the same order: spreading them in costs more than the rest of the entry.
    const entry: { -readonly [K in keyof TransactionEntry]: TransactionEntry[K] } = {
      kind: 'transaction',
      offset,
      updateId,
      recordTime: now,
      effectiveAt: prepared.ledgerTime,
      synchronizer: prepared.synchronizer,
      nodes: prepared.nodes,
      submission: this.#submissionInfo(sub),
    };
    if (prepared.externalTransactionHash !== undefined) entry.externalTransactionHash = prepared.externalTransactionHash;
    if (prepared.transactionUuid !== undefined) entry.transactionUuid = prepared.transactionUuid;
    this.store.append(entry, { created: prepared.created, archived });
    this.#committedTransactions.add(prepared);
    this.store.putDedup({ userId: sub.userId, actAsKey, commandId: sub.commandId, offset, recordTime: now, submissionId: sub.submissionId });
    this.#committed(entry);
    return ok({ offset, updateId, entry });
  }

  /**
   * The mediator's refusal of a confirmation request whose UUID an earlier one used (Canton's
   * DUPLICATE_CONFIRMATION_REQUEST_UUID), within the mediator deduplication timeout; undefined
   * when the UUID is fresh. An externally signed transaction is thus executed at most once,
   * whoever submits it and however late: after the timeout its preparation time is out of bounds.
   */
  transactionUuidReplay(transactionUuid: string): LedgerError | undefined {
    const expireAfter = this.#usedTransactionUuids.get(transactionUuid);
    if (expireAfter === undefined || this.config.clock.now() > expireAfter) return undefined;
    return ledgerError(
      'DUPLICATE_CONFIRMATION_REQUEST_UUID',
      `The request UUID (${transactionUuid}) is a duplicate of a previous request with an identical UUID. It cannot be re-used until ${toTimestamp(expireAfter)}.`,
      { context: { transaction_uuid: transactionUuid } },
    );
  }

  /** Records a rejected submission (on its completion) and answers the error: interactive submission's refusals after sequencing. */
  rejectSubmission(sub: ValidatedSubmission, error: LedgerError): R<never> {
    return this.#reject(sub, error);
  }

  /**
   * Hook for interactive submission, which must answer a replayed execution with
   * DUPLICATE_COMMAND before it rebuilds the transaction (a consumed input would otherwise be
   * reported instead). The same check as commit's, recording the rejection as commit does.
   */
  rejectDuplicate(sub: ValidatedSubmission): R<void> {
    const duplicate = this.#duplicateOf(sub, this.config.clock.now());
    return duplicate ? this.#reject(sub, duplicate) : ok(undefined);
  }

  submitAndWait(commands: W.JsCommands): R<W.SubmitAndWaitResponse> {
    const c = this.#submit(commands);
    return c.ok ? ok({ updateId: c.value.updateId, completionOffset: c.value.offset }) : c;
  }

  submitAndWaitForTransaction(req: W.JsSubmitAndWaitForTransactionRequest): R<W.JsSubmitAndWaitForTransactionResponse> {
    if (!isPlainObject(req) || !isPlainObject(req.commands)) return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: commands');
    const format = this.#transactionFormat(req.commands, req.transactionFormat);
    if (!format.ok) return format;
    const c = this.#submit(req.commands);
    if (!c.ok) return c;
    return ok({ transaction: this.#ctx.renderer.transaction(c.value.entry, format.value.q, format.value.shape) });
  }

  /** Accepts the submission and commits it on a later tick; the outcome arrives on completions. */
  submitAsync(commands: W.JsCommands): R<W.SubmitResponse> {
    const v = this.#validate(commands);
    if (!v.ok) return v;
    const p = this.#interpret(v.value);
    if (!p.ok) return p;
    const key = this.#changeKey(v.value);
    this.#inFlight.add(key);
    setImmediate(() => {
      this.#inFlight.delete(key);
      this.commit(p.value);
    });
    return ok({});
  }

  // ------------------------------------------------------------------ the engine, natively

  /**
   * Runs Daml-LF updates over engine values (see `EngineSubmission`) as one transaction of
   * `actAs`, checked and committed like any submission (authorization, visibility of contracts to
   * act-as and read-as, disclosed contracts), and answers the engine's own results and transaction
   * beside the offset and update id it committed at. For engine callers such as a Daml Script runner.
   */
  submitEngineCommands(req: EngineSubmission): R<EngineSubmitted> {
    const sub = engineSubmissionOf(req);
    if (sub.actAs.length === 0) return fail('MISSING_FIELD', 'The submitted command is missing a mandatory field: act_as', { context: { field_name: 'act_as' } });
    const unknown = [...sub.actAs, ...sub.readAs].filter((p) => !this.store.party(p));
    if (unknown.length) return fail('PARTY_NOT_KNOWN_ON_LEDGER', `Parties not known on ledger: ${unknown.join(', ')}`, { context: { parties: unknown.join(',') } });
    const now = this.config.clock.now();
    if (req.ledgerTime !== undefined && req.ledgerTime / 1000n !== BigInt(Math.trunc(now))) {
      return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: ledger time ${req.ledgerTime} µs is not within the ledger clock's millisecond ${now}`);
    }
    const at = req.ledgerTime === undefined ? {} : { preparationTime: req.ledgerTime, ledgerTime: req.ledgerTime };
    const run = runEngineCommands(this.#interpretEnv(), this.engine, sub, req.commands.map((update) => ({ update, resultType: undefined })), now, at);
    if (!run.ok) return run;
    const c = this.commit(run.value.prepared);
    return c.ok ? ok({ results: run.value.results, transaction: run.value.transaction, offset: c.value.offset, updateId: c.value.updateId }) : c;
  }

  /**
   * `submitEngineCommands` with its engine run made in slices that yield to the event loop (Daml
   * Script on the ledger core, `CoreScriptLedger`): the same outcome, others served meanwhile.
   */
  submitEngineCommandsInSlices(req: EngineSubmission): Promise<R<EngineSubmitted>> {
    return inSlicesTwice(() => this.submitEngineCommands(req), ENGINE_SLICING);
  }

  /** Active contracts of an uploaded template, or of the templates implementing an uploaded interface (with their views), that `parties` see. */
  activeEngineContracts(id: QualifiedName, parties: readonly string[]): EngineContract[] {
    return activeEngineContracts(this.engine, this.store, id, parties);
  }

  // ------------------------------------------------------------------ reading

  /** Active contracts at `activeAtOffset`, lazily rendered (iterate to stream). */
  activeContracts(req: W.GetActiveContractsRequest): R<Iterable<W.JsGetActiveContractsResponse>> {
    return activeContracts(this.#ctx, req);
  }

  /**
   * Updates in (beginExclusive, min(endInclusive, ledger end)], followed by an OffsetCheckpoint
   * at the end of that range when the last update shown is before it.
   */
  updates(req: W.GetUpdatesRequest): R<Iterable<W.JsGetUpdatesResponse>> {
    const p = this.#updatesRequest(req);
    if (!p.ok) return p;
    const { uq, begin, end } = p.value;
    const to = end ?? this.store.ledgerEnd;
    if (req.descendingOrder === true) return ok(updatesDescending(this.#ctx, uq, begin, to));
    return ok(updatesRange(this.#ctx, uq, begin, to, () => this.config.clock.now()));
  }

  /** Like `updates`, then tails new updates as they commit while `endInclusive` is absent. */
  subscribeUpdates(req: W.GetUpdatesRequest, opts: SubscribeOptions = {}): R<AsyncIterable<W.JsGetUpdatesResponse>> {
    const p = this.#updatesRequest(req);
    if (!p.ok) return p;
    if (req.descendingOrder === true) return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: descending_order is not supported on a stream');
    const { uq, begin, end } = p.value;
    return ok(
      tail({
        beginExclusive: begin,
        endInclusive: end,
        signal: opts.signal,
        ledgerEnd: () => this.store.ledgerEnd,
        pulse: this.#pulse,
        range: (from, to, end) => updatesRange(this.#ctx, uq, from, to, () => this.config.clock.now(), end),
        at: (offsets, from, to, end) => updatesAt(this.#ctx, uq, offsets, from, to, () => this.config.clock.now(), end),
        interest: updateInterest(uq),
        checkpoint: (offset) => ({ update: { OffsetCheckpoint: { value: checkpointAt(this.#ctx, offset, this.config.clock.now()) } } }),
        checkpointIntervalMs: this.config.checkpointIntervalMs,
      }),
    );
  }

  updateById(req: W.GetUpdateByIdRequest): R<W.GetUpdateResponse> {
    if (!isPlainObject(req) || typeof req.updateId !== 'string' || req.updateId === '') return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: update_id');
    const offset = this.store.offsetOfUpdate(req.updateId);
    return this.#updateAt(offset, req.updateFormat, `Update with id ${req.updateId} not found`);
  }

  /** Canton 3.6: the transaction an external submitter's signed hash committed, as `updateById` answers it. */
  updateByHash(req: W.GetUpdateByHashRequest): R<W.GetUpdateResponse> {
    const hash = requestedHash(isPlainObject(req) ? req.transactionHash : undefined);
    if (!hash.ok) return hash;
    const offset = this.#hashes.offsets(hash.value).find((o) => this.store.entryAt(o)?.kind === 'transaction');
    return this.#updateAt(offset, req.updateFormat, `Update with transaction hash ${hash.value} not found`);
  }

  /**
   * Canton 3.6: the completions of the submissions that signed this hash, as `parties` see them
   * (`'all'`: a caller who reads as any party).
   */
  completionByHash(req: W.GetCompletionByHashRequest, parties: ReadonlySet<string> | 'all'): R<W.GetCompletionByHashResponse> {
    return completionByHash(this.#ctx, this.#hashes, isPlainObject(req) ? req.transactionHash : undefined, parties);
  }

  /** Canton 3.6: the keys a party's external signatures verify with, as a JWKS. */
  partyJwks(synchronizerId: string, party: string): R<W.GetJwksResponse> {
    return partyJwks(this.#ctx, synchronizerId, party);
  }

  updateByOffset(req: W.GetUpdateByOffsetRequest): R<W.GetUpdateResponse> {
    const o = parseOffset(isPlainObject(req) ? req.offset : undefined, 'offset', true);
    if (!o.ok) return o;
    return this.#updateAt(o.value, req.updateFormat, `Update at offset ${o.value} not found`);
  }

  // ------------------------------------------------------------------ point reads, pages and legacy forms

  /** Legacy flat-transaction lookup: ACS delta for the requesting parties unless a format is given. */
  transactionById(req: WR.GetTransactionByIdRequest): R<W.JsSubmitAndWaitForTransactionResponse> {
    if (!isPlainObject(req) || typeof req.updateId !== 'string' || req.updateId === '') return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: update_id');
    const format = legacyLookupFormat(this.#ctx, req.requestingParties, req.transactionFormat, 'TRANSACTION_SHAPE_ACS_DELTA');
    if (!format.ok) return format;
    const offset = this.store.offsetOfUpdate(req.updateId);
    const tx = visibleTransaction(this.#ctx, offset === undefined ? undefined : this.store.entryAt(offset), format.value);
    return tx ? ok({ transaction: tx }) : fail('UPDATE_NOT_FOUND', `Transaction with id ${req.updateId} not found, or not visible`, { context: { update_id: req.updateId } });
  }

  transactionByOffset(req: WR.GetTransactionByOffsetRequest): R<W.JsSubmitAndWaitForTransactionResponse> {
    const o = parseOffset(isPlainObject(req) ? req.offset : undefined, 'offset', true);
    if (!o.ok) return o;
    const format = legacyLookupFormat(this.#ctx, req.requestingParties, req.transactionFormat, 'TRANSACTION_SHAPE_ACS_DELTA');
    if (!format.ok) return format;
    const tx = visibleTransaction(this.#ctx, this.store.entryAt(o.value as number), format.value);
    return tx ? ok({ transaction: tx }) : fail('UPDATE_NOT_FOUND', `Transaction at offset ${o.value} not found, or not visible`, { context: { offset: String(o.value) } });
  }

  /** Legacy tree lookup: the ledger-effects view of the requesting parties, keyed by node id. */
  transactionTreeById(updateId: string, requestingParties: readonly string[]): R<WR.JsGetTransactionTreeResponse> {
    if (updateId === '') return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: update_id');
    const format = legacyLookupFormat(this.#ctx, requestingParties, undefined, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
    if (!format.ok) return format;
    const offset = this.store.offsetOfUpdate(updateId);
    const tx = visibleTransaction(this.#ctx, offset === undefined ? undefined : this.store.entryAt(offset), format.value);
    return tx ? ok({ transaction: treeOf(tx) }) : fail('UPDATE_NOT_FOUND', `Transaction with id ${updateId} not found, or not visible`, { context: { update_id: updateId } });
  }

  transactionTreeByOffset(offset: number, requestingParties: readonly string[]): R<WR.JsGetTransactionTreeResponse> {
    const o = parseOffset(offset, 'offset', true);
    if (!o.ok) return o;
    const format = legacyLookupFormat(this.#ctx, requestingParties, undefined, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
    if (!format.ok) return format;
    const tx = visibleTransaction(this.#ctx, this.store.entryAt(offset), format.value);
    return tx ? ok({ transaction: treeOf(tx) }) : fail('UPDATE_NOT_FOUND', `Transaction at offset ${offset} not found, or not visible`, { context: { offset: String(offset) } });
  }

  /** Legacy trees stream over a closed range (the legacy filter only; no topology events). */
  updateTrees(req: W.GetUpdatesRequest): R<Iterable<WR.JsGetUpdateTreesResponse>> {
    const p = this.#treesRequest(req);
    if (!p.ok) return p;
    const { uq, begin, end } = p.value;
    return ok(treesOf(updatesRange(this.#ctx, uq, begin, end ?? this.store.ledgerEnd, () => this.config.clock.now())));
  }

  /** Like `updateTrees`, then tails new trees as they commit while `endInclusive` is absent. */
  subscribeUpdateTrees(req: W.GetUpdatesRequest, opts: SubscribeOptions = {}): R<AsyncIterable<WR.JsGetUpdateTreesResponse>> {
    const p = this.#treesRequest(req);
    if (!p.ok) return p;
    const { uq, begin, end } = p.value;
    return ok(
      tail({
        beginExclusive: begin,
        endInclusive: end,
        signal: opts.signal,
        ledgerEnd: () => this.store.ledgerEnd,
        pulse: this.#pulse,
        range: (from, to, end) => treesOf(updatesRange(this.#ctx, uq, from, to, () => this.config.clock.now(), end)),
        at: (offsets, from, to, end) => treesOf(updatesAt(this.#ctx, uq, offsets, from, to, () => this.config.clock.now(), end)),
        // Woken only by commits its parties see, like /v2/updates (quiet checkpoints otherwise).
        interest: updateInterest(uq),
        checkpoint: (offset) => ({ update: { OffsetCheckpoint: { value: checkpointAt(this.#ctx, offset, this.config.clock.now()) } } }),
        checkpointIntervalMs: this.config.checkpointIntervalMs,
      }),
    );
  }

  updatesPage(req: WR.GetUpdatesPageRequest): R<WR.JsGetUpdatesPageResponse> {
    return updatesPage(this.#ctx, req);
  }

  /** A page of the active contract set; the token pins the offset of the first page. */
  activeContractsPage(req: WR.GetActiveContractsPageRequest): R<WR.JsGetActiveContractsPageResponse> {
    return activeContractsPage(this.#ctx, req);
  }

  eventsByContractId(req: WR.GetEventsByContractIdRequest): R<WR.JsGetEventsByContractIdResponse> {
    return eventsByContractId(this.#ctx, req);
  }

  contractById(req: WR.GetContractRequest): R<WR.GetContractResponse> {
    return contractById(this.#ctx, req);
  }

  /** Legacy: submit and answer the transaction tree of the actAs and readAs parties. */
  submitAndWaitForTransactionTree(commands: W.JsCommands): R<WR.JsSubmitAndWaitForTransactionTreeResponse> {
    if (!isPlainObject(commands)) return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: commands');
    const parties = [...(Array.isArray(commands.actAs) ? commands.actAs : []), ...(Array.isArray(commands.readAs) ? commands.readAs : [])].filter((p) => typeof p === 'string');
    const c = this.#submit(commands);
    if (!c.ok) return c;
    const format = legacyLookupFormat(this.#ctx, [...new Set(parties)], undefined, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
    if (!format.ok) return format;
    return ok({ transactionTree: treeOf(this.#ctx.renderer.transaction(c.value.entry, format.value.q, format.value.shape)) });
  }

  /** Completions for (userId, parties) after beginExclusive, up to the ledger end. */
  completions(req: W.CompletionStreamRequest): R<Iterable<W.CompletionStreamResponse>> {
    const p = this.#completionsRequest(req);
    if (!p.ok) return p;
    return ok(completionsRange(this.#ctx, p.value.q, p.value.begin, this.store.ledgerEnd, () => this.config.clock.now()));
  }

  subscribeCompletions(req: W.CompletionStreamRequest, opts: SubscribeOptions = {}): R<AsyncIterable<W.CompletionStreamResponse>> {
    const p = this.#completionsRequest(req);
    return p.ok ? ok(this.#tailCompletions(p.value.q, p.value.begin, opts)) : p;
  }

  /** GetCompletions (Canton 3.5.7+): every user's completions for the parties (all when none), up to the ledger end. */
  getCompletions(req: W.GetCompletionsRequest): R<Iterable<W.CompletionStreamResponse>> {
    const p = this.#getCompletionsRequest(req);
    if (!p.ok) return p;
    return ok(completionsRange(this.#ctx, p.value.q, p.value.begin, this.store.ledgerEnd, () => this.config.clock.now()));
  }

  /** GetCompletions as an open-ended stream, tailing the ledger like the deprecated completion stream. */
  subscribeGetCompletions(req: W.GetCompletionsRequest, opts: SubscribeOptions = {}): R<AsyncIterable<W.CompletionStreamResponse>> {
    const p = this.#getCompletionsRequest(req);
    return p.ok ? ok(this.#tailCompletions(p.value.q, p.value.begin, opts)) : p;
  }

  #tailCompletions(q: CompletionQuery, begin: number, opts: SubscribeOptions): AsyncIterable<W.CompletionStreamResponse> {
    return tail({
      beginExclusive: begin,
      endInclusive: undefined,
      signal: opts.signal,
      ledgerEnd: () => this.store.ledgerEnd,
      pulse: this.#pulse,
      range: (from, to, end) => completionsRange(this.#ctx, q, from, to, () => this.config.clock.now(), end),
      at: (offsets, from, to, end) => completionsAt(this.#ctx, q, offsets, from, to, () => this.config.clock.now(), end),
      interest: q.parties,
      checkpoint: (offset) => ({ completionResponse: { OffsetCheckpoint: { value: checkpointAt(this.#ctx, offset, this.config.clock.now()) } } }),
      checkpointIntervalMs: this.config.checkpointIntervalMs,
    });
  }

  // ------------------------------------------------------------------ contracts, for the apps

  /** A contract known to the ledger (active, or archived and not yet pruned). */
  contract(contractId: string): ContractView | undefined {
    const c = this.store.contract(contractId);
    return c && c.createdOffset > 0 ? contractViewOf(c, this.config) : undefined;
  }
  isActive(contractId: string): boolean {
    return this.store.contract(contractId)?.isActive === true;
  }
  /** Unassigned from one synchronizer and not yet assigned to the other. */
  isInFlight(contractId: string): boolean {
    const c = this.store.contract(contractId);
    return c !== undefined && c.isActive && c.inFlight !== undefined;
  }
  /** The blob a client passes back as a disclosed contract. */
  createdEventBlob(contractId: string): string | undefined {
    const c = this.store.contract(contractId);
    return c && c.createdOffset > 0 ? encodeBlob(c, this.config.blobKey) : undefined;
  }
  /** Active contracts of one template (index lookup), optionally only those `party` is a stakeholder of. */
  *activeContractsOf(templateId: string, party?: string): Generator<ContractView> {
    const t = this.catalogue.resolveTemplate(templateId);
    if (!t.ok) return;
    for (const c of this.store.activeSnapshot({ kind: 'template', template: t.value })) {
      if (party === undefined || c.stakeholders.includes(party)) yield contractViewOf(c, this.config);
    }
  }
  /** Called after every commit (transactions, reassignments, topology, rejections). Returns an unsubscribe function. */
  onCommit(listener: (entry: LogEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  // ------------------------------------------------------------------ reassignment

  /** Starts moving a contract to `target`: it is in flight until assigned. */
  unassign(contractId: string, target: string, opts: ReassignOptions): R<{ reassignmentId: string; updateId: string; offset: number }> {
    const c = this.store.contract(contractId);
    if (!c || !c.isActive) return fail('CONTRACT_NOT_FOUND', `Contract could not be found with id ${contractId}`, { context: { contract_id: contractId } });
    if (c.inFlight) return fail('CONTRACT_IN_FLIGHT', `Contract ${contractId} is already being reassigned`, { context: { contract_id: contractId } });
    const targetIndex = this.config.synchronizers.findIndex((s) => s.id === target);
    if (targetIndex < 0) return fail('UNKNOWN_SYNCHRONIZER', `Synchronizer ${target} is not connected to this participant`);
    if (targetIndex === c.synchronizer) return fail('INVALID_ARGUMENT', `Contract ${contractId} is already assigned to ${target}`);
    const submitter = this.#checkReassignmentSubmitter(c, opts.submitter);
    if (!submitter.ok) return submitter;
    const offset = this.store.ledgerEnd + 1;
    const reassignmentId = createHash('sha256').update(`${this.config.participantId}|reassignment|${offset}|${contractId}`).digest('hex');
    const step: ReassignmentStep = {
      offset,
      kind: 'unassign',
      reassignmentId,
      source: c.synchronizer,
      target: targetIndex,
      counter: c.reassignmentCounter + 1,
      submitter: opts.submitter,
    };
    c.inFlight = step;
    (c.history ??= []).push(step);
    this.#unassigned.set(reassignmentId, c);
    const entry = this.#appendReassignment(c, step, opts);
    return ok({ reassignmentId, updateId: entry.updateId, offset });
  }

  /** Completes a reassignment: the contract is active on the target synchronizer. */
  assign(reassignmentId: string, opts: ReassignOptions): R<{ updateId: string; offset: number }> {
    const c = this.#unassigned.get(reassignmentId);
    if (!c || !c.inFlight) return fail('REASSIGNMENT_NOT_FOUND', `No unassignment with reassignment id ${reassignmentId} is waiting for assignment`);
    if (!c.isActive) return fail('CONTRACT_NOT_FOUND', `Contract ${c.contractId} is no longer active`);
    const submitter = this.#checkReassignmentSubmitter(c, opts.submitter);
    if (!submitter.ok) return submitter;
    const from = c.inFlight;
    const offset = this.store.ledgerEnd + 1;
    const step: ReassignmentStep = { ...from, offset, kind: 'assign', submitter: opts.submitter };
    c.inFlight = undefined;
    c.synchronizer = step.target;
    c.reassignmentCounter = step.counter;
    c.history?.push(step);
    this.#unassigned.delete(reassignmentId);
    const entry = this.#appendReassignment(c, step, opts);
    return ok({ updateId: entry.updateId, offset });
  }

  /** Unassign and assign in one call. */
  reassign(contractId: string, target: string, opts: ReassignOptions): R<{ reassignmentId: string; offset: number }> {
    const u = this.unassign(contractId, target, opts);
    if (!u.ok) return u;
    const a = this.assign(u.value.reassignmentId, opts);
    return a.ok ? ok({ reassignmentId: u.value.reassignmentId, offset: a.value.offset }) : a;
  }

  /** A reassignment submitted over the command service; answers the update, seen through `eventFormat` (no events without one). */
  submitAndWaitForReassignment(req: W.JsSubmitAndWaitForReassignmentRequest): R<W.JsSubmitAndWaitForReassignmentResponse> {
    if (!isPlainObject(req)) return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: reassignment_commands');
    const format = req.eventFormat === undefined || req.eventFormat === null ? undefined : resolveEventFormat(this.catalogue, req.eventFormat, undefined, 'event_format');
    if (format && !format.ok) return format;
    const v = validateReassignmentCommands(req.reassignmentCommands);
    if (!v.ok) return v;
    const entry = this.#submitReassignment(v.value);
    if (!entry.ok) return entry;
    const seen = format ? this.#ctx.renderer.reassignment(entry.value, format.value) : undefined;
    if (seen) return ok({ reassignment: seen });
    // Filtered out (or no format asked): the update itself, with no events. The submitter is a stakeholder, so it sees it.
    const own = resolveEventFormat(this.catalogue, { filtersByParty: { [v.value.submitter]: {} } }, false, 'event_format');
    const envelope = own.ok ? this.#ctx.renderer.reassignment(entry.value, own.value) : undefined;
    return envelope ? ok({ reassignment: { ...envelope, events: [] } }) : fail('INTERNAL_ERROR', 'The reassignment could not be rendered');
  }

  /**
   * The asynchronous form. The reference ledger commits at once, so a refusal the core finds
   * (unknown contract, wrong synchronizer) is answered on the call rather than as a completion;
   * an accepted reassignment shows up on completions like any command.
   */
  submitReassignment(req: W.SubmitReassignmentRequest): R<W.SubmitReassignmentResponse> {
    if (!isPlainObject(req)) return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: reassignment_commands');
    const v = validateReassignmentCommands(req.reassignmentCommands);
    if (!v.ok) return v;
    const entry = this.#submitReassignment(v.value);
    return entry.ok ? ok({}) : entry;
  }

  #submitReassignment(v: ValidatedReassignment): R<ReassignmentEntry> {
    const opts: ReassignOptions = {
      submitter: v.submitter,
      userId: v.userId,
      commandId: v.commandId,
      ...(v.submissionId === undefined ? {} : { submissionId: v.submissionId }),
      ...(v.workflowId === undefined ? {} : { workflowId: v.workflowId }),
    };
    const step = v.step;
    const sourceIndex = this.config.synchronizers.findIndex((s) => s.id === step.source);
    if (sourceIndex < 0) return fail('UNKNOWN_SYNCHRONIZER', `Synchronizer ${step.source} is not connected to this participant`);
    let done: R<{ offset: number }>;
    if (step.kind === 'unassign') {
      const c = this.store.contract(step.contractId);
      if (c && c.isActive && !c.inFlight && c.synchronizer !== sourceIndex) {
        return fail('INVALID_ARGUMENT', `Contract ${step.contractId} is assigned to ${this.config.synchronizers[c.synchronizer]?.id ?? '?'}, not to the source ${step.source}`, {
          context: { contract_id: step.contractId },
        });
      }
      done = this.unassign(step.contractId, step.target, opts);
    } else {
      const c = this.#unassigned.get(step.reassignmentId);
      const moving = c?.inFlight;
      if (moving && (moving.source !== sourceIndex || this.config.synchronizers[moving.target]?.id !== step.target)) {
        return fail('INVALID_ARGUMENT', `Reassignment ${step.reassignmentId} moves its contract from ${this.config.synchronizers[moving.source]?.id ?? '?'} to ${this.config.synchronizers[moving.target]?.id ?? '?'}, not from ${step.source} to ${step.target}`);
      }
      done = this.assign(step.reassignmentId, opts);
    }
    if (!done.ok) return done;
    const entry = this.store.entryAt(done.value.offset);
    return entry?.kind === 'reassignment' ? ok(entry) : fail('INTERNAL_ERROR', `The reassignment at offset ${done.value.offset} could not be read back`);
  }

  // ------------------------------------------------------------------ pruning

  /** Drops history up to `upToInclusive`: reads below it answer PARTICIPANT_PRUNED_DATA_ACCESSED. */
  prune(upToInclusive: number): R<void> {
    const o = parseOffset(upToInclusive, 'prune_up_to', true);
    if (!o.ok) return o;
    const upTo = o.value as number;
    if (upTo === 0) return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: prune_up_to must be positive');
    if (upTo > this.store.ledgerEnd) {
      return fail('OFFSET_OUT_OF_RANGE', `prune_up_to ${upTo} is after the ledger end ${this.store.ledgerEnd}`, {
        context: { ledger_end: String(this.store.ledgerEnd) },
      });
    }
    this.store.prune(upTo);
    return ok(undefined);
  }

  // ------------------------------------------------------------------ internals

  #validate(commands: W.JsCommands): R<ValidatedSubmission> {
    const v = validateSubmission(commands, {
      maxDeduplicationDurationMs: this.config.maxDeduplicationDurationMs,
      ledgerEnd: this.store.ledgerEnd,
      prunedUpTo: this.store.prunedUpTo,
      now: this.config.clock.now(),
    });
    if (!v.ok) return v;
    const unknown = [...v.value.actAs, ...v.value.readAs].filter((p) => !this.store.party(p));
    if (unknown.length) {
      return fail('PARTY_NOT_KNOWN_ON_LEDGER', `Parties not known on ledger: ${unknown.join(', ')}`, { context: { parties: unknown.join(',') } });
    }
    if (this.#inFlight.has(this.#changeKey(v.value))) {
      return fail('SUBMISSION_ALREADY_IN_FLIGHT', 'The command is already being processed (same user, parties and command id)', {
        context: { command_id: v.value.commandId },
      });
    }
    return v;
  }

  #interpretEnv(seeding?: Seeding): InterpretEnv {
    const base = {
      store: this.store,
      catalogue: this.catalogue,
      config: this.config,
      interner: this.#interner,
      isKnownParty: (p: string) => this.store.party(p) !== undefined,
      nextTransactionSeed: () => this.nextTransactionSeed(),
    };
    return seeding === undefined ? { ...base, nextContractId: (seed) => contractIdFrom(this.config.participantId, this.#nextNonce(), seed) } : { ...base, seeding };
  }

  /** A fresh seed for an engine transaction this ledger seeds itself (`InterpretEnv.nextTransactionSeed`). */
  nextTransactionSeed(): Uint8Array {
    return transactionSeedOf((this.#seedBase ??= transactionSeedBase(this.config.participantId)), this.#nextNonce());
  }

  #interpret(v: ValidatedSubmission, options: { readonly seeding?: Seeding; readonly now?: number } = {}): R<PreparedTransaction> {
    const env = this.#interpretEnv(options.seeding);
    const now = options.now ?? this.config.clock.now();
    return interpretWithEngine(env, this.engine, v, now) ?? interpret(env, v, now);
  }

  #submit(commands: W.JsCommands): R<Committed> {
    const p = this.interpret(commands);
    return p.ok ? this.commit(p.value) : p;
  }

  /** An accepted submission of the same change id within `sub`'s deduplication period, as an error. */
  #duplicateOf(sub: ValidatedSubmission, now: number): LedgerError | undefined {
    const previous = this.store.dedup(sub.userId, sub.actAs.join('\n'), sub.commandId);
    if (!previous) return undefined;
    const duplicate = sub.dedup.kind === 'duration' ? now - previous.recordTime < sub.dedup.ms : previous.offset > sub.dedup.offset;
    if (!duplicate) return undefined;
    return fail('DUPLICATE_COMMAND', 'A command with the given command id has already been successfully processed', {
      context: {
        ...(previous.submissionId ? { existing_submission_id: previous.submissionId } : {}),
        completion_offset: String(previous.offset),
      },
      definiteAnswer: false,
    }).error;
  }

  #changeKey(v: ValidatedSubmission): string {
    return `${v.userId}\n${v.commandId}\n${v.actAs.join('\n')}`;
  }

  #submissionInfo(sub: ValidatedSubmission): SubmissionInfo {
    const info: { -readonly [K in keyof SubmissionInfo]: SubmissionInfo[K] } = {
      userId: this.#interner.string(sub.userId),
      actAs: this.#interner.set(sub.actAs),
      commandId: sub.commandId,
      submissionId: sub.submissionId,
      workflowId: sub.workflowId,
      deduplicationPeriod: sub.deduplicationPeriod,
    };
    if (sub.transactionHash !== undefined) info.transactionHash = sub.transactionHash;
    return info;
  }

  #transactionFormat(commands: W.JsCommands, format: W.TransactionFormat | undefined) {
    if (format !== undefined && format !== null) {
      const r = resolveUpdateFormat(this.#ctx, { includeTransactions: format }, 'transaction_format');
      return r.ok ? ok(r.value.transactions as NonNullable<typeof r.value.transactions>) : r;
    }
    // Upstream default: ACS delta, wildcard for every actAs and readAs party, verbose.
    const parties = [...(Array.isArray(commands.actAs) ? commands.actAs : []), ...(Array.isArray(commands.readAs) ? commands.readAs : [])];
    const wildcard = wildcardEventQuery(parties);
    if (wildcard !== undefined) return ok({ q: wildcard, shape: 'TRANSACTION_SHAPE_ACS_DELTA' as const });
    const filtersByParty = Object.fromEntries(parties.filter((p) => typeof p === 'string').map((p) => [p, {}]));
    if (Object.keys(filtersByParty).length === 0) return fail('MISSING_FIELD', 'The submitted command is missing a mandatory field: act_as');
    const q = resolveEventFormat(this.catalogue, { filtersByParty, verbose: true }, true, 'transaction_format');
    return q.ok ? ok({ q: q.value, shape: 'TRANSACTION_SHAPE_ACS_DELTA' as const }) : q;
  }

  #updatesRequest(req: W.GetUpdatesRequest) {
    if (!isPlainObject(req)) return fail('INVALID_ARGUMENT', 'The request must be an object');
    const uq = updateQueryOf(this.#ctx, req);
    if (!uq.ok) return uq;
    const range = validateRange(this.#ctx, req.beginExclusive, req.endInclusive, 'Updates');
    if (!range.ok) return range;
    if (req.descendingOrder !== undefined && typeof req.descendingOrder !== 'boolean') return fail('INVALID_ARGUMENT', 'descending_order must be a boolean');
    if (req.descendingOrder === true && range.value.end === undefined) {
      return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: descending_order requires end_inclusive');
    }
    return ok({ uq: uq.value, ...range.value });
  }

  #treesRequest(req: W.GetUpdatesRequest) {
    if (!isPlainObject(req)) return fail('INVALID_ARGUMENT', 'The request must be an object');
    if (req.updateFormat !== undefined && req.updateFormat !== null) {
      return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: update_format is not supported by the transaction trees stream; use filter and verbose, or /v2/updates');
    }
    if (req.descendingOrder === true) return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: descending_order is not supported by the transaction trees stream');
    const p = this.#updatesRequest(req);
    return p.ok ? ok({ ...p.value, uq: treesQuery(p.value.uq) }) : p;
  }

  #completionsRequest(req: W.CompletionStreamRequest) {
    const q = completionQueryOf(req);
    if (!q.ok) return q;
    const range = validateRange(this.#ctx, req.beginExclusive, undefined, 'Completions');
    if (!range.ok) return range;
    return ok({ q: q.value, begin: range.value.begin });
  }

  #getCompletionsRequest(req: W.GetCompletionsRequest) {
    const q = getCompletionsQueryOf(req);
    if (!q.ok) return q;
    const range = validateRange(this.#ctx, req.beginExclusive, undefined, 'Completions');
    if (!range.ok) return range;
    return ok({ q: q.value, begin: range.value.begin });
  }

  #updateAt(offset: number | undefined, format: W.UpdateFormat, notFound: string): R<W.GetUpdateResponse> {
    const uq = resolveUpdateFormat(this.#ctx, format);
    if (!uq.ok) return uq;
    const e = offset === undefined ? undefined : this.store.entryAt(offset);
    const update = e && renderUpdate(this.#ctx, e, uq.value);
    return update ? ok({ update }) : fail('UPDATE_NOT_FOUND', notFound);
  }

  #checkReassignmentSubmitter(c: StoredContract, submitter: string): R<void> {
    if (!isValidPartyId(submitter)) return fail('INVALID_ARGUMENT', `Submitter '${show(submitter)}' is not a valid party id`);
    if (!c.stakeholders.includes(submitter)) {
      return fail('DAML_AUTHORIZATION_ERROR', `Submitter ${submitter} is not a stakeholder of contract ${c.contractId} and cannot reassign it`, {
        context: { contract_id: c.contractId },
      });
    }
    return ok(undefined);
  }

  #appendReassignment(c: StoredContract, step: ReassignmentStep, opts: ReassignOptions): ReassignmentEntry {
    const submission: SubmissionInfo | undefined =
      opts.userId && opts.commandId
        ? {
            userId: this.#interner.string(opts.userId),
            actAs: this.#interner.set([opts.submitter]),
            commandId: opts.commandId,
            submissionId: opts.submissionId,
            workflowId: opts.workflowId,
            deduplicationPeriod: { Empty: {} },
          }
        : undefined;
    const entry: ReassignmentEntry = {
      kind: 'reassignment',
      offset: step.offset,
      updateId: this.#updateId(step.offset),
      recordTime: this.config.clock.now(),
      synchronizer: step.kind === 'unassign' ? step.source : step.target,
      contract: c,
      step,
      submission,
    };
    this.store.append(entry, { created: [], archived: [] });
    this.#committed(entry);
    return entry;
  }

  #appendTopology(party: string): void {
    const offset = this.store.ledgerEnd + 1;
    const entry: LogEntry = { kind: 'topology', offset, updateId: this.#updateId(offset), recordTime: this.config.clock.now(), synchronizer: 0, party };
    this.store.append(entry, { created: [], archived: [] });
    this.#committed(entry);
  }

  #reject(sub: ValidatedSubmission, error: LedgerError): R<never> {
    const offset = this.store.ledgerEnd + 1;
    const entry: LogEntry = { kind: 'rejection', offset, recordTime: this.config.clock.now(), synchronizer: 0, submission: this.#submissionInfo(sub), error };
    this.store.append(entry, { created: [], archived: [] });
    this.#committed(entry);
    return err(error);
  }

  /**
   * Contract ids hash a nonce that must never repeat, across restarts too: the store records
   * nonces as used in blocks, so a restarted ledger continues above anything handed out before.
   */
  #nextNonce(): number {
    if (++this.#nonce > this.#nonceReserved) {
      this.#nonceReserved = this.#nonce + NONCE_BLOCK - 1;
      this.store.putMeta(NONCE_KEY, String(this.#nonceReserved));
    }
    return this.#nonce;
  }

  /** What package selection depends on, or undefined while a vetting bound makes it depend on the time. */
  #vettingStamp(): string | undefined {
    // Packages and vetting change only through this ledger's methods, which bump the counter.
    if (this.#stampAt !== this.#adminChanges) {
      this.#stamp = this.#computeVettingStamp();
      this.#stampAt = this.#adminChanges;
    }
    return this.#stamp;
  }

  #computeVettingStamp(): string | undefined {
    // The built-in packages too: yielding names (preferUploadedPackageNames) removes some.
    let stamp = `${this.admin.packages().length}/${this.catalogue.packages().length}`;
    for (const s of this.config.synchronizers) {
      const v = this.admin.vetting(s.id);
      if (v && Object.values(v.vetted).some((b) => b.validFromInclusive !== undefined || b.validUntilExclusive !== undefined)) return undefined;
      stamp += `|${v?.serial ?? 0}`;
    }
    return stamp;
  }

  #updateId(offset: number): string {
    return '1220' + digest('sha256', `${this.config.participantId}|update|${offset}`, 'hex');
  }

  #userChanged<T>(userId: string, result: R<T>): R<T> {
    if (result.ok) {
      for (const l of this.#userListeners) {
        try {
          l(userId);
        } catch {
          // As for commit listeners: the change is made regardless.
        }
      }
    }
    return result;
  }

  #committed(entry: LogEntry): void {
    this.#hashes.add(entry);
    // Live commits and recovery from --data-dir both pass here, so the UUIDs survive a restart.
    if (entry.kind === 'transaction' && entry.transactionUuid !== undefined) {
      this.#usedTransactionUuids.set(entry.transactionUuid, entry.recordTime + MEDIATOR_DEDUPLICATION_TIMEOUT_MS);
    }
    this.#pulse.notify(entry.offset, partiesTouchedBy(entry));
    for (const l of this.#listeners) {
      try {
        l(entry);
      } catch {
        // A faulty listener must not break the ledger; the entry is committed regardless.
      }
    }
  }
}

/** Canton's default mediatorDeduplicationTimeout: twice the preparation-time tolerance (24 h). */
const MEDIATOR_DEDUPLICATION_TIMEOUT_MS = 48 * 3600 * 1000;

const NONCE_KEY = 'ledger.contractIdNonce';
const NONCE_BLOCK = 1024;

export function createLedger(options: CreateLedgerOptions = {}): Ledger {
  return new Ledger(options);
}
