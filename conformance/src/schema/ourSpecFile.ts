import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SpecGroup } from './types.js';

export const SPEC_GROUPS: readonly SpecGroup[] = ['registry', 'ledger', 'scan'];

let root: string | undefined;

/** The package root, found by walking up (this file runs from source under vitest and from dist/ when built). */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'canton-conformance') {
      return (root = dir);
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('canton-conformance: cannot find the package root (package.json) above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}

/** Absolute path of one of our documents in specs/. */
export function ourSpecFile(group: SpecGroup): string {
  return join(packageRoot(), 'specs', `${group}.openapi.yaml`);
}

export function isSpecGroup(s: string): s is SpecGroup {
  return (SPEC_GROUPS as readonly string[]).includes(s);
}
