import type { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { deriveTransactionSeed } from '../../../../daml-engine/update/seeds.js';
import type { Update } from '../../../../daml-engine/ast/Expr.js';
import type { QualifiedName } from '../../../../daml-engine/ast/Type.js';
import type { SubmissionResult } from '../../../../daml-engine/update/UpdateEngine.js';
import { UNIT } from '../../../../daml-engine/value/Value.js';
import { encodeBlob } from '../blob.js';
import type { EngineCommand } from '../engine/engineCommandOf.js';
import { isEngineDef, type EngineTemplateDef } from '../engine/EngineCatalogue.js';
import type { EngineRun as CoreRun } from '../engine/runEngineCommands.js';
import { fail, type LedgerError } from '../errors.js';
import type { PreparedTransaction as Interpreted, Seeding } from '../interpret.js';
import type { Ledger } from '../Ledger.js';
import { ok, type Result } from '../result.js';
import type { ValidatedSubmission } from '../submission.js';
import type { EngineInputContract, EnginePreparation, PrepareFailure } from './engine/preparedTransactionOfEngine.js';
import { preparedTransactionOfEngine } from './engine/preparedTransactionOfEngine.js';
import { reinterpretSigned, submissionSeedOf, type Rerun } from './engine/engineSubmission.js';
import type { HashingScheme } from './preparedTransactionHash.js';

type R<T> = Result<T, LedgerError>;

/**
 * Interactive submission of commands on uploaded templates: the ledger core's engine path, seeded
 * from the transaction UUID under a participant-held key, encoded by `preparedTransactionOfEngine`
 * at prepare; at execute the signed root nodes run again through the same path
 * (`reinterpretSigned`) and what is committed is that run, exactly as a command submission on the
 * same templates commits it (store nodes, events, contract ids).
 */

const micros = (ms: number): bigint => BigInt(Math.trunc(ms)) * 1000n;

/**
 * The transaction seed of an interactive transaction (the engine's, and the built-in models' since
 * their prepared transactions show node seeds too): execute derives it again from the UUID and the
 * signed preparation time.
 */
export function interactiveTransactionSeed(ledger: Pick<Ledger, 'config'>, transactionUuid: string, preparationTime: bigint): Uint8Array {
  const { config } = ledger;
  // The blob key is the participant's own secret (kept with a durable store), so clients cannot predict the seed.
  const submissionSeed = submissionSeedOf(Buffer.from(config.blobKey).toString('hex'), transactionUuid);
  return deriveTransactionSeed(submissionSeed, config.participantId, preparationTime);
}

/**
 * The seeding of an interactive transaction prepared at `now` (ms): its preparation time is the
 * ledger time it is interpreted at, moved by the submission's minLedgerTime, in µs (as Canton).
 */
export function interactiveSeeding(ledger: Pick<Ledger, 'config'>, transactionUuid: string, now: number, submission: Pick<ValidatedSubmission, 'minLedgerTimeMs'>): Seeding {
  const preparationTime = micros(Math.max(now, submission.minLedgerTimeMs ?? 0));
  return { transactionSeed: interactiveTransactionSeed(ledger, transactionUuid, preparationTime), preparationTime };
}

/** What the encoder looks up: decoded packages, and input contracts as the store holds them (argument, creation time in µs, event blob). */
function lookups(ledger: Ledger): Pick<EnginePreparation, 'getPackage' | 'inputContract'> {
  return {
    getPackage: (packageId) => ledger.engine.packages.get(packageId),
    inputContract: (contractId): EngineInputContract | undefined => {
      const c = ledger.store.contract(contractId);
      if (c === undefined || !isEngineDef(c.template) || c.template.kind !== 'template') return undefined;
      const argument = ledger.engine.argumentOf(c);
      if (argument?.kind !== 'record') return undefined;
      return {
        contractId,
        templateId: (c.template as EngineTemplateDef).engine.name,
        argument,
        signatories: c.signatories,
        observers: c.observers,
        createdAt: micros(c.createdAt),
        // Canton fills the blob of every input contract; execute discloses the ones its signers do not see.
        eventBlob: Buffer.from(encodeBlob(c, ledger.config.blobKey), 'base64'),
      };
    },
  };
}

function encodingRefused(failure: PrepareFailure): R<never> {
  const what =
    failure.kind === 'value' ? `a value at ${failure.where} cannot be encoded (${failure.failure.kind})`
    : failure.kind === 'unknownInputContract' ? `input contract ${failure.contractId} is not known`
    : `package ${failure.packageId} is ${failure.kind === 'unknownPackage' ? 'not known' : 'without a name'}`;
  return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: the transaction cannot be prepared: ${what}`);
}

/** Whether a prepared transaction's first root is on an uploaded template (the catalogue's declared templates are interpreted otherwise). */
export function isEngineTransaction(ledger: Ledger, p: PreparedTransaction): boolean {
  const tx = p.transaction;
  const root = tx?.nodes.find((n) => n.nodeId === tx.roots[0]);
  const t = root?.versionedNode.oneofKind === 'v1' ? root.versionedNode.v1.nodeType : undefined;
  const id = t?.oneofKind === 'create' ? t.create.templateId : t?.oneofKind === 'exercise' ? t.exercise.templateId : undefined;
  if (id === undefined) return false;
  const def = ledger.catalogue.resolve(`${id.packageId}:${id.moduleName}:${id.entityName}`);
  return def.ok && isEngineDef(def.value);
}

export interface EnginePrepareFacts {
  readonly transactionUuid: string;
  /** Milliseconds since the epoch. */
  readonly maxRecordTime?: number;
  /** Milliseconds since the epoch: the preparation's "now" (default the clock's). */
  readonly now?: number;
}

/**
 * Prepare: the commands run as the command service runs them, at the preparation time (the ledger
 * time, moved by minLedgerTime), seeded from the UUID; a transaction that read the time is pinned
 * to it (min = max ledger effective time), as for declared templates.
 */
export function prepareOnEngine(ledger: Ledger, submission: ValidatedSubmission, commands: readonly EngineCommand[], facts: EnginePrepareFacts): R<{ readonly prepared: PreparedTransaction; readonly run: CoreRun }> {
  const { config } = ledger;
  const { transactionSeed, preparationTime: at } = interactiveSeeding(ledger, facts.transactionUuid, facts.now ?? config.clock.now(), submission);
  const run = ledger.runEngine(submission, commands, { transactionSeed, preparationTime: at, ledgerTime: at });
  if (!run.ok) return run;
  const p = run.value.prepared;
  const encoded = preparedTransactionOfEngine({
    transaction: run.value.transaction,
    actAs: submission.actAs,
    commandId: submission.commandId,
    synchronizerId: config.synchronizers[p.synchronizer]?.id ?? '',
    transactionUuid: facts.transactionUuid,
    preparationTime: at,
    ...(p.dependsOnTime ? { minLedgerEffectiveTime: at, maxLedgerEffectiveTime: at } : {}),
    ...(facts.maxRecordTime === undefined ? {} : { maxRecordTime: micros(facts.maxRecordTime) }),
    ...lookups(ledger),
  });
  return encoded.ok ? ok({ prepared: encoded.value, run: run.value }) : encodingRefused(encoded.failure);
}

const nameOf = (q: QualifiedName) => `${q.packageId}:${q.module}:${q.name}`;

/**
 * The command service's preprocessing of a signed transaction's root commands: every template,
 * interface and choice they name exists (a signer may rename them; the engine must not meet an
 * unknown one, which it reports as an internal error).
 */
function preprocessRoots(ledger: Ledger, updates: readonly Update[]): LedgerError | undefined {
  for (const u of updates) {
    const id = u.kind === 'create' || u.kind === 'exercise' ? u.template : u.kind === 'exerciseInterface' ? u.iface : undefined;
    if (id === undefined) continue;
    const module = ledger.engine.packages.get(id.packageId)?.modules.get(id.module);
    const def = u.kind === 'exerciseInterface' ? module?.interfaces.get(id.name) : module?.templates.get(id.name);
    if (def === undefined) {
      return fail('TEMPLATES_OR_INTERFACES_NOT_FOUND', `The following template or interface ids were not found: ${nameOf(id)}`, { context: { templatesOrInterfaces: nameOf(id) } }).error;
    }
    if ((u.kind === 'exercise' || u.kind === 'exerciseInterface') && !def.choices.has(u.choice)) {
      return fail('COMMAND_PREPROCESSING_FAILED', `Couldn't find requested choice ${u.choice} for ${u.kind === 'exercise' ? 'template' : 'interface'} ${nameOf(id)}`, { context: { choice: u.choice } }).error;
    }
  }
  return undefined;
}

