/**
 * The README's wallet-sdk snippet ("Wallets: the token standard and Amulet"), as a user copies it:
 * it type-checks under the project's strict options (a new user's trial found it did not), and it
 * runs against the msw handlers at their default URLs, tapping alice's amulet.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setupServer } from 'msw/node';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { createHandlers } from '../../reference-server/src/msw/index.js';
import { installWebSocket } from './support/installWebSocket.js';

const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const snippet = /<!-- wallet-snippet[^>]*-->\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
/** Where the snippet would sit in a user's project: beside the project's own node_modules (never written there). */
const asIfAt = join(root, 'test', 'clients', 'readme-wallet-snippet.ts');

describe("the README's wallet-sdk snippet", () => {
  it('is marked in the README', () => {
    expect(snippet, 'a ```ts block after <!-- wallet-snippet ... -->').toBeDefined();
  });

  it('type-checks as strict TypeScript', () => {
    const config = ts.readConfigFile(join(root, 'tsconfig.json'), (p) => ts.sys.readFile(p));
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    const host = ts.createCompilerHost({ ...options, noEmit: true });
    const read = host.readFile.bind(host);
    const exists = host.fileExists.bind(host);
    const source = host.getSourceFile.bind(host);
    host.readFile = (f) => (f === asIfAt ? snippet : read(f));
    host.fileExists = (f) => f === asIfAt || exists(f);
    host.getSourceFile = (f, v, onError, create) => (f === asIfAt ? ts.createSourceFile(f, snippet!, v) : source(f, v, onError, create));
    const program = ts.createProgram([asIfAt], { ...options, noEmit: true }, host);
    const problems = ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName === asIfAt)
      .map((d) => `${d.start === undefined ? '' : `${d.file!.getLineAndCharacterOfPosition(d.start).line + 1}: `}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(problems).toEqual([]);
  }, 120_000);

  it('runs against the msw handlers at their default URLs: alice gets her tap', async () => {
    installWebSocket();
    const mock = createHandlers({ fixtures: 'default', log: silentLogger });
    const server = setupServer(...mock.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    const dir = mkdtempSync(join(tmpdir(), 'cc-readme-wallet-'));
    try {
      // As a user's module: its imports resolved as from the project, the types gone.
      const require = createRequire(asIfAt);
      const js = ts.transpileModule(snippet!, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText
        .replace("'@canton-network/wallet-sdk'", JSON.stringify(pathToFileURL(require.resolve('@canton-network/wallet-sdk')).href))
        .replace("'canton-conformance/msw'", JSON.stringify(pathToFileURL(join(root, 'reference-server', 'src', 'msw', 'index.ts')).href));
      const file = join(dir, 'snippet.mjs');
      writeFileSync(file, js);
      await import(pathToFileURL(file).href);
      const alice = 'alice::1220c0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ff';
      const end = mock.ledger.ledgerEnd();
      const acs = mock.ledger.activeContracts({ activeAtOffset: end.offset, eventFormat: { filtersByParty: { [alice]: { cumulative: [] } } } });
      expect(acs.ok).toBe(true);
      const amulets = acs.ok ? [...acs.value].filter((e) => 'JsActiveContract' in e.contractEntry && e.contractEntry.JsActiveContract.createdEvent.templateId.endsWith(':Splice.Amulet:Amulet')) : [];
      expect(amulets.length).toBeGreaterThan(0);
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
