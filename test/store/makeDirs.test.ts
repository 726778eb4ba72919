import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writableDir } from '../../conformance/src/cli/writableDir.js';
import { UsageError } from '../../conformance/src/cli/exitCodes.js';
import { makeDirs } from '../../conformance/src/fs/makeDirs.js';

describe('makeDirs: mkdir -p that always returns', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-makedirs-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('makes a folder and its missing parents, and takes one that exists', () => {
    const deep = join(root, 'a', 'b', 'c');
    makeDirs(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    makeDirs(deep);
    makeDirs(root);
  });

  it('refuses a file in the way with Node\'s error', () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    expect(() => makeDirs(file)).toThrow(/EEXIST/);
    expect(() => makeDirs(join(file, 'reports'))).toThrow(/ENOTDIR/);
  });

  // Node's recursive mkdir loops forever (at full CPU) where mkdir answers ENOENT under a parent
  // that exists, as procfs does: `--report-dir /proc/x` and `--data-dir /proc/x` hung.
  it.skipIf(!existsSync('/proc/self'))('refuses a folder the file system will not create (procfs) at once', async () => {
    expect(() => makeDirs('/proc/cc-no-such-folder/reports')).toThrow(/ENOENT/);
    await expect(writableDir('/proc/cc-no-such-folder', 'the reports')).rejects.toThrow(UsageError);
    await expect(writableDir('/proc/cc-no-such-folder', 'the reports')).rejects.toThrow(/cannot write the reports to \/proc\/cc-no-such-folder: ENOENT/);
  });
});
