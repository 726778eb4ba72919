import type { Ledger } from '../../ledger/index.js';
import { toTimestamp } from '../../ledger/index.js';
import type { StoredContract } from '../../store/StoredContract.js';
import type { DisclosedContract } from './types.js';

const cache = new WeakMap<StoredContract, { synchronizer: number; lean: DisclosedContract; full: DisclosedContract }>();

/**
 * A contract as a registry discloses it with a choice context: the ledger's own created-event
 * blob (byte for byte what the JSON API returns) and the synchronizer it is assigned to, plus the
 * debug fields unless excluded. Rendered once per contract and again only if it moves.
 */
export function disclosedContract(ledger: Ledger, c: StoredContract, excludeDebugFields: boolean): DisclosedContract {
  let cached = cache.get(c);
  if (cached === undefined || cached.synchronizer !== c.synchronizer) {
    const lean = {
      templateId: c.template.id,
      contractId: c.contractId,
      createdEventBlob: ledger.createdEventBlob(c.contractId) as string,
      synchronizerId: ledger.config.synchronizers[c.synchronizer]?.id ?? '',
    };
    const full = { ...lean, debugPackageName: c.template.packageName, debugPayload: c.argument, debugCreatedAt: toTimestamp(c.createdAt) };
    cached = { synchronizer: c.synchronizer, lean, full };
    cache.set(c, cached);
  }
  return excludeDebugFields ? cached.lean : cached.full;
}
