/**
 * DARs named at start-up (`serve --dar`, a fixture file's `dars`, `createHandlers({ dars })`):
 * each goes through the upload of `POST /v2/dars`, so its packages are listed, named and
 * versioned as an upload's are. An upload without a synchronizer id vets on the one synchronizer
 * a participant is connected to; the reference is connected to two, so a start-up DAR is vetted
 * on each of them, as an upload naming each synchronizer in turn would vet it.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LedgerError } from '../errors.js';
import type { Ledger } from '../Ledger.js';
import type { CheckedDar } from './packageService.js';
import type { UnzipResult } from './unzipDar.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';

/** A DAR to load: what names it in messages (its path, or the caller's label) and its bytes. */
export interface DarEntry {
  readonly name: string;
  readonly bytes: Uint8Array;
  /** Its entries, when the caller inflated them already (readSpliceDars): the upload reads these. */
  readonly inflated?: UnzipResult;
}

/** A start-up DAR that cannot be loaded: one line naming it and saying why. */
export class DarsError extends Error {
  override readonly name = 'DarsError';
}

/** A DAR file that cannot be read: its path as given, and why (with the full path when it differs). */
export interface UnreadableDar {
  readonly path: string;
  readonly reason: string;
}

/** Reads DAR files, paths relative to `baseDir` (default: the working directory). */
export function readDarFiles(paths: readonly string[], baseDir?: string): Result<DarEntry[], UnreadableDar> {
  const out: DarEntry[] = [];
  for (const path of paths) {
    const full = baseDir === undefined ? resolve(path) : resolve(baseDir, path);
    try {
      out.push({ name: path, bytes: readFileSync(full) });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a DAR file' : code === 'EACCES' ? 'not readable (permission denied)' : (e as Error).message;
      return err({ path, reason: `cannot be read: ${why}${full === path ? '' : ` (${full})`}` });
    }
  }
  return ok(out);
}

/**
 * Uploads each DAR as `POST /v2/dars` does, vetting its packages on every connected
 * synchronizer; stops at the first that fails, naming it with the upload's own reason (a corrupt
 * archive, a package whose name and version another package already has).
 */
export function uploadDars(ledger: Ledger, dars: readonly DarEntry[]): Result<void, string> {
  return darLoader(dars)(ledger);
}

/**
 * `uploadDars` for ledger after ledger built the same way (msw's `createHandlers` and each of its
 * `reset()`s): the first load reads, decodes and checks each DAR as an upload does; later loads
 * record what it read and decoded (`Ledger.recordCheckedDar`), which yields the same packages and
 * vetting without the cost. A first load that fails keeps nothing, so the next one uploads again.
 */
export function darLoader(dars: readonly DarEntry[]): (ledger: Ledger) => Result<void, string> {
  let checked: CheckedDar[][] | undefined;
  return (ledger) => {
    if (checked !== undefined) {
      for (const [i, dar] of dars.entries()) {
        for (const [j, sync] of ledger.config.synchronizers.entries()) {
          const once = checked[i]?.[j];
          const r = once === undefined ? ledger.uploadDar(dar.bytes, { synchronizerId: sync.id }, dar.inflated) : ledger.recordCheckedDar(once, { synchronizerId: sync.id });
          if (!r.ok) return err(refusal(dar, r.error));
        }
      }
      return ok(undefined);
    }
    const first: CheckedDar[][] = [];
    for (const dar of dars) {
      const perSync: CheckedDar[] = [];
      for (const sync of ledger.config.synchronizers) {
        // Read, decoded and checked once: on the next synchronizer the same DAR is only recorded and vetted.
        const r = perSync[0] === undefined ? ledger.uploadDarChecked(dar.bytes, { synchronizerId: sync.id }, dar.inflated) : ledger.recordCheckedDar(perSync[0], { synchronizerId: sync.id });
        if (!r.ok) return err(refusal(dar, r.error));
        perSync.push(perSync[0] ?? (r.value as CheckedDar));
      }
      first.push(perSync);
    }
    checked = first;
    return ok(undefined);
  };
}

/** One line naming the DAR, with the detail Canton keeps in the error's context (which package, which definition, why). */
function refusal(dar: DarEntry, error: LedgerError): string {
  const context = error.context ?? {};
  const detail = context['validationError'] ?? context['reason'] ?? context['msg'];
  const line = `${dar.name}: ${error.code}: ${error.cause}${detail === undefined || error.cause.includes(detail) ? '' : ` ${detail}`}`;
  return line.replace(/\s*\n\s*/g, ' ');
}
