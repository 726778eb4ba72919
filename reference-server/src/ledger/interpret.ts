import { hash as digest } from 'node:crypto';
import type { LedgerStore } from '../store/LedgerStore.js';
import type { CreateNode, ExerciseNode, TxNode } from '../store/LogEntry.js';
import { StoredContract } from '../store/StoredContract.js';
import { canonicalArgumentOf, decodeBlobCached } from './blob.js';
import type { LedgerConfig } from './config.js';
import type { ErrorCodeId, LedgerError } from './errors.js';
import { fail, ledgerError } from './errors.js';
import type { Interner } from './intern.js';
import type { Result } from './result.js';
import { err, ok } from './result.js';
import type { Catalogue, ChoiceDef, InterfaceDef, TemplateDef } from './templates/Catalogue.js';
import type { ChoiceContext, ContractView } from './templates/types.js';
import { synchronizerFor, type ValidatedSubmission } from './submission.js';
import { canonicalJson, isPlainObject, normalizeRecord, normalizeValue, show } from './values.js';
import type { DamlRecord, DamlValue } from './wire.js';
import { contractIdV1, deriveContractDiscriminator, deriveNodeSeed } from '../../../daml-engine/update/seeds.js';

/**
 * What interpretation needs from the ledger, and how its creates get their contract ids: fresh
 * ones (`nextContractId`), or, with `seeding` (interactive submission), derived from the nodes'
 * seeds as a participant's engine derives them (contract-id.rst), since the prepared transaction
 * shows the seeds and the signer signs them.
 */
export type InterpretEnv = InterpretEnvBase & (
  | { nextContractId(seed: string): string; readonly seeding?: undefined }
  | { readonly seeding: Seeding; readonly nextContractId?: undefined }
);

interface InterpretEnvBase {
  readonly store: LedgerStore;
  readonly catalogue: Catalogue;
  readonly config: LedgerConfig;
  readonly interner: Interner;
  isKnownParty(party: string): boolean;
  /**
   * A seed for an engine transaction the ledger seeds itself (interactive submission brings its
   * own): 32 bytes, never the same twice, across restarts too (it carries the contract-id nonce).
   */
  nextTransactionSeed(): Uint8Array;
}

/** The seed of a transaction's root nodes and the preparation (submission) time, in µs, its discriminators use. */
export interface Seeding {
  readonly transactionSeed: Uint8Array;
  readonly preparationTime: bigint;
}

/**
 * The result of interpreting commands, not yet committed: the transaction tree, the contracts it
 * creates and the pre-existing contracts it reads and consumes. Commit re-checks the inputs, so a
 * prepared transaction can wait (interactive submission) and still commit safely.
 */
export interface PreparedTransaction {
  readonly submission: ValidatedSubmission;
  readonly nodes: readonly TxNode[];
  readonly created: readonly StoredContract[];
  readonly consumed: readonly StoredContract[];
  readonly inputs: readonly StoredContract[];
  readonly synchronizer: number;
  readonly ledgerTime: number;
  /**
   * Whether a choice read the ledger time (Daml `getTime`): the transaction is then only what it
   * is at this ledger time, and interactive submission pins it (min = max ledger effective time).
   */
  readonly dependsOnTime: boolean;
  /** Result of each command, in order (the exercise result, or the created contract id). */
  readonly results: readonly DamlValue[];
  /** Set by interactive submission: the prepared transaction hash the parties signed (base64). */
  readonly externalTransactionHash?: string;
  /** Set by interactive submission: the prepared transaction's UUID, which commits at most once. */
  readonly transactionUuid?: string;
  /** With `InterpretEnv.seeding`: the seed of each create and exercise node, by node id. */
  readonly nodeSeeds?: ReadonlyMap<number, Uint8Array>;
}

export function keyHashOf(template: TemplateDef, key: DamlValue): string {
  return `${template.packageName}:${template.qualifiedName}|${canonicalJson(key)}`;
}

