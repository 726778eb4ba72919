/**
 * `PassedChecks` kept in a directory (Node only), shared by every process that uses it: the CLI's
 * `test` runs, a server's restarts, test files making handlers. A participant validates a package
 * once and then stores it; a process of ours starts from nothing, and the check of the 37 packages
 * of a Splice test DAR costs more than half a second each time.
 *
 * One file per package id, in a folder named after the checker: the SHA-256 of the engine's code
 * (every module of daml-engine/, which decodes and checks) and of the check's limits, so a checker
 * changed in any way (another release, an edited engine) starts from an empty folder. A cache
 * never fails an upload: an unreadable or malformed entry is a miss, a failed write is ignored.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { DEFAULT_CHECK_LIMITS } from '../../../../daml-engine/check/checkPackage.js';
import { makeDirs } from '../../../../conformance/src/fs/makeDirs.js';
import type { LookedUp, PassedChecks } from './validateDarPackages.js';

const PACKAGE_ID = /^[0-9a-f]{64}$/;
/** Bumped when an entry's layout changes. */
const FORMAT = 1;

/** Where `passedChecksIn` keeps entries by default, or undefined when `CANTON_CONFORMANCE_CACHE=off`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const set = env.CANTON_CONFORMANCE_CACHE;
  if (set === 'off') return undefined;
  if (set !== undefined && set !== '') return set;
  const base = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'canton-conformance');
}

/** The checks remembered in the default cache directory (`defaultCacheDir`), or none. */
export function defaultPassedChecks(env: NodeJS.ProcessEnv = process.env): PassedChecks | undefined {
  const dir = defaultCacheDir(env);
  return dir === undefined ? undefined : passedChecksIn(dir);
}

/** Checks remembered under `dir` (created on the first pass recorded); none when the engine's code cannot be read. */
export function passedChecksIn(dir: string, checker: string | undefined = checkerId()): PassedChecks | undefined {
  if (checker === undefined) return undefined;
  const folder = join(dir, 'passed-checks', checker);
  let made = false;
  const fileOf = (packageId: string) => join(folder, `${packageId}.json`);
  return {
    get(packageId) {
      if (!PACKAGE_ID.test(packageId)) return undefined;
      try {
        return entryOf(JSON.parse(readFileSync(fileOf(packageId), 'utf8')), packageId);
      } catch {
        return undefined;
      }
    },
    set(packageId, lookedUp) {
      if (!PACKAGE_ID.test(packageId)) return;
      try {
        if (!made) makeDirs(folder);
        made = true;
        // Written whole, then renamed: a process reading at the same time sees all of it or nothing.
        const tmp = `${fileOf(packageId)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
        writeFileSync(tmp, `${JSON.stringify({ format: FORMAT, packageId, lookedUp })}\n`);
        renameSync(tmp, fileOf(packageId));
      } catch {
        // A read-only or full disk: the package is checked again next time, nothing worse.
      }
    },
  };
}

function entryOf(json: unknown, packageId: string): LookedUp | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const e = json as { format?: unknown; packageId?: unknown; lookedUp?: unknown };
  if (e.format !== FORMAT || e.packageId !== packageId || !Array.isArray(e.lookedUp)) return undefined;
  const out: (readonly [string, boolean])[] = [];
  for (const item of e.lookedUp as unknown[]) {
    if (!Array.isArray(item) || item.length !== 2) return undefined;
    const [id, found] = item as unknown[];
    if (typeof id !== 'string' || !PACKAGE_ID.test(id) || typeof found !== 'boolean') return undefined;
    out.push([id, found]);
  }
  return out;
}

let memo: { id: string | undefined } | undefined;

/**
 * The checker's identity: the SHA-256 of every module of the engine (its .js files when built,
 * .ts when run from the sources) and of the default check limits, read once per process.
 */
export function checkerId(): string | undefined {
  if (memo !== undefined) return memo.id;
  try {
    const root = fileURLToPath(new URL('../../../../daml-engine/', import.meta.url));
    const hash = createHash('sha256').update(`format ${FORMAT}\nlimits ${JSON.stringify(DEFAULT_CHECK_LIMITS)}\n`);
    let files = 0;
    for (const path of codeFiles(root, '')) {
      hash.update(`${path}\n`).update(readFileSync(join(root, path))).update('\n');
      files++;
    }
    memo = { id: files === 0 ? undefined : hash.digest('hex').slice(0, 32) };
  } catch {
    memo = { id: undefined };
  }
  return memo.id;
}

/** The engine's modules under `root`, relative paths in a fixed order. */
function codeFiles(root: string, under: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, under)).sort()) {
    const path = under === '' ? name : `${under}/${name}`;
    if (statSync(join(root, path)).isDirectory()) out.push(...codeFiles(root, path));
    else if ((name.endsWith('.js') || name.endsWith('.ts')) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}
