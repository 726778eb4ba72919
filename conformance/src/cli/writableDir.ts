/**
 * Output folders checked before a command does its work: a `--report-dir` (or `--out`) that cannot
 * be written is a usage error at once, not a stack trace after a run of minutes.
 */
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirs } from '../fs/makeDirs.js';
import { UsageError } from './exitCodes.js';

/** Makes `dir` (and its parents) and writes and removes a file there; a UsageError naming `dir` and `what` otherwise. */
export async function writableDir(dir: string, what: string): Promise<void> {
  try {
    makeDirs(dir);
    const probe = join(dir, `.canton-conformance-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    await writeFile(probe, '');
    await rm(probe, { force: true });
  } catch (e) {
    throw new UsageError(`cannot write ${what} to ${dir}: ${(e as Error).message}`);
  }
}
