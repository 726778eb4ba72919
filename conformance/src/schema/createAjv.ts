import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const INT32 = 2 ** 31;

/**
 * Ajv for OpenAPI documents: 2020-12 (OpenAPI 3.1 schemas are JSON Schema 2020-12; 3.0 schemas are a
 * near-subset, and Ajv understands their `nullable`). Strict mode is off because OpenAPI puts its own
 * keywords (`example`, `discriminator`, `xml`) inside schemas. `allErrors` so a report lists every
 * violation, not the first; `{ allErrors: false }` stops at the first, for bodies too large to
 * diagnose in full (Ajv gathers errors across `$ref`s by copying arrays: quadratic in their number).
 */
export function createAjv(options: { allErrors?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: options.allErrors ?? true, validateSchema: false, logger: false });
  addFormats.default(ajv);
  // The OpenAPI format registry: integers travel as JSON numbers (Canton sends int64 unquoted).
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -INT32 && n < INT32 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  ajv.addFormat('byte', { type: 'string', validate: (s: string) => /^[A-Za-z0-9+/_-]*={0,2}$/.test(s) });
  ajv.addFormat('binary', { type: 'string', validate: () => true });
  ajv.addFormat('password', { type: 'string', validate: () => true });
  return ajv;
}