export function contractViewOf(c: StoredContract, config: LedgerConfig): ContractView {
  return {
    contractId: c.contractId,
    templateId: c.template.id,
    packageName: c.template.packageName,
    argument: c.argument,
    signatories: c.signatories,
    observers: c.observers,
    createdAt: c.createdAt,
    synchronizerId: config.synchronizers[c.synchronizer]?.id ?? '',
  };
}

/** Templates of uploaded packages run in the engine only; the TypeScript interpreter never mixes them in. */
const ENGINE_ONLY = (id: string) => `${id} belongs to an uploaded package: commands on it run through the Daml-LF engine and cannot be combined with the server's built-in templates`;

const preprocessing = (cause: string, extra: Omit<LedgerError, 'code' | 'cause'> = {}) =>
  ledgerError('COMMAND_PREPROCESSING_FAILED', cause, extra);

/** Runs a validated submission against the current ledger state. Pure: nothing is written. */
export function interpret(env: InterpretEnv, submission: ValidatedSubmission, now: number): Result<PreparedTransaction, LedgerError> {
  const tx = new TxBuilder(env, submission, Math.max(now, submission.minLedgerTimeMs ?? 0));
  const disclosed = tx.loadDisclosed();
  if (!disclosed.ok) return disclosed;
  const results: DamlValue[] = [];
  for (const command of submission.commands) {
    const r = tx.command(command);
    if (!r.ok) return r;
    results.push(r.value);
  }
  return tx.finish(results);
}

class TxBuilder {
  readonly nodes: TxNode[] = [];
  readonly created = new Map<string, StoredContract>();
  readonly consumedInTx = new Set<string>();
  readonly inputs = new Map<string, StoredContract>();
  readonly consumed: StoredContract[] = [];
  readonly disclosed = new Map<string, StoredContract>();
  readonly readers: ReadonlySet<string>;
  readonly actAs: readonly string[];
  readonly seed: string;
  /** Set when a choice reads the ledger time. */
  dependsOnTime = false;
  /** With `env.seeding`: each create's and exercise's seed, and the frames deriving them (the transaction's, then each open exercise's). */
  readonly nodeSeeds: Map<number, Uint8Array> | undefined;
  readonly #seedFrames: { readonly seed: Uint8Array; next: number }[] = [];

  constructor(
    readonly env: InterpretEnv,
    readonly submission: ValidatedSubmission,
    readonly ledgerTime: number,
  ) {
    this.actAs = env.interner.set(submission.actAs);
    this.readers = new Set([...submission.actAs, ...submission.readAs]);
    this.seed = `${submission.userId}|${submission.commandId}|${ledgerTime}`;
    if (env.seeding !== undefined) {
      this.nodeSeeds = new Map();
      this.#seedFrames.push({ seed: env.seeding.transactionSeed, next: 0 });
    }
  }

