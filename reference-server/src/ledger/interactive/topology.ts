import {
  CryptoKeyFormat,
  Enums_ParticipantPermission,
  Enums_TopologyChangeOp,
  SigningKeyScheme,
  SigningKeySpec,
  SigningKeyUsage,
  TopologyTransaction,
  type SigningPublicKey as ProtoSigningPublicKey,
  type TopologyMapping,
} from '@canton-network/core-ledger-proto';
import { MessageType, ScalarType } from '@protobuf-ts/runtime';
import { err, ok, type Result } from '../result.js';
import { HashPurpose, multihash } from './hashing.js';
import type { SigningPublicKey } from './wire.js';

/**
 * External-party topology as Canton encodes it: each transaction is a
 * `com.digitalasset.canton.protocol.v30.TopologyTransaction` (operation ADD_REPLACE, serial 1)
 * serialised inside Canton's version wrapper `UntypedVersionedMessage { data = 1; version = 2 }`
 * with proto version 30. A party is onboarded by three mappings: a root namespace delegation to
 * its key, a party-to-key mapping naming the same key as its protocol signing key, and the
 * party-to-participant mapping naming its hosts. Each transaction's hash is Canton's SHA-256 hash
 * (purpose 11) over the wrapped bytes; the multi-hash (purpose 55) covers the distinct
 * transaction hashes, sorted, as count and length-prefixed hashes.
 */
export const TOPOLOGY_PROTO_VERSION = 30;

interface UntypedVersionedMessage {
  wrapper: { oneofKind: 'data'; data: Uint8Array } | { oneofKind: undefined };
  version: number;
}

/** Canton's `com.digitalasset.canton.version.v1.UntypedVersionedMessage` (not in core-ledger-proto). */
const UntypedVersionedMessage = new MessageType<UntypedVersionedMessage>('com.digitalasset.canton.version.v1.UntypedVersionedMessage', [
  { no: 1, name: 'data', kind: 'scalar', oneof: 'wrapper', T: ScalarType.BYTES },
  { no: 2, name: 'version', kind: 'scalar', T: ScalarType.INT32 },
]);

export type HostingPermission = 'CONFIRMATION' | 'OBSERVATION';

/** What an external party's onboarding says, read back from its transactions. */
export interface ExternalPartyOnboarding {
  readonly partyId: string;
  /** The party's namespace and protocol key, as clients send keys. */
  readonly key: SigningPublicKey;
  readonly threshold: number;
  readonly participants: readonly { readonly participantUid: string; readonly permission: HostingPermission }[];
}

const KEY_USAGE = [SigningKeyUsage.NAMESPACE, SigningKeyUsage.PROOF_OF_OWNERSHIP, SigningKeyUsage.PROTOCOL];

/** A key as clients send it (enum names) -> the protobuf key (the usages Canton gives an external party's key). */
function protoKey(key: SigningPublicKey): ProtoSigningPublicKey {
  const format = CryptoKeyFormat[key.format.replace(/^CRYPTO_KEY_FORMAT_/, '') as keyof typeof CryptoKeyFormat];
  const keySpec = SigningKeySpec[key.keySpec.replace(/^SIGNING_KEY_SPEC_/, '') as keyof typeof SigningKeySpec];
  return { format, publicKey: Buffer.from(key.keyData, 'base64'), scheme: SigningKeyScheme.UNSPECIFIED, usage: KEY_USAGE, keySpec };
}

function wireKey(key: ProtoSigningPublicKey): SigningPublicKey {
  return {
    format: `CRYPTO_KEY_FORMAT_${CryptoKeyFormat[key.format] ?? 'UNSPECIFIED'}`,
    keyData: Buffer.from(key.publicKey).toString('base64'),
    keySpec: `SIGNING_KEY_SPEC_${SigningKeySpec[key.keySpec] ?? 'UNSPECIFIED'}`,
  };
}

function wrap(mapping: TopologyMapping['mapping']): Buffer {
  const data = TopologyTransaction.toBinary({ operation: Enums_TopologyChangeOp.ADD_REPLACE, serial: 1, mapping: { mapping } });
  return Buffer.from(UntypedVersionedMessage.toBinary({ wrapper: { oneofKind: 'data', data }, version: TOPOLOGY_PROTO_VERSION }));
}

