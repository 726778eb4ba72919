import { describe, expect, it } from 'vitest';
import { decodePreparedTransaction } from '../../reference-server/src/ledger/interactive/index.js';
import { RECENT_MAX_LENGTH } from '../../reference-server/src/ledger/interactive/preparedTransaction.js';

/**
 * Decoded prepared transactions are remembered for an execute's passes (the access check, then the
 * two passes of its checks), but only small ones: requests at the body limit (4 MiB) must not keep
 * hundreds of MB alive between requests.
 */
describe('the decodes execute remembers', () => {
  it('are the same answer for the same small bytes, and not kept for large ones', () => {
    const small = '!'.repeat(100);
    expect(decodePreparedTransaction(small)).toBe(decodePreparedTransaction(small));
    expect(decodePreparedTransaction(small)).toMatchObject({ ok: false, reason: 'it is not base64' });
    const large = '!'.repeat(RECENT_MAX_LENGTH + 1);
    const first = decodePreparedTransaction(large);
    expect(first).toMatchObject({ ok: false, reason: 'it is not base64' });
    expect(decodePreparedTransaction(large)).not.toBe(first);
  });
});
