// After `tsc`: the declarations of the msw entry again as .d.cts, for the entry's `require`
// condition. TypeScript reads a .d.ts of this ESM package as ESM, so in a CommonJS project
// (module node16/nodenext) its `import ... from 'msw'` would take msw's ESM types (.d.mts) while
// the project's own `require('msw/node')` takes the CommonJS ones (.d.ts): two copies of msw's
// classes that do not match. Declarations read as CommonJS resolve msw as the project does.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist', import.meta.url));
const out = join(dist, 'cjs-types');
const entry = join(dist, 'reference-server/src/msw/index.d.ts');
const relativeImport = /((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+)\.js(['"])/g;

const seen = new Set();
const pending = [entry];
while (pending.length > 0) {
  const file = pending.pop();
  if (seen.has(file)) continue;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(relativeImport)) pending.push(resolve(dirname(file), `${m[2]}.d.ts`));
  const target = join(out, relative(dist, file)).replace(/\.d\.ts$/, '.d.cts');
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text.replace(relativeImport, '$1$2.cjs$3'));
}
console.log(`cjs-types: ${seen.size} declaration files as .d.cts in ${relative(process.cwd(), out)}`);
