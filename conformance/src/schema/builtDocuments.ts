/**
 * Our own documents (specs/*.yaml) parsed once at build time (`npm run build` writes
 * dist/specs/<file>.json): every server start reads the ledger's, the registry's and Scan's
 * documents, and JSON.parse takes a few milliseconds where js-yaml takes ~170 ms of CPU (and its
 * optimizing compiles as much again on V8's helper threads). Each built file records the SHA-256
 * of the YAML text it was parsed from: a document edited after the build is parsed from its YAML
 * again, so the built form can be stale only in time, never in content.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { packageRoot } from './ourSpecFile.js';
import { parseOurYaml } from './parseOurYaml.js';

type Json = Record<string, unknown>;

/** What a built file holds: the document and the hash of the YAML text it came from. */
interface BuiltDocument {
  readonly sha256: string;
  readonly document: unknown;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Where the build writes the parsed form of our document `file` (specs/x.yaml -> dist/specs/x.yaml.json). */
export function builtDocumentFile(file: string, root: string = packageRoot()): string {
  return join(root, 'dist', 'specs', `${basename(file)}.json`);
}

/**
 * The built file's text for a document, or undefined when JSON cannot carry the document exactly
 * (a YAML-only value such as `.inf`): such a document is always parsed from its YAML.
 */
export function builtDocumentText(yamlText: string): string | undefined {
  const document = parseOurYaml(yamlText);
  const text = JSON.stringify({ sha256: sha256(yamlText), document } satisfies BuiltDocument);
  return isDeepStrictEqual((JSON.parse(text) as BuiltDocument).document, document) ? text : undefined;
}

/** The document built from exactly `yamlText`, or undefined (no built file, another text's, unreadable). */
export function readBuiltDocument(file: string, yamlText: string, root: string = packageRoot()): Json | undefined {
  const built = builtDocumentFile(file, root);
  if (!existsSync(built)) return undefined;
  try {
    const b = JSON.parse(readFileSync(built, 'utf8')) as Partial<BuiltDocument>;
    if (b.sha256 !== sha256(yamlText)) return undefined;
    const d = b.document;
    return typeof d === 'object' && d !== null && !Array.isArray(d) ? (d as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** The build step: writes the built form of every specs/*.yaml under `root`; the files written. */
export function writeBuiltDocuments(root: string = packageRoot()): string[] {
  const specs = join(root, 'specs');
  const written: string[] = [];
  for (const name of readdirSync(specs).filter((f) => f.endsWith('.yaml')).sort()) {
    const file = join(specs, name);
    const text = builtDocumentText(readFileSync(file, 'utf8'));
    if (text === undefined) continue;
    const out = builtDocumentFile(file, root);
    mkdirSync(join(root, 'dist', 'specs'), { recursive: true });
    writeFileSync(out, text);
    written.push(out);
  }
  return written;
}
