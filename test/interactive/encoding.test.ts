import { ECDH, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { canonicalText, decodePreparedTransaction, partyKeyOf, signatureProblem } from '../../reference-server/src/ledger/interactive/index.js';
import { newKey, signHash } from './support/keys.js';

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

describe('prepared transaction decoding', () => {
  const valid = (): PreparedTransaction => ({
    transaction: { version: '2.1', roots: ['0'], nodes: [], nodeSeeds: [] },
    metadata: {
      submitterInfo: { actAs: ['alice::1220aa'], commandId: 'c' },
      synchronizerId: 's::1220bb',
      mediatorGroup: 0,
      transactionUuid: '123e4567-e89b-42d3-a456-426614174000',
      preparationTime: 1_700_000_000_000_000n,
      inputContracts: [],
      globalKeyMapping: [],
    },
  });
  const encode = (change: (p: PreparedTransaction) => void) => {
    const p = valid();
    change(p);
    return b64(Buffer.from(PreparedTransaction.toBinary(p)));
  };
  it.each([
    ['empty', '', /empty/],
    ['not base64', '***', /not base64/],
    ['foreign bytes', b64('\xff\xff\xff\xff not a protobuf'), /not a protobuf PreparedTransaction/],
    ['the old CCPT + JSON form', b64(Buffer.concat([Buffer.from('CCPT'), Buffer.of(1), Buffer.from('{"version":1}')])), /./],
    ['a truncated message', encode(() => undefined).slice(0, 24), /./],
    ['no metadata', encode((p) => delete p.metadata), /no metadata/],
    ['no acting party', encode((p) => (p.metadata!.submitterInfo!.actAs = [])), /act_as is empty/],
    ['a transaction UUID that is not one', encode((p) => (p.metadata!.transactionUuid = '../x')), /not a UUID/],
    ['a preparation time in year 275760', encode((p) => (p.metadata!.preparationTime = 8_640_000_000_000_000_000n)), /outside RFC 3339/],
    ['a root that is not a node', encode(() => undefined), /referenced but not in the transaction/],
  ])('refuses %s with a reason, never an exception', (_what, encoded, reason) => {
    const r = decodePreparedTransaction(encoded);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });

  it('canonical text sorts keys at every level and leaves out absent members', () => {
    expect(canonicalText({ b: [{ z: 1, a: undefined, y: 'x' }], a: null })).toBe('{"a":null,"b":[{"y":"x","z":1}]}');
  });
});

describe('external party keys and signatures', () => {
  it('reads Ed25519 raw and SPKI keys, and P-256 SPKI, uncompressed and compressed points, with the same fingerprint rule', () => {
    for (const key of [newKey('ed25519', 'raw'), newKey('ed25519', 'spki'), newKey('p256', 'spki'), newKey('p256', 'raw')]) {
      const k = partyKeyOf(key.publicKey);
      expect(k.ok, JSON.stringify(key.publicKey)).toBe(true);
      if (k.ok) expect(k.value.fingerprint).toBe(key.fingerprint);
    }
    const p256 = newKey('p256', 'raw');
    const compressed = ECDH.convertKey(Buffer.from(p256.publicKey.keyData, 'base64'), 'prime256v1', undefined, undefined, 'compressed') as Buffer;
    const k = partyKeyOf({ ...p256.publicKey, keyData: compressed.toString('base64') });
    expect(k.ok).toBe(true);
    if (k.ok) expect(signatureProblem(k.value, Buffer.from('hash'), signHash({ ...p256, fingerprint: k.value.fingerprint }, b64('hash')), 'p')).toBeUndefined();
  });

  it('says why a signature does not count', () => {
    const key = newKey('ed25519');
    const k = partyKeyOf(key.publicKey);
    if (!k.ok) throw new Error('key');
    const hash = b64('the hash');
    const good = signHash(key, hash);
    const msg = Buffer.from(hash, 'base64');
    expect(signatureProblem(k.value, msg, good, 'p')).toBeUndefined();
    expect(signatureProblem(k.value, Buffer.from('another'), good, 'p')).toBe('the signature does not verify');
    expect(signatureProblem(k.value, msg, { ...good, signedBy: '1220ff' }, 'p')).toMatch(/is not a valid key for p/);
    expect(signatureProblem(k.value, msg, { ...good, format: 'SIGNATURE_FORMAT_DER' }, 'p')).toMatch(/CONCAT or RAW/);
    expect(signatureProblem(k.value, msg, { ...good, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256' }, 'p')).toMatch(/cannot verify/);
    expect(signatureProblem(k.value, msg, { ...good, signature: b64(sign(null, msg, newKey('ed25519').privateKey).subarray(0, 10)) }, 'p')).toMatch(/64 bytes/);
    expect(signatureProblem(k.value, msg, { ...good, signature: '%%%' }, 'p')).toMatch(/not base64/);
  });
});
