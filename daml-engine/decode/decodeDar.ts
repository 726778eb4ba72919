/**
 * Decodes a DAR: a zip whose `META-INF/MANIFEST.MF` names the main DALF (`Main-Dalf`) and all
 * DALFs (`Dalfs`, comma-separated), in the JAR manifest syntax (72-byte lines, continuation lines
 * start with one space).
 */
import { unzipSync } from 'fflate';

import type { Package } from '../ast/Package.js';
import type { DecodeResult } from './DecodeFailure.js';
import type { PackageCache } from './decodeArchive.js';
import { decodeArchive } from './decodeArchive.js';

export interface Dar {
  readonly main: Package;
  /** Every package of the DAR, the main one first, in manifest order. */
  readonly packages: readonly Package[];
  /** Daml sources carried in the DAR, by path. */
  readonly sources: ReadonlyMap<string, string>;
}

/** The manifest's attributes, continuation lines joined. */
export function parseManifest(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  let last: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith(' ') && last !== undefined) {
      attributes.set(last, attributes.get(last)! + line.slice(1));
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) { last = undefined; continue; }
    last = line.slice(0, colon);
    attributes.set(last, line.slice(colon + 1).replace(/^ /, ''));
  }
  return attributes;
}

/**
 * `inflated`: the DAR's entries when the caller inflated them already (in Node, natively and within
 * the upload's bound: `test --dar`); they must hold the manifest and the DALFs, and the `.daml`
 * sources if those are wanted.
 */
export function decodeDar(bytes: Uint8Array, cache: PackageCache = new Map(), inflated?: Readonly<Record<string, Uint8Array>>): DecodeResult<Dar> {
  let entries: Readonly<Record<string, Uint8Array>>;
  try {
    entries = inflated ?? unzipSync(bytes);
  } catch (error) {
    return { ok: false, failure: { kind: 'badZip', message: `not a readable zip: ${(error as Error).message}` } };
  }
  const manifestBytes = entries['META-INF/MANIFEST.MF'];
  if (!manifestBytes) return { ok: false, failure: { kind: 'badManifest', message: 'no META-INF/MANIFEST.MF' } };
  const manifest = parseManifest(new TextDecoder().decode(manifestBytes));
  const mainPath = manifest.get('Main-Dalf')?.trim();
  if (!mainPath) return { ok: false, failure: { kind: 'badManifest', message: 'the manifest has no Main-Dalf' } };
  const listed = (manifest.get('Dalfs') ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  const paths = [mainPath, ...listed.filter((p) => p !== mainPath)];
  const packages: Package[] = [];
  for (const path of paths) {
    const dalf = entries[path];
    if (!dalf) return { ok: false, failure: { kind: 'missingEntry', file: path, message: `the manifest lists ${path}, which the DAR lacks` } };
    const decoded = decodeArchive(dalf, cache, path);
    if (!decoded.ok) return decoded;
    packages.push(decoded.value);
  }
  const sources = new Map<string, string>();
  const utf8 = new TextDecoder();
  for (const [path, content] of Object.entries(entries)) if (path.endsWith('.daml')) sources.set(path, utf8.decode(content));
  return { ok: true, value: { main: packages[0]!, packages, sources } };
}
