import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { activeContracts, createCommand, ledgerEnd, userIdOf } from './support/ledger.js';
import { expectStatus, isObject, objectBody, responseOf, type Json } from './support/expect.js';
import { patienceMs, poll } from './support/poll.js';
import { LedgerOp, SD_B, UPSTREAM_B } from './ledgerOps.js';
import type { Exchange } from '../target/exchange.js';
import type { CheckContext, CheckDefinition } from './types.js';

const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });

export interface ExternalParty {
  readonly party: string;
  readonly fingerprint: string;
  readonly privateKey: KeyObject;
  readonly synchronizerId: string;
}

const b64 = (b: Buffer) => b.toString('base64');
export const signature = (key: KeyObject, data: Buffer, signedBy: string): Json => ({
  format: 'SIGNATURE_FORMAT_CONCAT',
  signature: b64(sign(null, data, key)),
  signedBy,
  signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
});

export function needInteractive(ctx: CheckContext): void {
  if (ctx.profile.ledger?.interactiveSubmission === false) ctx.skip(`profile '${ctx.profile.name}' says the target offers no interactive submission (ledger.interactiveSubmission: false)`);
}

/**
 * generate-topology for a fresh Ed25519 key the suite holds, on the first connected synchronizer
 * (status 200 expected; the answer's shape is the caller's to check).
 */
