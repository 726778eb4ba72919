/**
 * `canton-conformance test --dar splice-amulet-test-0.1.8.dar` as a user runs it from the shell
 * (issue 31 item 5: "the splice-amulet-test run under 1.5 s on the default ledger"): each round
 * runs every variant once, one after another, so all see the same machine load. Per variant the
 * CLI's own "50 scripts in X s" and the command's wall time, median and range over the rounds.
 *
 *   npm run build && npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/daml-test-cli.js [rounds] [--root=DIR]...
 *
 * Variants: this checkout (and each `--root=DIR`, another checkout built beside the same
 * ../shared) with the package-check cache off (`CANTON_CONFORMANCE_CACHE=off`, every run checks
 * the DAR's 37 packages) and with a cache a first run filled (a folder of the bench's own, removed
 * after; `--cache-only` runs these alone). "Scripts in" is read from the run's junit.xml (to the
 * millisecond; the CLI prints a tenth of a second). Prints one JSON object.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

// bench/out/build/bench/ -> the checkout
const root = fileURLToPath(new URL('../../../..', import.meta.url));
const DAR = join(root, '..', 'shared', 'upstream', 'daml', 'dars', 'history', 'splice-amulet-test-0.1.8.dar');
if (!existsSync(DAR)) throw new Error(`needs ${DAR}`);
const rounds = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 8);
const others = process.argv.filter((a) => a.startsWith('--root=')).map((a) => a.slice('--root='.length));
const scratch = mkdtempSync(join(tmpdir(), 'daml-test-cli-'));
const cache = join(scratch, 'cache');

interface Variant { readonly label: string; readonly checkout: string; readonly cache: string }
const cacheOnly = process.argv.includes('--cache-only');
const variants: Variant[] = [...others.map((checkout) => ({ name: checkout, checkout })), { name: 'this checkout', checkout: root }].flatMap(({ name, checkout }) => [
  ...(cacheOnly ? [] : [{ label: `${name}, cache off`, checkout, cache: 'off' }]),
  { label: `${name}, checks remembered`, checkout, cache },
]);

/** One run: the CLI's "scripts in" seconds and the wall milliseconds from spawn to exit. */
function once(v: Variant): { scriptsIn: number; wallMs: number } {
  const started = performance.now();
  const r = spawnSync(process.execPath, [join(v.checkout, 'bin', 'canton-conformance.js'), 'test', '--dar', DAR, '--report-dir', join(scratch, 'reports')], {
    env: { ...process.env, CANTON_CONFORMANCE_CACHE: v.cache },
    encoding: 'utf8',
  });
  const wallMs = performance.now() - started;
  const m = /(\d+) passed, 0 failed, \d+ scripts in ([\d.]+) s/.exec(r.stdout);
  if (r.status !== 0 || m === null) throw new Error(`${v.label}: exit ${r.status}\n${r.stdout.slice(-500)}\n${r.stderr.slice(-500)}`);
  const junit = /<testsuites [^>]*time="([\d.]+)"/.exec(readFileSync(join(scratch, 'reports', 'junit.xml'), 'utf8'));
  return { scriptsIn: junit ? Number(junit[1]) : Number(m[2]), wallMs };
}

const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor((s.length - 1) / 2)], min: s[0], max: s[s.length - 1] };
};

try {
  for (const v of variants) if (v.cache === cache) once(v); // fills the cache each checkout's variant reads
  const results = variants.map(() => ({ scriptsIn: [] as number[], wallMs: [] as number[] }));
  const loadAtStart = loadavg().map((l) => +l.toFixed(1));
  for (let i = 0; i < rounds; i++) {
    for (const [k, v] of variants.entries()) {
      const r = once(v);
      results[k]!.scriptsIn.push(r.scriptsIn);
      results[k]!.wallMs.push(Math.round(r.wallMs));
    }
  }
  console.log(JSON.stringify({
    rounds, loadAtStart, loadAtEnd: loadavg().map((l) => +l.toFixed(1)),
    variants: variants.map((v, k) => ({ label: v.label, scriptsInS: summary(results[k]!.scriptsIn), wallMs: summary(results[k]!.wallMs) })),
  }, null, 2));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
