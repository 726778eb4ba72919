import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../schema/index.js';

let version: string | undefined;

/** The package version, read from package.json wherever the code runs from (source or dist/). */
export function toolVersion(): string {
  return (version ??= (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version);
}
