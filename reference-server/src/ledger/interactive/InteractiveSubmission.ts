import { randomUUID } from 'node:crypto';
import type { Identifier, Metadata, PreparedTransaction } from '@canton-network/core-ledger-proto';
import { toTimestamp } from '../clock.js';
import type { LedgerContext } from '../context.js';
import { fail, type LedgerError } from '../errors.js';
import { resolveEventFormat, type EventQuery } from '../filters.js';
import { Interner } from '../intern.js';
import { interpret, type PreparedTransaction as Interpreted } from '../interpret.js';
import type { Ledger } from '../Ledger.js';
import { checkIdentityProvider } from '../pages.js';
import { isValidPartyHint, isValidPartyId } from '../parties.js';
import { Renderer } from '../render.js';
import { ok, type Result } from '../result.js';
import { parseRfc3339 } from '../rfc3339.js';
import { validateSubmission, type ValidatedSubmission } from '../submission.js';
import { resolveUpdateFormat } from '../updates.js';
import { isPlainObject } from '../values.js';
import type { JsCommands, TransactionFormat, TransactionShape } from '../wire.js';
import { isEngineDef } from '../engine/EngineCatalogue.js';
import { lfVersionProblem } from './engine/lfVersionProblem.js';
import { serializationVersionOf } from './engine/serializationVersion.js';
import { interactiveSeeding, interactiveTransactionSeed, isEngineTransaction, prepareOnEngine, rebuildOnEngine } from './engineInteractive.js';
import { hashingDetails, hashPreparedTransaction, type HashingScheme } from './preparedTransactionHash.js';
import { buildPreparedTransaction, commandsOf, decodePreparedTransaction, encodePreparedTransaction, LF_VERSION, millisOf, RECENT_MAX_LENGTH } from './preparedTransaction.js';
import { partyKeyOf, signatureProblem, type PartyKey } from './signingKeys.js';
import { tallySignatures } from './tallySignatures.js';
import { combinedTopologyHash, decodeTopologyTransaction, externalPartyTransactions, readOnboarding, topologyTransactionHash } from './topology.js';
import type * as W from './wire.js';

type R<T> = Result<T, LedgerError>;

const executionFailed = (reason: string, context: Record<string, string> = {}) =>
  fail('FAILED_TO_EXECUTE_TRANSACTION', `The participant failed to execute the transaction: ${reason}`, { context, definiteAnswer: false });
