import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lazyYaml } from './lazyYaml.js';
import type { CantonVersion } from './cantonVersions.js';
import { lineDocument } from './lineDocument.js';
import { packageRoot } from './ourSpecFile.js';

export type LedgerDocumentKind = 'openapi' | 'asyncapi';

/** `specs/ledger.<line>.<kind>.yaml`: one line's ledger document, derived from ours. */
export function lineSpecFile(line: CantonVersion, kind: LedgerDocumentKind = 'openapi'): string {
  return join(packageRoot(), 'specs', `ledger.${line}.${kind}.yaml`);
}

/**
 * The text of one line's ledger document as `specs/` holds it: derived from
 * `specs/ledger.<kind>.yaml` by `lineDocument`, written as YAML 1.1 (so that PyYAML-based tools
 * read the strings as strings). `test/specs/lineDocuments.test.ts` keeps the files equal to it.
 */
export function lineSpecText(line: CantonVersion, kind: LedgerDocumentKind = 'openapi'): string {
  const { parse, stringify } = lazyYaml();
  const source = parse(readFileSync(join(packageRoot(), 'specs', `ledger.${kind}.yaml`), 'utf8'), { maxAliasCount: -1 }) as Record<string, unknown>;
  const header = [
    `# Canton ${line}'s JSON Ledger API v2 ${kind === 'openapi' ? 'HTTP' : 'WebSocket'} surface, as canton-conformance serves it (serve --canton-version ${line}).`,
    `# Generated from ledger.${kind}.yaml (the operations ${line} lacks and the members marked for other lines removed): do not edit;`,
    '# regenerate with UPDATE_LINE_SPECS=1 npx vitest run test/specs/lineDocuments.test.ts',
  ];
  return `${header.join('\n')}\n${stringify(lineDocument(source, line), { version: '1.1', lineWidth: 120, aliasDuplicateObjects: false })}`;
}
