import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { ScriptLedgerFactory, ScriptResult } from '../../../daml-engine/index.js';
import { ScriptCoverage, inMemoryScriptLedger, runDarScripts, scriptName, unknownScriptLibrary } from '../../../daml-engine/index.js';
import { coreScriptLedgers } from '../../../reference-server/src/ledger/engine/CoreScriptLedger.js';
import { defaultPassedChecks } from '../../../reference-server/src/ledger/packages/passedChecksIn.js';
import { makeDirs } from '../fs/makeDirs.js';
import { jsonApiScriptLedgers } from '../target/JsonApiScriptLedger.js';
import { renderCoverageText, renderScriptJunit, renderScriptSummary } from '../report/writeScriptReports.js';
import { ExitCode, UsageError } from './exitCodes.js';
import { parseFlags } from './parseFlags.js';
import { readTestDar } from './readTestDar.js';
import { runScriptJobs, scriptWorkersAvailable } from './scriptJobs.js';
import { selectScripts } from './selectScripts.js';
import { schemeHint } from './targetFlags.js';
import { writableDir } from './writableDir.js';

export const TEST_HELP = `Usage: canton-conformance test --dar FILE [--script Module[:name]]... [--test-pattern REGEX]
                             [--list] [--show-coverage] [--report-dir DIR] [--max-steps N] [--jobs N]
                             [--ledger core|memory | --ledger-url URL [--token T | --token-file F]]

Runs the Daml Script tests of a DAR (every top-level \`Script\` value of its main package, as
\`daml test\` does), each on a fresh ledger with static time from the epoch, without a JVM.
Prints one line per script (PASS/FAIL, name, milliseconds) and writes junit.xml (debug output in
each test case's system-out) and summary.md.

  --dar FILE            the DAR to test (its dependencies, daml-script included, are inside it)
  --script M:name       run only this script; --script M runs the scripts of module M; repeatable
  --test-pattern REGEX  run only the scripts whose Module:name the expression matches
  --list                print the selected scripts' names, one a line, and run nothing
  --show-coverage       print which templates were created, which choices exercised and which
                        interfaces used, of those the DAR and its dependencies define (also in
                        summary.md and coverage.json)
  --report-dir DIR      where junit.xml and summary.md go (default: reports/daml-test)
  --max-steps N         evaluation steps one script may take before it fails as looping
                        (default 200000000)
  --jobs N              run the scripts on N threads at once, each still on a fresh ledger
                        (default 1; not with --ledger-url); output and reports keep the scripts'
                        order. Each thread starts by decoding and uploading the DAR itself
  --ledger core         (default) the reference server's participant: the DAR uploaded and vetted,
                        parties hint::1220..., users and rights, offsets; time moves forward only
  --ledger memory       a small ledger of its own, as daml test's IDE ledger (time may go back)
  --ledger-url URL      a running participant's JSON Ledger API v2 (yours, or the reference's):
                        the DAR uploaded there, every script on that one participant, time its
                        wall clock (setTime fails); as daml script --ledger-host runs scripts
  --token T             bearer token for --ledger-url
  --token-file F        file holding that token

Scripts built with daml-script 3.2 (daml3-script), 3.3, 3.4 or 3.5 run; another daml-script
release is exit 2, naming it.

On the ledger core, the packages the participant's upload check passed are remembered in
~/.cache/canton-conformance (CANTON_CONFORMANCE_CACHE=DIR elsewhere, =off not at all): a later
run checks only packages it has not seen pass.

Exit codes: 0 every script passed, 1 a script failed, 2 usage error, unknown script, no script
selected, a daml-script release the runner does not know, or a DAR that cannot be read, decoded
or uploaded, 3 the participant at --ledger-url cannot be reached.`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseFlags({
    args: argv,
    options: {
      dar: { type: 'string' },
      script: { type: 'string', multiple: true },
      'test-pattern': { type: 'string' },
      list: { type: 'boolean' },
      'show-coverage': { type: 'boolean' },
      'report-dir': { type: 'string' },
      'max-steps': { type: 'string' },
      jobs: { type: 'string' },
      ledger: { type: 'string' },
      'ledger-url': { type: 'string' },
      token: { type: 'string' },
      'token-file': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
  if (values.help) {
    console.log(TEST_HELP);
    return ExitCode.Ok;
  }
  if (values.dar === undefined) throw new UsageError('--dar FILE is required; see --help');
  const maxSteps = values['max-steps'];
  if (maxSteps !== undefined && (!/^\d+$/.test(maxSteps) || !Number.isSafeInteger(Number(maxSteps)) || Number(maxSteps) < 1)) {
    throw new UsageError(`--max-steps takes an integer >= 1 (got '${maxSteps}')`);
  }
  const jobsFlag = values.jobs;
  if (jobsFlag !== undefined && (!/^\d+$/.test(jobsFlag) || Number(jobsFlag) < 1 || Number(jobsFlag) > 256)) {
    throw new UsageError(`--jobs takes an integer from 1 to 256 (got '${jobsFlag}')`);
  }
  const ledgerUrl = values['ledger-url'];
  // One participant serves every script of a --ledger-url run, one at a time, as daml script does.
  if (ledgerUrl !== undefined && jobsFlag !== undefined && jobsFlag !== '1') throw new UsageError('--jobs goes with the built-in ledgers: against --ledger-url the scripts run one at a time on that participant');
  if (ledgerUrl !== undefined && values.ledger !== undefined) throw new UsageError('--ledger-url and --ledger exclude each other: scripts run either on a built-in ledger or on the participant at the URL');
  if (ledgerUrl === undefined && (values.token !== undefined || values['token-file'] !== undefined)) throw new UsageError('--token and --token-file go with --ledger-url');
  if (values.token !== undefined && values['token-file'] !== undefined) throw new UsageError('--token and --token-file exclude each other');
  if (ledgerUrl !== undefined && !/^https?:\/\/[^/]/.test(ledgerUrl)) throw new UsageError(`--ledger-url takes an http(s) URL (got '${ledgerUrl}')${schemeHint(ledgerUrl)}`);
  const ledgerKind = ledgerUrl !== undefined ? 'url' : values.ledger ?? 'core';
  if (ledgerKind !== 'core' && ledgerKind !== 'memory' && ledgerKind !== 'url') throw new UsageError(`--ledger takes core or memory (got '${ledgerKind}')`);
  let token = values.token;
  if (values['token-file'] !== undefined) {
    try {
      token = (await readFile(values['token-file'], 'utf8')).trim();
    } catch (e) {
      throw new UsageError(`cannot read the token file ${values['token-file']}: ${(e as Error).message}`);
    }
  }
  let pattern: RegExp | undefined;
  if (values['test-pattern'] !== undefined) {
    try {
      pattern = new RegExp(values['test-pattern']);
    } catch (e) {
      throw new UsageError(`--test-pattern takes a regular expression: ${(e as Error).message}`);
    }
  }
  let bytes: Uint8Array;
  try {
    bytes = await readFile(values.dar);
  } catch (e) {
    throw new UsageError(`cannot read the DAR ${values.dar}: ${(e as Error).message}`);
  }
  const { loaded, inflated } = readTestDar(bytes);
  if (!loaded.ok) throw new UsageError(`${values.dar}: ${loaded.message}`);
  if (loaded.loaded.scripts.length === 0) {
    throw new UsageError(`${values.dar} holds no scripts (no top-level Script value in its main package); nothing to run`);
  }
  const selection = selectScripts(loaded.loaded.scripts, values.script ?? [], pattern);
  if (!selection.ok) throw new UsageError(`${selection.message} (in ${values.dar}; --list shows its scripts)`);
  const selected = selection.scripts;
  if (selected.length === 0) {
    throw new UsageError(`no script of ${values.dar} matches --test-pattern ${values['test-pattern']}${values.script ? ' among those --script selects' : ''}; --list shows its scripts`);
  }
  if (values.list) {
    for (const ref of selected) console.log(scriptName(ref));
    return ExitCode.Ok;
  }
  const unknown = unknownScriptLibrary(loaded.loaded, selected);
  if (unknown) throw new UsageError(`${values.dar}: ${unknown}`);
  const reportDir = values['report-dir'] ?? join('reports', 'daml-test');
  await writableDir(reportDir, 'the reports');
  const jobs = jobsFlag === undefined || !scriptWorkersAvailable() ? 1 : Math.min(Number(jobsFlag), selected.length);
  const main = loaded.loaded.dar.main;
  const mainName = main.metadata ? `${main.metadata.name}-${main.metadata.version}` : main.id;
  const coverage = values['show-coverage'] ? new ScriptCoverage() : undefined;
  const onResult = (r: ScriptResult): void => {
    console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name}  ${r.durationMs.toFixed(0)} ms${r.ok ? '' : `\n      ${r.failure!.kind}: ${r.failure!.message}`}`);
  };
  const startedAt = new Date().toISOString();
  const started = performance.now();
  let results: readonly ScriptResult[];
  if (jobs > 1) {
    // Each worker uploads the DAR to ledgers of its own: a refusal there is the same usage error.
    const outcome = await runScriptJobs({
      bytes, scripts: selected, jobs, ledger: ledgerKind === 'memory' ? 'memory' : 'core',
      stepBudget: maxSteps === undefined ? undefined : Number(maxSteps), coverage: coverage !== undefined, onResult,
    });
    if (!outcome.ok) throw new UsageError(`${values.dar}: the participant refuses the DAR: ${outcome.refused}`);
    results = outcome.results;
    for (const used of outcome.coverage) coverage?.add(used);
  } else {
    let ledger: ScriptLedgerFactory = inMemoryScriptLedger;
    if (ledgerKind === 'core') {
      const core = coreScriptLedgers(loaded.loaded, { passedChecks: defaultPassedChecks(), inflated });
      if (!core.ok) throw new UsageError(`${values.dar}: the participant refuses the DAR: ${core.error}`);
      ledger = core.value;
    } else if (ledgerUrl !== undefined) {
      const remote = await jsonApiScriptLedgers(loaded.loaded, { url: ledgerUrl, token });
      if (!remote.ok && remote.unreachable) {
        // As `run` and `doctor` answer a target they cannot reach: exit 3, not a usage error.
        console.error(`canton-conformance test: cannot reach the participant at ${ledgerUrl} to upload ${values.dar}: ${remote.error}`);
        return ExitCode.Unreachable;
      }
      if (!remote.ok) {
        const hint = remote.status === 401 && token === undefined ? '; give its token with --token T or --token-file F' : '';
        throw new UsageError(`${values.dar}: the participant at ${ledgerUrl} refuses the DAR: ${remote.error}${hint}`);
      }
      ledger = remote.value;
    }
    results = await runDarScripts(loaded.loaded, selected, {
      stepBudget: maxSteps === undefined ? undefined : Number(maxSteps),
      ledger,
      coverage,
      // One participant for every script, and for every run: party names must not repeat.
      randomSeed: ledgerUrl === undefined ? undefined : randomUUID(),
      onResult,
    });
  }
  const durationMs = performance.now() - started;
  const failed = results.filter((r) => !r.ok).length;
  makeDirs(reportDir);
  const report = coverage?.report(main.id, loaded.loaded.packages.all());
  const run = { dar: mainName, startedAt, durationMs, results, coverage: report };
  await writeFile(join(reportDir, 'junit.xml'), renderScriptJunit(run));
  await writeFile(join(reportDir, 'summary.md'), renderScriptSummary(run));
  if (report) {
    await writeFile(join(reportDir, 'coverage.json'), `${JSON.stringify({ dar: mainName, ...report }, null, 2)}\n`);
    console.log(`\n${renderCoverageText(report)}`);
  } else {
    // The folder describes this run only: an earlier run's coverage would read as this one's.
    await rm(join(reportDir, 'coverage.json'), { force: true });
  }
  const threads = jobs > 1 ? ` (${jobs} threads)` : '';
  console.log(`\n${results.length - failed} passed, ${failed} failed, ${results.length} script${results.length === 1 ? '' : 's'} in ${(durationMs / 1000).toFixed(1)} s on ${ledgerKind === 'core' ? 'the ledger core' : ledgerKind === 'memory' ? 'the in-memory ledger' : ledgerUrl}${threads}; reports in ${reportDir}`);
  return failed > 0 ? ExitCode.Failures : ExitCode.Ok;
}
