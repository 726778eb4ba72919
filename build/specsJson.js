// After `tsc`: our documents (specs/*.yaml) parsed once, as dist/specs/<file>.json, so that a
// server start reads them with JSON.parse instead of a YAML parser (conformance/src/schema/builtDocuments.ts).
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { writeBuiltDocuments } = await import(new URL('../dist/conformance/src/schema/builtDocuments.js', import.meta.url).href);
const written = writeBuiltDocuments(root);
console.log(`specs-json: ${written.length} documents as JSON in ${relative(process.cwd(), `${root}dist/specs`) || 'dist/specs'}`);
