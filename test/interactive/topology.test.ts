import {
  CryptoKeyFormat,
  Enums_ParticipantPermission,
  Enums_TopologyChangeOp,
  SigningKeySpec,
  TopologyTransaction,
} from '@canton-network/core-ledger-proto';
import { computeMultiHashForTopology, computeSha256CantonHash } from '@canton-network/core-tx-visualizer';
import { BinaryReader, BinaryWriter, WireType } from '@protobuf-ts/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecuredWorld, type SecuredWorld } from '../auth/support/securedServer.js';
import { userToken } from '../auth/support/tokens.js';
import { post } from '../http/support/ledgerApi.js';
import type { Headers } from './support/externalParties.js';
import { newKey, signHash, type TestKey } from './support/keys.js';

let w: SecuredWorld;
let admin: Headers;
let synchronizer: string;
beforeAll(async () => {
  w = await startSecuredWorld();
  synchronizer = w.ledger.config.synchronizers[0].id;
  admin = { authorization: `Bearer ${await userToken('participant_admin')}` };
});
afterAll(() => w.server.close());

/** Canton's version wrapper, read field by field (UntypedVersionedMessage { bytes data = 1; int32 version = 2 }). */
function unwrap(b64: string): { data: Uint8Array; version: number } {
  const r = new BinaryReader(Buffer.from(b64, 'base64'));
  let data: Uint8Array = new Uint8Array();
  let version = 0;
  while (r.pos < r.len) {
    const [no, type] = r.tag();
    if (no === 1 && type === WireType.LengthDelimited) data = r.bytes();
    else if (no === 2 && type === WireType.Varint) version = r.int32();
    else r.skip(type);
  }
  return { data, version };
}

function wrapAgain(tx: TopologyTransaction, version = 30): string {
  const w = new BinaryWriter();
  w.tag(1, WireType.LengthDelimited).bytes(TopologyTransaction.toBinary(tx));
  w.tag(2, WireType.Varint).int32(version);
  return Buffer.from(w.finish()).toString('base64');
}

/** The multi-hash as the wallet SDK's own hash utility computes it (core-tx-visualizer). */
async function upstreamMultiHash(txs: readonly string[]): Promise<string> {
  const hashes = await Promise.all(txs.map((t) => computeSha256CantonHash(11, Buffer.from(t, 'base64'))));
  return Buffer.from(await computeSha256CantonHash(55, await computeMultiHashForTopology(hashes))).toString('base64');
}

async function generate(hint: string, key: TestKey, extra: Record<string, unknown> = {}) {
  const res = await post(w.server, '/v2/parties/external/generate-topology', { synchronizer, partyHint: hint, publicKey: key.publicKey, ...extra }, { headers: admin });
  expect(res.status, res.text).toBe(200);
  return res.body as { partyId: string; publicKeyFingerprint: string; topologyTransactions: string[]; multiHash: string };
}

const allocate = (body: Record<string, unknown>) => post(w.server, '/v2/parties/external/allocate', { synchronizer, ...body }, { headers: admin });
const asOnboarding = (txs: readonly string[]) => txs.map((transaction) => ({ transaction }));

describe('generate-topology answers Canton-encoded topology transactions', () => {
  it('three versioned v30 transactions: root namespace delegation, party-to-key, party-to-participant', async () => {
    const key = newKey('ed25519');
    const other = `participant2::1220${'ab'.repeat(32)}`;
    const g = await generate('tina', key, { observingParticipantUids: [other] });
    expect(g.partyId).toBe(`tina::${key.fingerprint}`);
    expect(g.publicKeyFingerprint).toBe(key.fingerprint);
    const txs = g.topologyTransactions.map(unwrap);
    expect(txs.map((t) => t.version)).toEqual([30, 30, 30]);
    const decoded = txs.map((t) => TopologyTransaction.fromBinary(t.data));
    for (const tx of decoded) expect([tx.operation, tx.serial]).toEqual([Enums_TopologyChangeOp.ADD_REPLACE, 1]);
    const [nsd, p2k, p2p] = decoded.map((t) => t.mapping?.mapping);
    const keyBytes = Buffer.from(key.publicKey.keyData, 'base64');
    expect(nsd?.oneofKind).toBe('namespaceDelegation');
    if (nsd?.oneofKind === 'namespaceDelegation') {
      expect(nsd.namespaceDelegation.namespace).toBe(key.fingerprint);
      expect(nsd.namespaceDelegation.restriction.oneofKind).toBe('canSignAllMappings');
      expect(Buffer.from(nsd.namespaceDelegation.targetKey!.publicKey)).toEqual(keyBytes);
      expect(nsd.namespaceDelegation.targetKey).toMatchObject({ format: CryptoKeyFormat.RAW, keySpec: SigningKeySpec.EC_CURVE25519 });
    }
    expect(p2k?.oneofKind).toBe('partyToKeyMapping');
    if (p2k?.oneofKind === 'partyToKeyMapping') {
      expect([p2k.partyToKeyMapping.party, p2k.partyToKeyMapping.threshold]).toEqual([g.partyId, 1]);
      expect(p2k.partyToKeyMapping.signingKeys.map((k) => Buffer.from(k.publicKey))).toEqual([keyBytes]);
    }
    expect(p2p?.oneofKind).toBe('partyToParticipant');
    if (p2p?.oneofKind === 'partyToParticipant') {
      expect(p2p.partyToParticipant).toEqual({
        party: g.partyId,
        threshold: 1,
        participants: [
          { participantUid: w.ledger.config.participantId, permission: Enums_ParticipantPermission.CONFIRMATION },
          { participantUid: other, permission: Enums_ParticipantPermission.OBSERVATION },
        ],
      });
    }
  });

  it('its multiHash is the one the wallet SDK computes (purpose 11 per transaction, 55 over the sorted hashes)', async () => {
    for (const kind of ['ed25519', 'p256'] as const) {
      const g = await generate(`hash-${kind}`, newKey(kind));
      expect(g.multiHash).toBe(await upstreamMultiHash(g.topologyTransactions));
      // Order does not matter: Canton sorts the hashes.
      expect(await upstreamMultiHash([...g.topologyTransactions].reverse())).toBe(g.multiHash);
    }
  });
});

