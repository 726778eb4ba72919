import { err, ok, type Result } from '../result.js';
import { readArchive } from './readArchive.js';
import { type InflatedEntries, MAX_DAR_INFLATED_BYTES, type UnzipResult, unzipDar } from './unzipDar.js';

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

/**
 * Why a DAR cannot be read, as Canton's package service sorts it (PackageServiceErrors.Reading):
 * INVALID_DAR for the zip and its manifest, ZIP_BOMB past the inflate bound, DAR_PARSE_ERROR for
 * a DALF the Daml-LF archive reader refuses (not protobuf, a hash that is not its payload's, no
 * name and version): the reader's `Error.Parsing`, which Canton answers as a parse error.
 */
export interface DarReadError {
  readonly code: 'INVALID_DAR' | 'ZIP_BOMB' | 'DAR_PARSE_ERROR';
  readonly reason: string;
}

const MANIFEST = 'META-INF/MANIFEST.MF';

/** The entries a DAR upload reads: the manifest and the DALFs (other entries count toward the bound only). */
export const darEntryWanted = (name: string): boolean => name === MANIFEST || name.endsWith('.dalf');

const invalid = (reason: string) => err<DarReadError>({ code: 'INVALID_DAR', reason });
const unparsable = (reason: string) => err<DarReadError>({ code: 'DAR_PARSE_ERROR', reason });

/**
 * Reads a DAR: a zip with `META-INF/MANIFEST.MF` naming the `Main-Dalf` (and `Dalfs`), and one
 * DALF per package. Each DALF's id is checked against its payload's SHA-256. Failures are the
 * reason of the participant's INVALID_DAR answer; nothing is recorded until the whole DAR read.
 */
export function readDar(bytes: Uint8Array, inflated?: UnzipResult): Result<ParsedDar, DarReadError> {
  const steps = readDarSteps(bytes, inflated);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** `readDar` a DALF per step (each is parsed and hashed): the caller may yield to the event loop between steps. */
export function* readDarSteps(bytes: Uint8Array, inflated?: UnzipResult): Generator<void, Result<ParsedDar, DarReadError>> {
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) return invalid('the upload is not a zip archive');
  // `inflated`: the same bytes already inflated by unzipDarAsync (HTTP uploads), else inflated here.
  const unzipped = inflated ?? unzipDar(bytes, darEntryWanted);
  if (!unzipped.ok) {
    return unzipped.failure.kind === 'zipBomb'
      ? err({ code: 'ZIP_BOMB', reason: unzipped.failure.message })
      : invalid(`the zip archive is corrupt (${unzipped.failure.message})`);
  }
  const files = unzipped.files;
  const manifestBytes = files[MANIFEST];
  if (manifestBytes === undefined) return invalid(`the archive has no ${MANIFEST}`);
  const manifest = readManifest(new TextDecoder().decode(manifestBytes));
  const format = manifest.get('Format');
  if (format !== undefined && format !== 'daml-lf') return invalid(`unsupported DAR format '${format.slice(0, 40)}'`);
  const mainDalf = manifest.get('Main-Dalf');
  if (mainDalf === undefined || mainDalf === '') return invalid('the manifest names no Main-Dalf');
  const listed = (manifest.get('Dalfs') ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const path of [mainDalf, ...listed]) {
    if (files[path] === undefined) return invalid(`the manifest names ${path.slice(0, 200)}, which the archive does not contain`);
  }
  const order = [mainDalf, ...listed, ...Object.keys(files).filter((p) => p.endsWith('.dalf'))];
  const seen = new Set<string>();
  const packages: DarPackage[] = [];
  for (const path of order) {
    if (seen.has(path)) continue;
    seen.add(path);
    yield;
    const archive = readArchiveOnce(files[path]!);
    if (!archive.ok) return unparsable(`${path.slice(0, 200)}: ${archive.error}`);
    if (packages.some((p) => p.packageId === archive.value.packageId)) continue;
    const fromPath = nameAndVersionOfPath(path, archive.value.packageId);
    const packageName = archive.value.name ?? fromPath?.name;
    const packageVersion = archive.value.version ?? fromPath?.version;
    if (packageName === undefined || packageVersion === undefined) return unparsable(`${path.slice(0, 200)}: the package has no name and version`);
    packages.push({ packageId: archive.value.packageId, packageName, packageVersion, payload: archive.value.payload, lfVersion: archive.value.lfVersion });
  }
  const main = packages[0] as DarPackage;
  return ok({ name: manifest.get('Name') ?? `${main.packageName}-${main.packageVersion}`, mainPackageId: main.packageId, packages });
}

