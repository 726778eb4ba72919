import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../../conformance/src/schema/index.js';
import type { CantonVersion } from '../../../../conformance/src/schema/cantonVersions.js';

/**
 * The Ledger API documents of the line served (`specs/ledger.<line>.*.yaml`), read once at
 * start-up and served as they are on disk, as a participant serves its own version's.
 */
export function readDocuments(line: CantonVersion, root: string = packageRoot()): { openapi: string; asyncapi: string } {
  const read = (name: string) => {
    const file = join(root, 'specs', name);
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      throw new Error(`cannot read ${file}: ${(e as Error).message}`);
    }
  };
  return { openapi: read(`ledger.${line}.openapi.yaml`), asyncapi: read(`ledger.${line}.asyncapi.yaml`) };
}