describe('allocate checks the onboarding transactions and the party’s signature', () => {
  it('accepts a signature over each transaction’s hash instead of the multiHash', async () => {
    const key = newKey('p256');
    const g = await generate('uma', key);
    const onboardingTransactions = await Promise.all(
      g.topologyTransactions.map(async (transaction) => ({
        transaction,
        signatures: [signHash(key, Buffer.from(await computeSha256CantonHash(11, Buffer.from(transaction, 'base64'))).toString('base64'))],
      })),
    );
    const res = await allocate({ onboardingTransactions });
    expect(res.status, res.text).toBe(200);
    expect(res.body.partyId).toBe(g.partyId);
  });

  it('refuses transactions that were changed after signing (the multiHash no longer matches)', async () => {
    const key = newKey('ed25519');
    const g = await generate('vera', key);
    const p2p = TopologyTransaction.fromBinary(unwrap(g.topologyTransactions[2]!).data);
    if (p2p.mapping?.mapping.oneofKind !== 'partyToParticipant') throw new Error('expected the party-to-participant mapping last');
    p2p.mapping.mapping.partyToParticipant.participants.push({ participantUid: `evil::1220${'cd'.repeat(32)}`, permission: Enums_ParticipantPermission.CONFIRMATION });
    const txs = [g.topologyTransactions[0]!, g.topologyTransactions[1]!, wrapAgain(p2p)];
    const res = await allocate({ onboardingTransactions: asOnboarding(txs), multiHashSignatures: [signHash(key, g.multiHash)] });
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_ARGUMENT']);
    expect(res.body.cause).toMatch(/None of the 1 signatures is a valid signature/);
    expect(w.ledger.isKnownParty(g.partyId)).toBe(false);
  });

  const garbage: [string, (txs: string[]) => string[], RegExp][] = [
    ['not base64', (t) => ['%%%', ...t.slice(1)], /not base64/],
    ['truncated', (t) => [Buffer.from(t[0]!, 'base64').subarray(0, 20).toString('base64'), ...t.slice(1)], /Invalid transaction 0: not a versioned message/],
    ['JSON, not protobuf', (t) => [Buffer.from('{"mapping":"PartyToParticipant"}').toString('base64'), ...t.slice(1)], /Invalid transaction 0/],
    ['another proto version', (t) => [...t.slice(0, 2), wrapAgain(TopologyTransaction.fromBinary(unwrap(t[2]!).data), 31)], /unsupported proto version 31/],
  ];
  it.each(garbage)('refuses an onboarding transaction that is %s with 400 INVALID_FIELD', async (_what, change, cause) => {
    const key = newKey('ed25519');
    const g = await generate('wes', key);
    const res = await allocate({ onboardingTransactions: asOnboarding(change(g.topologyTransactions)), multiHashSignatures: [signHash(key, g.multiHash)] });
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_FIELD']);
    expect(res.body.cause).toMatch(cause);
  });

  it.each([
    ['without its namespace delegation', (t: string[]) => t.slice(1), /no namespace delegation/],
    ['without its party-to-participant mapping', (t: string[]) => t.slice(0, 2), /no party-to-participant/],
    ['with a transaction twice', (t: string[]) => [...t, t[1]!], /more than one partyToKeyMapping/],
  ])('refuses an onboarding %s with 400 INVALID_ARGUMENT', async (_what, change, cause) => {
    const key = newKey('ed25519');
    const g = await generate('xena', key);
    const txs = change(g.topologyTransactions);
    const res = await allocate({ onboardingTransactions: asOnboarding(txs), multiHashSignatures: [signHash(key, await upstreamMultiHash(txs))] });
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_ARGUMENT']);
    expect(res.body.cause).toMatch(cause);
  });

  it('refuses a multiHash signature by the right key over another hash', async () => {
    const key = newKey('ed25519');
    const g = await generate('yara', key);
    const other = await generate('zed', key);
    const res = await allocate({ onboardingTransactions: asOnboarding(g.topologyTransactions), multiHashSignatures: [signHash(key, other.multiHash)] });
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_ARGUMENT']);
    expect(w.ledger.isKnownParty(g.partyId)).toBe(false);
  });
});
