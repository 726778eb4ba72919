import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A user's install has our `dependencies` and their own peers, never our devDependencies, while
 * every test here runs with all of them installed (the packed test links this checkout's
 * node_modules). So the code the package ships (tsconfig.build.json's roots) may import at run
 * time only dependencies, peer dependencies and Node's own modules; type-only imports vanish.
 */
const ROOTS = ['index.ts', 'daml-engine', 'reference-server/src', 'conformance/src'];

/** The packages `source` loads at run time: static imports and re-exports (not `import type`), dynamic imports, requires. */
function runtimePackages(source: string): string[] {
  const found = new Set<string>();
  const specifiers = [
    ...source.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm),
    ...source.matchAll(/\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  for (const s of specifiers) {
    if (s.startsWith('.') || s.startsWith('/') || s.startsWith('node:')) continue;
    const name = s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!;
    if (!builtinModules.includes(name)) found.add(name);
  }
  return [...found];
}

function sources(path: string): string[] {
  if (!statSync(path).isDirectory()) return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  return readdirSync(path).flatMap((f) => sources(join(path, f)));
}

describe('the shipped code', () => {
  it('loads at run time only dependencies, peer dependencies and Node modules', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
    const allowed = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
    const files = ROOTS.flatMap(sources);
    expect(files.length).toBeGreaterThan(300);
    const outside = files.flatMap((f) => runtimePackages(readFileSync(f, 'utf8')).filter((p) => !allowed.has(p)).map((p) => `${f}: ${p}`));
    expect(outside).toEqual([]);
  });

  it('reads the import forms that load code, and skips those that do not', () => {
    const source = [
      "import { a } from 'koa';",
      "import type { B } from 'typescript';",
      "import Router, { type C } from '@koa/router/lib/x.js';",
      "export { d } from 'ajv';",
      "export type { E } from 'vitest';",
      "import 'msw/node';",
      "const f = await import('playwright-core');",
      "const g = require('fast-check');",
      "import { h } from './local.js';",
      "import { i } from 'node:fs';",
      "import { j } from 'fs';",
    ].join('\n');
    expect(runtimePackages(source).sort()).toEqual(['@koa/router', 'ajv', 'fast-check', 'koa', 'msw', 'playwright-core']);
  });
});