const invalidArgument = (reason: string) => fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: ${reason}`);
const invalidField = (field: string, reason: string) =>
  fail('INVALID_FIELD', `The submitted command has a field with invalid value: Invalid field ${field}: ${reason}`, { context: { field_name: field } });

/**
 * The hashing scheme a request names, as Canton 3.5 validates it: V2 and V3 are schemes, UNSPECIFIED
 * is refused. Both are supported on the protocol version our synchronizers run (35, Canton 3.5's
 * latest stable), so no synchronizer is ever ruled out by the scheme.
 */
function hashingSchemeOf(version: unknown): R<HashingScheme> {
  if (version === 'HASHING_SCHEME_VERSION_V2') return ok(2);
  if (version === 'HASHING_SCHEME_VERSION_V3') return ok(3);
  if (version === 'HASHING_SCHEME_VERSION_UNSPECIFIED') return invalidField('hashing_scheme_version', 'Unspecified version');
  return invalidField('hashing_scheme_version', `Unrecognized version ${String(version).slice(0, 60)}`);
}

/** How far the preparation time may lie from the record time at execution, either way (Canton's default preparationTimeRecordTimeTolerance). */
export const PREPARATION_TIME_TOLERANCE_MS = 24 * 3600 * 1000;

/**
 * The ledger time a prepared transaction commits at, chosen at execution as Canton does: the
 * execution's own time (its record time, or the minLedgerTime the execute request asks for)
 * moved into the transaction's bounds. Prepare pins the bounds (min = max) only when the
 * transaction read the time; otherwise it commits at the time it is executed, never at its
 * preparation time. Whether that ledger time is close enough to the record time is the commit's
 * check (LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND), as the confirmers make it.
 */
function ledgerTimeOf(meta: Metadata, now: number, requested: number): Result<number, LedgerError> {
  const prepared = millisOf(meta.preparationTime);
  const hours = PREPARATION_TIME_TOLERANCE_MS / 3_600_000;
  if (now - prepared > PREPARATION_TIME_TOLERANCE_MS) {
    return executionFailed(`the preparation time ${toTimestamp(prepared)} is more than ${hours}h before the record time ${toTimestamp(now)}: prepare it again`);
  }
  if (prepared - now > PREPARATION_TIME_TOLERANCE_MS) return executionFailed(`the preparation time ${toTimestamp(prepared)} is more than ${hours}h after the record time ${toTimestamp(now)}`);
  const min = meta.minLedgerEffectiveTime === undefined ? undefined : millisOf(meta.minLedgerEffectiveTime);
  const max = meta.maxLedgerEffectiveTime === undefined ? undefined : millisOf(meta.maxLedgerEffectiveTime);
  if (min !== undefined && max !== undefined && min > max) return executionFailed(`the minimum ledger effective time ${toTimestamp(min)} is after the maximum ${toTimestamp(max)}`);
  if (min !== undefined && requested < min) return ok(min);
  if (max !== undefined && requested > max) return ok(max);
  return ok(requested);
}

/**
 * What execute's checks decide: a transaction ready to commit (rebuilt from its prepared form and
 * checked against it), or one the synchronizer refuses once sequenced (a replayed transaction
 * UUID), which the submitter learns from its completion, as from Canton's mediator.
 */
type Admitted =
  | { readonly kind: 'admitted'; readonly prepared: Interpreted; readonly changeKey: string }
  | { readonly kind: 'rejected'; readonly submission: ValidatedSubmission; readonly error: LedgerError };

/**
 * Interactive submission and external party onboarding over a ledger: prepare interprets without
 * committing and hands out a self-contained, hashed transaction; execute checks every acting
 * party's signature over that hash, rebuilds the transaction by interpreting the same commands
 * again at the prepared ledger time, refuses it unless it is the one that was signed, and commits
 * it through the ledger's own commit (deduplication, activeness of inputs, completions).
 */
export class InteractiveSubmission {
  readonly #interner = new Interner();
  readonly #ctx: LedgerContext;
  /** Change ids accepted by `execute` and not yet committed. */
  readonly #inFlight = new Set<string>();
  readonly #keys = new WeakMap<W.SigningPublicKey, ReturnType<typeof partyKeyOf>>();
  /**
   * Hashes of the last prepared transactions, by their bytes (as base64) and scheme: those prepare
   * answered (executing exactly those bytes hashes nothing again) and those execute hashed (its
   * checks run twice, `Ledger.inEngineSlices`). Other bytes are hashed as they are.
   */
  readonly #hashes = new Map<string, Map<HashingScheme, Buffer>>();
  /** Signatures verified lately and the verdict (a pure function of key, hash and signature): the second pass verifies none again. */
  readonly #verdicts = new Map<string, string | undefined>();

  constructor(readonly ledger: Ledger) {
    this.#ctx = { config: ledger.config, store: ledger.store, admin: ledger.admin, catalogue: ledger.catalogue, renderer: new Renderer(ledger.config), interner: this.#interner };
  }

  // ------------------------------------------------------------------ external parties

  /**
   * `participantId`: the participant answering (default the ledger's own). LocalNet's second
   * participant, the app provider's, answers from the same ledger under its own id, so a party can
   * be hosted on both as on LocalNet.
   */
  generateTopology(req: W.GenerateExternalPartyTopologyRequest, participantId = this.ledger.config.participantId): R<W.GenerateExternalPartyTopologyResponse> {
    if (!isPlainObject(req)) return invalidArgument('the request must be an object');
    if (!this.#isConnected(req.synchronizer)) return invalidArgument(`Unknown or not connected synchronizer ${String(req.synchronizer).slice(0, 120)}`);
    if (typeof req.partyHint !== 'string' || req.partyHint === '') return invalidArgument('Party hint is empty');
    if (!isValidPartyHint(req.partyHint)) return invalidArgument(`party_hint: '${req.partyHint.slice(0, 80)}' must be 1-185 characters of [a-zA-Z0-9_-] (single ':' allowed)`);
    const key = partyKeyOf(req.publicKey);
    if (!key.ok) return key;
    const threshold = req.confirmationThreshold ?? 0;
    if (!Number.isInteger(threshold) || threshold < 0) return invalidArgument('Negative confirmation threshold observed');
    const confirming = req.otherConfirmingParticipantUids ?? [];
    const observing = req.observingParticipantUids ?? [];
    for (const uid of [...confirming, ...observing]) {
      if (typeof uid !== 'string' || !isValidPartyId(uid)) return invalidArgument(`'${String(uid).slice(0, 120)}' is not a participant uid (name::1220<fingerprint>)`);
      if (uid === participantId) {
        return invalidArgument(`This participant node (${participantId}) is also listed among the other participants; by answering the request it is a hosting node already`);
      }
    }
    const all = [...confirming, ...observing];
    const duplicates = all.filter((uid, i) => all.indexOf(uid) !== i);
    if (duplicates.length > 0) return invalidArgument(`The following participant IDs are referenced multiple times in the request: ${[...new Set(duplicates)].join(', ')}`);
    const available = (req.localParticipantObservationOnly === true ? 0 : 1) + confirming.length;
    if (threshold > available) return invalidArgument('Confirmation threshold exceeds number of confirming participants');
    if (available === 0) return invalidArgument('The party needs at least one confirming participant');
    const partyId = `${req.partyHint}::${key.value.fingerprint}`;
    const transactions = externalPartyTransactions({
      partyId,
      namespace: key.value.fingerprint,
      key: key.value.registered,
      threshold: threshold === 0 ? available : threshold,
      participants: [
        { participantUid: participantId, permission: req.localParticipantObservationOnly === true ? 'OBSERVATION' : 'CONFIRMATION' },
        ...confirming.map((p) => ({ participantUid: p, permission: 'CONFIRMATION' as const })),
        ...observing.map((p) => ({ participantUid: p, permission: 'OBSERVATION' as const })),
      ],
    });
    return ok({
      partyId,
      publicKeyFingerprint: key.value.fingerprint,
      topologyTransactions: transactions.map((b) => b.toString('base64')),
      multiHash: combinedTopologyHash(transactions.map(topologyTransactionHash)).toString('base64'),
    });
  }

  allocateExternalParty(req: W.AllocateExternalPartyRequest, participantId = this.ledger.config.participantId): R<W.AllocateExternalPartyResponse> {
    if (!isPlainObject(req)) return invalidArgument('the request must be an object');
    if (!this.#isConnected(req.synchronizer)) return invalidArgument(`This node is not connected to the requested synchronizer ${String(req.synchronizer).slice(0, 120)}.`);
    const idp = checkIdentityProvider(req.identityProviderId);
    if (!idp.ok) return idp;
    const txs = req.onboardingTransactions;
    if (!Array.isArray(txs) || txs.length === 0) return invalidField('onboarding_transactions.transactions', 'Transactions field is empty');
    const decoded = [];
    for (const [i, tx] of txs.entries()) {
      const d = decodeTopologyTransaction(isPlainObject(tx) ? tx.transaction : undefined);
      if (!d.ok) return invalidField('onboarding_transactions.transaction', `Invalid transaction ${i}: ${d.error}`);
      const bytes = Buffer.from((tx as W.SignedTransaction).transaction, 'base64');
      decoded.push({ tx: d.value, hash: topologyTransactionHash(bytes), signatures: (isPlainObject(tx) && Array.isArray(tx.signatures) ? tx.signatures : []) as W.Signature[] });
    }
    const onboarding = readOnboarding(decoded.map((d) => d.tx));
    if (!onboarding.ok) return invalidArgument(`The onboarding transactions are not those of a new external party: ${onboarding.error}`);
    const { partyId } = onboarding.value;
    const key = partyKeyOf(onboarding.value.key);
    if (!key.ok) return key;
    const sep = partyId.lastIndexOf('::');
    const hint = partyId.slice(0, sep);
    if (partyId.slice(sep + 2) !== key.value.fingerprint) {
      return invalidArgument(`The party id ${partyId.slice(0, 200)} is not in the namespace of its signing key ${key.value.fingerprint}`);
    }
    if (!onboarding.value.participants.some((p) => p.participantUid === participantId)) {
      return invalidArgument(`The party is not hosted on this participant (${participantId})`);
    }
    // Proof of key ownership: a signature over the multi-hash, or one over each transaction's own hash.
    const multiHash = combinedTopologyHash(decoded.map((d) => d.hash));
    const keys = new Set([key.value.fingerprint]);
    const signs = (signatures: readonly unknown[], hash: Uint8Array) => tallySignatures(Array.isArray(signatures) ? signatures : [], keys, 1, (s) => signatureProblem(key.value, hash, s, partyId) === undefined).validKeys >= 1;
    const proven = signs(req.multiHashSignatures ?? [], multiHash) || decoded.every((d) => signs(d.signatures, d.hash));
    if (!proven) {
      const given = (req.multiHashSignatures ?? []).length + decoded.reduce((n, d) => n + d.signatures.length, 0);
      return invalidArgument(
        given === 0
          ? `The onboarding of ${partyId} carries no signature: sign the multiHash with the party's key ${key.value.fingerprint} and send it as multiHashSignatures`
          : `None of the ${given} signatures is a valid signature by the party's key ${key.value.fingerprint} over the multiHash (or every transaction's hash)`,
      );
    }
    if (req.userId !== undefined && req.userId !== '') {
      const user = this.ledger.getUser(req.userId);
      if (!user.ok) return user;
    }
    // Another hosting participant onboarding a party that already exists with this key adds its
    // hosting, as each of a multi-hosted party's participants submits the same signed transactions.
    const existing = this.ledger.store.party(partyId)?.externalKey;
    const cohosting = participantId !== this.ledger.config.participantId && existing !== undefined && existing.keyData === key.value.registered.keyData;
    if (!cohosting) {
      const allocated = this.ledger.allocateExternalParty(hint, key.value.registered);
      if (!allocated.ok) return allocated;
    }
    if (req.userId !== undefined && req.userId !== '') {
      const granted = this.ledger.grantUserRights(req.userId, { userId: req.userId, rights: [{ kind: { CanActAs: { value: { party: partyId } } } }] });
      if (!granted.ok) return granted;
    }
    return ok({ partyId });
  }

  // ------------------------------------------------------------------ prepare

  /**
   * `fixed`: the UUID and time to prepare with, from a caller that prepares twice for one answer
   * (`Ledger.inEngineSlices`); by default a fresh UUID, the clock's time.
   */
  prepare(req: W.JsPrepareSubmissionRequest, fixed: { readonly transactionUuid: string; readonly now: number } = { transactionUuid: randomUUID(), now: this.ledger.config.clock.now() }): R<W.JsPrepareSubmissionResponse> {
    const { transactionUuid, now } = fixed;
    if (!isPlainObject(req)) return invalidArgument('the request must be an object');
    // Absent means V2, as on Canton 3.5 (kept for clients that predate V3).
    const scheme = req.hashingSchemeVersion === undefined ? ok<HashingScheme>(2) : hashingSchemeOf(req.hashingSchemeVersion);
    if (!scheme.ok) return scheme;
    let maxRecordTime: number | undefined;
    if (req.maxRecordTime !== undefined && req.maxRecordTime !== null) {
      maxRecordTime = parseRfc3339(req.maxRecordTime);
      if (maxRecordTime === undefined) return invalidField('max_record_time', 'expected an RFC 3339 timestamp (years 0001-9999)');
    }
    const minLedgerTime = minLedgerTimeOf(req.minLedgerTime);
    if (!minLedgerTime.ok) return minLedgerTime;
    const commands: JsCommands = {
      commandId: req.commandId,
      commands: req.commands,
      actAs: req.actAs,
      ...(req.userId === undefined ? {} : { userId: req.userId }),
      ...(req.readAs === undefined ? {} : { readAs: req.readAs }),
      ...(req.disclosedContracts === undefined ? {} : { disclosedContracts: req.disclosedContracts }),
      ...(req.synchronizerId === undefined || req.synchronizerId === '' ? {} : { synchronizerId: req.synchronizerId }),
      // Package names resolve as on submit: the highest vetted version, unless the request prefers one.
      ...(req.packageIdSelectionPreference === undefined ? {} : { packageIdSelectionPreference: req.packageIdSelectionPreference }),
      ...minLedgerTime.value,
    };
    const { config } = this.ledger;
    const validated = this.ledger.engineCommands(commands);
    if (!validated.ok) return validated;
    const { submission, commands: onEngine } = validated.value;
    if (onEngine !== undefined) {
      const engine = prepareOnEngine(this.ledger, submission, onEngine, { transactionUuid, now, ...(maxRecordTime === undefined ? {} : { maxRecordTime }) });
      return engine.ok ? ok(this.#answer(engine.value.prepared, scheme.value, submission.actAs, req)) : engine;
    }
    // Seeded as the engine seeds a transaction (contract-id.rst): the prepared transaction shows each
    // node's seed, and each create's contract id is derived from its seed, stakeholders and the
    // preparation time, which is the ledger time interpreted at.
    const seeding = interactiveSeeding(this.ledger, transactionUuid, now, submission);
    const interpreted = this.ledger.interpretValidated(submission, { seeding, now });
    if (!interpreted.ok) return interpreted;
    const p = interpreted.value;
    const prepared = buildPreparedTransaction(
      p,
      {
        synchronizerId: config.synchronizers[p.synchronizer]?.id ?? '',
        transactionUuid,
        // As Canton: the preparation time is the ledger time interpreted at (a minLedgerTime moves both).
        preparationTime: p.ledgerTime,
        // A transaction that read the time is what it is at that time only: execution keeps it.
        ...(p.dependsOnTime ? { minLedgerEffectiveTime: p.ledgerTime, maxLedgerEffectiveTime: p.ledgerTime } : {}),
        ...(maxRecordTime === undefined ? {} : { maxRecordTime }),
      },
      config,
    );
    return ok(this.#answer(prepared, scheme.value, p.submission.actAs, req));
  }

  /** The prepare answer for a prepared transaction: its bytes, hash under the asked scheme, hashing details, cost estimation. */
  #answer(prepared: PreparedTransaction, scheme: HashingScheme, actAs: readonly string[], req: W.JsPrepareSubmissionRequest): W.JsPrepareSubmissionResponse {
    const preparedTransaction = encodePreparedTransaction(prepared);
    const hash = this.#remember(preparedTransaction, scheme, hashPreparedTransaction(prepared, scheme));
    return {
      preparedTransaction,
      preparedTransactionHash: hash.toString('base64'),
      hashingSchemeVersion: scheme === 2 ? 'HASHING_SCHEME_VERSION_V2' : 'HASHING_SCHEME_VERSION_V3',
      ...(req.verboseHashing === true ? { hashingDetails: hashingDetails(prepared, scheme) } : {}),
      ...(req.estimateTrafficCost?.disabled === true ? {} : { costEstimation: this.#costEstimation(preparedTransaction, actAs, req.estimateTrafficCost?.expectedSignatures) }),
    };
  }

  // ------------------------------------------------------------------ execute

  /** Accepts the signed transaction and commits it on a later tick; the outcome arrives on completions. */
  execute(req: W.JsExecuteSubmissionRequest): R<W.ExecuteSubmissionResponse> {
    const admitted = this.#admit(req);
    if (!admitted.ok) return admitted;
    if (admitted.value.kind === 'rejected') {
      const { submission, error } = admitted.value;
      setImmediate(() => this.ledger.rejectSubmission(submission, error));
      return ok({});
    }
    const { prepared, changeKey } = admitted.value;
    this.#inFlight.add(changeKey);
    setImmediate(() => {
      this.#inFlight.delete(changeKey);
      this.ledger.commit(prepared);
    });
    return ok({});
  }

  executeAndWait(req: W.JsExecuteSubmissionRequest): R<W.ExecuteSubmissionAndWaitResponse> {
    const admitted = this.#admit(req);
    if (!admitted.ok) return admitted;
    if (admitted.value.kind === 'rejected') return this.ledger.rejectSubmission(admitted.value.submission, admitted.value.error);
    const committed = this.ledger.commit(admitted.value.prepared);
    return committed.ok ? ok({ updateId: committed.value.updateId, completionOffset: committed.value.offset }) : committed;
  }

  executeAndWaitForTransaction(req: W.JsExecuteSubmissionAndWaitForTransactionRequest): R<W.JsExecuteSubmissionAndWaitForTransactionResponse> {
    const admitted = this.#admit(req);
    if (!admitted.ok) return admitted;
    const a = admitted.value;
    // The format is checked before anything commits, as for submit-and-wait-for-transaction.
    const format = this.#transactionFormat(a.kind === 'admitted' ? a.prepared.submission : a.submission, req.transactionFormat);
    if (!format.ok) return format;
    if (a.kind === 'rejected') return this.ledger.rejectSubmission(a.submission, a.error);
    const committed = this.ledger.commit(a.prepared);
    if (!committed.ok) return committed;
    return ok({ transaction: this.#ctx.renderer.transaction(committed.value.entry, format.value.q, format.value.shape) });
  }

  /** The parties a prepared transaction acts as (what execute needs CanExecuteAs for); empty when unreadable. */
  static actAsOf(preparedTransaction: unknown): readonly string[] {
    const d = decodePreparedTransaction(preparedTransaction);
    return d.ok ? (d.value.metadata?.submitterInfo?.actAs ?? []) : [];
  }

  /**
   * Everything execute checks before committing, cheapest first: the hashing scheme, the
   * transaction's readability, every acting party's signature over the recomputed hash, the
   * time bounds, the submission fields, deduplication, and finally that interpreting the root
   * nodes again, with the ledger's own contract ids and seeds, yields exactly what was signed.
   */
  #admit(req: W.JsExecuteSubmissionRequest): R<Admitted> {
    if (!isPlainObject(req)) return invalidArgument('the request must be an object');
    const scheme = hashingSchemeOf(req.hashingSchemeVersion);
    if (!scheme.ok) return scheme;
    const decoded = decodePreparedTransaction(req.preparedTransaction);
    if (!decoded.ok) return invalidField('prepared_transaction', `the prepared transaction cannot be read: ${decoded.reason}`);
    const tx = decoded.value;
    let hash: Buffer;
    try {
      hash = this.#hashOf(req.preparedTransaction as string, tx, scheme.value);
    } catch (e) {
      return invalidField('prepared_transaction', `the prepared transaction cannot be hashed: ${e instanceof Error ? e.message : 'malformed'}`);
    }
    const meta = tx.metadata as NonNullable<typeof tx.metadata>;
    const submitter = meta.submitterInfo as NonNullable<typeof meta.submitterInfo>;
    const signed = this.#checkSignatures(submitter.actAs, req.partySignatures, hash);
    if (!signed.ok) return signed;
    const now = this.ledger.config.clock.now();
    if (meta.maxRecordTime !== undefined && now > millisOf(meta.maxRecordTime)) {
      return executionFailed(`the record time ${toTimestamp(now)} is after the transaction's maxRecordTime ${toTimestamp(millisOf(meta.maxRecordTime))}`);
    }
    const minLedgerTime = minLedgerTimeOf(req.minLedgerTime);
    if (!minLedgerTime.ok) return minLedgerTime;
    const times = ledgerTimeOf(meta, now, requestedLedgerTime(minLedgerTime.value, now));
    if (!times.ok) return times;
    const ledgerTime = times.value;
    const commands = commandsOf(tx);
    if (!commands.ok) return invalidField('prepared_transaction', `the prepared transaction cannot be executed: ${commands.reason}`);
    const versions = lfVersionProblem(tx, (id) => this.#dictatedVersion(id));
    if (versions !== undefined) return invalidField('prepared_transaction', `the prepared transaction cannot be executed: ${versions}`);
    const sub = validateSubmission(
      {
        commandId: submitter.commandId,
        commands: commands.commands,
        actAs: [...submitter.actAs],
        readAs: [],
        disclosedContracts: commands.disclosed,
        synchronizerId: meta.synchronizerId,
        submissionId: req.submissionId,
        ...(req.userId === undefined ? {} : { userId: req.userId }),
        ...(req.deduplicationPeriod === undefined ? {} : { deduplicationPeriod: req.deduplicationPeriod }),
      },
      { maxDeduplicationDurationMs: this.ledger.config.maxDeduplicationDurationMs, ledgerEnd: this.ledger.store.ledgerEnd, prunedUpTo: this.ledger.store.prunedUpTo, now },
    );
    if (!sub.ok) return sub;
    // What the completions carry as the hash the parties signed (Canton 3.6's transactionHash), rejections included.
    const submission = { ...sub.value, transactionHash: hash.toString('base64') };
    const changeKey = `${submission.userId}\n${submission.commandId}\n${submission.actAs.join('\n')}`;
    if (this.#inFlight.has(changeKey)) {
      return fail('SUBMISSION_ALREADY_IN_FLIGHT', 'The command is already being processed (same user, parties and command id)', { context: { command_id: submission.commandId } });
    }
    const duplicate = this.ledger.rejectDuplicate(submission);
    if (!duplicate.ok) return duplicate;
    // The mediator refuses a reused UUID before any confirmer looks at the transaction: one signature, at most one commit.
    const replayed = this.ledger.transactionUuidReplay(meta.transactionUuid);
    if (replayed) return ok({ kind: 'rejected', submission, error: replayed });
    const rebuilt = isEngineTransaction(this.ledger, tx) ? rebuildOnEngine(this.ledger, tx, scheme.value, hash, submission, ledgerTime) : this.#rebuild(tx, scheme.value, hash, submission, ledgerTime);
    if (!rebuilt.ok) return rebuilt;
    return ok({ kind: 'admitted', prepared: { ...rebuilt.value, results: rebuilt.value.results, externalTransactionHash: hash.toString('base64'), transactionUuid: meta.transactionUuid }, changeKey });
  }

  /**
   * The serialization version a template's package dictates for its nodes: its LF version for an
   * uploaded package, the built-in models' LF_VERSION for theirs; undefined for an unknown template.
   */
  #dictatedVersion(id: Identifier): string | undefined {
    const def = this.ledger.catalogue.resolve(`${id.packageId}:${id.moduleName}:${id.entityName}`);
    if (!def.ok) return undefined;
    if (!isEngineDef(def.value)) return LF_VERSION;
    const pkg = this.ledger.engine.packages.get(def.value.engine.name.packageId);
    return pkg === undefined ? undefined : serializationVersionOf(pkg.lfVersion);
  }

  /**
   * Interprets the root nodes again at the transaction's ledger time with the contract ids and
   * seeds the ledger derives from its UUID, builds the prepared transaction that interpretation
   * gives, and refuses unless its hash is the one that was signed: the signer chooses the
   * commands, never the ids, the effects or the input contracts.
   */
  #rebuild(tx: PreparedTransaction, scheme: HashingScheme, signedHash: Buffer, sub: ValidatedSubmission, ledgerTime: number): R<Interpreted> {
    const meta = tx.metadata as NonNullable<typeof tx.metadata>;
    const unknown = sub.actAs.filter((p) => !this.ledger.isKnownParty(p));
    if (unknown.length > 0) return fail('PARTY_NOT_KNOWN_ON_LEDGER', `Parties not known on ledger: ${unknown.join(', ')}`, { context: { parties: unknown.join(',') } });
    const { ledger } = this;
    const reinterpreted = interpret(
      {
        store: ledger.store,
        catalogue: ledger.catalogue,
        config: ledger.config,
        interner: this.#interner,
        isKnownParty: (p) => ledger.isKnownParty(p),
        nextTransactionSeed: () => ledger.nextTransactionSeed(),
        // The seeds and ids of the prepare: its UUID and signed preparation time derive them again.
        seeding: { transactionSeed: interactiveTransactionSeed(ledger, meta.transactionUuid, meta.preparationTime), preparationTime: meta.preparationTime },
      },
      sub,
      ledgerTime,
    );
    if (!reinterpreted.ok) return reinterpreted;
    const p = reinterpreted.value;
    const expected = buildPreparedTransaction(
      p,
      {
        synchronizerId: ledger.config.synchronizers[p.synchronizer]?.id ?? '',
        transactionUuid: meta.transactionUuid,
        preparationTime: millisOf(meta.preparationTime),
        ...(meta.minLedgerEffectiveTime === undefined ? {} : { minLedgerEffectiveTime: millisOf(meta.minLedgerEffectiveTime) }),
        ...(meta.maxLedgerEffectiveTime === undefined ? {} : { maxLedgerEffectiveTime: millisOf(meta.maxLedgerEffectiveTime) }),
        // Hashed by V3 only; V2 leaves it out.
        ...(meta.maxRecordTime === undefined ? {} : { maxRecordTime: millisOf(meta.maxRecordTime) }),
      },
      ledger.config,
      { blobs: false },
    );
    if (!hashPreparedTransaction(expected, scheme).equals(signedHash)) {
      return executionFailed(
        'the prepared transaction is not what its commands yield on the current ledger: it was altered after preparation (its nodes, contract ids, input contracts or times), or the contracts it uses changed',
      );
    }
    const taken = p.created.find((c) => ledger.store.contract(c.contractId) !== undefined);
    if (taken !== undefined) {
      return executionFailed(`the transaction was already committed (contract ${taken.contractId} exists); prepare it again to submit it anew`, { contract_id: taken.contractId });
    }
    return ok(p);
  }

  /**
   * Every actAs party must have signed, with enough valid signatures from its registered key;
   * signatures from other parties are discarded, as the participant does.
   */
  #checkSignatures(actAs: readonly string[], partySignatures: W.JsExecuteSubmissionRequest['partySignatures'], hash: Buffer): R<void> {
    const byParty = new Map<string, W.Signature[]>();
    const entries = isPlainObject(partySignatures) && Array.isArray(partySignatures.signatures) ? partySignatures.signatures : [];
    for (const entry of entries) {
      if (!isPlainObject(entry) || typeof entry.party !== 'string') continue;
      let list = byParty.get(entry.party);
      if (list === undefined) byParty.set(entry.party, (list = []));
      // Appended in place: copying per entry would be quadratic in the number of entries.
      if (Array.isArray(entry.signatures)) for (const s of entry.signatures as W.Signature[]) list.push(s);
    }
    const missing = actAs.filter((p) => !byParty.has(p));
    if (missing.length > 0) return executionFailed(`The following actAs parties did not provide an external signature: ${missing.join(', ')}`);
    for (const party of actAs) {
      const registered = this.ledger.store.party(party)?.externalKey;
      const key = registered === undefined ? undefined : this.#partyKey(registered);
      if (key === undefined || !key.ok) return executionFailed(`Could not find party signing keys for ${party}.`);
      const tally = tallySignatures(byParty.get(party) ?? [], new Set([key.value.fingerprint]), 1, (signature) => this.#verdict(key.value, hash, signature, party) === undefined);
      if (tally.validKeys < 1) {
        return executionFailed(
          `Received ${tally.validKeys} valid signatures from distinct keys (${tally.invalid} invalid), but expected at least 1 valid for ${party}. ` +
            `Transaction hash to be signed: ${hash.toString('hex')}`,
          { party },
        );
      }
    }
    return ok(undefined);
  }

  /** The hash of `encoded` (decoded: `tx`) under `scheme`, remembered. */
  #hashOf(encoded: string, tx: PreparedTransaction, scheme: HashingScheme): Buffer {
    return this.#hashes.get(encoded)?.get(scheme) ?? this.#remember(encoded, scheme, hashPreparedTransaction(tx, scheme));
  }

  /** Keeps `hash` for `encoded` (not over 256 KiB of base64; the last RECENT_HASHED) and answers it. */
  #remember(encoded: string, scheme: HashingScheme, hash: Buffer): Buffer {
    if (encoded.length > RECENT_MAX_LENGTH) return hash;
    let byScheme = this.#hashes.get(encoded);
    if (byScheme === undefined) {
      if (this.#hashes.size >= RECENT_HASHED) this.#hashes.delete(this.#hashes.keys().next().value as string);
      this.#hashes.set(encoded, (byScheme = new Map()));
    }
    byScheme.set(scheme, hash);
    return hash;
  }

  /** `signatureProblem`, remembered for the last 256 signatures checked (keyed by everything the verdict depends on). */
  #verdict(key: PartyKey, hash: Buffer, signature: W.Signature, party: string): string | undefined {
    // Only signatures by the party's key and of a usual size (a hostile one of megabytes is checked, not kept).
    const s = signature as unknown;
    if (!isPlainObject(s) || s.signedBy !== key.fingerprint || !short(s.signature, 256) || !short(s.format, 64) || !short(s.signingAlgorithmSpec, 64)) {
      return signatureProblem(key, hash, signature, party);
    }
    const id = `${party}\n${key.fingerprint}\n${hash.toString('base64')}\n${s.format}\n${s.signingAlgorithmSpec}\n${s.signature}`;
    if (this.#verdicts.has(id)) return this.#verdicts.get(id);
    const verdict = signatureProblem(key, hash, signature, party);
    if (this.#verdicts.size >= 256) this.#verdicts.clear();
    this.#verdicts.set(id, verdict);
    return verdict;
  }

  /** A party's registered key, parsed once (parsing builds a crypto key object: costly per execution). */
  #partyKey(registered: W.SigningPublicKey): ReturnType<typeof partyKeyOf> {
    let key = this.#keys.get(registered);
    if (key === undefined) {
      key = partyKeyOf(registered);
      this.#keys.set(registered, key);
    }
    return key;
  }

  #transactionFormat(sub: ValidatedSubmission, format: TransactionFormat | undefined): R<{ q: EventQuery; shape: TransactionShape }> {
    if (format !== undefined && format !== null) {
      const r = resolveUpdateFormat(this.#ctx, { includeTransactions: format }, 'transaction_format');
      if (!r.ok) return r;
      return r.value.transactions === undefined ? fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: transaction_format') : ok(r.value.transactions);
    }
    // As for submit-and-wait-for-transaction: ACS delta, wildcard for every actAs and readAs party.
    const filtersByParty = Object.fromEntries([...sub.actAs, ...sub.readAs].map((p) => [p, {}]));
    const q = resolveEventFormat(this.ledger.catalogue, { filtersByParty, verbose: true }, true, 'transaction_format');
    return q.ok ? ok({ q: q.value, shape: 'TRANSACTION_SHAPE_ACS_DELTA' }) : q;
  }

  #isConnected(synchronizer: unknown): boolean {
    return typeof synchronizer === 'string' && this.ledger.config.synchronizers.some((s) => s.id === synchronizer);
  }

  /**
   * A traffic estimate in the participant's terms, from sizes: the confirmation request carries
   * the transaction and one signature per expected signer; each hosting participant answers once.
   */
  #costEstimation(encoded: string, actAs: readonly string[], expectedSignatures: readonly string[] | undefined): W.CostEstimation {
    const signatures = expectedSignatures !== undefined && expectedSignatures.length > 0 ? expectedSignatures.length : actAs.length;
    const request = Buffer.byteLength(encoded, 'base64') + signatures * 96;
    const response = 200 * actAs.length;
    return {
      estimationTimestamp: toTimestamp(this.ledger.config.clock.now()),
      confirmationRequestTrafficCostEstimation: request,
      confirmationResponseTrafficCostEstimation: response,
      totalTrafficCostEstimation: request + response,
    };
  }
}

