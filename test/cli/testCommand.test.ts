/** `canton-conformance test --dar`: Daml Script tests of a DAR, reports and exit codes. */
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { main } from '../../conformance/src/cli/main.js';
import { declareEntrySizes } from '../../conformance/src/generators/dar.js';
import type { CoverageReport } from '../../daml-engine/index.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import type { ScriptShape } from '../daml/helpers/scriptLibraryPackages.js';
import { builtScriptDar } from '../daml/helpers/scriptLibraryPackages.js';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';
import { startSecuredWorld } from '../auth/support/securedServer.js';
import { userToken } from '../auth/support/tokens.js';

const DAR = join(DARS_DIR, 'history', 'splice-amulet-test-0.1.8.dar');
const root = mkdtempSync(join(tmpdir(), 'cc-test-command-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** A port nothing listens on (fetch refuses the spec's 'bad ports', such as 1, before connecting). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** Runs the CLI in-process, capturing what it prints. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => { out.push(a.join(' ')); });
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => { err.push(a.join(' ')); });
  const code = await main(['test', ...args]);
  vi.restoreAllMocks();
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('canton-conformance test', () => {
  it('--help describes the command and its exit codes', async () => {
    const r = await cli('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: canton-conformance test --dar FILE');
    expect(r.stdout).toContain('--show-coverage');
    expect(r.stdout).toContain('Exit codes: 0 every script passed, 1 a script failed');
  });

  it('without --dar, or with an unknown flag, is a usage error (exit 2)', async () => {
    expect(await cli()).toMatchObject({ code: 2, stderr: expect.stringContaining('--dar FILE is required') });
    expect(await cli('--dra', 'x')).toMatchObject({ code: 2, stderr: expect.stringContaining('did you mean --dar?') });
    expect(await cli('--dar', 'x', '--max-steps', 'lots')).toMatchObject({ code: 2, stderr: expect.stringContaining('--max-steps takes an integer') });
    expect(await cli('--dar', 'x', '--ledger', 'sandbox')).toMatchObject({ code: 2, stderr: expect.stringContaining("--ledger takes core or memory (got 'sandbox')") });
    expect(await cli('--dar', 'x', '--ledger', 'memory', '--ledger-url', 'http://localhost:7575')).toMatchObject({ code: 2, stderr: expect.stringContaining('--ledger-url and --ledger exclude each other') });
    expect(await cli('--dar', 'x', '--ledger-url', 'localhost:7575')).toMatchObject({ code: 2, stderr: expect.stringContaining("--ledger-url takes an http(s) URL (got 'localhost:7575') (did you mean 'http://localhost:7575'?)") });
    expect(await cli('--dar', 'x', '--token', 't')).toMatchObject({ code: 2, stderr: expect.stringContaining('--token and --token-file go with --ledger-url') });
    expect(await cli('--dar', 'x', '--ledger-url', 'http://h', '--token', 't', '--token-file', 'f')).toMatchObject({ code: 2, stderr: expect.stringContaining('--token and --token-file exclude each other') });
  });

  it('an unreadable or corrupt DAR is a usage error naming the file (exit 2)', async () => {
    const missing = join(root, 'missing.dar');
    expect(await cli('--dar', missing)).toMatchObject({ code: 2, stderr: expect.stringContaining(`cannot read the DAR ${missing}`) });
    const corrupt = join(root, 'corrupt.dar');
    writeFileSync(corrupt, 'PK\u0003\u0004 this is not a zip');
    expect(await cli('--dar', corrupt)).toMatchObject({ code: 2, stderr: expect.stringContaining(`${corrupt}: not a readable DAR: not a readable zip`) });
  });

  it('a zip bomb is refused before it is inflated whole (exit 2), as an upload refuses it', async () => {
    // 32 MiB of zeros in a manifest whose header declares 1 KiB.
    const bomb = join(root, 'bomb.dar');
    writeFileSync(bomb, declareEntrySizes(zipSync({ 'META-INF/MANIFEST.MF': new Uint8Array(32 * 1024 * 1024) }, { level: 1 }), () => 1024));
    expect(await cli('--dar', bomb)).toMatchObject({ code: 2, stderr: expect.stringContaining(`${bomb}: not a readable DAR: META-INF/MANIFEST.MF inflates past its declared 1024 bytes`) });
  });

  it.runIf(HAS_DARS)('an unknown --script is a usage error with the nearest script name (exit 2) (needs ../shared/upstream/daml/dars)', async () => {
    const r = await cli('--dar', DAR, '--script', 'Splice.Scripts.TestAmuletBurn:testAmuletBrn', '--report-dir', join(root, 'unknown'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no script 'Splice.Scripts.TestAmuletBurn:testAmuletBrn'");
    expect(r.stderr).toContain('did you mean Splice.Scripts.TestAmuletBurn:testAmuletBurn?');
  });

  it.runIf(HAS_DARS)('a bare name that is one script\'s suggests its Module:name; one of several lists them (exit 2)', async () => {
    const unique = await cli('--dar', DAR, '--script', 'testAmuletBurn');
    expect(unique).toMatchObject({ code: 2, stderr: expect.stringContaining("no script 'testAmuletBurn' (did you mean Splice.Scripts.TestAmuletBurn:testAmuletBurn?)") });
    const several = await cli('--dar', DAR, '--script', 'test');
    expect(several.code).toBe(2);
    expect(several.stderr).toContain('(did you mean one of Splice.Scripts.TestAmuletRulesDisclosure:test, Splice.Scripts.TestComputeFees:test, '
      + 'Splice.Scripts.TestLockAndAmuletExpiry:test, Splice.Scripts.TestSteppedRate:test?)');
  });

  it.runIf(HAS_DARS)('--list prints the selected scripts and runs nothing: --script Module selects a module, --test-pattern filters by regex', async () => {
    const all = await cli('--dar', DAR, '--list');
    expect(all.code).toBe(0);
    expect(all.stdout.split('\n')).toHaveLength(50);
    expect(all.stdout.split('\n')[0]).toBe('Splice.Scripts.TestAmuletBurn:testAmuletBurn');
    expect(all.stdout).not.toContain('PASS');
    const module = await cli('--dar', DAR, '--list', '--script', 'Splice.Scripts.UnitTests.Fees');
    expect(module).toMatchObject({ code: 0, stdout: 'Splice.Scripts.UnitTests.Fees:test_chargeRatePerDay\nSplice.Scripts.UnitTests.Fees:test_toRatePerDay' });
    const pattern = await cli('--dar', DAR, '--list', '--test-pattern', 'Burn$|^Splice\\.Scripts\\.UnitTests\\.Fees:');
    expect(pattern.stdout.split('\n')).toEqual([
      'Splice.Scripts.TestAmuletBurn:testAmuletBurn', 'Splice.Scripts.UnitTests.Fees:test_chargeRatePerDay', 'Splice.Scripts.UnitTests.Fees:test_toRatePerDay',
    ]);
    // Both: the module's scripts the pattern matches.
    const both = await cli('--dar', DAR, '--list', '--script', 'Splice.Scripts.UnitTests.Fees', '--test-pattern', 'charge');
    expect(both).toMatchObject({ code: 0, stdout: 'Splice.Scripts.UnitTests.Fees:test_chargeRatePerDay' });
  });

  it.runIf(HAS_DARS)('nothing selected, or a DAR with no scripts, is exit 2, not "0 scripts"', async () => {
    expect(await cli('--dar', DAR, '--test-pattern', 'noSuchScript')).toMatchObject({ code: 2, stderr: expect.stringContaining('matches --test-pattern noSuchScript') });
    expect(await cli('--dar', DAR, '--test-pattern', '(')).toMatchObject({ code: 2, stderr: expect.stringContaining('--test-pattern takes a regular expression') });
    const noScripts = join(DARS_DIR, 'splice-util-0.1.4.dar');
    expect(await cli('--dar', noScripts)).toMatchObject({ code: 2, stderr: expect.stringContaining(`${noScripts} holds no scripts`) });
  });

  it.runIf(HAS_DARS)('reports go to reports/daml-test by default, not beside run\'s reports', async () => {
    const cwd = process.cwd();
    const dir = join(root, 'default-dir');
    mkdirSync(dir);
    process.chdir(dir);
    try {
      const r = await cli('--dar', DAR, '--script', 'Splice.Scripts.UnitTests.Fees:test_toRatePerDay', '--ledger', 'memory');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`reports in ${join('reports', 'daml-test')}`);
    } finally {
      process.chdir(cwd);
    }
    expect(readdirSync(join(dir, 'reports'))).toEqual(['daml-test']);
    expect(readdirSync(join(dir, 'reports', 'daml-test')).sort()).toEqual(['junit.xml', 'summary.md']);
  });

  it.runIf(HAS_DARS)('--show-coverage: templates created, choices exercised, interfaces used, in stdout, summary.md and coverage.json', async () => {
    const dir = join(root, 'coverage');
    const r = await cli('--dar', DAR, '--script', 'Splice.Scripts.TestAmuletBurn:testAmuletBurn', '--show-coverage', '--ledger', 'memory', '--report-dir', dir);
    expect(r.code).toBe(0);
    const json = JSON.parse(readFileSync(join(dir, 'coverage.json'), 'utf8')) as CoverageReport & { dar: string };
    expect(json.dar).toBe('splice-amulet-test-0.1.8');
    // The test package defines 3 templates of its own; the script creates none of them.
    expect(json.main.templatesCreated).toEqual({ defined: 3, used: 0, unused: ['Splice.Scripts.TestAmuletRulesTransferLimits:CheckError', 'Splice.Scripts.TestComputeFees:Test', 'Splice.Scripts.TestDesignExample:Escrow'] });
    const deps = json.dependencies;
    expect(deps.templatesCreated.used).toBeGreaterThan(3);
    expect(deps.templatesCreated.unused).not.toContain('Splice.AmuletRules:AmuletRules');
    expect(deps.templatesCreated.unused).not.toContain('Splice.Amulet:Amulet');
    expect(deps.templatesCreated.defined).toBe(deps.templatesCreated.used + deps.templatesCreated.unused.length);
    expect(deps.templateChoicesExercised.unused).not.toContain('Splice.AmuletRules:AmuletRules:AmuletRules_Transfer');
    expect(deps.templateChoicesExercised.unused).toContain('Splice.ValidatorLicense:ValidatorLicense:ValidatorLicense_Withdraw');
    expect(r.stdout).toMatch(/^Coverage:\n- this package\n {4}Templates created: 0\/3 \(0\.0%\)\n/m);
    expect(r.stdout).toMatch(new RegExp(`^ {4}Templates created: ${deps.templatesCreated.used}/${deps.templatesCreated.defined} `, 'm'));
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain(`| dependencies | Templates created | ${deps.templatesCreated.used}/${deps.templatesCreated.defined} (`);
    // Without the flag, no coverage.
    const plain = await cli('--dar', DAR, '--script', 'Splice.Scripts.UnitTests.Fees:test_toRatePerDay', '--ledger', 'memory', '--report-dir', join(root, 'plain'));
    expect(plain.stdout).not.toContain('Coverage:');
    expect(readdirSync(join(root, 'plain')).sort()).toEqual(['junit.xml', 'summary.md']);
    // Nor a coverage.json of an earlier run left beside this run's junit.xml and summary.md.
    const again = await cli('--dar', DAR, '--script', 'Splice.Scripts.UnitTests.Fees:test_toRatePerDay', '--ledger', 'memory', '--report-dir', dir);
    expect(again.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['junit.xml', 'summary.md']);
  });

  it.runIf(HAS_DARS)('runs the named scripts: one line each, junit.xml with debug output in system-out, summary.md (exit 0) (needs ../shared/upstream/daml/dars)', async () => {
    const dir = join(root, 'pass');
    const r = await cli('--dar', DAR, '--script', 'Splice.Scripts.TestAmuletBurn:testAmuletBurn', '--script', 'Splice.Scripts.UnitTests.Fees:test_toRatePerDay', '--report-dir', dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PASS {2}Splice\.Scripts\.TestAmuletBurn:testAmuletBurn {2}\d+ ms$/m);
    expect(r.stdout).toMatch(/^PASS {2}Splice\.Scripts\.UnitTests\.Fees:test_toRatePerDay {2}\d+ ms$/m);
    expect(r.stdout).toContain('2 passed, 0 failed, 2 scripts');
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toContain('<testsuites name="daml-script splice-amulet-test-0.1.8" tests="2" failures="0"');
    expect(junit).toMatch(/<testcase classname="Splice\.Scripts\.TestAmuletBurn" name="testAmuletBurn" time="[\d.]+">\n {6}<system-out>TransferInputsSummary \{/);
    expect(junit).toMatch(/<testcase classname="Splice\.Scripts\.UnitTests\.Fees" name="test_toRatePerDay" time="[\d.]+"\/>/);
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary).toContain('# Daml Script tests: splice-amulet-test-0.1.8');
    expect(summary).toMatch(/\| Splice\.Scripts\.TestAmuletBurn:testAmuletBurn \| pass \| \d+ \| \d+ \| \d+ \| \d+ \|/);
  });

  it.runIf(HAS_DARS)('--ledger memory runs the scripts on the in-memory ledger, --ledger core (the default) on the participant (needs ../shared/upstream/daml/dars)', async () => {
    const script = ['--script', 'Splice.Scripts.Util:setupApp'];
    const memory = await cli('--dar', DAR, ...script, '--ledger', 'memory', '--report-dir', join(root, 'memory'));
    const core = await cli('--dar', DAR, ...script, '--report-dir', join(root, 'core'));
    expect(memory).toMatchObject({ code: 0, stdout: expect.stringMatching(/^PASS {2}Splice\.Scripts\.Util:setupApp {2}\d+ ms$/m) });
    expect(memory.stdout).toMatch(/^1 passed, 0 failed, 1 script in [\d.]+ s on the in-memory ledger; reports in /m);
    expect(core).toMatchObject({ code: 0, stdout: expect.stringMatching(/^PASS {2}Splice\.Scripts\.Util:setupApp {2}\d+ ms$/m) });
    expect(core.stdout).toMatch(/^1 passed, 0 failed, 1 script in [\d.]+ s on the ledger core; reports in /m);
  });

  it.runIf(HAS_DARS)('a failing script is FAIL with its reason, a junit failure and exit 1 (needs ../shared/upstream/daml/dars)', async () => {
    const dir = join(root, 'fail');
    const r = await cli('--dar', DAR, '--script', 'Splice.Scripts.TestAmuletBurn:testAmuletBurn', '--max-steps', '1000', '--report-dir', dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL {2}Splice\.Scripts\.TestAmuletBurn:testAmuletBurn {2}\d+ ms\n {6}budgetExceeded: .*budget of 1000 steps/m);
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toContain('failures="1"');
    expect(junit).toMatch(/<failure message="[^"]*budget of 1000 steps[^"]*" type="budgetExceeded">/);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('## Failures');
  });

  describe.skipIf(!HAS_DARS)('--ledger-url: Splice\'s Amulet tests against a running participant, the reference on a port (needs ../shared/upstream/daml/dars)', () => {
    let server: Awaited<ReturnType<typeof startReferenceServer>>;
    beforeAll(async () => { server = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined }); }, 60_000);
    afterAll(async () => { await server?.close(); });

    it('uploads the DAR, runs the selected scripts there and says where; a script that sets time fails as on a wall-clock participant (exit 1)', async () => {
      const dir = join(root, 'url');
      const tokenFile = join(root, 'token');
      writeFileSync(tokenFile, 'unused-by-an-open-participant\n');
      const pass = await cli('--dar', DAR, '--script', 'Splice.Scripts.UnitTests.Fees', '--ledger-url', server.url, '--report-dir', dir);
      expect(pass.code).toBe(0);
      expect(pass.stdout).toContain(`2 passed, 0 failed, 2 scripts`);
      expect(pass.stdout).toContain(`on ${server.url}; reports in ${dir}`);
      const fail = await cli('--dar', DAR, '--script', 'Splice.Scripts.Util:setupApp', '--ledger-url', server.url, '--token-file', tokenFile, '--report-dir', dir);
      expect(fail.code).toBe(1);
      expect(fail.stdout).toMatch(/^FAIL {2}Splice\.Scripts\.Util:setupApp {2}\d+ ms\n {6}ledgerRefused: setTime is not supported against a participant on wall-clock time/m);
    });

    it('a participant that cannot be reached is exit 3 (target unreachable), naming the URL and why', async () => {
      const port = await closedPort();
      const r = await cli('--dar', DAR, '--ledger-url', `http://127.0.0.1:${port}`, '--report-dir', join(root, 'down'));
      expect(r).toMatchObject({ code: 3, stderr: expect.stringContaining(`cannot reach the participant at http://127.0.0.1:${port} to upload ${DAR}: connection refused`) });
      expect(r.stderr).toContain('connection refused (ECONNREFUSED)');
      expect(r.stderr).not.toContain('refuses the DAR');
    });
  });

  describe('DARs built with each daml-script release (encoded here, no upstream files)', () => {
    /** Allocates two parties by name and lists the known ones, in `shape`'s records. */
    const partiesDar = (shape: ScriptShape, metadata?: { name: string; version: string }) => builtScriptDar(shape, (e) => {
      const allocate = shape === '3.2'
        ? e.question('PartyManagement', 'AllocateParty', { displayName: e.text('alice'), idHint: e.text(''), participant: e.none })
        : e.question('PartyManagement', 'AllocateParty', { requestedName: e.text('alice'), idHint: e.text(''), participants: e.nil });
      const version = shape === '3.2' ? 1n : 2n;
      return {
        parties: e.script(e.ask('AllocateParty', version, allocate, 'a', e.ask('AllocateParty', version, allocate, 'b',
          e.ask('ListKnownParties', 1n, e.question('PartyManagement', 'ListKnownParties', { participant: e.none }), 'ps', e.pure(e.v('ps')))))),
      };
    }, metadata);

    for (const shape of ['3.2', '3.3', '3.4', '3.5'] as const) {
      it(`daml-script ${shape}: its scripts pass on the ledger core and in memory`, async () => {
        const dar = join(root, `scripts-${shape}.dar`);
        writeFileSync(dar, partiesDar(shape));
        for (const ledger of ['core', 'memory']) {
          const r = await cli('--dar', dar, '--ledger', ledger, '--report-dir', join(root, `v${shape}-${ledger}`));
          expect(r).toMatchObject({ code: 0, stdout: expect.stringMatching(/^PASS {2}Main:parties {2}\d+ ms$/m) });
        }
      });
    }

    it('a --report-dir that cannot be written is exit 2 naming it, before any script runs', async () => {
      const dar = join(root, 'scripts-report-dir.dar');
      writeFileSync(dar, partiesDar('3.5'));
      const file = join(root, 'not-a-folder');
      writeFileSync(file, '');
      const r = await cli('--dar', dar, '--report-dir', join(file, 'reports'));
      expect(r).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining(`canton-conformance test: cannot write the reports to ${join(file, 'reports')}: ENOTDIR`) });
    });

    it('the ledger core remembers the packages it checked in CANTON_CONFORMANCE_CACHE: the next run checks none again', async () => {
      const dar = join(root, 'scripts-cached.dar');
      writeFileSync(dar, partiesDar('3.5'));
      const cache = join(root, 'cache');
      const before = process.env.CANTON_CONFORMANCE_CACHE;
      process.env.CANTON_CONFORMANCE_CACHE = cache;
      try {
        expect(await cli('--dar', dar, '--report-dir', join(root, 'cached-1'))).toMatchObject({ code: 0 });
        const folder = join(cache, 'passed-checks', readdirSync(join(cache, 'passed-checks'))[0]!);
        const entries = readdirSync(folder);
        // The DAR's three packages: the scripts, daml-script and daml-prim.
        expect(entries).toHaveLength(3);
        const inodes = entries.map((f) => statSync(join(folder, f)).ino);
        expect(await cli('--dar', dar, '--report-dir', join(root, 'cached-2'))).toMatchObject({ code: 0, stdout: expect.stringMatching(/^PASS {2}Main:parties/m) });
        // Nothing checked, so nothing written again (a write replaces the file: a new inode).
        expect(readdirSync(folder).map((f) => statSync(join(folder, f)).ino)).toEqual(inodes);
      } finally {
        if (before === undefined) delete process.env.CANTON_CONFORMANCE_CACHE;
        else process.env.CANTON_CONFORMANCE_CACHE = before;
      }
    });

    it("against a secured participant: without a token exit 2 says HTTP 401 and which flag gives one; a user's token without admin rights, HTTP 403; an admin's token runs the scripts", async () => {
      const world = await startSecuredWorld();
      try {
        const dar = join(root, 'secured-scripts.dar');
        writeFileSync(dar, partiesDar('3.5'));
        const url = world.server.url;
        const none = await cli('--dar', dar, '--ledger-url', url, '--report-dir', join(root, 'secured-0'));
        expect(none.code).toBe(2);
        expect(none.stderr).toContain('[HTTP 401: the participant takes no request without a valid token]; give its token with --token T or --token-file F');
        const alice = await cli('--dar', dar, '--ledger-url', url, '--token', await userToken('alice'), '--report-dir', join(root, 'secured-1'));
        expect(alice.code).toBe(2);
        expect(alice.stderr).toContain("[HTTP 403: the token's user lacks the rights this request needs]");
        expect(alice.stderr).not.toContain('--token T');
        const admin = await cli('--dar', dar, '--ledger-url', url, '--token', await userToken('root'), '--report-dir', join(root, 'secured-2'));
        expect(admin).toMatchObject({ code: 0, stdout: expect.stringMatching(/^PASS {2}Main:parties/m) });
      } finally {
        await world.server.close();
      }
    });

    it('daml-script 3.2 and 3.5 scripts run against a participant through --ledger-url (the reference on a port)', async () => {
      const server = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined });
      try {
        for (const shape of ['3.2', '3.5'] as const) {
          const dar = join(root, `url-scripts-${shape}.dar`);
          writeFileSync(dar, partiesDar(shape));
          const r = await cli('--dar', dar, '--ledger-url', server.url, '--report-dir', join(root, `url-v${shape}`));
          expect(r).toMatchObject({ code: 0, stdout: expect.stringMatching(/^PASS {2}Main:parties {2}\d+ ms$/m) });
        }
      } finally {
        await server.close();
      }
    }, 60_000);

    it('a daml-script release the runner does not know is exit 2 naming the package and version, before anything runs', async () => {
      for (const metadata of [{ name: 'daml-script', version: '3.6.0.20260820.20062.0' }, { name: 'daml-script', version: '2.10.2' }]) {
        const dar = join(root, `scripts-${metadata.version}.dar`);
        writeFileSync(dar, partiesDar('3.3', metadata));
        const r = await cli('--dar', dar, '--report-dir', join(root, `unknown-${metadata.version}`));
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`${dar}: the script was built with daml-script ${metadata.version}, a daml-script this runner does not know (it knows daml3-script 3.2, daml-script 3.3, daml-script 3.4, daml-script 3.5)`);
        expect(r.stdout).not.toContain('PASS');
      }
    });
  });
});
