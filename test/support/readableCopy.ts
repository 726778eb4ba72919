import { chmodSync, cpSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the copy is, or why it could not be made (the test skips, saying so). */
export type ReadableCopy = { readonly ok: true; readonly dist: string } | { readonly ok: false; readonly reason: string };

const repo = fileURLToPath(new URL('../..', import.meta.url));
/** The packages the data store loads at run time: the SQLite binding and what finds its native file. */
const STORE_PACKAGES = ['better-sqlite3', 'bindings', 'file-uri-to-path'];

/**
 * dist/ and the store's run-time packages copied under `dir`, readable by every user. A child run
 * as another user (nobody, when the tests run as root) cannot read a private checkout (mode 0700,
 * like a home directory or `mktemp -d`), so it loads the copy instead of the checkout.
 */
export function readableCopy(dir: string): ReadableCopy {
  const dist = join(repo, 'dist');
  try {
    statSync(join(dist, 'reference-server'));
  } catch {
    return { ok: false, reason: `${dist} is missing: run \`npm run build\`` };
  }
  const target = join(dir, 'package');
  try {
    cpSync(dist, join(target, 'dist'), { recursive: true });
    let from = createRequire(join(repo, 'package.json'));
    for (const name of STORE_PACKAGES) {
      const pkg = dirname(from.resolve(`${name}/package.json`));
      // Sources, not build intermediates: the native file is all of build/ that is loaded.
      cpSync(pkg, join(target, 'node_modules', name), { recursive: true, filter: (src) => !/[\\/](deps|src|obj|obj\.target)$|\.a$/.test(src.slice(pkg.length)) });
      from = createRequire(join(pkg, 'package.json'));
    }
    mkdirSync(target, { recursive: true });
    openUp(dir);
  } catch (e) {
    return { ok: false, reason: `could not copy dist/ and ${STORE_PACKAGES.join(', ')} to ${dir}: ${(e as Error).message}` };
  }
  return { ok: true, dist: join(target, 'dist') };
}

/** Every directory under `path` searchable and every file readable by all (the umask may be 077). */
function openUp(path: string): void {
  const s = statSync(path);
  chmodSync(path, s.mode | (s.isDirectory() ? 0o555 : 0o444));
  if (s.isDirectory()) for (const e of readdirSync(path)) openUp(join(path, e));
}
