/**
 * What the upload check answers, to compare two builds: every DAR under ../shared/upstream/daml/dars
 * read, its dependencies validated, then its main package validated as read and with bytes of its
 * payload overwritten (PER_DAR copies, 1-3 bytes each, a fixed seed), each through
 * `validateDarPackages` (decode and check, Canton's error code and context). Prints the counts by
 * answer and a digest of every answer; the same digest on two builds means the same answers.
 *
 *   npm run build && npx tsc -p bench/tsconfig.bench.json && PER_DAR=60 node bench/out/build/bench/daml-check-verdicts.js [--root=DIR] [--out=FILE]
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Package } from '../daml-engine/ast/Package.js';
import type { DarPackage, readDar as ReadDar } from '../reference-server/src/ledger/packages/readDar.js';
import type { validateDarPackages as Validate } from '../reference-server/src/ledger/packages/validateDarPackages.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const built = process.argv.find((a) => a.startsWith('--root='))?.slice('--root='.length) ?? root;
const out = process.argv.find((a) => a.startsWith('--out='))?.slice('--out='.length);
const DARS = join(root, '..', 'shared', 'upstream', 'daml', 'dars');
if (!existsSync(DARS)) throw new Error(`needs ${DARS}`);
const PER_DAR = Number(process.env['PER_DAR'] ?? 20);

const packages = join(built, 'dist/reference-server/src/ledger/packages');
const { readDar } = (await import(join(packages, 'readDar.js'))) as { readDar: typeof ReadDar };
const { validateDarPackages } = (await import(join(packages, 'validateDarPackages.js'))) as { validateDarPackages: typeof Validate };

const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => {
  const p = join(dir, f);
  return statSync(p).isDirectory() ? files(p) : p.endsWith('.dar') ? [p] : [];
}).sort();
let seed = 12345;
const random = (n: number): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };

const lines: string[] = [];
const counts: Record<string, number> = {};
const answer = (r: ReturnType<typeof Validate>): string => (r.ok ? 'ok' : JSON.stringify(r.error));
for (const file of files(DARS)) {
  const name = file.slice(DARS.length + 1);
  const dar = readDar(readFileSync(file));
  if (!dar.ok) { lines.push(`${name} read ${JSON.stringify(dar.error)}`); continue; }
  const [main, ...deps] = dar.value.packages as [DarPackage, ...DarPackage[]];
  const depsChecked = validateDarPackages(deps, () => undefined);
  if (!depsChecked.ok) { lines.push(`${name} dependencies ${answer(depsChecked)}`); continue; }
  const known = new Map<string, Package>(depsChecked.value.map((p) => [p.id, p]));
  lines.push(`${name} as read ${answer(validateDarPackages([main], (id) => known.get(id)))}`);
  for (let i = 0; i < PER_DAR; i++) {
    const payload = Uint8Array.from(main.payload);
    for (let k = 1 + random(3); k > 0; k--) payload[random(payload.length)] = random(256);
    const r = validateDarPackages([{ ...main, payload }], (id) => known.get(id));
    const code = r.ok ? 'ok' : r.error.code;
    counts[code] = (counts[code] ?? 0) + 1;
    lines.push(`${name} #${i} ${answer(r)}`);
  }
}
if (out !== undefined) writeFileSync(out, `${lines.join('\n')}\n`);
console.log(JSON.stringify({ root: built, answers: lines.length, counts, digest: createHash('sha256').update(lines.join('\n')).digest('hex') }));
