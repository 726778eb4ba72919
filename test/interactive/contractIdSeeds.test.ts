/**
 * A prepared transaction's contract ids derive from its node seeds as a participant's engine
 * derives them (contract-id.rst): on the built-in models and on uploaded packages alike. Judged
 * with the suite's own derivation (`v1Discriminator`, node:crypto), the seeds of an exercise's
 * children from the exercise's seed; and the commit keeps the prepared ids.
 */
import { createHmac } from 'node:crypto';
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { beforeEach, describe, expect, it } from 'vitest';
import { judgeContractIdSeeds, v1Discriminator, v2LocalPrefix } from '../../conformance/src/checks/ledgerInteractiveEncoding.js';
import { interactiveSubmissionOf, type InteractiveSubmission } from '../../reference-server/src/ledger/interactive/index.js';
import { createLedger, type Ledger } from '../../reference-server/src/ledger/index.js';
import { buildSamplePackage } from '../../reference-server/src/ledger/templates/samplePackage.js';
import { must } from '../ledger/helpers.js';
import { ASSET, executeRequestOf, freshId } from './support/externalParties.js';
import { newKey, type TestKey } from './support/keys.js';

/** The built-in sample templates' Asset, and the same Daml as an uploaded package (run by the engine). */
const ENGINE_ASSET = '#seeded-samples:Sample.Asset:Asset';

let ledger: Ledger;
let service: InteractiveSubmission;
let key: TestKey;
let ext: string;

beforeEach(() => {
  ledger = createLedger();
  must(ledger.uploadDar(buildSamplePackage({ name: 'seeded-samples', account: false }).dar(), { synchronizerId: ledger.config.synchronizers[0]!.id }));
  service = interactiveSubmissionOf(ledger);
  key = newKey('ed25519');
  ext = must(ledger.allocateExternalParty('ext', key.publicKey)).party;
  must(ledger.createUser({ user: { id: 'wallet', isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanActAs: { value: { party: ext } } } }] }));
});

interface Prepared {
  readonly preparedTransaction: string;
  readonly preparedTransactionHash: string;
}

function prepare(commands: unknown[]): Prepared {
  return must(service.prepare({ userId: 'wallet', commandId: freshId('prep'), commands, actAs: [ext], readAs: [], disclosedContracts: [], packageIdSelectionPreference: [], verboseHashing: false } as never));
}

