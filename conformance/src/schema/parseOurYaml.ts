import { createRequire } from 'node:module';
import type * as JsYamlModule from 'js-yaml';

type JsYaml = typeof JsYamlModule;
let jsYaml: JsYaml | undefined;

/**
 * One of our own documents (specs/*.yaml) parsed as YAML: js-yaml, four to ten times faster than
 * `yaml` on the ledger's 330 KB (test/specs/ourDocumentsParse.test.ts proves both read ours alike).
 * Loaded on first use: a built package reads our documents from their built JSON (builtDocuments.ts).
 */
export function parseOurYaml(text: string): unknown {
  jsYaml ??= createRequire(import.meta.url)('js-yaml') as JsYaml;
  return jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA });
}
