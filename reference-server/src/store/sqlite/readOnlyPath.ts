import { accessSync, constants } from 'node:fs';

/**
 * The first of `paths` that exists and this process may not write (permissions, a read-only
 * mount), or undefined. SQLite names such a file "disk I/O error" or "unable to open": this is
 * how the refusal says what is actually wrong.
 */
export function readOnlyPath(paths: readonly string[]): string | undefined {
  for (const path of paths) {
    try {
      accessSync(path, constants.W_OK);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return path;
    }
  }
  return undefined;
}
