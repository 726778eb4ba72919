/**
 * One default run (`canton-conformance run` without --target, seed 7, quiet) in a process of its
 * own, with any further `run` flags given; prints `{"seconds":..,"code":..}`. judge-run.ts starts
 * it from two checkouts side by side, suite-history.ts with and without `--history none`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../conformance/src/cli/main.js';

const dir = mkdtempSync(join(tmpdir(), 'cc-bench-once-'));
const log = console.log;
console.log = () => undefined;
const t = performance.now();
const code = await main(['run', '--report-dir', dir, '--quiet', '--seed', '7', ...process.argv.slice(2)]);
console.log = log;
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ seconds: (performance.now() - t) / 1000, code }));
