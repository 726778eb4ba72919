/**
 * Our own documents (specs/*.yaml) load through js-yaml for speed (loadSpec.readDocument); a user's
 * through `yaml`. Both must read ours alike, or the server would validate against another document
 * than the one we ship.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

import { readDocument } from '../../conformance/src/schema/loadSpec.js';
import { packageRoot } from '../../conformance/src/schema/ourSpecFile.js';

const dir = join(packageRoot(), 'specs');
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));

describe('our documents read alike through js-yaml and yaml', () => {
  it('ships documents to check', () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
  });

  it.each(files)('%s', (file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const fast = loadYaml(text, { schema: CORE_SCHEMA });
    expect(fast).toEqual(parseYaml(text, { maxAliasCount: -1 }));
    expect(readDocument(join(dir, file))).toEqual(fast);
  });
});