  /** The seed of the next action node of the innermost open exercise (or of the transaction), as the engine derives it. */
  #nextNodeSeed(nodeId: number): Uint8Array | undefined {
    const frame = this.#seedFrames[this.#seedFrames.length - 1];
    if (frame === undefined) return undefined;
    const seed = deriveNodeSeed(frame.seed, frame.next++);
    this.nodeSeeds?.set(nodeId, seed);
    return seed;
  }

  loadDisclosed(): Result<void, LedgerError> {
    for (const d of this.submission.disclosedContracts) {
      const decoded = decodeBlobCached(d.createdEventBlob, this.env.config.blobKey);
      if (!decoded.ok) return fail('DISCLOSED_CONTRACT_INVALID', `Disclosed contract is invalid: ${decoded.reason}`, { context: { contract_id: d.contractId ?? '' } });
      const p = decoded.value;
      if (d.contractId !== undefined && d.contractId !== p.contractId) {
        return fail('DISCLOSED_CONTRACT_INVALID', `Disclosed contract ${d.contractId} does not match its createdEventBlob (which is for ${p.contractId})`, {
          context: { contract_id: d.contractId },
        });
      }
      if (d.templateId !== undefined) {
        const t = this.env.catalogue.resolve(d.templateId);
        if (!t.ok || t.value.id !== p.templateId) {
          return fail('DISCLOSED_CONTRACT_INVALID', `Disclosed contract ${p.contractId}: template id ${d.templateId} does not match its createdEventBlob`, {
            context: { contract_id: p.contractId },
          });
        }
      }
      const stored = this.env.store.contract(p.contractId);
      if (!stored || stored.template.id !== p.templateId || canonicalArgumentOf(stored) !== decoded.canonicalArgument()) {
        return fail('CONTRACT_NOT_FOUND', `Contract could not be found with id ${p.contractId}`, { context: { contract_id: p.contractId } });
      }
      this.disclosed.set(p.contractId, stored);
    }
    return ok(undefined);
  }

  command(command: Record<string, unknown>): Result<DamlValue, LedgerError> {
    const [kind, body] = Object.entries(command)[0] as [string, unknown];
    if (!isPlainObject(body)) return err(preprocessing(`${kind} must be an object`));
    const templateId = body.templateId;
    if (typeof templateId !== 'string') return err(preprocessing(`${kind}.templateId is missing`));
    const root = { authorizers: this.actAs, witnesses: [] as readonly string[] };
    switch (kind) {
      case 'CreateCommand': {
        const t = this.env.catalogue.resolveTemplate(templateId);
        if (!t.ok) return t;
        const c = this.create(t.value, body.createArguments, root.authorizers, root.witnesses, 'createArguments');
        return c.ok ? ok(c.value.contractId) : c;
      }
      case 'ExerciseCommand': {
        if (typeof body.contractId !== 'string' || body.contractId === '') return err(preprocessing('ExerciseCommand.contractId is missing'));
        if (typeof body.choice !== 'string') return err(preprocessing('ExerciseCommand.choice is missing'));
        const def = this.env.catalogue.resolve(templateId);
        if (!def.ok) return def;
        const c = this.fetch(body.contractId);
        if (!c.ok) return c;
        return this.exerciseAs(def.value, c.value, body.choice, body.choiceArgument, root.authorizers, root.witnesses);
      }
      case 'CreateAndExerciseCommand': {
        if (typeof body.choice !== 'string') return err(preprocessing('CreateAndExerciseCommand.choice is missing'));
        const t = this.env.catalogue.resolveTemplate(templateId);
        if (!t.ok) return t;
        const c = this.create(t.value, body.createArguments, root.authorizers, root.witnesses, 'createArguments');
        if (!c.ok) return c;
        return this.exerciseAs(t.value, c.value, body.choice, body.choiceArgument, root.authorizers, root.witnesses);
      }
      case 'ExerciseByKeyCommand': {
        if (typeof body.choice !== 'string') return err(preprocessing('ExerciseByKeyCommand.choice is missing'));
        const t = this.env.catalogue.resolveTemplate(templateId);
        if (!t.ok) return t;
        const c = this.lookupByKey(t.value, body.contractKey);
        if (!c.ok) return c;
        return this.exerciseAs(t.value, c.value, body.choice, body.choiceArgument, root.authorizers, root.witnesses);
      }
    }
    return err(preprocessing(`unknown command ${kind}`));
  }

  create(template: TemplateDef, rawArgument: unknown, authorizers: readonly string[], parentWitnesses: readonly string[], path: string): Result<StoredContract, LedgerError> {
    if ('engine' in template) return err(preprocessing(ENGINE_ONLY(template.id)));
    const { interner } = this.env;
    const norm = normalizeRecord(template.fields, rawArgument, '', (p) => interner.string(p));
    if (!norm.ok) {
      const where = norm.problem.path ? ` at ${path}.${norm.problem.path}` : ` in ${path}`;
      return err(preprocessing(`Invalid value for ${template.packageName}:${template.qualifiedName}${where}: ${norm.problem.message}`, { context: { template_id: template.id } }));
    }
    const argument = norm.value as DamlRecord;
    let signatories: readonly string[];
    let allStakeholders: readonly string[];
    try {
      const precondition = template.ensure?.(argument);
      if (precondition !== undefined) {
        // Canton's code for a failed `ensure` (CommandExecutionErrors.Interpreter.TemplatePreconditionViolated).
        return fail('TEMPLATE_PRECONDITION_VIOLATED', `Interpretation error: Error: Update failed due to precondition violation when creating ${template.qualifiedName}: ${precondition}`, { context: { template_id: template.id } });
      }
      signatories = interner.set(template.signatoriesOf(argument));
      allStakeholders = interner.set([...signatories, ...template.observersOf(argument)]);
    } catch (e) {
      return this.crashed(`template ${template.qualifiedName}`, e);
    }
    if (signatories.length === 0) {
      return fail('DAML_INTERPRETATION_ERROR', `Interpretation error: Error: template ${template.qualifiedName} has no signatories`);
    }
    const unknown = allStakeholders.filter((p) => !this.env.isKnownParty(p));
    if (unknown.length) return fail('PARTY_NOT_KNOWN_ON_LEDGER', `Parties not known on ledger: ${unknown.join(', ')}`, { context: { parties: unknown.join(',') } });
    const missingAuth = signatories.filter((p) => !authorizers.includes(p));
    if (missingAuth.length) {
      return this.unauthorized(template.id, signatories, authorizers);
    }
    let key: DamlValue | undefined;
    let keyHash: string | undefined;
    if (template.key) {
      try {
        const k = normalizeValue(template.key.type, template.key.of(argument), 'key', (p) => interner.string(p));
        if (!k.ok) return fail('DAML_INTERPRETATION_ERROR', `Interpretation error: invalid contract key: ${k.problem.message}`);
        key = k.value;
        const maintainers = template.key.maintainers(key);
        if (maintainers.length === 0 || maintainers.some((m) => !signatories.includes(m))) {
          return fail('DAML_INTERPRETATION_ERROR', `Interpretation error: key maintainers must be non-empty signatories of ${template.qualifiedName}`);
        }
      } catch (e) {
        return this.crashed(`key of ${template.qualifiedName}`, e);
      }
      keyHash = keyHashOf(template, key);
    }
    const nodeId = this.nodes.length;
    const observers = interner.set(allStakeholders.filter((p) => !signatories.includes(p)));
    const nodeSeed = this.#nextNodeSeed(nodeId);
    const env = this.env;
    const contract = new StoredContract(
      env.seeding === undefined
        ? env.nextContractId(`${this.seed}|${nodeId}`)
        : contractIdV1(deriveContractDiscriminator(nodeSeed!, env.seeding.preparationTime, allStakeholders)),
      template,
      argument,
      signatories,
      observers,
      allStakeholders,
      key,
      keyHash,
      nodeId,
      0,
    );
    contract.createdAt = this.ledgerTime;
    const node: CreateNode = { kind: 'create', nodeId, contract, witnesses: interner.union(allStakeholders, parentWitnesses), transient: false };
    this.nodes.push(node);
    this.created.set(contract.contractId, contract);
    return ok(contract);
  }

  /**
   * Finds a contract the submission may use: created here, disclosed, or visible to a reader (an
   * actAs or readAs party), at the root as inside a choice. As a Canton participant, which looks
   * contracts up as the submission's readers: a choice's authorizer being a stakeholder does not
   * make the contract known to the submission (prepare and submit alike; the engine's look-up,
   * runEngineCommands' `contractLookup`, is the same).
   */
  fetch(contractId: string): Result<StoredContract, LedgerError> {
    const notFound = () => fail('CONTRACT_NOT_FOUND', `Contract could not be found with id ${contractId}`, { context: { contract_id: contractId } });
    if (this.consumedInTx.has(contractId)) {
      return fail('CONTRACT_NOT_ACTIVE', `Interpretation error: Error: Update failed due to fetch of an inactive contract ${contractId}`, { context: { contract_id: contractId } });
    }
    const local = this.created.get(contractId);
    if (local) return ok(local);
    const c = this.disclosed.get(contractId) ?? this.env.store.contract(contractId);
    if (!c || !c.isActive) return notFound();
    const visible =
      this.disclosed.has(contractId) ||
      c.stakeholders.some((p) => this.readers.has(p));
    if (!visible) return notFound();
    if (c.inFlight) {
      return fail(
        'UNKNOWN_CONTRACT_SYNCHRONIZERS',
        `The synchronizers for the contracts ${contractId} are currently unknown due to ongoing contract reassignments`,
        { context: { contractIds: contractId } },
      );
    }
    this.inputs.set(contractId, c);
    return ok(c);
  }

  lookupByKey(template: TemplateDef, rawKey: unknown): Result<StoredContract, LedgerError> {
    if (!template.key) {
      return fail('CONTRACT_KEY_NOT_SUPPORTED', `Template ${template.packageName}:${template.qualifiedName} has no contract key, so ExerciseByKeyCommand cannot address it`, {
        context: { template_id: template.id },
      });
    }
    const k = normalizeValue(template.key.type, rawKey, 'contractKey', (p) => this.env.interner.string(p));
    if (!k.ok) return err(preprocessing(`Invalid contract key for ${template.qualifiedName} at ${k.problem.path}: ${k.problem.message}`));
    const hash = keyHashOf(template, k.value);
    const localHits = [...this.created.values()].filter((c) => c.keyHash === hash && !this.consumedInTx.has(c.contractId));
    const candidates = [...localHits, ...this.env.store.activeByKey(hash).filter((c) => !this.consumedInTx.has(c.contractId))];
    for (const c of candidates) {
      if (this.created.has(c.contractId) || c.stakeholders.some((p) => this.readers.has(p))) {
        return this.fetch(c.contractId);
      }
    }
    return fail('CONTRACT_KEY_NOT_FOUND', `No active contract of ${template.qualifiedName} with key ${canonicalJson(k.value)} is visible to the submitters`, {
      context: { template_id: template.id, key: canonicalJson(k.value) },
    });
  }

  /** Exercise addressed through `def`, a template id or an interface id. */
  exerciseAs(
    def: TemplateDef | InterfaceDef,
    contract: StoredContract,
    choiceName: string,
    rawArgument: unknown,
    authorizers: readonly string[],
    parentWitnesses: readonly string[],
  ): Result<DamlValue, LedgerError> {
    let choice: ChoiceDef | undefined;
    let iface: InterfaceDef | undefined;
    if ('engine' in def || 'engine' in contract.template) return err(preprocessing(ENGINE_ONLY(def.id)));
    if (def.kind === 'template') {
      if (def.packageName !== contract.template.packageName || def.qualifiedName !== contract.template.qualifiedName) {
        return fail('DAML_INTERPRETATION_ERROR', `Interpretation error: Error: contract ${contract.contractId} is a ${contract.template.qualifiedName}, not a ${def.qualifiedName} (wrongly typed contract)`, {
          context: { contract_id: contract.contractId },
        });
      }
      choice = contract.template.choices.get(choiceName);
    } else {
      if (!contract.template.interfaces.has(def.id)) {
        return fail('DAML_INTERPRETATION_ERROR', `Interpretation error: Error: contract ${contract.contractId} (${contract.template.qualifiedName}) does not implement interface ${def.qualifiedName}`, {
          context: { contract_id: contract.contractId },
        });
      }
      iface = def;
      choice = def.choices.get(choiceName);
    }
    if (!choice) {
      return err(preprocessing(`Couldn't find requested choice ${choiceName} for ${def.kind} ${def.packageName}:${def.qualifiedName}`, { context: { choice: choiceName } }));
    }
    return this.exercise(contract, choice, iface, rawArgument, authorizers, parentWitnesses);
  }

  exercise(
    contract: StoredContract,
    choice: ChoiceDef,
    iface: InterfaceDef | undefined,
    rawArgument: unknown,
    authorizers: readonly string[],
    parentWitnesses: readonly string[],
  ): Result<DamlValue, LedgerError> {
    const { interner, config } = this.env;
    const norm = normalizeValue(choice.argumentType, rawArgument === undefined ? {} : rawArgument, 'choiceArgument', (p) => interner.string(p));
    if (!norm.ok) {
      return err(preprocessing(`Invalid argument for choice ${choice.name} at ${norm.problem.path}: ${norm.problem.message}`, { context: { choice: choice.name } }));
    }
    const argument = norm.value;
    const view = contractViewOf(contract, config);
    let controllers: readonly string[];
    let choiceObservers: readonly string[];
    try {
      controllers = interner.set(choice.controllers(view, argument));
      choiceObservers = interner.set(choice.observers?.(view, argument) ?? []);
    } catch (e) {
      return this.crashed(`controllers of ${choice.name}`, e);
    }
    if (controllers.length === 0) return fail('DAML_INTERPRETATION_ERROR', `Interpretation error: Error: choice ${choice.name} has no controllers`);
    if (controllers.some((p) => !authorizers.includes(p))) {
      return this.unauthorized(contract.template.id, controllers, authorizers);
    }
    const informees = interner.set([...(choice.consuming ? contract.stakeholders : contract.signatories), ...controllers, ...choiceObservers]);
    const witnesses = interner.union(informees, parentWitnesses);
    const nodeSeed = this.#nextNodeSeed(this.nodes.length);
    const node: ExerciseNode = {
      kind: 'exercise',
      nodeId: this.nodes.length,
      contract,
      choice,
      interface: iface,
      argument,
      actingParties: controllers,
      consuming: choice.consuming,
      witnesses,
      lastDescendantNodeId: this.nodes.length,
      result: {},
      archivesInput: false,
    };
    this.nodes.push(node);
    if (choice.consuming) {
      this.consumedInTx.add(contract.contractId);
      if (!this.created.has(contract.contractId)) {
        node.archivesInput = true;
        this.consumed.push(contract);
      }
    }
    const childAuthorizers = interner.set([...controllers, ...contract.signatories]);
    let result: DamlValue = {};
    if (choice.body) {
      let r: Result<DamlValue, LedgerError>;
      if (nodeSeed !== undefined) this.#seedFrames.push({ seed: nodeSeed, next: 0 });
      try {
        r = choice.body(this.context(childAuthorizers, witnesses), view, argument);
      } catch (e) {
        return this.crashed(`choice ${choice.name}`, e);
      } finally {
        if (nodeSeed !== undefined) this.#seedFrames.pop();
      }
      if (!r.ok) return r;
      result = r.value;
    }
    node.result = result;
    node.lastDescendantNodeId = this.nodes.length - 1;
    return ok(result);
  }

  context(authorizers: readonly string[], witnesses: readonly string[]): ChoiceContext {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the getter's own `this` is the context object
    const tx = this;
    return {
      // Reading the time is Daml's getTime: it makes the transaction depend on its ledger time.
      get now() {
        tx.dependsOnTime = true;
        return tx.ledgerTime;
      },
      authorizers,
      create: (templateId, argument) => {
        const t = this.env.catalogue.resolveTemplate(templateId);
        if (!t.ok) return t;
        const c = this.create(t.value, argument, authorizers, witnesses, 'choice body create');
        return c.ok ? ok(c.value.contractId) : c;
      },
      exercise: (contractId, choice, argument, interfaceId) => {
        const c = this.fetch(contractId);
        if (!c.ok) return c;
        if (interfaceId === undefined) return this.exerciseAs(c.value.template, c.value, choice, argument, authorizers, witnesses);
        const iface = this.env.catalogue.resolve(interfaceId);
        if (!iface.ok) return iface;
        return this.exerciseAs(iface.value, c.value, choice, argument, authorizers, witnesses);
      },
      fetch: (contractId) => {
        const c = this.fetch(contractId);
        return c.ok ? ok(contractViewOf(c.value, this.env.config)) : c;
      },
      archive: (contractId) => {
        const c = this.fetch(contractId);
        if (!c.ok) return c;
        const r = this.exerciseAs(c.value.template, c.value, 'Archive', {}, authorizers, witnesses);
        return r.ok ? ok(undefined) : r;
      },
      fail: (message) => ledgerError('DAML_FAILURE', `Interpretation error: Error: ${message}`),
    };
  }

  /**
   * Daml's Create/ExerciseMissingAuthorization as Canton prints it (the engine's cantonErrorOf
   * writes the same). Canton's AuthorizationError.Reject carries the cause only: no context fields.
   */
  unauthorized(templateId: string, required: readonly string[], given: readonly string[]): Result<never, LedgerError> {
    return fail('DAML_AUTHORIZATION_ERROR', `Interpretation error: Error: node NodeId(${this.nodes.length}) (${templateId}) requires authorizers ${required.join(',')}, but only ${given.join(',')} were given`);
  }

  crashed(where: string, e: unknown): Result<never, LedgerError> {
    const code: ErrorCodeId = 'DAML_INTERPRETATION_ERROR';
    return fail(code, `Interpretation error: Error: ${where} failed: ${e instanceof Error ? e.message : show(e)}`);
  }

  finish(results: DamlValue[]): Result<PreparedTransaction, LedgerError> {
    const { config } = this.env;
    const routed = synchronizerFor(config.synchronizers, this.submission, this.inputs);
    if (!routed.ok) return routed;
    const synchronizer = routed.value;
    for (const n of this.nodes) {
      if (n.kind === 'create') n.transient = this.consumedInTx.has(n.contract.contractId);
    }
    return ok({
      submission: this.submission,
      nodes: this.nodes,
      created: [...this.created.values()],
      consumed: this.consumed,
      inputs: [...this.inputs.values()],
      synchronizer,
      ledgerTime: this.ledgerTime,
      dependsOnTime: this.dependsOnTime,
      results,
      ...(this.nodeSeeds === undefined ? {} : { nodeSeeds: this.nodeSeeds }),
    });
  }
}

