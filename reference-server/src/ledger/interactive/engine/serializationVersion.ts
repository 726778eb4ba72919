/**
 * The `lf_version` Canton writes on a node (SerializationVersion.toProtoValue of the node's version):
 * a node's version is assigned from its package's LF version, every stable LF 2.x maps to
 * serialization version "2.1" and LF 2.dev to "dev".
 */
export function serializationVersionOf(lfVersion: string): string {
  return lfVersion.endsWith('.dev') || lfVersion === 'dev' ? 'dev' : '2.1';
}

/** The transaction's version: the greatest of its action nodes' ("2.1" when there are none). */
export function transactionVersionOf(nodeVersions: Iterable<string>): string {
  for (const v of nodeVersions) if (v === 'dev') return 'dev';
  return '2.1';
}
