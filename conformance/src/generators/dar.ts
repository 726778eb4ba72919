import { createHash, randomBytes } from 'node:crypto';
import { BinaryWriter, WireType } from '@protobuf-ts/runtime';
import { strToU8, zipSync } from 'fflate';

import { PackageBuilder, T } from '../../../daml-engine/index.js';

/** A DALF built for a test: a Daml-LF `Archive` whose package names itself in its metadata. */
export interface BuiltDalf {
  readonly packageId: string;
  readonly packageName: string;
  readonly packageVersion: string;
  /** The `ArchivePayload` bytes (what a participant hands back for the package). */
  readonly payload: Uint8Array;
  /** The whole `Archive` message (the `.dalf` file). */
  readonly archive: Uint8Array;
}

export interface DalfOptions {
  readonly name: string;
  readonly version: string;
  /** Makes the payload (and so the id) differ between packages with the same name and version. */
  readonly salt?: string;
  /** Writes this hash instead of the payload's SHA-256 (a tampered archive). */
  readonly hash?: string;
}

/**
 * A minimal valid DALF: `ArchivePayload { minor = "1"; daml_lf_2 = Package { interned_strings =
 * [name, version, salt]; metadata = { name_interned_str = 0; version_interned_str = 1 } } }`,
 * wrapped in `Archive { hash_function = SHA256; payload; hash = hex SHA-256 of payload }`.
 */
export function buildDalf(options: DalfOptions): BuiltDalf {
  const metadata = new BinaryWriter().tag(1, WireType.Varint).int32(0).tag(2, WireType.Varint).int32(1).finish();
  const pkg = new BinaryWriter()
    .tag(2, WireType.LengthDelimited).string(options.name)
    .tag(2, WireType.LengthDelimited).string(options.version)
    .tag(2, WireType.LengthDelimited).string(options.salt ?? '')
    .tag(4, WireType.LengthDelimited).bytes(metadata)
    .finish();
  const payload = new BinaryWriter().tag(3, WireType.LengthDelimited).string('1').tag(4, WireType.LengthDelimited).bytes(pkg).finish();
  const packageId = createHash('sha256').update(payload).digest('hex');
  const archive = new BinaryWriter()
    .tag(1, WireType.Varint).int32(0)
    .tag(3, WireType.LengthDelimited).bytes(payload)
    .tag(4, WireType.LengthDelimited).string(options.hash ?? packageId)
    .finish();
  return { packageId, packageName: options.name, packageVersion: options.version, payload, archive };
}

/**
 * A package of an upgrade lineage: one serializable record (`Lineage:Mark`, a field named after
 * `salt`), so it is no utility package. Utility packages (no template, interface or serializable
 * type) stand outside lineages, and Canton vets two of them under one name and version; this one
 * is checked against the other versions of its name.
 */
export function buildLineageDalf(options: Omit<DalfOptions, 'hash'>): BuiltDalf {
  const b = new PackageBuilder({ name: options.name, version: options.version });
  const field = `mark_${(options.salt ?? '').replace(/[^A-Za-z0-9_]/g, '_')}`;
  b.module('Lineage').record('Mark', { [field]: T.text });
  const built = b.build();
  return { packageId: built.id, packageName: options.name, packageVersion: options.version, payload: built.payload, archive: built.dalf };
}

export interface DarOptions {
  readonly main: BuiltDalf;
  readonly dependencies?: readonly BuiltDalf[];
  /** Replace the manifest's text; `null` leaves the manifest out. */
  readonly manifest?: string | null;
  /** Extra entries (path -> bytes), e.g. a large resource to reach a given size. */
  readonly extra?: Readonly<Record<string, Uint8Array>>;
}

const dalfPath = (d: BuiltDalf) => `${d.packageName}-${d.packageVersion}-${d.packageId}/${d.packageName}-${d.packageVersion}-${d.packageId}.dalf`;

/** A DAR as damlc lays it out: the DALFs and `META-INF/MANIFEST.MF` naming the main one. */
export function buildDar(options: DarOptions): Uint8Array {
  const all = [options.main, ...(options.dependencies ?? [])];
  const files: Record<string, Uint8Array> = {};
  for (const d of all) files[dalfPath(d)] = d.archive;
  const manifest =
    options.manifest !== undefined
      ? options.manifest
      : [
          'Manifest-Version: 1.0',
          'Created-By: canton-conformance',
          `Name: ${options.main.packageName}-${options.main.packageVersion}`,
          `Main-Dalf: ${dalfPath(options.main)}`,
          `Dalfs: ${all.map(dalfPath).join(', ')}`,
          'Format: daml-lf',
          'Encryption: non-encrypted',
          '',
        ].join('\r\n');
  if (manifest !== null) files['META-INF/MANIFEST.MF'] = strToU8(manifest);
  Object.assign(files, options.extra ?? {});
  return zipSync(files, { level: 0 });
}

/** A package name no one has used yet, for tests that must not collide. */
export function freshPackageName(prefix = 'cc-test'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/**
 * A zip whose entries declare other uncompressed sizes than they inflate to (central directory
 * and local headers rewritten), as a lying archive or a zip bomb does.
 */
export function declareEntrySizes(zip: Uint8Array, size: number | ((name: string) => number)): Uint8Array {
  const sizeOf = typeof size === 'number' ? () => size : size;
  const out = zip.slice();
  const view = new DataView(out.buffer);
  const nameAt = (start: number, length: number) => new TextDecoder().decode(out.subarray(start, start + length));
  for (let i = 0; i + 4 <= out.length; i++) {
    const sig = view.getUint32(i, true);
    if (sig === 0x02014b50) view.setUint32(i + 24, sizeOf(nameAt(i + 46, view.getUint16(i + 28, true))), true);
    else if (sig === 0x04034b50) view.setUint32(i + 22, sizeOf(nameAt(i + 30, view.getUint16(i + 26, true))), true);
  }
  return out;
}
