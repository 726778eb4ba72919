/**
 * A folder of Splice's DARs (`serve --splice-dars DIR`): LocalNet's, or a Splice release's. Every
 * `*.dar` directly in the folder is read; where several DARs carry the same main package name,
 * the highest version is loaded (a release folder keeps older versions beside the new ones).
 * splice-amulet is required: the world is built on it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DarEntry } from '../../ledger/packages/startupDars.js';
import { darEntryWanted, readDar, readDarMain, type ParsedDar } from '../../ledger/packages/readDar.js';
import { InflatedEntries, MAX_DAR_INFLATED_BYTES, unzipDar } from '../../ledger/packages/unzipDar.js';
import { err, ok, type Result } from '../../ledger/result.js';

/** The package the world needs; a folder without it is refused. */
export const SPLICE_AMULET = 'splice-amulet';

/** One chosen DAR: its file, its main package, and the DAR to upload. */
export interface SpliceDar extends DarEntry {
  readonly packageName: string;
  readonly packageVersion: string;
  readonly mainPackageId: string;
  /** The DAR as read (its packages, main first): what the upload check takes. */
  readonly parsed: ParsedDar;
}

/** The DARs of a folder to load, in file-name order, and the splice-amulet among them. */
export interface SpliceDarSet {
  readonly dir: string;
  readonly dars: readonly SpliceDar[];
  readonly amulet: SpliceDar;
}

/** Compares dotted versions numerically part by part (`0.1.22` > `0.1.9`); non-numeric parts as text. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '0';
    const y = pb[i] ?? '0';
    const d = /^\d+$/.test(x) && /^\d+$/.test(y) ? Number(x) - Number(y) : x < y ? -1 : x > y ? 1 : 0;
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** Reads the folder; the error is one line naming the folder or file and what is wrong or missing. */
export function readSpliceDars(dir: string): Result<SpliceDarSet, string> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith('.dar')).sort();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return err(`--splice-dars ${dir}: ${code === 'ENOENT' ? 'no such directory' : code === 'ENOTDIR' ? 'not a directory' : code === 'EACCES' ? 'not readable (permission denied)' : (e as Error).message}`);
  }
  // The DARs share most of their DALFs (the APIs, splice-amulet, daml-stdlib): each distinct one is
  // inflated and hashed once; a DAR that loses to a higher version is read no further than its main package.
  const memo = new InflatedEntries();
  const highest = new Map<string, { name: string; bytes: Uint8Array; packageName: string; packageVersion: string }>();
  for (const name of names) {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(join(dir, name));
    } catch (e) {
      return err(`--splice-dars ${dir}: ${name} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    const main = readDarMain(bytes, memo);
    if (!main.ok) return err(`--splice-dars ${dir}: ${name} is not a DAR (${main.error.reason})`);
    const known = highest.get(main.value.packageName);
    if (known === undefined || compareVersions(main.value.packageVersion, known.packageVersion) > 0) highest.set(main.value.packageName, { name, bytes, ...main.value });
  }
  const chosen: SpliceDar[] = [];
  for (const { name, bytes } of [...highest.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    // Read whole here, once: the upload takes these inflated entries (DarEntry.inflated).
    const inflated = unzipDar(bytes, darEntryWanted, MAX_DAR_INFLATED_BYTES, memo);
    const parsed = readDar(bytes, inflated);
    if (!parsed.ok) return err(`--splice-dars ${dir}: ${name} is not a DAR (${parsed.error.reason})`);
    const main = parsed.value.packages[0];
    if (main === undefined) return err(`--splice-dars ${dir}: ${name} carries no package`);
    chosen.push({ name: join(dir, name), bytes, inflated, parsed: parsed.value, packageName: main.packageName, packageVersion: main.packageVersion, mainPackageId: main.packageId });
  }
  const amulet = chosen.find((d) => d.packageName === SPLICE_AMULET);
  if (amulet === undefined) {
    return err(`--splice-dars ${dir}: no ${SPLICE_AMULET} DAR in the folder (${names.length === 0 ? 'it holds no .dar file' : `found ${names.length} other .dar files`}); copy LocalNet's or a Splice release's ${SPLICE_AMULET}-<version>.dar there`);
  }
  return ok({ dir, dars: chosen, amulet });
}