/** The package ids of the templates the prepared transaction's nodes name, in node order. */
function signedPackageIds(tx: PreparedTransaction): string[] {
  const ids = new Set<string>();
  for (const n of tx.transaction?.nodes ?? []) {
    const v = n.versionedNode.oneofKind === 'v1' ? n.versionedNode.v1.nodeType : undefined;
    const id = v?.oneofKind === 'create' ? v.create.templateId : v?.oneofKind === 'exercise' ? v.exercise.templateId : v?.oneofKind === 'fetch' ? v.fetch.templateId : undefined;
    if (id?.packageId) ids.add(id.packageId);
  }
  return [...ids];
}

/**
 * Execute: the signed root nodes run again through the ledger core (as the signers, with the
 * submission's disclosed input contracts) at the signed preparation time and seed and the chosen
 * ledger time; admitted only when that run encodes to the signed hash. The core's own refusal
 * (a consumed input, an authorization failure) is answered as the command service answers it.
 */
export function rebuildOnEngine(ledger: Ledger, tx: PreparedTransaction, scheme: HashingScheme, signedHash: Buffer, sub: ValidatedSubmission, ledgerTimeMs: number): R<Interpreted> {
  const transactionUuid = tx.metadata?.transactionUuid ?? '';
  // The package versions the signed nodes ran: the run again resolves package names to them
  // (an interface call on a contract of another version), whatever is vetted now.
  const signedVersions = signedPackageIds(tx);
  let core: R<CoreRun> | undefined;
  const rerun: Rerun = (updates, actAs, preparationTime): SubmissionResult => {
    const unknown = preprocessRoots(ledger, updates);
    core = unknown !== undefined ? { ok: false, error: unknown } : ledger.runEngine(
      { ...sub, actAs: [...actAs], packageIdSelectionPreference: signedVersions },
      updates.map((update) => ({ update, resultType: undefined })),
      { transactionSeed: interactiveTransactionSeed(ledger, transactionUuid, preparationTime), preparationTime, ledgerTime: micros(ledgerTimeMs) },
    );
    if (core.ok) return { ok: true, result: core.value.results[0] ?? UNIT, transaction: core.value.transaction, steps: 0, readsLedgerTime: core.value.prepared.dependsOnTime };
    // The core already turned the engine's failure into the participant's error: kept in `core`, answered below.
    return { ok: false, error: { kind: 'crash', message: core.error.cause, definition: undefined }, steps: 0 };
  };
  const checked = reinterpretSigned(tx, signedHash, scheme, rerun, lookups(ledger));
  const ran = core as R<CoreRun> | undefined;
  if (ran !== undefined && !ran.ok) {
    // A signed transaction the engine cannot even run (values that do not fit their types) is the signer's, not the participant's, failure.
    if (ran.error.code !== 'LEDGER_API_INTERNAL_ERROR') return ran;
    return fail('FAILED_TO_EXECUTE_TRANSACTION', `The participant failed to execute the transaction: its commands cannot run: ${ran.error.cause}`, { definiteAnswer: false });
  }
  if (!checked.ok || ran === undefined) {
    const problem = checked.ok ? 'its commands were not run' : checked.problem;
    return fail('FAILED_TO_EXECUTE_TRANSACTION', `The participant failed to execute the transaction: ${problem}`, { definiteAnswer: false });
  }
  const p = ran.value.prepared;
  const taken = p.created.find((c) => ledger.store.contract(c.contractId) !== undefined);
  if (taken !== undefined) {
    return fail('FAILED_TO_EXECUTE_TRANSACTION', `The participant failed to execute the transaction: the transaction was already committed (contract ${taken.contractId} exists); prepare it again to submit it anew`, {
      context: { contract_id: taken.contractId },
      definiteAnswer: false,
    });
  }
  return ok(p);
}
