/**
 * Writes a DAR: a zip whose `META-INF/MANIFEST.MF` names the main DALF (`Main-Dalf`) and all DALFs
 * (`Dalfs`), in the JAR manifest syntax `decode/decodeDar.ts` reads (lines of at most 72 bytes,
 * continuation lines starting with one space), laid out as `damlc` does.
 */
import { zipSync } from 'fflate';

import { WireReader } from '../decode/WireReader.js';

export interface DarInput {
  /** The DAR's name, e.g. `my-package-1.0.0`: the folder and file names derive from it. */
  readonly name: string;
  /** The main package's DALF (Archive bytes). */
  readonly main: Uint8Array;
  /** Other DALFs the DAR carries (dependencies), in manifest order. */
  readonly dependencies?: readonly Uint8Array[];
  /** Extra entries (Daml sources, a `.conf`), by path inside the DAR's folder. */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  /** Manifest `Sdk-Version`. */
  readonly sdkVersion?: string;
}

/** The `hash` field (package id) of an Archive, or `''` when it has none. */
export function archiveHash(dalf: Uint8Array): string {
  const r = new WireReader(dalf);
  let hash = '';
  while (r.pos < dalf.length) {
    const tag = r.tag();
    if (tag === ((4 << 3) | 2)) hash = r.string();
    else r.skip(tag);
  }
  return hash;
}

/**
 * One manifest attribute, wrapped at 72 bytes as the JAR manifest syntax wants (never inside a
 * UTF-8 sequence, so a non-ASCII name survives the wrapping).
 */
function manifestLine(name: string, value: string): string {
  const lines: string[] = [];
  let current = '';
  let bytes = 0;
  for (const ch of `${name}: ${value}`) {
    const size = Buffer.byteLength(ch);
    if (bytes + size > 72) { lines.push(current); current = ' '; bytes = 1; }
    current += ch;
    bytes += size;
  }
  lines.push(current);
  return lines.join('\r\n');
}

export function encodeDar(input: DarInput): Uint8Array {
  const utf8 = new TextEncoder();
  const mainId = archiveHash(input.main);
  const folder = `${input.name}-${mainId}`;
  const entries: Record<string, Uint8Array> = {};
  const mainPath = `${folder}/${input.name}-${mainId}.dalf`;
  entries[mainPath] = input.main;
  const paths = [mainPath];
  for (const dep of input.dependencies ?? []) {
    const path = `${folder}/dependency-${archiveHash(dep)}.dalf`;
    if (entries[path]) continue;
    entries[path] = dep;
    paths.push(path);
  }
  for (const [path, content] of Object.entries(input.files ?? {})) {
    entries[`${folder}/${path}`] = typeof content === 'string' ? utf8.encode(content) : content;
  }
  const manifest = [
    manifestLine('Manifest-Version', '1.0'),
    manifestLine('Created-By', 'canton-conformance'),
    manifestLine('Name', input.name),
    ...(input.sdkVersion ? [manifestLine('Sdk-Version', input.sdkVersion)] : []),
    manifestLine('Main-Dalf', mainPath),
    manifestLine('Dalfs', paths.join(', ')),
    manifestLine('Format', 'daml-lf'),
    manifestLine('Encryption', 'non-encrypted'),
  ].join('\r\n') + '\r\n';
  // The manifest first, as a JAR has it.
  return zipSync({ 'META-INF/MANIFEST.MF': utf8.encode(manifest), ...entries }, { level: 6, mtime: new Date(Date.UTC(1980, 0, 1)) });
}
