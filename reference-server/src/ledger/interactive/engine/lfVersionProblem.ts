import type { Create, Identifier, PreparedTransaction } from '@canton-network/core-ledger-proto';
import { transactionVersionOf } from './serializationVersion.js';

/**
 * The LF versions a signed transaction claims, checked against what its packages dictate: every
 * create, exercise and fetch node and every input contract carries the serialization version of
 * its template's package (`versionOf`, by template id), and the transaction the greatest of its nodes'. The hash
 * covers the versions, so a signer can re-hash and re-sign a changed one; execute refuses it here,
 * by name, before anything runs. `versionOf` answers undefined for a template the participant does
 * not know: such a node is refused later, as an unknown template.
 */
export function lfVersionProblem(p: PreparedTransaction, versionOf: (templateId: Identifier) => string | undefined): string | undefined {
  const nodeVersions: string[] = [];
  const check = (claimed: string, templateId: Identifier | undefined, where: string): string | undefined => {
    const dictated = templateId === undefined ? undefined : versionOf(templateId);
    if (dictated === undefined) return undefined;
    return claimed === dictated ? undefined : `${where} has LF version ${JSON.stringify(claimed.slice(0, 40))}, but its package ${templateId!.packageId.slice(0, 64)} dictates ${JSON.stringify(dictated)}`;
  };
  for (const n of p.transaction?.nodes ?? []) {
    if (n.versionedNode.oneofKind !== 'v1') continue;
    const t = n.versionedNode.v1.nodeType;
    const action = t.oneofKind === 'create' ? t.create : t.oneofKind === 'exercise' ? t.exercise : t.oneofKind === 'fetch' ? t.fetch : undefined;
    if (action === undefined) continue;
    const problem = check(action.lfVersion, action.templateId, `node ${n.nodeId.slice(0, 20)} (${t.oneofKind})`);
    if (problem !== undefined) return problem;
    nodeVersions.push(action.lfVersion);
  }
  const version = p.transaction?.version ?? '';
  const dictated = transactionVersionOf(nodeVersions);
  if (version !== dictated) return `the transaction has version ${JSON.stringify(version.slice(0, 40))}, but its nodes dictate ${JSON.stringify(dictated)}`;
  for (const ic of p.metadata?.inputContracts ?? []) {
    if (ic.contract.oneofKind !== 'v1') continue;
    const c: Create = ic.contract.v1;
    const problem = check(c.lfVersion, c.templateId, `input contract ${c.contractId.slice(0, 20)}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
