/**
 * `mkdir -p` without Node's recursive mkdir, which never returns where the kernel answers ENOENT
 * for a folder whose parent exists (procfs: `--report-dir /proc/x` or `--data-dir /proc/x` spun at
 * full CPU with no output). Here each level is made once, and a refusal is thrown as it came.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Makes `dir` and its missing parents; throws Node's error (EEXIST for a file in the way, ENOENT, EACCES, ...). */
export function makeDirs(dir: string): void {
  const path = resolve(dir);
  if (tryMkdir(path)) return;
  const parent = dirname(path);
  if (parent === path) throw enoent(path);
  makeDirs(parent);
  // One more try now that the parent exists; a second ENOENT is the file system's answer.
  if (!tryMkdir(path)) throw enoent(path);
}

/** true once `path` is a folder; false on ENOENT (a parent is missing); throws anything else. */
function tryMkdir(path: string): boolean {
  try {
    mkdirSync(path);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && statSync(path, { throwIfNoEntry: false })?.isDirectory() === true) return true;
    if (code === 'ENOENT') return false;
    throw e;
  }
}

function enoent(path: string): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(`ENOENT: no such file or directory, mkdir '${path}' (the file system refuses to create it)`);
  e.code = 'ENOENT';
  e.path = path;
  return e;
}
