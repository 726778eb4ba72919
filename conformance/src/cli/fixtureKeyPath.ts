import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from './exitCodes.js';

/** fixtures/keys/<name> in this package, from src/ or dist/ (its own module: `serve` needs it without jose). */
export function fixtureKeyPath(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'fixtures', 'keys'))) return join(dir, 'fixtures', 'keys', name);
    const up = dirname(dir);
    if (up === dir) throw new UsageError('cannot find fixtures/keys next to package.json');
    dir = up;
  }
}
