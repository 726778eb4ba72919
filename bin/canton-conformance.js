#!/usr/bin/env node
// The published entry point: runs the compiled CLI from dist/ (the tarball carries it; in a clone, `npm install` builds it through the `prepare` script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../dist/conformance/src/cli/main.js', import.meta.url));
if (!existsSync(main)) {
  console.error('canton-conformance: dist/ is missing; run `npm run build` (npm install does it for you).');
  process.exit(2);
}
const { main: run } = await import(main);
process.exitCode = await run(process.argv.slice(2));
