/**
 * The update engine on real DARs (splitwell, the test token): transaction.rst's ledger model
 * (authorization, consumption, fetch) and contract-id.rst's seeds, checked on Splice's own code.
 */
import { describe, expect, it } from 'vitest';

import type { Update } from '../../daml-engine/ast/Expr.js';
import type { QualifiedName, Type } from '../../daml-engine/ast/Type.js';
import { decodeJson } from '../../daml-engine/json/jsonValue.js';
import { packageDataTypes } from '../../daml-engine/json/packageDataTypes.js';
import type { Packages } from '../../daml-engine/decode/Packages.js';
import { contractIdV1, deriveContractDiscriminator, deriveNodeSeed } from '../../daml-engine/update/seeds.js';
import type { CreateNode, ExerciseNode, FetchNode } from '../../daml-engine/update/Transaction.js';
import { nodeSeedOf } from '../../daml-engine/update/Transaction.js';
import type { LedgerContract, SubmissionResult } from '../../daml-engine/update/UpdateEngine.js';
import { createCommand, exerciseCommand, exerciseInterfaceCommand, UpdateEngine } from '../../daml-engine/update/UpdateEngine.js';
import type { Value } from '../../daml-engine/value/Value.js';
import { HAS_DARS, loadDar } from './damlFixtures.js';

const SEED = new Uint8Array(32).fill(7);
const PREPARED = 1_764_000_000_000_000n;
const PROVIDER = 'provider::1220aa';
const USER = 'user::1220bb';
type Json = unknown;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const seedOf = nodeSeedOf;

/** A ledger of active contracts the engine's caller keeps: what a participant's store would be. */
class TestLedger {
  readonly active = new Map<string, LedgerContract>();
  constructor(readonly engine: UpdateEngine) {}

  submit(update: Update, submitters: string[], seedByte = 7): SubmissionResult {
    const result = this.engine.submit({
      update, submitters, transactionSeed: new Uint8Array(32).fill(seedByte), preparationTime: PREPARED,
      getContract: (cid) => this.active.get(cid),
    });
    if (result.ok) {
      for (const c of result.transaction.created) this.active.set(c.contractId, { templateId: c.templateId, argument: c.argument });
      for (const cid of result.transaction.archived) this.active.delete(cid);
    }
    return result;
  }
}

function ok(result: SubmissionResult): Extract<SubmissionResult, { ok: true }> {
  if (!result.ok) throw new Error(`submission failed: ${result.error.kind}: ${'message' in result.error ? result.error.message : ''}`);
  return result;
}

function failure(result: SubmissionResult): Extract<SubmissionResult, { ok: false }>['error'] {
  if (result.ok) throw new Error('the submission succeeded');
  return result.error;
}

