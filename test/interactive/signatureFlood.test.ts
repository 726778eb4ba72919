import { createRequire, syncBuiltinESMExports } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_VERIFIED_PER_KEY, tallySignatures } from '../../reference-server/src/ledger/interactive/tallySignatures.js';
import { canExecuteAs, canReadAs, startSecuredWorld, type SecuredWorld } from '../auth/support/securedServer.js';
import { userToken } from '../auth/support/tokens.js';
import { post } from '../http/support/ledgerApi.js';
import { createAssetCommand, executeBody, onboard, prepareBody, type Headers } from './support/externalParties.js';
import { newKey, signHash, type TestKey } from './support/keys.js';

describe('tallySignatures: the work is bounded by the keys, not the request', () => {
  const sig = (signedBy: string, good = false) => ({ signedBy, signature: good ? 'good' : 'bad', format: 'F', signingAlgorithmSpec: 'S' });
  const counting = () => {
    let calls = 0;
    return { verify: (s: { signature: string }) => (calls++, s.signature === 'good'), calls: () => calls };
  };

  it('15,000 invalid signatures by the key: at most MAX_VERIFIED_PER_KEY verified, all counted invalid', () => {
    const v = counting();
    expect(tallySignatures(Array.from({ length: 15_000 }, () => sig('k')), new Set(['k']), 1, v.verify)).toEqual({ validKeys: 0, invalid: 15_000 });
    expect(v.calls()).toBe(MAX_VERIFIED_PER_KEY);
  });

  it('signatures by other keys, or not signatures at all, cost no verification', () => {
    const v = counting();
    expect(tallySignatures([...Array.from({ length: 1000 }, () => sig('other', true)), null, 'x', { signedBy: 7 }], new Set(['k']), 1, v.verify)).toEqual({ validKeys: 0, invalid: 1003 });
    expect(v.calls()).toBe(0);
  });

  it('a valid signature after a few invalid ones counts, and verification stops once the threshold is met', () => {
    const v = counting();
    const list = [sig('k'), sig('k'), sig('k', true), ...Array.from({ length: 100 }, () => sig('k'))];
    expect(tallySignatures(list, new Set(['k']), 1, v.verify)).toEqual({ validKeys: 1, invalid: 2 });
    expect(v.calls()).toBe(3);
  });
});

describe('execute with a flood of invalid signatures', () => {
  let w: SecuredWorld;
  let wallet: Headers;
  let carolKey: TestKey;
  let carol: string;
  beforeAll(async () => {
    w = await startSecuredWorld();
    const admin = { authorization: `Bearer ${await userToken('participant_admin')}` };
    carolKey = newKey('ed25519');
    carol = await onboard(w.server, admin, 'carol', carolKey, w.ledger.config.synchronizers[0].id);
    w.ledger.createUser({ user: { id: 'wallet' }, rights: [canReadAs(carol), canExecuteAs(carol)] });
    wallet = { authorization: `Bearer ${await userToken('wallet')}` };
  });
  afterAll(() => w.server.close());

  /** Counts node:crypto verify calls while `during` runs (the ESM bindings follow the CommonJS module once synced). */
  async function countVerifies<T>(during: () => Promise<T>): Promise<{ result: T; verifies: number }> {
    const crypto = createRequire(import.meta.url)('node:crypto') as { verify: (...a: unknown[]) => boolean };
    const original = crypto.verify;
    let verifies = 0;
    crypto.verify = (...a: unknown[]) => (verifies++, original(...a));
    syncBuiltinESMExports();
    try {
      return { result: await during(), verifies };
    } finally {
      crypto.verify = original;
      syncBuiltinESMExports();
    }
  }

  it('15,000 signatures by another key under the party key: refused after a bounded number of verifications, counted as invalid', async () => {
    const prepared = await post(w.server, '/v2/interactive-submission/prepare', prepareBody(carol, [createAssetCommand(carol, carol)]), { headers: wallet });
    expect(prepared.status, prepared.text).toBe(200);
    const hash = prepared.body.preparedTransactionHash as string;
    const forged = signHash(newKey('ed25519'), hash, { signedBy: carolKey.fingerprint });
    const body = executeBody(prepared.body.preparedTransaction as string, [{ party: carol, signatures: Array.from({ length: 15_000 }, () => forged) }]);
    const before = w.ledger.ledgerEnd().offset;
    const { result: res, verifies } = await countVerifies(() => post(w.server, '/v2/interactive-submission/executeAndWait', body, { headers: wallet }));
    expect(res.body.cause).toMatch(/Received 0 valid signatures from distinct keys \(15000 invalid\), but expected at least 1 valid/);
    expect(verifies).toBeLessThanOrEqual(MAX_VERIFIED_PER_KEY);
    expect(w.ledger.ledgerEnd().offset).toBe(before);
    // The same transaction with the party's own signature among a few bad ones commits.
    const signed = executeBody(prepared.body.preparedTransaction as string, [{ party: carol, signatures: [forged, forged, signHash(carolKey, hash)] }]);
    expect((await post(w.server, '/v2/interactive-submission/executeAndWait', signed, { headers: wallet })).status).toBe(200);
  });
});
