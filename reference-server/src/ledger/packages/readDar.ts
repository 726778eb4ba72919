import { unzipSync } from 'fflate';
import { err, ok, type Result } from '../result.js';
import { readArchive } from './readArchive.js';

/** One package of a DAR, as the participant records it. */
export interface DarPackage {
  readonly packageId: string;
  readonly packageName: string;
  readonly packageVersion: string;
  /** The archive payload (what the package service hands out, hashing to the id). */
  readonly payload: Uint8Array;
  readonly lfVersion: string | undefined;
}

export interface ParsedDar {
  readonly name: string;
  readonly mainPackageId: string;
  /** Main package first, then the dependencies in archive order, each id once. */
  readonly packages: readonly DarPackage[];
}

/** What a DAR may inflate to, whatever its compressed size: a bound against zip bombs. */
export const MAX_DAR_INFLATED_BYTES = 512 * 1024 * 1024;

const MANIFEST = 'META-INF/MANIFEST.MF';

/**
 * Reads a DAR: a zip with `META-INF/MANIFEST.MF` naming the `Main-Dalf` (and `Dalfs`), and one
 * DALF per package. Each DALF's id is checked against its payload's SHA-256. Failures are the
 * reason of the participant's INVALID_DAR answer; nothing is recorded until the whole DAR read.
 */
export function readDar(bytes: Uint8Array): Result<ParsedDar, string> {
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) return err('the upload is not a zip archive');
  let declared = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        declared += f.originalSize;
        if (declared > MAX_DAR_INFLATED_BYTES) throw new RangeError(`the archive inflates to more than ${MAX_DAR_INFLATED_BYTES} bytes`);
        return f.name === MANIFEST || f.name.endsWith('.dalf');
      },
    });
  } catch (e) {
    return err(`the zip archive is corrupt (${e instanceof Error ? e.message : 'unreadable'})`);
  }
  const manifestBytes = files[MANIFEST];
  if (manifestBytes === undefined) return err(`the archive has no ${MANIFEST}`);
  const manifest = readManifest(new TextDecoder().decode(manifestBytes));
  const format = manifest.get('Format');
  if (format !== undefined && format !== 'daml-lf') return err(`unsupported DAR format '${format.slice(0, 40)}'`);
  const mainDalf = manifest.get('Main-Dalf');
  if (mainDalf === undefined || mainDalf === '') return err('the manifest names no Main-Dalf');
  const listed = (manifest.get('Dalfs') ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const path of [mainDalf, ...listed]) {
    if (files[path] === undefined) return err(`the manifest names ${path.slice(0, 200)}, which the archive does not contain`);
  }
  const order = [mainDalf, ...listed, ...Object.keys(files).filter((p) => p.endsWith('.dalf'))];
  const seen = new Set<string>();
  const packages: DarPackage[] = [];
  for (const path of order) {
    if (seen.has(path)) continue;
    seen.add(path);
    const archive = readArchive(files[path] as Uint8Array);
    if (!archive.ok) return err(`${path.slice(0, 200)}: ${archive.error}`);
    if (packages.some((p) => p.packageId === archive.value.packageId)) continue;
    const fromPath = nameAndVersionOfPath(path, archive.value.packageId);
    const packageName = archive.value.name ?? fromPath?.name;
    const packageVersion = archive.value.version ?? fromPath?.version;
    if (packageName === undefined || packageVersion === undefined) return err(`${path.slice(0, 200)}: the package has no name and version`);
    packages.push({ packageId: archive.value.packageId, packageName, packageVersion, payload: archive.value.payload, lfVersion: archive.value.lfVersion });
  }
  const main = packages[0] as DarPackage;
  return ok({ name: manifest.get('Name') ?? `${main.packageName}-${main.packageVersion}`, mainPackageId: main.packageId, packages });
}

/** JAR manifest syntax: `Key: value` lines, a line starting with one space continues the previous. */
export function readManifest(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let key: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith(' ') && key !== undefined) {
      out.set(key, (out.get(key) ?? '') + line.slice(1));
      continue;
    }
    const i = line.indexOf(':');
    if (i <= 0) {
      key = undefined;
      continue;
    }
    key = line.slice(0, i).trim();
    out.set(key, line.slice(i + 1).trim());
  }
  return out;
}

/** damlc names DALFs `<name>-<version>-<package id>.dalf` (older LF packages carry no metadata). */
function nameAndVersionOfPath(path: string, packageId: string): { name: string; version: string } | undefined {
  const file = path.slice(path.lastIndexOf('/') + 1);
  const m = new RegExp(`^(.+)-(\\d+(?:\\.\\d+)*)-${packageId}\\.dalf$`).exec(file);
  return m ? { name: m[1] as string, version: m[2] as string } : undefined;
}
