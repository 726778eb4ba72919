import { createHmac } from 'node:crypto';
import { PreparedTransaction, type Create } from '@canton-network/core-ledger-proto';
import { decodePreparedTransaction, hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { activeContracts, ledgerEnd } from './support/ledger.js';
import { expectStatus, isObject, objectBody, responseOf } from './support/expect.js';
import { executeBody, externalParty, needInteractive, prepare, prepareCreateAndExercise, signature } from './ledgerInteractive.js';
import { LedgerOp, UPSTREAM_B } from './ledgerOps.js';
import type { Exchange } from '../target/exchange.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * Interactive submission as wallets verify it: the prepared transaction is Canton's protobuf and
 * its hash is Canton's scheme V2 (checked with Canton's own client tooling, core-tx-visualizer,
 * never with code of the target), and execute refuses what a signer edited and signed anew.
 */

const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });

/** The prepared transaction as Canton's tooling reads it, or a failed check. */
export function decoded(ctx: CheckContext, preparedTransaction: string, exchange: Exchange): PreparedTransaction {
  try {
    return decodePreparedTransaction(preparedTransaction);
  } catch (e) {
    return ctx.fail(`preparedTransaction is not a protobuf com.daml.ledger.api.v2.interactive.PreparedTransaction (core-tx-visualizer: ${e instanceof Error ? e.message : String(e)})`, exchange);
  }
}

const YEAR_MICROS = 365n * 24n * 3600n * 1_000_000n;

/** Edits a signer could make and sign anew; a participant must refuse each (it derives these itself). */
const EDITS: readonly { what: string; edit: (p: PreparedTransaction) => boolean }[] = [
  {
    what: 'a contract id of its choosing on the created contract',
    edit: (p) => {
      for (const n of p.transaction?.nodes ?? []) {
        if (n.versionedNode.oneofKind === 'v1' && n.versionedNode.v1.nodeType.oneofKind === 'create') {
          n.versionedNode.v1.nodeType.create.contractId = `00${'ab'.repeat(32)}`;
          return true;
        }
      }
      return false;
    },
  },
  {
    what: 'a preparation time 25 years in the past',
    edit: (p) => {
      if (p.metadata === undefined) return false;
      p.metadata.preparationTime -= 25n * YEAR_MICROS;
      return true;
    },
  },
  {
    what: 'a minimum ledger effective time 1000 years ahead',
    edit: (p) => {
      if (p.metadata === undefined) return false;
      p.metadata.minLedgerEffectiveTime = p.metadata.preparationTime + 1000n * YEAR_MICROS;
      return true;
    },
  },
];

/**
 * A V1 contract id's discriminator as the Daml engine derives it (contract-id.rst; Daml's
 * `Hash.deriveContractDiscriminator`): HMAC-SHA256 keyed by the create's node seed over the
 * submission time in µs (8 bytes, big-endian), then the stakeholders as a set: their count (4
 * bytes), then each, sorted as Java sorts strings (UTF-16 code units, as JavaScript's sort), as
 * its UTF-8 length (4 bytes) and bytes. Computed here with node:crypto, not the engine's code.
 */
export function v1Discriminator(nodeSeed: Uint8Array, submissionTimeMicros: bigint, stakeholders: readonly string[]): string {
  const sorted = [...new Set(stakeholders)].sort();
  const time = Buffer.alloc(12);
  time.writeBigInt64BE(submissionTimeMicros, 0);
  time.writeInt32BE(sorted.length, 8);
  const parts = [time];
  for (const party of sorted) {
    const bytes = Buffer.from(party, 'utf8');
    const length = Buffer.alloc(4);
    length.writeInt32BE(bytes.length, 0);
    parts.push(length, bytes);
  }
  return createHmac('sha256', nodeSeed).update(Buffer.concat(parts)).digest('hex');
}

/** Microseconds from 0001-01-01T00:00:00Z to the Unix epoch: V2 ids count the preparation time from the former. */
const MICROS_0001_TO_EPOCH = 62_135_596_800_000_000n;
/** The resolution of a V2 id's time prefix (contract-id.rst, "Time prefix"). */
const TIME_PREFIX_MICROS = 286_981n;

/** A V2 contract id's local part (contract-id.rst, "Contract ID Scheme V2"): 01, the time prefix (5 bytes), the node seed's first 7 bytes. */
export function v2LocalPrefix(nodeSeed: Uint8Array, preparationTimeMicros: bigint): string {
  const prefix = (preparationTimeMicros + MICROS_0001_TO_EPOCH) / TIME_PREFIX_MICROS;
  return `01${prefix.toString(16).padStart(10, '0')}${Buffer.from(nodeSeed.subarray(0, 7)).toString('hex')}`;
}