/**
 * A DAR's main package alone (name, version, id), from its manifest and Main-Dalf only: to choose
 * among a folder's DARs before reading the chosen ones whole. `memo` as for unzipDar.
 */
export function readDarMain(bytes: Uint8Array, memo?: InflatedEntries): Result<{ packageId: string; packageName: string; packageVersion: string }, DarReadError> {
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) return invalid('the upload is not a zip archive');
  const head = unzipDar(bytes, (name) => name === MANIFEST, MAX_DAR_INFLATED_BYTES, memo);
  if (!head.ok) return head.failure.kind === 'zipBomb' ? err({ code: 'ZIP_BOMB', reason: head.failure.message }) : invalid(`the zip archive is corrupt (${head.failure.message})`);
  const manifestBytes = head.files[MANIFEST];
  if (manifestBytes === undefined) return invalid(`the archive has no ${MANIFEST}`);
  const mainDalf = readManifest(new TextDecoder().decode(manifestBytes)).get('Main-Dalf');
  if (mainDalf === undefined || mainDalf === '') return invalid('the manifest names no Main-Dalf');
  const main = unzipDar(bytes, (name) => name === mainDalf, MAX_DAR_INFLATED_BYTES, memo);
  if (!main.ok) return main.failure.kind === 'zipBomb' ? err({ code: 'ZIP_BOMB', reason: main.failure.message }) : invalid(`the zip archive is corrupt (${main.failure.message})`);
  const file = main.files[mainDalf];
  if (file === undefined) return invalid(`the manifest names ${mainDalf.slice(0, 200)}, which the archive does not contain`);
  const archive = readArchiveOnce(file);
  if (!archive.ok) return unparsable(`${mainDalf.slice(0, 200)}: ${archive.error}`);
  const fromPath = nameAndVersionOfPath(mainDalf, archive.value.packageId);
  const packageName = archive.value.name ?? fromPath?.name;
  const packageVersion = archive.value.version ?? fromPath?.version;
  if (packageName === undefined || packageVersion === undefined) return unparsable(`${mainDalf.slice(0, 200)}: the package has no name and version`);
  return ok({ packageId: archive.value.packageId, packageName, packageVersion });
}

/**
 * Each inflated DALF read (parsed, hashed) once: a file InflatedEntries reuses across DARs, or a
 * DAR read again from the same inflated entries, is not hashed again. Files are never written to.
 */
const archives = new WeakMap<Uint8Array, ReturnType<typeof readArchive>>();
function readArchiveOnce(file: Uint8Array): ReturnType<typeof readArchive> {
  const known = archives.get(file);
  if (known !== undefined) return known;
  const read = readArchive(file);
  archives.set(file, read);
  return read;
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
  // One fixed pattern, not one compiled per DALF (a release folder names hundreds).
  const suffix = `-${packageId}.dalf`;
  const m = file.endsWith(suffix) ? NAME_AND_VERSION.exec(file.slice(0, -suffix.length)) : null;
  return m ? { name: m[1] as string, version: m[2] as string } : undefined;
}
const NAME_AND_VERSION = /^(.+)-(\d+(?:\.\d+)*)$/;