/** The request's MinLedgerTime as the command service's fields. */
function minLedgerTimeOf(m: W.MinLedgerTime | undefined): R<Pick<JsCommands, 'minLedgerTimeAbs' | 'minLedgerTimeRel'>> {
  const time = m?.time;
  if (time === undefined || time === null || 'Empty' in time) return ok({});
  if ('MinLedgerTimeAbs' in time) {
    const value = isPlainObject(time.MinLedgerTimeAbs) ? time.MinLedgerTimeAbs.value : undefined;
    if (parseRfc3339(value) === undefined) return invalidField('min_ledger_time.min_ledger_time_abs', 'expected an RFC 3339 timestamp (years 0001-9999)');
    return ok({ minLedgerTimeAbs: value as string });
  }
  if ('MinLedgerTimeRel' in time) {
    const value = isPlainObject(time.MinLedgerTimeRel) ? time.MinLedgerTimeRel.value : undefined;
    if (!isPlainObject(value) || typeof value.seconds !== 'number' || !Number.isFinite(value.seconds) || value.seconds < 0) {
      return invalidField('min_ledger_time.min_ledger_time_rel', 'expected a non-negative duration');
    }
    return ok({ minLedgerTimeRel: value });
  }
  return invalidField('min_ledger_time', 'expected Empty, MinLedgerTimeAbs or MinLedgerTimeRel');
}

/** The ledger time an execution asks for before the transaction's bounds apply: now, the later of now and the absolute minimum, or now plus the relative one (Canton's validateLedgerTime). */
function requestedLedgerTime(m: Pick<JsCommands, 'minLedgerTimeAbs' | 'minLedgerTimeRel'>, now: number): number {
  if (m.minLedgerTimeAbs !== undefined) return Math.max(now, parseRfc3339(m.minLedgerTimeAbs) ?? now);
  if (m.minLedgerTimeRel !== undefined) return now + m.minLedgerTimeRel.seconds * 1000 + (m.minLedgerTimeRel.nanos ?? 0) / 1e6;
  return now;
}

const services = new WeakMap<Ledger, InteractiveSubmission>();

/** The interactive submission service of a ledger (one per ledger, created on first use). */
const short = (x: unknown, max: number): x is string => typeof x === 'string' && x.length <= max;

/** Prepared transactions whose hash execute finds by their bytes (a few per client preparing at once). */
const RECENT_HASHED = 64;

export function interactiveSubmissionOf(ledger: Ledger): InteractiveSubmission {
  let s = services.get(ledger);
  if (s === undefined) {
    s = new InteractiveSubmission(ledger);
    services.set(ledger, s);
  }
  return s;
}