/**
 * The part of a contract id its creating node's seed decides (contract-id.rst): V1's version byte
 * and discriminator (33 bytes), V2's version byte, time prefix and shortened seed (13 bytes).
 * The suffix after it is the participant's to add at commit. Undefined for another scheme.
 */
export function localPart(contractId: string): string | undefined {
  if (/^00[0-9a-f]{64}/.test(contractId)) return contractId.slice(0, 66);
  if (/^01[0-9a-f]{24}/.test(contractId)) return contractId.slice(0, 26);
  return undefined;
}

/** The create nodes of a prepared transaction, with their node ids. */
function createNodesOf(tx: PreparedTransaction): { readonly nodeId: string; readonly create: Create }[] {
  const out: { nodeId: string; create: Create }[] = [];
  for (const n of tx.transaction?.nodes ?? []) {
    if (n.versionedNode.oneofKind === 'v1' && n.versionedNode.v1.nodeType.oneofKind === 'create') out.push({ nodeId: n.nodeId, create: n.versionedNode.v1.nodeType.create });
  }
  return out;
}

/** What the contract ids of a prepared transaction's creates were judged against their node seeds (contract-id.rst). */
export interface SeedJudgement {
  /** Creates whose id's scheme (V1 or V2) was judged. */
  readonly judged: number;
  /** The first create whose id does not derive from its seed, said as a failure. */
  readonly problem?: string;
}

/**
 * Judges each create of `tx`: it has a 32-byte node seed, and its contract id is what its seed
 * derives under the id's scheme: V1 (00, the discriminator, any suffix) or V2 (01, the time
 * prefix and the seed's first 7 bytes, any suffix). Ids of another scheme are not judged.
 */
export function judgeContractIdSeeds(tx: PreparedTransaction): SeedJudgement {
  const preparationTime = tx.metadata?.preparationTime;
  if (preparationTime === undefined) return { judged: 0, problem: 'the decoded PreparedTransaction has no metadata.preparationTime' };
  const seeds = new Map((tx.transaction?.nodeSeeds ?? []).map((s) => [String(s.nodeId), s.seed]));
  let judged = 0;
  for (const { nodeId, create } of createNodesOf(tx)) {
    const { contractId, signatories, stakeholders } = create;
    const scheme = /^0[01]/.exec(contractId)?.[0];
    if (scheme === undefined) continue;
    const seed = seeds.get(nodeId);
    if (seed === undefined || seed.length !== 32) {
      return { judged, problem: `create node ${nodeId} (contract ${contractId}) has no 32-byte seed in transaction.nodeSeeds: nothing the party signs derives its contract id` };
    }
    const seedHex = Buffer.from(seed).toString('hex');
    if (scheme === '00') {
      const expected = `00${v1Discriminator(seed, preparationTime, [...signatories, ...stakeholders])}`;
      if (!contractId.startsWith(expected)) {
        return {
          judged,
          problem: `create node ${nodeId}: V1 contract id ${contractId} does not begin with 00 and HMAC-SHA256 of its node seed ${seedHex}, the preparation time ${preparationTime} µs and the stakeholders [${stakeholders.join(', ')}]: ${expected}`,
        };
      }
    } else {
      const expected = v2LocalPrefix(seed, preparationTime);
      if (!contractId.startsWith(expected)) {
        return { judged, problem: `create node ${nodeId}: V2 contract id ${contractId} does not begin with 01, the time prefix of the preparation time ${preparationTime} µs and the first 7 bytes of its node seed ${seedHex}: ${expected}` };
      }
    }
    judged++;
  }
  const children = childSeedProblem(tx, seeds);
  return children === undefined ? { judged } : { judged, problem: children };
}

/**
 * The first child of an exercise whose seed is not HMAC-SHA256 of the exercise's seed and the
 * child's index (4 bytes, big-endian), as the engine seeds action nodes (contract-id.rst, "Node
 * seeds"): every action child (create, exercise, fetch) takes the next index; a rollback node
 * takes none, its children going on with the enclosing exercise's indices.
 */
