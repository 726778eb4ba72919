import type { Create, Metadata, PreparedTransaction } from '@canton-network/core-ledger-proto';
import { Create as CreateMessage } from '@canton-network/core-ledger-proto';
import { describe, expect, it } from 'vitest';
import { encodeMetadata, hashPreparedTransaction, metadataHash, UnhashableTransaction } from '../../reference-server/src/ledger/interactive/preparedTransactionHash.js';

/**
 * Hashing scheme V3 (Canton 3.5) against the vectors of Canton's own tests
 * (community/common/src/test/.../protocol/hash/v{2,3}/MetadataHashTest.scala, branch
 * 3.5-open-source): the same metadata, with two disclosed contracts, hashed by both schemes.
 * The published clients (core-tx-visualizer, wallet-sdk) implement V2 only; the V2 oracle test
 * is hashingSchemeV2.test.ts.
 */

const ALICE = 'alice';
const BOB = 'bob';
const disclosed = (lfVersion: string, contractId: string, party: string): Create => ({
  lfVersion,
  contractId,
  packageName: 'PkgName',
  templateId: { packageId: '-dummyPkg-', moduleName: 'DummyModule', entityName: 'dummyName' },
  argument: { sum: { oneofKind: 'contractId', contractId: '0097a092402108f5593bac7fb3c909cd316910197dd98d603042a45ab85c81e0fd' } },
  signatories: [party],
  stakeholders: [party],
});
/** Canton's test metadata; its disclosed contracts' nodes are LF serialization version V1 ("2.1") for V2 and V2 ("2") for V3. */
const metadata = (lfVersion: string): Metadata => ({
  submitterInfo: { actAs: [ALICE, BOB], commandId: 'command-id' },
  transactionUuid: '4c6471d3-4e09-49dd-addf-6cd90e19c583',
  mediatorGroup: 0,
  synchronizerId: 'synchronizer::id',
  minLedgerEffectiveTime: 0xaaaan,
  maxLedgerEffectiveTime: 0xbbbbn,
  preparationTime: 0n,
  inputContracts: [
    { contract: { oneofKind: 'v1', v1: disclosed(lfVersion, '0007e7b5534931dfca8e1b485c105bae4e10808bd13ddc8e897f258015f9d921c5', ALICE) }, createdAt: 864000000000n, eventBlob: new Uint8Array(0) },
    { contract: { oneofKind: 'v1', v1: disclosed(lfVersion, '0059b59ad7a6b6066e77b91ced54b8282f0e24e7089944685cb8f22f32fcbc4e1b', BOB) }, createdAt: 1728000000000n, eventBlob: new Uint8Array(0) },
  ],
  globalKeyMapping: [],
  maxRecordTime: 2592000000000n,
});

describe('hashing scheme V3', () => {
  it("hashes Canton's V3 metadata vector to Canton's hash (max record time included, no encoding-version bytes)", () => {
    const m = metadata('2');
    expect(metadataHash(m, 3).toString('hex')).toBe('5a4c6aa89bb80d0af05a3f0614ba07bc7469795fff66d7b9e87c876eb0137e0a');
    // Canton's trace: the first disclosed contract's create node hash, inside the encoding.
    expect(encodeMetadata(m, 3).toString('hex')).toContain('84c7946905ba3afac9a2e8d360129b92c9055cc9792655f9a0c9195b08ade109');
    expect(encodeMetadata(m, 3).toString('hex')).toContain('e53bfab08a6142fc61781fcb242591824716501df665ebd4b68d7406c988f1b0');
    expect(encodeMetadata(m, 3).toString('hex')).toMatch(/^00000002/); // act-as count first: no 0x01 prefix
  });

  it("hashes Canton's V2 metadata vector to Canton's hash (the max record time left out)", () => {
    expect(metadataHash(metadata('2.1'), 2).toString('hex')).toBe('6e89fcbcc9605179a47919b5e65a864e470e7a133f4f9f39b1e4545b223db769');
    const { maxRecordTime: _dropped, ...without } = metadata('2.1');
    expect(metadataHash(without, 2).toString('hex')).toBe('6e89fcbcc9605179a47919b5e65a864e470e7a133f4f9f39b1e4545b223db769');
    expect(metadataHash(without, 3).equals(metadataHash(metadata('2.1'), 3))).toBe(false);
  });

  const prepared = (): PreparedTransaction => ({
    transaction: {
      version: '2.1',
      roots: ['0'],
      nodes: [{ nodeId: '0', versionedNode: { oneofKind: 'v1', v1: { nodeType: { oneofKind: 'create', create: disclosed('2.1', '00' + 'ab'.repeat(32), ALICE) } } } }],
      nodeSeeds: [{ nodeId: 0, seed: new Uint8Array(32).fill(7) }],
    },
    metadata: metadata('2.1'),
  });

  it('puts the scheme byte in the final hash: V2 and V3 of one transaction differ', () => {
    const p = prepared();
    expect(hashPreparedTransaction(p, 3).equals(hashPreparedTransaction(p, 2))).toBe(false);
    expect(hashPreparedTransaction(p, 3)).toHaveLength(32);
  });

  it('refuses a node carrying a contract key rather than leaving it out of the hash', () => {
    const p = prepared();
    const node = p.transaction!.nodes[0]!.versionedNode;
    if (node.oneofKind !== 'v1' || node.v1.nodeType.oneofKind !== 'create') throw new Error('unexpected shape');
    // Canton 3.5's Create has `optional GlobalKeyWithMaintainers key = 8`; the client types predate it,
    // so on the wire it is an unknown field: tag 0x42 (field 8, length-delimited), an empty message.
    const keyed = CreateMessage.fromBinary(Buffer.concat([CreateMessage.toBinary(node.v1.nodeType.create), Uint8Array.of(0x42, 0x00)]));
    node.v1.nodeType.create = keyed;
    expect(() => hashPreparedTransaction(p, 3)).toThrow(UnhashableTransaction);
    expect(() => hashPreparedTransaction(p, 2)).toThrow(/contract keys in a create node \(field 8\)/);
  });
});
