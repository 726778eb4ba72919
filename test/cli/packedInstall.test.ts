import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';

/**
 * The README's install path and CI recipe, from the packed tarball in a project that is not the
 * checkout: `npm pack`, the package laid out as `npm install <tgz>` lays it out (its dependencies
 * linked from this checkout, so the test needs no registry; `bench/packed-install.sh` does the
 * real install), then the real `npx` and `npm start`. Stopping npm must leave no process and no
 * listening port behind.
 */
const exec = promisify(execFile);
const repo = resolve('.');
const version = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version;
let project: string;

beforeAll(async () => {
  expect(existsSync(join(repo, 'dist/conformance/src/cli/main.js')), 'dist/ is missing: run `npm run build`').toBe(true);
  const work = mkdtempSync(join(tmpdir(), 'cc-packed-'));
  // dist/ is built already; --ignore-scripts skips `prepare` (a second build).
  await exec('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: repo });
  const tgz = join(work, `canton-conformance-${version}.tgz`);
  project = join(work, 'your-project');
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, '.bin'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'your-project', private: true, dependencies: { 'canton-conformance': `file:${tgz}` } }));
  await exec('tar', ['xzf', tgz, '-C', modules]);
  renameSync(join(modules, 'package'), join(modules, 'canton-conformance'));
  symlinkSync(join(repo, 'node_modules'), join(modules, 'canton-conformance', 'node_modules'));
  symlinkSync('../canton-conformance/bin/canton-conformance.js', join(modules, '.bin', 'canton-conformance'));
}, 120_000);

