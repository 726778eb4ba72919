import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { createAjv, packageRoot } from '../schema/index.js';

let compiled: ValidateFunction | undefined;

/** Problems of a report against specs/report.schema.json (empty when valid). */
export function validateReport(doc: unknown): string[] {
  if (compiled === undefined) {
    const file = join(packageRoot(), 'specs', 'report.schema.json');
    if (!existsSync(file)) return [];
    compiled = createAjv().compile(JSON.parse(readFileSync(file, 'utf8')) as object);
  }
  return compiled(doc) ? [] : (compiled.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}
