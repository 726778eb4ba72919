/** The reference DARs of ../shared/upstream/daml (beside the checkout on project machines and in CI). */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Dar } from '../../daml-engine/decode/decodeDar.js';
import { decodeDar } from '../../daml-engine/decode/decodeDar.js';
import { Packages } from '../../daml-engine/decode/Packages.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const DARS_DIR = join(root, '..', 'shared', 'upstream', 'daml', 'dars');
export const HAS_DARS = existsSync(DARS_DIR);

export function allDars(dir = DARS_DIR): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? allDars(p) : p.endsWith('.dar') ? [p] : [];
  }).sort();
}

/** Decodes a reference DAR (path relative to dars/) into `packages`, failing loudly. */
export function loadDar(relative: string, packages = new Packages()): { dar: Dar; packages: Packages } {
  const result = decodeDar(readFileSync(join(DARS_DIR, relative)), packages.cache);
  if (!result.ok) throw new Error(`${relative}: ${result.failure.message}`);
  packages.addDar(result.value);
  return { dar: result.value, packages };
}