function childSeedProblem(tx: PreparedTransaction, seeds: ReadonlyMap<string, Uint8Array>): string | undefined {
  const nodes = new Map((tx.transaction?.nodes ?? []).map((n) => [n.nodeId, n]));
  const kindOf = (id: string) => {
    const n = nodes.get(id);
    return n?.versionedNode.oneofKind === 'v1' ? n.versionedNode.v1.nodeType : undefined;
  };
  for (const [id] of nodes) {
    const t = kindOf(id);
    const parentSeed = seeds.get(id);
    if (t?.oneofKind !== 'exercise' || parentSeed === undefined) continue;
    let index = 0;
    // Children in order, rollback nodes opened in place (an explicit stack: rollbacks may nest).
    const pending = [...t.exercise.children].reverse();
    while (pending.length > 0) {
      const child = pending.pop()!;
      const c = kindOf(child);
      if (c === undefined) continue;
      if (c.oneofKind === 'rollback') {
        for (let i = c.rollback.children.length - 1; i >= 0; i--) pending.push(c.rollback.children[i]!);
        continue;
      }
      const seed = seeds.get(child);
      if (seed !== undefined) {
        const at = Buffer.alloc(4);
        at.writeInt32BE(index, 0);
        const expected = createHmac('sha256', parentSeed).update(at).digest('hex');
        const got = Buffer.from(seed).toString('hex');
        if (got !== expected) return `node ${child}, action child ${index} of exercise node ${id}, has seed ${got}; HMAC-SHA256 of the exercise's seed and ${index} is ${expected}`;
      }
      index++;
    }
  }
  return undefined;
}

export const ledgerInteractiveEncodingChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.interactive.prepared-transaction-hash',
    title: "A prepared transaction is Canton's protobuf PreparedTransaction naming the requested command id, and its hash is the V2 hash recomputed over it, for a create and for a create and exercise",
    operationId: LedgerOp.prepare,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: interactive submission, "the hash must be recomputed by the client before signing" (hashing scheme V2)`,
    requires: { writes: true },
    async run(ctx) {
      needInteractive(ctx);
      const ext = await externalParty(ctx);
      const prepared = await prepare(ctx, ext);
      if (prepared.hashingSchemeVersion !== 'HASHING_SCHEME_VERSION_V2') ctx.fail(`prepare answered hashingSchemeVersion ${prepared.hashingSchemeVersion}; expected HASHING_SCHEME_VERSION_V2`, prepared.exchange);
      const tx = decoded(ctx, prepared.preparedTransaction, prepared.exchange);
      if (tx.transaction === undefined || tx.transaction.roots.length === 0) ctx.fail('the decoded PreparedTransaction has no transaction roots', prepared.exchange);
      const actAs = tx.metadata?.submitterInfo?.actAs ?? [];
      if (!actAs.includes(ext.party)) ctx.fail(`the decoded metadata.submitterInfo.actAs is [${actAs.join(', ')}]; expected it to name ${ext.party}`, prepared.exchange);
      // The execution completes under this command id: a wallet waits for its completion by the one it sent.
      const commandId = tx.metadata?.submitterInfo?.commandId;
      if (commandId !== prepared.commandId) ctx.fail(`the decoded metadata.submitterInfo.commandId is ${JSON.stringify(commandId)}; prepare was asked for command ${prepared.commandId}`, prepared.exchange);
      const recomputed = await hashPreparedTransaction(tx, 'hex');
      const answered = prepared.hash.toString('hex');
      if (recomputed !== answered) ctx.fail(`preparedTransactionHash is ${answered}; the V2 hash recomputed over the prepared transaction is ${recomputed}`, prepared.exchange);
      // Exercise nodes are hashed by their own rules (choice, argument, children): judged on a transaction that has one.
      if (ctx.profile.ledger?.template?.exercise === undefined) return;
      const both = await prepareCreateAndExercise(ctx, ext);
      const withExercise = decoded(ctx, both.preparedTransaction, both.exchange);
      const exercises = (withExercise.transaction?.nodes ?? []).filter((n) => n.versionedNode.oneofKind === 'v1' && n.versionedNode.v1.nodeType.oneofKind === 'exercise').length;
      if (exercises === 0) ctx.fail(`the prepared CreateAndExercise of ${both.choice} holds no exercise node`, both.exchange);
      const again = await hashPreparedTransaction(withExercise, 'hex');
      if (again !== both.hash.toString('hex')) ctx.fail(`for a prepared CreateAndExercise of ${both.choice}, preparedTransactionHash is ${both.hash.toString('hex')}; the V2 hash recomputed over it (its exercise node included) is ${again}`, both.exchange);
    },
  }),
  check({
    id: 'ledger.interactive.contract-ids-from-node-seeds',
    title: "Each create of a prepared transaction has a node seed its contract id derives from (V1: HMAC-SHA256 of the seed, the preparation time and the stakeholders; V2: the time prefix and the seed's first 7 bytes), and an exercise's children have the seeds its own derives; the execution keeps the prepared ids (suffixed at most)",
    operationId: LedgerOp.prepare,
    level: 'MUST',
    kind: 'example',
    specRef: 'Daml-LF contract-id.rst, "Contract ID Scheme V1", "Contract ID Scheme V2" and "Node seeds"; the seeds are part of the prepared transaction the party signs (hashing scheme V2), and the confirming participants re-derive the ids from them',
    requires: { writes: true },
    async run(ctx) {
      needInteractive(ctx);
      const ext = await externalParty(ctx);
      const prepared = await prepare(ctx, ext);
      const tx = decoded(ctx, prepared.preparedTransaction, prepared.exchange);
      const { judged, problem } = judgeContractIdSeeds(tx);
      if (problem !== undefined) ctx.fail(problem, prepared.exchange);
      if (judged === 0) ctx.skip('the prepared transaction holds no create node with a V1 (00…) or V2 (01…) contract id');
      // The commit keeps them: a contract created by the execution is a prepared one, suffixed at most.
      const locals = new Set<string>();
      for (const { create } of createNodesOf(tx)) {
        const local = localPart(create.contractId);
        if (local !== undefined) locals.add(local);
      }
      const e = await ctx.http.request('ledger', {
        method: 'POST',
        path: '/v2/interactive-submission/executeAndWaitForTransaction',
        json: executeBody(ctx, ext, prepared, signature(ext.privateKey, prepared.hash, ext.fingerprint)),
      });
      expectStatus(ctx, e, 200, 'executeAndWaitForTransaction of the prepared transaction');
      const committed = objectBody(ctx, e, 'executeAndWaitForTransaction').transaction;
      const events = isObject(committed) && Array.isArray(committed.events) ? committed.events : [];
      let kept = 0;
      for (const ev of events) {
        const created = isObject(ev) && isObject(ev.CreatedEvent) ? ev.CreatedEvent : undefined;
        if (created === undefined || typeof created.contractId !== 'string') continue;
        const local = localPart(created.contractId);
        if (local !== undefined && !locals.has(local)) {
          ctx.fail(`the execution created ${created.contractId}, whose id begins with none of the prepared creates' ids (${[...locals].join(', ')}): the ids the party signed were not kept`, e);
        }
        if (local !== undefined) kept++;
      }
      // A create command's contract outlives its transaction and has the submitting party as a
      // signatory, so the answer's default format (the act-as parties, ACS delta) shows it.
      if (kept === 0) ctx.fail(`executeAndWaitForTransaction's transaction shows no created contract with a prepared id (${[...locals].join(', ')}): the prepared create was not committed as signed, or not answered`, e);
    },
  }),
  check({
    id: 'ledger.interactive.edited-resigned-rejected',
    title: 'Execute refuses a prepared transaction its signer edited (contract id, preparation or ledger time) and signed anew, and commits nothing',
    operationId: LedgerOp.executeAndWait,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: execute validates the prepared transaction (contract ids, ledger time bounds) instead of trusting the signer`,
    requires: { writes: true },
    async run(ctx) {
      needInteractive(ctx);
      const ext = await externalParty(ctx);
      const prepared = await prepare(ctx, ext);
      const original = decoded(ctx, prepared.preparedTransaction, prepared.exchange);
      for (const { what, edit } of EDITS) {
        const copy = PreparedTransaction.clone(original);
        if (!edit(copy)) ctx.fail(`the prepared transaction has nothing to edit for ${what}`, prepared.exchange);
        const encoded = Buffer.from(PreparedTransaction.toBinary(copy)).toString('base64');
        const hash = Buffer.from(await hashPreparedTransaction(copy, 'hex'), 'hex');
        const e = await ctx.http.request('ledger', {
          method: 'POST',
          path: '/v2/interactive-submission/executeAndWait',
          json: executeBody(ctx, ext, { preparedTransaction: encoded, hashingSchemeVersion: prepared.hashingSchemeVersion }, signature(ext.privateKey, hash, ext.fingerprint)),
        });
        const r = responseOf(e);
        if (r.status < 400 || r.status >= 500) ctx.fail(`a prepared transaction with ${what}, signed anew over its recomputed hash, got HTTP ${r.status}; expected a 4xx refusal`, e);
      }
      const end = await ledgerEnd(ctx);
      const acs = await activeContracts(ctx, ext.party, end.offset);
      if (acs.contracts.length > 0) ctx.fail(`the refused executions left ${acs.contracts.length} active contract(s) of ${ext.party}`, acs.exchange);
    },
  }),
];