/** Executes and answers the ids of the contracts the committed transaction created, in node order. */
function executeCreated(p: Prepared): string[] {
  const r = must(service.executeAndWaitForTransaction(executeRequestOf(key, ext, p, {
    transactionFormat: { eventFormat: { filtersByParty: { [ext]: {} }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
  })));
  return (r.transaction.events as Record<string, { contractId: string }>[]).flatMap((e) => (e.CreatedEvent ? [e.CreatedEvent.contractId] : []));
}

/**
 * Judges a prepared transaction: every create's id is 00 and the discriminator of its seed, the
 * preparation time and its stakeholders; every child of an exercise with a seed has the seed
 * HMAC-SHA256(exercise seed, its index as 4 bytes). Answers the prepared create ids in node order.
 */
function judged(p: Prepared): string[] {
  const tx = PreparedTransaction.fromBinary(Buffer.from(p.preparedTransaction, 'base64'));
  const seeds = new Map(tx.transaction!.nodeSeeds.map((s) => [String(s.nodeId), Buffer.from(s.seed)]));
  const ids: string[] = [];
  for (const n of tx.transaction!.nodes) {
    if (n.versionedNode.oneofKind !== 'v1') continue;
    const t = n.versionedNode.v1.nodeType;
    const seed = seeds.get(n.nodeId);
    if (t.oneofKind === 'create') {
      expect(seed, `create node ${n.nodeId} has a seed`).toBeDefined();
      expect(t.create.contractId).toBe(`00${v1Discriminator(seed!, tx.metadata!.preparationTime, t.create.stakeholders)}`);
      ids.push(t.create.contractId);
    }
    if (t.oneofKind === 'exercise') {
      expect(seed, `exercise node ${n.nodeId} has a seed`).toBeDefined();
      t.exercise.children.forEach((child, index) => {
        const childSeed = seeds.get(child);
        if (childSeed === undefined) return; // a fetch takes an index but keeps no seed
        const i = Buffer.alloc(4);
        i.writeInt32BE(index, 0);
        expect(childSeed.toString('hex'), `seed of child ${index} of exercise node ${n.nodeId}`).toBe(createHmac('sha256', seed!).update(i).digest('hex'));
      });
    }
  }
  return ids;
}

describe.each([
  ['the built-in models', ASSET],
  ['an uploaded package (the engine)', ENGINE_ASSET],
])('contract ids from node seeds: %s', (_, template) => {
  const create = (amount: string) => ({ CreateCommand: { templateId: template, createArguments: { issuer: ext, owner: ext, amount, observers: null } } });

  it("a create's contract id is derived from its seed, and the commit keeps it", () => {
    const p = prepare([create('5.0')]);
    const ids = judged(p);
    expect(ids).toHaveLength(1);
    expect(executeCreated(p)).toEqual(ids);
  });

  it("the two creates of a Split: their seeds derive from the exercise's, their ids from their seeds", () => {
    const [asset] = executeCreated(prepare([create('10.0')]));
    const p = prepare([{ ExerciseCommand: { templateId: template, contractId: asset, choice: 'Split', choiceArgument: { splitAmount: '4.0' } } }]);
    const ids = judged(p);
    expect(ids).toHaveLength(2);
    expect(executeCreated(p)).toEqual(ids);
  });

  it('two prepares of the same commands derive other seeds and ids (each transaction is seeded afresh)', () => {
    const a = judged(prepare([create('5.0')]));
    const b = judged(prepare([create('5.0')]));
    expect(a[0]).not.toBe(b[0]);
  });
});

describe("the suite's judgement of a prepared transaction's contract ids (ledger.interactive.contract-ids-from-node-seeds)", () => {
  const decoded = () => PreparedTransaction.fromBinary(Buffer.from(prepare([{ CreateCommand: { templateId: ASSET, createArguments: { issuer: ext, owner: ext, amount: '5.0', observers: null } } }]).preparedTransaction, 'base64'));
  const createOf = (tx: PreparedTransaction) => {
    const t = tx.transaction!.nodes[0]!.versionedNode;
    if (t.oneofKind !== 'v1' || t.v1.nodeType.oneofKind !== 'create') throw new Error('the first node is a create');
    return t.v1.nodeType.create;
  };

  it('passes V1 ids derived from their seeds, suffixed or not', () => {
    const tx = decoded();
    expect(judgeContractIdSeeds(tx)).toEqual({ judged: 1 });
    createOf(tx).contractId += 'ca1220' + 'ab'.repeat(32);
    expect(judgeContractIdSeeds(tx)).toEqual({ judged: 1 });
  });

  it('fails a V1 id whose seed, preparation time or stakeholders derive another discriminator, and a create without a seed', () => {
    const seed = decoded();
    seed.transaction!.nodeSeeds[0]!.seed = new Uint8Array(32).fill(7);
    expect(judgeContractIdSeeds(seed).problem).toMatch(/^create node 0: V1 contract id 00[0-9a-f]{64} does not begin with 00 and HMAC-SHA256 of its node seed 0707/);
    const time = decoded();
    time.metadata!.preparationTime += 1n;
    expect(judgeContractIdSeeds(time).problem).toMatch(/V1 contract id/);
    const stakeholders = decoded();
    createOf(stakeholders).stakeholders.push('someone::1220' + 'ef'.repeat(32));
    expect(judgeContractIdSeeds(stakeholders).problem).toMatch(/V1 contract id/);
    const unseeded = decoded();
    unseeded.transaction!.nodeSeeds = [];
    expect(judgeContractIdSeeds(unseeded).problem).toMatch(/has no 32-byte seed in transaction.nodeSeeds/);
  });

  it("fails an exercise's child whose seed is not derived from the exercise's, though its own id derives from it", () => {
    const [asset] = executeCreated(prepare([{ CreateCommand: { templateId: ASSET, createArguments: { issuer: ext, owner: ext, amount: '10.0', observers: null } } }]));
    const tx = PreparedTransaction.fromBinary(Buffer.from(prepare([{ ExerciseCommand: { templateId: ASSET, contractId: asset, choice: 'Split', choiceArgument: { splitAmount: '4.0' } } }]).preparedTransaction, 'base64'));
    expect(judgeContractIdSeeds(tx)).toEqual({ judged: 2 });
    // The second create gets a seed of its own choosing, and the id that seed derives.
    const second = tx.transaction!.nodes[2]!.versionedNode;
    if (second.oneofKind !== 'v1' || second.v1.nodeType.oneofKind !== 'create') throw new Error('node 2 is the second create');
    const invented = new Uint8Array(32).fill(9);
    tx.transaction!.nodeSeeds.find((x) => x.nodeId === 2)!.seed = invented;
    second.v1.nodeType.create.contractId = `00${v1Discriminator(invented, tx.metadata!.preparationTime, second.v1.nodeType.create.stakeholders)}`;
    expect(judgeContractIdSeeds(tx).problem).toMatch(/^node 2, action child 1 of exercise node 0, has seed 0909/);
  });

  it('judges V2 ids by their time prefix and shortened seed, and leaves other schemes alone', () => {
    const tx = decoded();
    const seed = tx.transaction!.nodeSeeds[0]!.seed;
    const local = v2LocalPrefix(seed, tx.metadata!.preparationTime);
    // The time prefix counts 286,981 µs steps from 0001-01-01: 2026 is about 2.2 * 10^11 of them.
    expect(local).toMatch(/^01[0-9a-f]{10}[0-9a-f]{14}$/);
    expect(Number.parseInt(local.slice(2, 12), 16)).toBe(Number((tx.metadata!.preparationTime + 62_135_596_800_000_000n) / 286_981n));
    expect(local.slice(12)).toBe(Buffer.from(seed.subarray(0, 7)).toString('hex'));
    createOf(tx).contractId = `${local}80${'cd'.repeat(20)}`;
    expect(judgeContractIdSeeds(tx)).toEqual({ judged: 1 });
    tx.metadata!.preparationTime += 300_000n;
    expect(judgeContractIdSeeds(tx).problem).toMatch(/V2 contract id .* does not begin with 01, the time prefix/);
    createOf(tx).contractId = `02${'ab'.repeat(40)}`;
    expect(judgeContractIdSeeds(tx)).toEqual({ judged: 0 });
  });
});
