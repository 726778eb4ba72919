/**
 * A data directory the server cannot use: locked by another server, not a canton-conformance
 * database, written by a newer version, or damaged. `serve` reports the message and exits 2.
 */
export class DataDirError extends Error {
  override readonly name = 'DataDirError';
}