describe.skipIf(!HAS_DARS)('update engine on splitwell-0.1.23 (needs ../shared/upstream/daml/dars)', () => {
  let packages: Packages;
  let main: string;
  const setup = () => {
    if (packages) return;
    const loaded = loadDar('splice/splitwell-0.1.23.dar');
    packages = loaded.packages;
    main = loaded.dar.main.id;
  };
  const tpl = (name: string): QualifiedName => ({ packageId: main, module: 'Splice.Splitwell', name });
  const fromJson = (type: Type, json: Json): Value => {
    const decoded = decodeJson(type, json, packageDataTypes((id) => packages.get(id)));
    if (!decoded.ok) throw new Error(JSON.stringify(decoded.problem));
    return decoded.value;
  };
  const record = (name: string, json: Json): Value => fromJson({ kind: 'con', tycon: tpl(name), args: [] }, json);
  const choiceArg = (template: string, choice: string, json: Json): Value =>
    fromJson(packages.get(main)!.modules.get('Splice.Splitwell')!.templates.get(template)!.choices.get(choice)!.argBinder.type, json);
  const newLedger = () => { setup(); return new TestLedger(new UpdateEngine({ getPackage: (id) => packages.get(id) })); };

  /** SplitwellRules as the provider, then an install request by the user through it. */
  const installRequest = (ledger: TestLedger) => {
    const rules = ok(ledger.submit(createCommand(tpl('SplitwellRules'), record('SplitwellRules', { provider: PROVIDER })), [PROVIDER]));
    const rulesId = (rules.transaction.nodes[0] as CreateNode).contractId;
    const request = ok(ledger.submit(exerciseCommand(tpl('SplitwellRules'), rulesId, 'SplitwellRules_RequestInstall',
      choiceArg('SplitwellRules', 'SplitwellRules_RequestInstall', { user: USER })), [USER], 8));
    return { rulesId, request, requestId: (request.result as { value: string }).value };
  };

  it('creates a contract of a real template from a JSON argument: one root create, its id from its node seed (contract-id.rst)', () => {
    const ledger = newLedger();
    const r = ok(ledger.submit(createCommand(tpl('SplitwellRules'), record('SplitwellRules', { provider: PROVIDER })), [PROVIDER]));
    const tx = r.transaction;
    expect(tx.roots).toEqual([0]);
    const node = tx.nodes[0] as CreateNode;
    expect(node).toMatchObject({ kind: 'create', nodeId: 0, signatories: [PROVIDER], observers: [], stakeholders: [PROVIDER] });
    const seed = deriveNodeSeed(SEED, 0);
    expect(seedOf(tx, 0)).toBe(hex(seed));
    expect(node.contractId).toBe(contractIdV1(deriveContractDiscriminator(seed, PREPARED, [PROVIDER])));
    expect(r.result).toEqual({ kind: 'contractId', value: node.contractId });
    expect(tx.nodeSeeds).toEqual([[0, hex(seed)]]);
    expect(tx.created.map((c) => c.contractId)).toEqual([node.contractId]);
    expect(tx.archived).toEqual([]);
  });

  it('create: a signatory outside the authorizers fails with createMissingAuthorization (transaction.rst, Authorization)', () => {
    const ledger = newLedger();
    const error = failure(ledger.submit(createCommand(tpl('SplitwellRules'), record('SplitwellRules', { provider: PROVIDER })), [USER]));
    expect(error.kind).toBe('ledger');
    if (error.kind !== 'ledger') return;
    expect(error.failure).toMatchObject({ kind: 'createMissingAuthorization', authorizers: [USER], requiredAuthorizers: [PROVIDER] });
    expect(ledger.active.size).toBe(0);
  });

  it('a non-consuming choice creates under its exercise node; children seeded from the exercise seed', () => {
    const ledger = newLedger();
    const { rulesId, request, requestId } = installRequest(ledger);
    const tx = request.transaction;
    expect(tx.roots).toEqual([0]);
    const ex = tx.nodes[0] as ExerciseNode;
    expect(ex).toMatchObject({ kind: 'exercise', contractId: rulesId, choice: 'SplitwellRules_RequestInstall', consuming: false, actingParties: [USER], children: [1] });
    const exSeed = deriveNodeSeed(new Uint8Array(32).fill(8), 0);
    expect(seedOf(tx, 0)).toBe(hex(exSeed));
    const create = tx.nodes[1] as CreateNode;
    expect(create.templateId.name).toBe('SplitwellInstallRequest');
    expect(seedOf(tx, 1)).toBe(hex(deriveNodeSeed(exSeed, 0)));
    expect(create.contractId).toBe(requestId);
    expect(ex.exerciseResult).toEqual({ kind: 'contractId', value: requestId });
    expect(tx.archived).toEqual([]);
    expect(ledger.active.has(rulesId)).toBe(true);
  });

  it('a consuming choice archives its contract and creates with the authority of signatories and controllers', () => {
    const ledger = newLedger();
    const { requestId } = installRequest(ledger);
    const accept = ok(ledger.submit(exerciseCommand(tpl('SplitwellInstallRequest'), requestId, 'SplitwellInstallRequest_Accept',
      choiceArg('SplitwellInstallRequest', 'SplitwellInstallRequest_Accept', {})), [PROVIDER], 9));
    const tx = accept.transaction;
    const ex = tx.nodes[0] as ExerciseNode;
    expect(ex).toMatchObject({ consuming: true, actingParties: [PROVIDER], children: [1] });
    expect(tx.archived).toEqual([requestId]);
    const install = tx.nodes[1] as CreateNode;
    expect(install.templateId.name).toBe('SplitwellInstall');
    // Both signatories: the user's authority comes from the request's signatory, the provider's from the controller.
    expect([...install.signatories].sort()).toEqual([PROVIDER, USER].sort());
    expect(ledger.active.has(requestId)).toBe(false);
  });

  it('a contract given with its recorded signatories and observers: the same transaction, without running the template\'s expressions', () => {
    const ledger = newLedger();
    const { request, requestId } = installRequest(ledger);
    const contract = ledger.active.get(requestId)!;
    const create = request.transaction.nodes.find((n): n is CreateNode => n.kind === 'create' && n.contractId === requestId)!;
    const accept = exerciseCommand(tpl('SplitwellInstallRequest'), requestId, 'SplitwellInstallRequest_Accept', choiceArg('SplitwellInstallRequest', 'SplitwellInstallRequest_Accept', {}));
    const run = (c: LedgerContract) => ok(new UpdateEngine({ getPackage: (id) => packages.get(id) }).submit({
      update: accept, submitters: [PROVIDER], transactionSeed: SEED, preparationTime: PREPARED, getContract: (cid) => (cid === requestId ? c : undefined),
    }));
    const evaluated = run(contract);
    const given = run({ ...contract, signatories: create.signatories, observers: create.observers });
    expect(given.transaction).toEqual(evaluated.transaction);
    expect(given.steps).toBeLessThan(evaluated.steps);
    // Given, they are taken as they are: the caller's record decides the exercise node's signatories.
    expect(create.signatories).toEqual([PROVIDER, USER]);
    const recorded = run({ ...contract, signatories: [USER], observers: [PROVIDER] });
    expect((recorded.transaction.nodes[0] as ExerciseNode).signatories).toEqual([USER]);
    expect((evaluated.transaction.nodes[0] as ExerciseNode).signatories).toEqual([PROVIDER, USER]);
  });

  it('exercise: a controller outside the authorizers fails with exerciseMissingAuthorization', () => {
    const ledger = newLedger();
    const { requestId } = installRequest(ledger);
    const error = failure(ledger.submit(exerciseCommand(tpl('SplitwellInstallRequest'), requestId, 'SplitwellInstallRequest_Accept',
      choiceArg('SplitwellInstallRequest', 'SplitwellInstallRequest_Accept', {})), [USER], 9));
    expect(error).toMatchObject({ kind: 'ledger', failure: { kind: 'exerciseMissingAuthorization', requiredAuthorizers: [PROVIDER], authorizers: [USER] } });
    expect(ledger.active.has(requestId)).toBe(true);
  });

  it('a consumed contract exercised again in the same transaction is not active (ContractNotActive)', () => {
    const ledger = newLedger();
    const { requestId } = installRequest(ledger);
    const accept = exerciseCommand(tpl('SplitwellInstallRequest'), requestId, 'SplitwellInstallRequest_Accept',
      choiceArg('SplitwellInstallRequest', 'SplitwellInstallRequest_Accept', {}));
    const twice: Update = {
      kind: 'block',
      bindings: [{ name: 'first', type: { kind: 'builtin', builtin: 'UNIT', args: [] }, bound: { kind: 'update', update: accept } }],
      body: { kind: 'update', update: accept },
    };
    const error = failure(ledger.submit(twice, [PROVIDER], 9));
    expect(error).toMatchObject({ kind: 'ledger', failure: { kind: 'contractNotActive', contractId: requestId } });
    // And in a later transaction, once the ledger archived it, the caller no longer knows it.
    ok(ledger.submit(accept, [PROVIDER], 9));
    expect(failure(ledger.submit(accept, [PROVIDER], 10))).toMatchObject({ kind: 'ledger', failure: { kind: 'contractNotFound', contractId: requestId } });
  });

  it('fetch: a stakeholder among the authorizers makes a fetch node; none fails with fetchMissingAuthorization', () => {
    const ledger = newLedger();
    const { requestId } = installRequest(ledger);
    const fetch: Update = { kind: 'fetch', template: tpl('SplitwellInstallRequest'), cid: { kind: 'lit', value: { kind: 'contractId', value: requestId } } };
    const fetched = ok(ledger.submit(fetch, [USER, 'other::1220cc'], 11));
    const node = fetched.transaction.nodes[0] as FetchNode;
    expect(node).toMatchObject({ kind: 'fetch', contractId: requestId, actingParties: [USER] });
    expect(fetched.result).toEqual(ledger.active.get(requestId)!.argument);
    const error = failure(ledger.submit(fetch, ['other::1220cc'], 11));
    expect(error).toMatchObject({ kind: 'ledger', failure: { kind: 'fetchMissingAuthorization' } });
  });

  it('fetch of a contract as another template fails with wronglyTypedContract', () => {
    const ledger = newLedger();
    const { requestId } = installRequest(ledger);
    const fetch: Update = { kind: 'fetch', template: tpl('SplitwellInstall'), cid: { kind: 'lit', value: { kind: 'contractId', value: requestId } } };
    expect(failure(ledger.submit(fetch, [USER], 11))).toMatchObject({ kind: 'ledger', failure: { kind: 'wronglyTypedContract' } });
  });
});

