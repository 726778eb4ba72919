/**
 * Our documents' built JSON (builtDocuments.ts, written by `npm run build`): the same document as
 * their YAML, used only for exactly the text it was built from.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { builtDocumentFile, builtDocumentText, readBuiltDocument, writeBuiltDocuments } from '../../conformance/src/schema/builtDocuments.js';
import { readDocument } from '../../conformance/src/schema/loadSpec.js';
import { packageRoot } from '../../conformance/src/schema/ourSpecFile.js';
import { parseOurYaml } from '../../conformance/src/schema/parseOurYaml.js';

const specs = join(packageRoot(), 'specs');
const ours = readdirSync(specs).filter((f) => f.endsWith('.yaml'));

let roots: string[] = [];
afterEach(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
  roots = [];
});

/** A package root of its own with these documents in specs/. */
function rootWith(docs: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'built-docs-'));
  roots.push(root);
  mkdirSync(join(root, 'specs'));
  for (const [name, text] of Object.entries(docs)) writeFileSync(join(root, 'specs', name), text);
  return root;
}

describe('built documents', () => {
  it.each(ours)('%s: the built form is the YAML document', (name) => {
    const text = readFileSync(join(specs, name), 'utf8');
    const root = rootWith({ [name]: text });
    expect(writeBuiltDocuments(root)).toEqual([builtDocumentFile(join(root, 'specs', name), root)]);
    const built = readBuiltDocument(join(root, 'specs', name), text, root);
    expect(built).toBeDefined();
    expect(built).toEqual(parseOurYaml(text));
    // What a start reads (the build's form when this checkout was built, else the YAML): the same.
    expect(readDocument(join(specs, name))).toEqual(built);
  });

  it('is not used for another text than the one it was built from', () => {
    const root = rootWith({ 'a.openapi.yaml': 'openapi: 3.1.0\ninfo: { title: a }\n' });
    writeBuiltDocuments(root);
    const file = join(root, 'specs', 'a.openapi.yaml');
    expect(readBuiltDocument(file, 'openapi: 3.1.0\ninfo: { title: a }\n', root)).toEqual({ openapi: '3.1.0', info: { title: 'a' } });
    expect(readBuiltDocument(file, 'openapi: 3.1.0\ninfo: { title: b }\n', root)).toBeUndefined();
  });

  it('is not used when missing, unreadable or not an object', () => {
    const root = rootWith({ 'a.openapi.yaml': 'openapi: 3.1.0\n' });
    const file = join(root, 'specs', 'a.openapi.yaml');
    expect(readBuiltDocument(file, 'openapi: 3.1.0\n', root)).toBeUndefined();
    writeBuiltDocuments(root);
    writeFileSync(builtDocumentFile(file, root), '{"sha256": "');
    expect(readBuiltDocument(file, 'openapi: 3.1.0\n', root)).toBeUndefined();
    const list = rootWith({ 'l.openapi.yaml': '- 1\n' });
    writeBuiltDocuments(list);
    expect(readBuiltDocument(join(list, 'specs', 'l.openapi.yaml'), '- 1\n', list)).toBeUndefined();
  });

  it('is not written for a document JSON cannot carry exactly', () => {
    expect(builtDocumentText('openapi: 3.1.0\nx: .inf\n')).toBeUndefined();
    const root = rootWith({ 'inf.openapi.yaml': 'x: .inf\n', 'ok.openapi.yaml': 'x: 1\n' });
    expect(writeBuiltDocuments(root)).toEqual([builtDocumentFile(join(root, 'specs', 'ok.openapi.yaml'), root)]);
  });
});
