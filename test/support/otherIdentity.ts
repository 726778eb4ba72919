import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { profilePath } from '../../conformance/src/runner/profile.js';
import type { Ledger } from '../../reference-server/src/ledger/index.js';

/**
 * Another operator's node: the reference's world under another identity (another participant id,
 * so every party gets another namespace; other synchronizer ids under the same aliases, which the
 * fixtures name), so every party, contract, synchronizer and update id it shows differs from what
 * the oracle's in-process reference allocates.
 */
export const OUR_NAMESPACE = '1220' + 'c0ffee'.repeat(10) + 'c0ff';
export const THEIR_NAMESPACE = '1220' + '5eed'.repeat(16);
export const OTHER_IDENTITY = {
  participantId: `vendor-node-7::${THEIR_NAMESPACE}`,
  synchronizers: [
    { id: `vendor-global::1220${'de'.repeat(32)}`, alias: 'global' },
    { id: `vendor-private::1220${'ad'.repeat(32)}`, alias: 'private' },
  ],
} as const;

/** The contract at the same place (creating offset and node) of `theirs` as `id` is in `ours`: both seeded the same world in the same order. */
function samePlace(ours: Ledger, theirs: Ledger, id: string): string {
  const c = ours.store.contract(id);
  if (!c) throw new Error(`no contract ${id} on the reference`);
  const entry = theirs.store.entryAt(c.createdOffset);
  const node = entry?.kind === 'transaction' ? entry.nodes.find((n) => n.nodeId === c.createdNodeId && n.kind === 'create') : undefined;
  if (!node) throw new Error(`no create at offset ${c.createdOffset} node ${c.createdNodeId} on the other node`);
  return node.contract.contractId;
}

/**
 * A built-in profile's text with the other node's parties and contract ids, as its operator would
 * write it (`ours` and `theirs` both seeded the default world); its key file stays where it was.
 */
export function profileTextFor(name: string, ours: Ledger, theirs: Ledger): string {
  const file = profilePath(name);
  const text = readFileSync(file, 'utf8').replaceAll(OUR_NAMESPACE, THEIR_NAMESPACE).replace('../keys/', join(file, '../../keys/'));
  return text.replace(/"(00[0-9a-f]{64,})"/g, (_, id: string) => `"${samePlace(ours, theirs, id)}"`).replace(`name: ${name}`, `name: vendor-node`);
}
