/**
 * Decodes one DALF: a `daml_lf.proto` Archive (hash function, payload, hash) whose payload is an
 * ArchivePayload (minor version, patch, `daml_lf_2` package bytes). The package id is the SHA-256
 * hex of the payload bytes and must equal the archive's `hash`.
 */
import { createHash } from 'node:crypto';

import type { Package } from '../ast/Package.js';
import type { DecodeFailure, DecodeResult } from './DecodeFailure.js';
import { decodePackageSteps } from './decodePackage.js';
import { WireError, WireReader } from './WireReader.js';

/** LF 2 minor versions daml_lf2.proto (SDK 3.3 and Canton 3.5) describes. */
export const SUPPORTED_LF2_MINORS: ReadonlySet<string> = new Set(['1', '2', '3', 'dev']);

/** Decoded packages by id, shared across DARs: a package is decoded once. */
export type PackageCache = Map<string, Package>;

interface ArchiveFields { hashFunction: number; payload: Uint8Array | undefined; hash: string }

function readArchive(bytes: Uint8Array): ArchiveFields {
  const r = new WireReader(bytes);
  const out: ArchiveFields = { hashFunction: 0, payload: undefined, hash: '' };
  while (r.pos < bytes.length) {
    const tag = r.tag();
    switch (tag) {
      case 1 << 3: out.hashFunction = r.uint32(); break;
      case (3 << 3) | 2: out.payload = r.bytes(); break;
      case (4 << 3) | 2: out.hash = r.string(); break;
      default: r.skip(tag);
    }
  }
  return out;
}

interface PayloadFields { minor: string; patch: number; lf1: boolean; lf2: Uint8Array | undefined }

function readPayload(bytes: Uint8Array): PayloadFields {
  const r = new WireReader(bytes);
  const out: PayloadFields = { minor: '', patch: 0, lf1: false, lf2: undefined };
  while (r.pos < bytes.length) {
    const tag = r.tag();
    switch (tag) {
      case (3 << 3) | 2: out.minor = r.string(); break;
      case 5 << 3: out.patch = r.uint32(); break;
      case (2 << 3) | 2: r.skip(tag); out.lf1 = true; break;
      case (4 << 3) | 2: out.lf2 = r.bytes(); break;
      default: r.skip(tag);
    }
  }
  return out;
}

function fail(kind: DecodeFailure['kind'], message: string, file: string | undefined): { ok: false; failure: DecodeFailure } {
  return { ok: false, failure: file === undefined ? { kind, message } : { kind, message, file } };
}

/** Wire errors past the end of the buffer are truncation; anything else is corruption. */
function wireFailure(error: unknown, what: string, file: string | undefined): { ok: false; failure: DecodeFailure } {
  if (!(error instanceof WireError)) throw error;
  const truncated = /truncated|runs past the end/.test(error.message);
  return fail(truncated ? 'truncated' : 'corrupt', `${what}: ${error.message}`, file);
}

/** Decodes a DALF's bytes, consulting and filling `cache`. `file` names it in failures. */
export function decodeArchive(bytes: Uint8Array, cache?: PackageCache, file?: string): DecodeResult<Package> {
  const steps = decodeArchiveSteps(bytes, cache, file);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** `decodeArchive` in steps (see `decodePackageSteps`): the caller may yield to the event loop between them. */
export function* decodeArchiveSteps(bytes: Uint8Array, cache?: PackageCache, file?: string): Generator<void, DecodeResult<Package>> {
  let archive: ArchiveFields;
  try {
    archive = readArchive(bytes);
  } catch (error) {
    return wireFailure(error, 'archive', file);
  }
  if (archive.payload === undefined || archive.payload.length === 0) return fail('corrupt', 'archive has no payload', file);
  if (archive.hashFunction !== 0) return fail('corrupt', `unknown hash function ${archive.hashFunction}`, file);
  const id = createHash('sha256').update(archive.payload).digest('hex');
  if (id !== archive.hash) {
    return fail('hashMismatch', `archive names package ${archive.hash || '(none)'} but its payload hashes to ${id}`, file);
  }
  const cached = cache?.get(id);
  if (cached) return { ok: true, value: cached };
  const decoded = yield* decodePayloadSteps(archive.payload, id, file);
  if (decoded.ok) cache?.set(id, decoded.value);
  return decoded;
}

/**
 * An archive's payload (an ArchivePayload) whose SHA-256 hex the caller has checked is `id`, in the
 * steps of `decodeArchiveSteps` and with its failures: for payloads kept apart from their archive
 * (a DAR's packages once read), rather than wrapping them in an Archive again, which copies the
 * payload and hashes it a second time.
 */
export function* decodePayloadSteps(bytes: Uint8Array, id: string, file?: string): Generator<void, DecodeResult<Package>> {
  if (bytes.length === 0) return fail('corrupt', 'archive has no payload', file);
  let payload: PayloadFields;
  try {
    payload = readPayload(bytes);
  } catch (error) {
    return wireFailure(error, `package ${id} payload`, file);
  }
  if (payload.lf1) return fail('unsupportedVersion', `package ${id} is Daml-LF 1.${payload.minor}; only Daml-LF 2 is supported`, file);
  if (!payload.lf2) return fail('corrupt', `package ${id} payload holds no Daml-LF 2 package`, file);
  if (!SUPPORTED_LF2_MINORS.has(payload.minor)) {
    return fail('unsupportedVersion', `package ${id} is Daml-LF 2.${payload.minor}; supported: ${[...SUPPORTED_LF2_MINORS].map((m) => `2.${m}`).join(', ')}`, file);
  }
  let pkg: Package;
  try {
    pkg = yield* decodePackageSteps(payload.lf2, id, `2.${payload.minor}`);
  } catch (error) {
    return wireFailure(error, `package ${id}`, file);
  }
  return { ok: true, value: pkg };
}