/** Contract ids: version byte 00 and a SHA-256 discriminator, like Canton's V1 ids. */
export function contractIdFrom(participantId: string, nonce: number, seed: string): string {
  // One-shot `hash`: no Hash object per id (every create, and every engine command's seed, makes one).
  return '00' + digest('sha256', `${participantId}|${nonce}|${seed}`, 'hex');
}

/** The base of a participant's engine transaction seeds (`transactionSeedOf`): made once per ledger. */
export function transactionSeedBase(participantId: string): Uint8Array {
  return Buffer.from(digest('sha256', `${participantId}|engine transaction seeds`, 'hex'), 'hex');
}

/**
 * An engine transaction's seed: the participant's base with the nonce written over its last eight
 * bytes (exclusive or, big-endian). A seed only has to be fresh, and the nonce never repeats;
 * hashing it again would cost more than the rest of a small command's seeds (the node seeds and
 * discriminators derive from it by HMAC, contract-id.rst).
 */
export function transactionSeedOf(base: Uint8Array, nonce: number): Uint8Array {
  const seed = Uint8Array.from(base);
  let n = nonce;
  for (let i = 31; i >= 24; i--) {
    seed[i] = seed[i]! ^ (n % 256);
    n = Math.floor(n / 256);
  }
  return seed;
}
