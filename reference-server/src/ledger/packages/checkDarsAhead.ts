/**
 * The upload check of a set of start-up DARs (`serve --splice-dars`), done before the upload and
 * shared between a worker thread and this one, so the start-up's other work (the OpenAPI
 * documents the server compiles) runs beside it instead of before or after it. Each distinct
 * package is decoded and checked once, against the packages of its own DAR and the DARs before
 * it, exactly as uploading the DARs one after the other checks them (validateDarPackages); the
 * upload then records each DAR with that verdict (`recordCheckedDars`), so nothing is listed or
 * vetted that was not checked. Only for a ledger that knows no uploaded package yet.
 */
import { Worker } from 'node:worker_threads';
import type { Package } from '../../../../daml-engine/ast/Package.js';
import { checkPackageSteps } from '../../../../daml-engine/check/checkPackage.js';
import { decodeArchive } from '../../../../daml-engine/decode/decodeArchive.js';
import type { LedgerError } from '../errors.js';
import type { DarPackage } from './readDar.js';
import { archiveOf, validateDarPackages, type KnownEnginePackage } from './validateDarPackages.js';

/** What is checked: each DAR's packages (main first), in upload order. */
export interface DarsToCheck {
  readonly dars: readonly (readonly DarPackage[])[];
}

/** Every DAR passed, or the first that did not (its index, and the upload's refusal). */
export type DarsVerdict = { readonly ok: true } | { readonly ok: false; readonly index: number; readonly error: LedgerError };

/** The verdict, and the packages this thread decoded (the engine adopts them rather than decoding again). */
export interface CheckedAhead {
  readonly verdict: DarsVerdict;
  readonly decoded: ReadonlyMap<string, Package>;
}

/** The sequential check, with the upload's own refusals: each DAR against those before it. */
export function checkDarsInOrder(input: DarsToCheck, decoded = new Map<string, Package>()): DarsVerdict {
  const known: KnownEnginePackage = (id) => decoded.get(id);
  for (const [index, packages] of input.dars.entries()) {
    const r = validateDarPackages(packages, known);
    if (!r.ok) return { ok: false, index, error: r.error };
    for (const p of r.value) decoded.set(p.id, p);
  }
  return { ok: true };
}

/**
 * Decodes and checks the distinct packages `mine` names (all when undefined), each against the
 * packages of the DARs up to the first that carries it: true when every one passes. Any failure
 * is only a "no": the caller then runs `checkDarsInOrder` for the upload's exact refusal.
 */
export function checkPart(input: DarsToCheck, mine: ReadonlySet<string> | undefined, decoded: Map<string, Package> = new Map()): boolean {
  const first = new Map<string, number>();
  const byId = new Map<string, DarPackage>();
  for (const [i, packages] of input.dars.entries()) {
    for (const p of packages) {
      if (first.has(p.packageId)) continue;
      first.set(p.packageId, i);
      byId.set(p.packageId, p);
    }
  }
  const failed = new Set<string>();
  const get = (id: string): Package | undefined => {
    const known = decoded.get(id);
    if (known !== undefined || failed.has(id)) return known;
    const p = byId.get(id);
    if (p === undefined) return undefined;
    const r = decodeArchive(archiveOf(id, p.payload), undefined, id);
    if (!r.ok) {
      failed.add(id);
      return undefined;
    }
    decoded.set(id, r.value);
    return r.value;
  };
  try {
    for (const id of mine ?? byId.keys()) {
      const pkg = get(id);
      const upTo = first.get(id);
      if (pkg === undefined || upTo === undefined) return false;
      const steps = checkPackageSteps(pkg, (dep) => ((first.get(dep) ?? Infinity) <= upTo ? get(dep) : undefined));
      for (;;) {
        const r = steps.next();
        if (!r.done) continue;
        if (!r.value.ok) return false;
        break;
      }
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks the DARs, a share of the packages (by payload size) on a worker thread and the rest
 * here after `meanwhile` (the main thread's own start-up work, which the worker's share is sized
 * to run beside). A failure anywhere, or a worker that cannot run, falls back to the sequential
 * check here, so the verdict and its refusal are always those of uploading the DARs in order.
 */
export async function checkDarsAhead(input: DarsToCheck, meanwhile: () => void = () => {}, hereShare = 0.25): Promise<CheckedAhead> {
  const decoded = new Map<string, Package>();
  // The compiled worker is at hand only in dist/ (the TypeScript sources run by the tests check here).
  const worker = import.meta.url.endsWith('.js') ? startWorker(input, theirShare(input, hereShare)) : undefined;
  meanwhile();
  if (worker === undefined) return { verdict: checkDarsInOrder(input, decoded), decoded };
  const here = checkPart(input, worker.mine, decoded);
  const there = await worker.done;
  if (here && there) return { verdict: { ok: true }, decoded };
  return { verdict: checkDarsInOrder(input, decoded), decoded };
}

/** The distinct packages the worker takes: the largest first, until it holds `1 - hereShare` of the bytes. */
function theirShare(input: DarsToCheck, hereShare: number): { theirs: Set<string>; mine: Set<string> } {
  const all = new Map<string, number>();
  for (const packages of input.dars) for (const p of packages) all.set(p.packageId, p.payload.length);
  const total = [...all.values()].reduce((a, b) => a + b, 0);
  const theirs = new Set<string>();
  const mine = new Set<string>();
  let theirBytes = 0;
  for (const [id, size] of [...all].sort((a, b) => b[1] - a[1])) {
    if (theirBytes + size <= (1 - hereShare) * total || theirs.size === 0) {
      theirs.add(id);
      theirBytes += size;
    } else mine.add(id);
  }
  return { theirs, mine };
}

function startWorker(input: DarsToCheck, share: { theirs: Set<string>; mine: Set<string> }): { mine: Set<string>; done: Promise<boolean> } | undefined {
  let worker: Worker;
  try {
    worker = new Worker(new URL('./checkDarsWorker.js', import.meta.url), { workerData: { input, mine: share.theirs } });
  } catch {
    return undefined;
  }
  const done = new Promise<boolean>((resolve) => {
    worker.once('message', (passed: unknown) => resolve(passed === true));
    // A worker that dies answers "no": the sequential check then decides.
    worker.once('error', () => resolve(false));
    worker.once('exit', () => resolve(false));
  });
  return { mine: share.mine, done };
}
