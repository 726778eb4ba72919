import { createRequire } from 'node:module';
import type * as YamlModule from 'yaml';

type Yaml = typeof YamlModule;
let yaml: Yaml | undefined;

/**
 * The `yaml` package, loaded on first use (its CommonJS build, the one Node's `import` gets too): a
 * server reads only our own documents, through js-yaml, and starts faster without loading it.
 */
export function lazyYaml(): Yaml {
  return (yaml ??= createRequire(import.meta.url)('yaml') as Yaml);
}