describe.skipIf(!HAS_DARS)('update engine on splice-test-token-v1-1.0.0: preconditions and interfaces (needs ../shared/upstream/daml/dars)', () => {
  let packages: Packages;
  let main: string;
  const setup = () => {
    if (packages) return;
    const loaded = loadDar('splice/splice-test-token-v1-1.0.0.dar');
    packages = loaded.packages;
    main = loaded.dar.main.id;
  };
  const MODULE = 'Splice.Testing.Tokens.TestTokenV1';
  const tpl = (name: string): QualifiedName => ({ packageId: main, module: MODULE, name });
  const ifaceNamed = (module: string, name: string): QualifiedName => {
    for (const p of packages.all()) if (p.modules.get(module)?.interfaces.has(name)) return { packageId: p.id, module, name };
    throw new Error(`no interface ${module}:${name}`);
  };
  const fromJson = (type: Type, json: Json): Value => {
    const decoded = decodeJson(type, json, packageDataTypes((id) => packages.get(id)));
    if (!decoded.ok) throw new Error(JSON.stringify(decoded.problem));
    return decoded.value;
  };
  const ADMIN = 'admin::1220dd';
  const token = (amount: string): Value => fromJson({ kind: 'con', tycon: tpl('Token'), args: [] }, {
    holding: { owner: USER, instrumentId: { admin: ADMIN, id: 'TEST' }, amount, lock: null, meta: { values: {} } },
  });
  const newLedger = () => { setup(); return new TestLedger(new UpdateEngine({ getPackage: (id) => packages.get(id) })); };

  it('create: an ensure that fails ends the submission with the PreconditionFailed exception, uncaught', () => {
    const ledger = newLedger();
    ok(ledger.submit(createCommand(tpl('Token'), token('10.0')), [USER, ADMIN]));
    const error = failure(ledger.submit(createCommand(tpl('Token'), token('0.0')), [USER, ADMIN]));
    // SDK 3.x compiles `ensure` to throw daml-stdlib's PreconditionFailed: an exception a caller may catch.
    expect(error).toMatchObject({
      kind: 'unhandledException',
      exception: { type: { tycon: { module: 'DA.Exception.PreconditionFailed', name: 'PreconditionFailed' } } },
    });
    if (error.kind !== 'unhandledException') return;
    expect(error.exception.value).toMatchObject({ fields: [{ kind: 'text', value: expect.stringMatching(/^Template precondition violated: Token/) }] });
    expect(ledger.active.size).toBe(1);
  });

  it('fetch_interface of a Token through Holding records the interface on the fetch node', () => {
    const ledger = newLedger();
    const created = ok(ledger.submit(createCommand(tpl('Token'), token('10.0')), [USER, ADMIN]));
    const cid = (created.result as { value: string }).value;
    const holding = ifaceNamed('Splice.Api.Token.HoldingV1', 'Holding');
    const fetched = ok(ledger.submit({ kind: 'fetchInterface', iface: holding, cid: { kind: 'lit', value: { kind: 'contractId', value: cid } } }, [USER], 3));
    expect(fetched.transaction.nodes[0]).toMatchObject({ kind: 'fetch', contractId: cid, templateId: { name: 'Token' }, interfaceId: holding });
    // A contract whose template does not implement the interface is refused.
    const rules = ok(ledger.submit(createCommand(tpl('TokenRules'), fromJson({ kind: 'con', tycon: tpl('TokenRules'), args: [] }, { admin: ADMIN })), [ADMIN], 4));
    const rulesId = (rules.result as { value: string }).value;
    expect(failure(ledger.submit({ kind: 'fetchInterface', iface: holding, cid: { kind: 'lit', value: { kind: 'contractId', value: rulesId } } }, [ADMIN], 5)))
      .toMatchObject({ kind: 'ledger', failure: { kind: 'contractDoesNotImplementInterface' } });
  });

  it('exercise_interface dispatches an interface choice (TransferFactory_PublicFetch) to the template implementing it', () => {
    const ledger = newLedger();
    const rules = ok(ledger.submit(createCommand(tpl('TokenRules'), fromJson({ kind: 'con', tycon: tpl('TokenRules'), args: [] }, { admin: ADMIN })), [ADMIN]));
    const rulesId = (rules.result as { value: string }).value;
    const factory = ifaceNamed('Splice.Api.Token.TransferInstructionV1', 'TransferFactory');
    const choice = packages.get(factory.packageId)!.modules.get(factory.module)!.interfaces.get(factory.name)!.choices.get('TransferFactory_PublicFetch')!;
    const arg = fromJson(choice.argBinder.type, { expectedAdmin: ADMIN, actor: USER });
    const r = ok(ledger.submit(exerciseInterfaceCommand(factory, rulesId, 'TransferFactory_PublicFetch', arg), [USER], 6));
    const ex = r.transaction.nodes[0] as ExerciseNode;
    expect(ex).toMatchObject({ kind: 'exercise', interfaceId: factory, templateId: { name: 'TokenRules' }, consuming: false, actingParties: [USER] });
    expect(ex.exerciseResult).toEqual(r.result);
    expect(r.result).toMatchObject({ kind: 'record', fieldNames: ['admin', 'meta'], fields: [{ kind: 'party', value: ADMIN }, { kind: 'record' }] });
  });
});
