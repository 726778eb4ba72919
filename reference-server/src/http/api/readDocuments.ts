import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../../conformance/src/schema/index.js';

/** Our Ledger API documents, read once at start-up and served as they are on disk. */
export function readDocuments(root: string = packageRoot()): { openapi: string; asyncapi: string } {
  const read = (name: string) => {
    const file = join(root, 'specs', name);
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      throw new Error(`cannot read ${file}: ${(e as Error).message}`);
    }
  };
  return { openapi: read('ledger.openapi.yaml'), asyncapi: read('ledger.asyncapi.yaml') };
}