describe('installed from the packed tarball', () => {
  it('the tarball carries what the commands need, and npx runs them from the project', async () => {
    const pkg = join(project, 'node_modules', 'canton-conformance');
    for (const f of ['bin/canton-conformance.js', 'dist/conformance/src/cli/main.js', 'specs/ledger.openapi.yaml', 'fixtures/default-world.json', 'README.md', 'LICENSE', 'CONTRIBUTING.md']) {
      expect(existsSync(join(pkg, f)), f).toBe(true);
    }
    expect(existsSync(join(pkg, 'test'))).toBe(false);
    const v = await exec('npx', ['canton-conformance', '--version'], { cwd: project });
    expect(v.stdout.trim()).toBe(version);
    const list = await exec('npx', ['canton-conformance', 'list', '--coverage', '--json'], { cwd: project, maxBuffer: 64 * 1024 * 1024 });
    expect((JSON.parse(list.stdout) as { uncovered: string[] }).uncovered).toEqual([]);
  }, 60_000);

  it("the README's in-code block runs from the project: the server and the suite from the package's main entry, and the ledger core", async () => {
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    const block = /<!-- in-code[^>]*-->\n```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block, 'the README has an in-code block').toBeDefined();
    writeFileSync(join(project, 'in-code.mjs'), block!);
    const { stdout } = await exec(process.execPath, ['in-code.mjs'], { cwd: project });
    const lines = stdout.trim().split('\n');
    expect(lines.at(-2)).toBe('certified');
    expect(lines.at(-1)).toMatch(/^alice::1220[0-9a-f]{64}$/);
  }, 60_000);

  it('SIGTERM to `npx canton-conformance serve` stops the server under it: no process, no port left', async () => {
    const npx = spawn('npx', ['canton-conformance', 'serve', '--port', '0'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    await expectStopsCleanly(npx);
  }, 60_000);

  it('SIGTERM to `npx canton-conformance mock` stops Prism under it: no process, no port left', async () => {
    const npx = spawn('npx', ['canton-conformance', 'mock', '--group', 'scan', '--port', '0'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    await expectStopsCleanly(npx, /^Prism mock of the scan spec .* on (http:\/\/[\d.]+:(\d+))$/m, 'prism');
  }, 120_000);

  it('SIGTERM to `npm start` stops the server: no process, no port left', async () => {
    const npm = spawn('npm', ['start'], { cwd: repo, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    await expectStopsCleanly(npm);
  }, 60_000);

  it("the README's CI recipe starts the server, certifies it and leaves nothing running", async () => {
    const port = await freePort();
    const summary = join(project, 'step-summary.md');
    // In POSIX sh (dash on Debian) with `set -eu`, as the README promises: the exit trap's wait
    // on the stopped server (143) must not become the job's status.
    const { code, output, tree, lines } = await runRecipe('sh', port, { GITHUB_STEP_SUMMARY: summary }, 'set -eu\n');
    expect(code, output).toBe(0);
    expect(output).toContain(`canton-conformance reference server listening on http://127.0.0.1:${port}`);
    expect(readFileSync(summary, 'utf8')).toMatch(/^## canton-conformance: ✅ PASS/);
    expect(readFileSync(join(project, 'reports', 'summary.md'), 'utf8')).toMatch(/✅ PASS/);
    expect([...lines.values()].some((l) => l.includes(' serve '))).toBe(true);
    await expectGone([...tree], port);
  }, 120_000);

  it("the README's CI recipe fails, saying why, when its server cannot start because another server holds the port", async () => {
    // Another reference server on the port: it answers /livez and would pass the suite.
    const { createReferenceServer } = await import('../../reference-server/src/server.js');
    const other = await createReferenceServer({ port: 0, log: silentLogger });
    try {
      const port = Number(new URL(other.url).port);
      // bash with `set -eu`, as CI runners use it.
      const { code, output, lines } = await runRecipe('bash', port, { GITHUB_STEP_SUMMARY: join(project, 'step-summary-taken.md') }, 'set -eu\n');
      expect(code, output).toBe(1);
      expect(output).toContain(`127.0.0.1:${port} is already in use`);
      expect(output).toContain('canton-conformance serve exited (2) before it listened');
      expect(output).not.toContain('canton-conformance run');
      expect([...lines.values()].some((l) => l.includes(' run '))).toBe(false);
    } finally {
      await other.close();
    }
  }, 120_000);
});

describe('the msw entry from a CommonJS project', () => {
  // A `"type": "commonjs"` project beside the first, with the package and msw (its peer) installed.
  let cjs: string;
  beforeAll(() => {
    cjs = join(project, '..', 'your-cjs-project');
    const modules = join(cjs, 'node_modules');
    mkdirSync(join(modules, '@types'), { recursive: true });
    writeFileSync(join(cjs, 'package.json'), JSON.stringify({ name: 'your-cjs-project', private: true, type: 'commonjs' }));
    symlinkSync(join(project, 'node_modules', 'canton-conformance'), join(modules, 'canton-conformance'));
    symlinkSync(join(repo, 'node_modules', 'msw'), join(modules, 'msw'));
    symlinkSync(join(repo, 'node_modules', '@types', 'node'), join(modules, '@types', 'node'));
  });

  it('the package declares msw as an optional peer, so the project\'s own copy (and its types) is the one used', () => {
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules', 'canton-conformance', 'package.json'), 'utf8')) as Record<string, Record<string, unknown> | undefined>;
    expect(pkg['dependencies']?.['msw']).toBeUndefined();
    expect(pkg['peerDependencies']?.['msw']).toMatch(/^\^2\./);
    expect(pkg['peerDependenciesMeta']?.['msw']).toEqual({ optional: true });
  });

  it("require('canton-conformance/msw') gives handlers that msw/node serves", async () => {
    writeFileSync(
      join(cjs, 'mock.test.js'),
      [
        "const { setupServer } = require('msw/node');",
        "const { createHandlers } = require('canton-conformance/msw');",
        "const mock = createHandlers({ ledgerUrl: 'http://ledger.test' });",
        'const server = setupServer(...mock.handlers);',
        "server.listen({ onUnhandledRequest: 'error' });",
        "fetch('http://ledger.test/v2/parties', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ partyIdHint: 'cjs', identityProviderId: '' }) })",
        '  .then((r) => r.json())',
        '  .then((b) => console.log(b.partyDetails.party))',
        '  .finally(() => server.close());',
      ].join('\n'),
    );
    const { stdout, stderr } = await exec(process.execPath, ['mock.test.js'], { cwd: cjs }).catch((e: { stdout: string; stderr: string }) => e);
    expect(stdout.trim(), stderr).toMatch(/^cjs::1220[0-9a-f]{64}$/);
    // Node 20.19 to 20.x and 22.12 may warn that require() of ESM is experimental; nothing else.
    expect(stderr.replace(/^.*ExperimentalWarning.*\n(\(Use `node --trace-warnings.*\n)?/gm, '')).toBe('');
  }, 60_000);

  // module commonjs resolves as node10 (no "exports"); node16/nodenext read the require condition,
  // where msw's CommonJS types must be the ones our declarations name too.
  it.each([
    ['commonjs', false],
    ['nodenext', true],
  ] as const)("a TypeScript project with module %s type-checks the README's setupServer(...mock.handlers)", async (module, skipLibCheck) => {
    writeFileSync(join(cjs, `tsconfig.${module}.json`), JSON.stringify({ compilerOptions: { module, target: 'es2022', strict: true, noEmit: true, skipLibCheck, types: ['node'] }, files: ['mock.test.ts'] }));
    writeFileSync(
      join(cjs, 'mock.test.ts'),
      [
        "import { setupServer } from 'msw/node';",
        "import { createHandlers, type MockLedgerApi } from 'canton-conformance/msw';",
        "const mock: MockLedgerApi = createHandlers({ ledgerUrl: 'http://ledger.test' });",
        'export const server = setupServer(...mock.handlers);',
      ].join('\n'),
    );
    const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = await exec(process.execPath, [tsc, '-p', `tsconfig.${module}.json`], { cwd: cjs }).then(() => ({ stdout: '' }), (e: { stdout: string }) => e);
    expect(r.stdout).toBe('');
  }, 120_000);
});

/**
 * The README's ci-recipe block, on `port`, with the suite narrowed to a few quick checks and the
 * checks of a newer Canton line, run by
 * `shell` in the project; every process it started while it ran is remembered, to prove they are
 * gone afterwards.
 */
async function runRecipe(shell: string, port: number, env: Record<string, string>, prelude = ''): Promise<{ code: number | null; output: string; tree: Set<number>; lines: ReadonlyMap<number, string> }> {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const recipe = /<!-- ci-recipe[^>]*-->\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(recipe, 'the README has a ci-recipe block').toBeDefined();
  expect(recipe).toContain('--report-dir reports');
  // Canton 3.6's rules are in the selection: the reference is a 3.5 participant, so they do not
  // apply there, and the recipe's gate (--min-ran 90 --fail-on-skip) must not fail it for them.
  const script = prelude + recipe!.replaceAll('7575', String(port)).replace('--report-dir reports', '--report-dir reports --only ledger.version.*,ledger.ledger-end.*,ledger.preview36.*');
  const run = spawn(shell, ['-c', script], { cwd: project, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  run.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  run.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const tree = new Set<number>();
  // Command lines as seen while the recipe ran: its processes are gone (as they must be) by the end.
  const lines = new Map<number, string>();
  const code = await new Promise<number | null>((done) => {
    const watch = setInterval(() => descendants(run.pid!).forEach((p) => {
      tree.add(p);
      const line = commandLine(p);
      if (line !== undefined && !lines.has(p)) lines.set(p, line);
    }), 100);
    run.on('exit', (c) => {
      clearInterval(watch);
      done(c);
    });
  });
  return { code, output, tree, lines };
}

/** Waits for the line naming the URL, sends SIGTERM to npm, then expects npm, everything under it and the port to be gone. */
async function expectStopsCleanly(npm: ChildProcess, listening = /listening on (http:\/\/[\d.]+:(\d+))/, command = 'serve'): Promise<void> {
  let out = '';
  const url = await new Promise<string>((done, fail) => {
    npm.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = listening.exec(out);
      if (m) done(m[1]!);
    });
    npm.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    npm.on('exit', (code) => fail(new Error(`exited ${code} before listening: ${out}`)));
  });
  const port = Number(new URL(url).port);
  const tree = descendants(npm.pid!);
  expect(tree.some((p) => commandLine(p)?.includes(command))).toBe(true);
  const exited = new Promise<void>((done) => npm.on('exit', () => done()));
  npm.kill('SIGTERM');
  await exited;
  await expectGone(tree, port);
}

/** Every process below `root`, from /proc (Linux). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const out: number[] = [];
  const walk = (p: number) => (children.get(p) ?? []).forEach((c) => (out.push(c), walk(c)));
  walk(root);
  return out;
}

function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    // A zombie has exited; only its parent's reaping is pending.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function refused(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.on('connect', () => (socket.destroy(), done(false)));
    socket.on('error', () => done(true));
  });
}

/** The stop is asynchronous (the server notices npm's shell is gone): wait for it, up to a generous bound. */
async function expectGone(pids: readonly number[], port: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const left = pids.filter(alive);
    if (left.length === 0 && (await refused(port))) return;
    if (Date.now() > deadline) throw new Error(`still running: ${left.map((p) => `${p} ${commandLine(p)}`).join('; ')}; port ${port} ${(await refused(port)) ? 'closed' : 'still open'}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => done(port));
    });
  });
}