export async function requestTopology(ctx: CheckContext, hint: string): Promise<{ synchronizerId: string; exchange: Exchange; privateKey: KeyObject }> {
  const syncs = await ctx.http.request('ledger', { method: 'GET', path: '/v2/state/connected-synchronizers' });
  expectStatus(ctx, syncs, 200, 'connected synchronizers');
  const list = objectBody(ctx, syncs, 'connected synchronizers').connectedSynchronizers;
  const first = Array.isArray(list) ? list.find(isObject) : undefined;
  if (!first || typeof first.synchronizerId !== 'string') return ctx.fail('no connected synchronizer to onboard an external party on', syncs);
  const synchronizerId = first.synchronizerId;
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const exchange = await ctx.http.request('ledger', {
    method: 'POST',
    path: '/v2/parties/external/generate-topology',
    json: { synchronizer: synchronizerId, partyHint: ctx.unique(hint).replace(/[^a-zA-Z0-9_-]/g, '-'), publicKey: { format: 'CRYPTO_KEY_FORMAT_RAW', keyData: b64(raw), keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' } },
  });
  expectStatus(ctx, exchange, 200, 'generate-topology');
  return { synchronizerId, exchange, privateKey };
}

/** Allocates an external party bound to a fresh Ed25519 key the suite holds. */
export async function externalParty(ctx: CheckContext): Promise<ExternalParty> {
  const { synchronizerId, exchange: topo, privateKey } = await requestTopology(ctx, 'cc-ext');
  const t = objectBody(ctx, topo, 'generate-topology');
  if (typeof t.partyId !== 'string' || typeof t.publicKeyFingerprint !== 'string' || typeof t.multiHash !== 'string' || !Array.isArray(t.topologyTransactions)) {
    return ctx.fail('generate-topology must answer {partyId, publicKeyFingerprint, topologyTransactions, multiHash}', topo);
  }
  const fingerprint = t.publicKeyFingerprint;
  const alloc = await ctx.http.request('ledger', {
    method: 'POST',
    path: '/v2/parties/external/allocate',
    json: {
      synchronizer: synchronizerId,
      onboardingTransactions: t.topologyTransactions.map((transaction) => ({ transaction })),
      multiHashSignatures: [signature(privateKey, Buffer.from(t.multiHash, 'base64'), fingerprint)],
      identityProviderId: '',
    },
  });
  expectStatus(ctx, alloc, 200, 'allocating the external party');
  const party = objectBody(ctx, alloc, 'allocate external party').partyId;
  if (party !== t.partyId) ctx.fail(`allocate answered partyId ${String(party)}, generate-topology said ${t.partyId}`, alloc);
  const userId = userIdOf(ctx);
  if (ctx.profile.auth?.required && userId !== undefined) {
    // On a secured participant the run's user needs to execute as (and read as) the new party.
    const grant = await ctx.http.request('ledger', {
      method: 'POST',
      path: `/v2/users/${encodeURIComponent(userId)}/rights`,
      json: { userId, rights: [{ kind: { CanExecuteAs: { value: { party: t.partyId } } } }, { kind: { CanReadAs: { value: { party: t.partyId } } } }], identityProviderId: '' },
    });
    expectStatus(ctx, grant, 200, `granting the run's user rights over the external party`);
  }
  return { party: t.partyId, fingerprint, privateKey, synchronizerId };
}

export async function prepare(ctx: CheckContext, ext: ExternalParty): Promise<{ preparedTransaction: string; hash: Buffer; hashingSchemeVersion: string; exchange: Exchange }> {
  const userId = userIdOf(ctx);
  const e = await ctx.http.request('ledger', {
    method: 'POST',
    path: '/v2/interactive-submission/prepare',
    json: { ...(userId === undefined ? {} : { userId }), commandId: ctx.unique('cc-prep'), commands: [{ CreateCommand: createCommand(ctx, ext.party) }], actAs: [ext.party], synchronizerId: ext.synchronizerId },
  });
  expectStatus(ctx, e, 200, 'prepare');
  const p = objectBody(ctx, e, 'prepare');
  if (typeof p.preparedTransaction !== 'string' || typeof p.preparedTransactionHash !== 'string' || typeof p.hashingSchemeVersion !== 'string') {
    return ctx.fail('prepare must answer {preparedTransaction, preparedTransactionHash, hashingSchemeVersion}', e);
  }
  return { preparedTransaction: p.preparedTransaction, hash: Buffer.from(p.preparedTransactionHash, 'base64'), hashingSchemeVersion: p.hashingSchemeVersion, exchange: e };
}

export function executeBody(ctx: CheckContext, ext: ExternalParty, prepared: { preparedTransaction: string; hashingSchemeVersion: string }, sig: Json): Json {
  const userId = userIdOf(ctx);
  return {
    preparedTransaction: prepared.preparedTransaction,
    partySignatures: { signatures: [{ party: ext.party, signatures: [sig] }] },
    submissionId: ctx.unique('cc-exec'),
    hashingSchemeVersion: prepared.hashingSchemeVersion,
    deduplicationPeriod: { Empty: {} },
    ...(userId === undefined ? {} : { userId }),
  };
}

export const ledgerInteractiveChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.interactive.round-trip',
    title: 'Interactive submission: external party with a suite-held key, prepare, sign, execute; the contract is then active',
    operationId: LedgerOp.execute,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: interactive-submission prepare/execute; ${UPSTREAM_B} interactive submission (external signatures)`,
    requires: { writes: true },
    async run(ctx) {
      needInteractive(ctx);
      const ext = await externalParty(ctx);
      const prepared = await prepare(ctx, ext);
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/interactive-submission/execute', json: executeBody(ctx, ext, prepared, signature(ext.privateKey, prepared.hash, ext.fingerprint)) });
      expectStatus(ctx, e, 200, 'execute with a valid signature');
      if (!isObject(objectBody(ctx, e, 'execute'))) ctx.fail('execute must answer a JSON object ({})', e);
      // execute returns at once; the transaction commits asynchronously.
      await poll(ctx, 200, async (lastTry) => {
        const end = await ledgerEnd(ctx);
        const acs = await activeContracts(ctx, ext.party, end.offset);
        if (acs.contracts.length > 0) return true;
        if (lastTry) return ctx.fail(`no contract of external party ${ext.party} became active within ${patienceMs(ctx) / 1000} s of the execution`, acs.exchange);
        return undefined;
      });
    },
  }),
  check({
    id: 'ledger.interactive.wrong-key-rejected',
    title: 'Interactive submission signed by a key other than the party’s is refused, and nothing is committed',
    operationId: LedgerOp.executeAndWait,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: execute verifies every party signature against its registered key`,
    requires: { writes: true },
    async run(ctx) {
      needInteractive(ctx);
      const ext = await externalParty(ctx);
      const prepared = await prepare(ctx, ext);
      const other = generateKeyPairSync('ed25519').privateKey;
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/interactive-submission/executeAndWait', json: executeBody(ctx, ext, prepared, signature(other, prepared.hash, ext.fingerprint)) });
      const r = responseOf(e);
      if (r.status < 400 || r.status >= 500) ctx.fail(`a signature by a foreign key got HTTP ${r.status}; expected a 4xx refusal`, e);
    },
  }),
];
