/**
 * Wraps an ArchivePayload in a `daml_lf.proto` Archive (hash function SHA-256, payload, hash):
 * the DALF, whose package id is the SHA-256 hex of the payload bytes, as `decodeArchive` checks.
 */
import { createHash } from 'node:crypto';

import type { Package } from '../ast/Package.js';
import { encodePackagePayload } from './encodePackage.js';
import { WireWriter } from './WireWriter.js';

export interface EncodedArchive {
  /** The package id: SHA-256 hex of the payload. */
  readonly id: string;
  /** The Archive bytes (a `.dalf` file). */
  readonly dalf: Uint8Array;
}

/** An Archive of the payload bytes; `hash` overrides the id written (a mismatching archive for tests). */
export function encodeArchive(payload: Uint8Array, options: { readonly hash?: string } = {}): EncodedArchive {
  const id = createHash('sha256').update(payload).digest('hex');
  const w = new WireWriter();
  // hash_function SHA256 is 0, proto3's default: left out.
  w.bytesField(3, payload);
  w.stringField(4, options.hash ?? id);
  return { id, dalf: w.finish() };
}

/**
 * A package as a DALF. Its self references must carry `pkg.id` (any placeholder); the returned
 * `id` is the real one, which a decoder gives the package.
 */
export function encodePackageArchive(pkg: Package): EncodedArchive {
  return encodeArchive(encodePackagePayload(pkg));
}