/** The transactions Canton generates for a new external party, serialised (namespace, party-to-key, party-to-participant). */
export function externalPartyTransactions(o: ExternalPartyOnboarding & { readonly namespace: string }): Buffer[] {
  const key = protoKey(o.key);
  return [
    wrap({
      oneofKind: 'namespaceDelegation',
      namespaceDelegation: { namespace: o.namespace, targetKey: key, isRootDelegation: true, restriction: { oneofKind: 'canSignAllMappings', canSignAllMappings: {} } },
    }),
    wrap({ oneofKind: 'partyToKeyMapping', partyToKeyMapping: { party: o.partyId, threshold: 1, signingKeys: [key] } }),
    wrap({
      oneofKind: 'partyToParticipant',
      partyToParticipant: {
        party: o.partyId,
        threshold: o.threshold,
        participants: o.participants.map((p) => ({ participantUid: p.participantUid, permission: Enums_ParticipantPermission[p.permission] })),
      },
    }),
  ];
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Reads one serialised topology transaction (base64 of the versioned wrapper); says why not. */
export function decodeTopologyTransaction(encoded: unknown): Result<TopologyTransaction, string> {
  if (typeof encoded !== 'string' || !BASE64.test(encoded)) return err('not base64');
  const bytes = Buffer.from(encoded, 'base64');
  let data: Uint8Array;
  try {
    const wrapper = UntypedVersionedMessage.fromBinary(bytes);
    if (wrapper.wrapper.oneofKind !== 'data') return err('not a versioned message (UntypedVersionedMessage with data)');
    if (wrapper.version !== TOPOLOGY_PROTO_VERSION) return err(`unsupported proto version ${wrapper.version} (supported: ${TOPOLOGY_PROTO_VERSION})`);
    data = wrapper.wrapper.data;
  } catch (e) {
    return err(`not a versioned message: ${(e as Error).message}`);
  }
  try {
    const tx = TopologyTransaction.fromBinary(data);
    if (tx.mapping === undefined || tx.mapping.mapping.oneofKind === undefined) return err('the transaction has no mapping');
    return ok(tx);
  } catch (e) {
    return err(`not a v30 TopologyTransaction: ${(e as Error).message}`);
  }
}

/**
 * Reads the onboarding of one external party from its decoded transactions: a root namespace
 * delegation to the party's key, a party-to-key mapping naming that key, and the party-to-
 * participant mapping, each an ADD_REPLACE with serial 1 (a new party). Says why not.
 */
export function readOnboarding(txs: readonly TopologyTransaction[]): Result<ExternalPartyOnboarding, string> {
  let nsd, p2k, p2p;
  for (const tx of txs) {
    if (tx.operation !== Enums_TopologyChangeOp.ADD_REPLACE || tx.serial !== 1) return err('an onboarding transaction must be ADD_REPLACE with serial 1');
    const m = tx.mapping?.mapping;
    const seen = m?.oneofKind === 'namespaceDelegation' ? nsd : m?.oneofKind === 'partyToKeyMapping' ? p2k : m?.oneofKind === 'partyToParticipant' ? p2p : false;
    if (seen === false) return err(`unexpected mapping ${String(m?.oneofKind)} (expected namespaceDelegation, partyToKeyMapping, partyToParticipant)`);
    if (seen !== undefined) return err(`more than one ${m?.oneofKind} transaction`);
    if (m?.oneofKind === 'namespaceDelegation') nsd = m.namespaceDelegation;
    else if (m?.oneofKind === 'partyToKeyMapping') p2k = m.partyToKeyMapping;
    else if (m?.oneofKind === 'partyToParticipant') p2p = m.partyToParticipant;
  }
  if (p2p === undefined) return err('no party-to-participant transaction');
  if (nsd === undefined) return err(`no namespace delegation for the namespace of ${p2p.party}`);
  if (p2k === undefined) return err(`no party-to-key mapping for ${p2p.party}`);
  const sep = p2p.party.lastIndexOf('::');
  if (sep <= 0 || p2p.party.slice(sep + 2) !== nsd.namespace) return err(`the party ${p2p.party} is not in the delegated namespace ${nsd.namespace}`);
  if (nsd.restriction.oneofKind !== 'canSignAllMappings' || nsd.targetKey === undefined) return err('the namespace delegation must be a root delegation (can sign all mappings) with a target key');
  if (p2k.party !== p2p.party) return err(`the party-to-key mapping is for ${p2k.party}, not ${p2p.party}`);
  const [protocolKey, ...others] = p2k.signingKeys;
  if (protocolKey === undefined || others.length > 0 || p2k.threshold !== 1) return err('this participant hosts external parties with exactly one signing key (threshold 1)');
  if (!Buffer.from(protocolKey.publicKey).equals(Buffer.from(nsd.targetKey.publicKey))) {
    return err("this participant hosts external parties whose protocol key is their namespace key; the party-to-key mapping names another key");
  }
  const participants = [];
  for (const p of p2p.participants) {
    const permission = p.permission === Enums_ParticipantPermission.CONFIRMATION ? 'CONFIRMATION' : p.permission === Enums_ParticipantPermission.OBSERVATION ? 'OBSERVATION' : undefined;
    if (permission === undefined) return err(`participant ${p.participantUid} has permission ${Enums_ParticipantPermission[p.permission] ?? p.permission}; an external party is hosted with CONFIRMATION or OBSERVATION`);
    participants.push({ participantUid: p.participantUid, permission } as const);
  }
  return ok({ partyId: p2p.party, key: wireKey(nsd.targetKey), threshold: p2p.threshold, participants });
}

/** Hash of one topology transaction, what a per-transaction signature signs. */
export const topologyTransactionHash = (bytes: Uint8Array): Buffer => multihash(HashPurpose.TopologyTransaction, bytes);

/** Canton's combined hash over a set of transaction hashes: distinct, sorted, count and length-prefixed. */
export function combinedTopologyHash(hashes: readonly Buffer[]): Buffer {
  const distinct = [...new Map(hashes.map((h) => [h.toString('hex'), h])).values()].sort(Buffer.compare);
  const int32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeInt32BE(n);
    return b;
  };
  return multihash(HashPurpose.MultiTopologyTransaction, int32(distinct.length), ...distinct.flatMap((h) => [int32(h.length), h]));
}
