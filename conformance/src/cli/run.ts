import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { catalogue } from '../checks/catalogue.js';
import { GROUPS, type Group } from '../checks/types.js';
import { BaselineError, loadBaseline, type Baseline } from '../report/baseline.js';
import { applyGate, ranLine } from '../report/gate.js';
import { isUnexpected, type PreflightVerdict, type Report } from '../report/model.js';
import { preflightReport } from '../report/preflightReport.js';
import { preflightOfRun } from '../preflight/preflightOfRun.js';
import { judgedLine } from '../runner/cantonLine.js';
import { CANTON_VERSIONS, isCantonVersion, type CantonVersion } from '../schema/cantonVersions.js';
import { unreachableReport } from '../report/unreachableReport.js';
import { plural } from '../report/writeMarkdown.js';
import { writeReports } from '../report/writeReports.js';
import { DEFAULT_PROFILE, loadProfile, ProfileError, type Profile } from '../runner/profile.js';
import { unreachable } from '../runner/reachability.js';
import { startInProcessReference, type InProcessServer } from '../runner/referenceServer.js';
import { DEFAULTS, runSuite, type JudgeMode, type OracleMode } from '../runner/runSuite.js';
import type { ReinterpretMode } from '../reinterpret/reinterpretTally.js';
import type { HistoryMode } from '../history/judgeHistory.js';
import { randomSeed } from '../runner/seeds.js';
import { shellQuote } from '../target/curl.js';
import { SelectionError, selectChecks } from '../runner/select.js';
import { shardChecks } from '../runner/shard.js';
import { fetchSpec, isSpecUrl, loadSpec, SpecLoadError } from '../schema/index.js';
import { rebaseline, renderBaseline } from '../report/writeBaseline.js';
import { listenForStop, SIGNAL_EXIT } from './interruption.js';
import { newRunState, writeStoppedReports, type RunState } from './runState.js';
import { signingTokens } from '../target/mintToken.js';
import { staticToken, tokenCommand, tokenFile, TokenSourceError, type TokenProvider } from '../target/tokenProvider.js';
import { ExitCode, UsageError } from './exitCodes.js';
import { parseFlags } from './parseFlags.js';
import { int, TARGET_FLAG_OPTIONS, targetArgsOf, withScanProxy, type TargetArgs } from './targetFlags.js';
import { writableDir } from './writableDir.js';
import { toolVersion } from '../runner/toolVersion.js';

export const RUN_HELP = `Usage: canton-conformance run [--target URL] [--ledger-url U] [--registry-url U] [--scan-url U]
           [--scan-proxy-url U] [--profile NAME|FILE] [--token T | --token-file F] [--only SEL] [--skip SEL]
           [--shard K/N] [--seed N] [--runs N] [--timeout MS] [--concurrency N]
           [--report-dir DIR] [--baseline FILE] [--write-baseline FILE] [--spec FILE|URL]
           [--oracle reference|none] [--judge model|none] [--reinterpret engine|none] [--canton-version 3.4|3.5|3.6] [--splice-version X.Y.Z] [--quiet]
           [--min-ran PERCENT] [--fail-on-skip] [--history parser|none]

Checks a target against the conformance suite and writes a compatibility report. Without --target
it starts the reference server in-process on a free port and certifies it.

Target:
  --target URL          base URL of the target; the default for every group below
  --ledger-url URL      JSON Ledger API v2 base URL (group B)
  --registry-url URL    token registry base URL (group A)
  --scan-url URL        Scan base URL (group C), e.g. https://scan.example.com/api/scan
  --scan-proxy-url URL  the validator serving the scan proxy, e.g.
                        https://validator.example.com/api/validator: every /v0/scan-proxy/...
                        request goes there (with the run's token), judged against the Scan at
                        --scan-url; implies the profile's scan.scanProxy: true (default: the
                        proxy forms at the Scan URL, when the profile says scanProxy: true)
  --profile NAME|FILE   what the target serves, which ids exist, whether the suite may write
                        (built-in: reference, reference-secured, participant, registry,
                        scan-readonly;
                        default: reference without --target, read-only with it)
  --token T             bearer token for every request
  --token-file F        read the token from F (re-read after a 401)
                        (or the profile's auth.tokenCommand, re-run after a 401, or tokens
                        minted with its auth.signing key)
Selection:
  --only SEL            run only these checks; SEL is a comma list of check ids, groups
                        (registry, ledger, scan), kinds (schema, example, negative, property,
                        stateful, auth, cross-group), operationIds, levels (MUST) or globs
                        (ledger.acs.*); repeatable
  --skip SEL            leave these out (same forms); wins over --only
  --shard K/N           run the K-th of N disjoint parts, dealt by operation (merge with
                        \`report merge\`)
Runs:
  --seed N              seed of every property and stateful check (default: random, printed)
  --runs N              inputs per property (default ${DEFAULTS.runs})
  --timeout MS          per-request timeout in milliseconds (default ${DEFAULTS.timeoutMs})
  --concurrency N       checks run at once (default ${DEFAULTS.concurrency})
  --oracle MODE         reference: replay every check on an in-process reference ledger in
                        lockstep and fail any answer that differs from its answer; none: judge
                        by the checks alone (default: reference when the profile allows writes,
                        none otherwise)
  --judge MODE          model: judge every answer against the target's own earlier answers by
                        the named invariants (judge.*, see \`list --invariants\`); none: off
                        (default: model)
  --canton-version V    judge the target as Canton V (3.4, 3.5 or 3.6) instead of by the version its
                        /v2/version reports; checks of operations that line lacks skip, naming it.
                        Without --target, the in-process reference serves line V
  --splice-version V    judge the Scan as Splice V (such as 0.6.12) instead of by the release its
                        GET /version says; checks of operations that release lacks skip, naming it
  --reinterpret MODE    engine (default): re-run the commands of the transactions checks cause
                        with the Daml engine on the packages the target serves and fail any
                        difference (judge.daml.*, see list --invariants); none: off
  --history MODE        parser: read back the token-standard history of the parties each check
                        acted as or allocated, parse it with @canton-network/core-tx-parser in
                        strict mode, and fail the check on a holding change it cannot explain
                        (judge.history.*, see list --invariants); none: off (default: parser;
                        none with --judge none)
Reports:
  --report-dir DIR      where report.json, junit.xml, summary.md and report.html go (default: reports)
  --baseline FILE       expected failures: a previous report.json or one check id per line
  --write-baseline FILE write this run's failed and errored checks to FILE (one id per line, the
                        form --baseline reads) and judge the run by it: the first baseline
  --spec FILE|URL       validate responses against this OpenAPI document first (YAML or JSON, a
                        file or an http(s) URL such as a participant's /docs/openapi); repeatable;
                        our specs cover what it does not describe
  --quiet               no progress output (on a terminal a line rewritten in place; in CI logs
                        a line per group and every 5 s, on stderr), only the final summary
Gate (both off by default):
  --min-ran PERCENT     fail the run (exit 1) when fewer than PERCENT of the selected checks ran
  --fail-on-skip        fail the run (exit 1) when any selected MUST check skipped

Before any check it performs the preflight (\`doctor\`): one line, and no run when the target cannot be
certified as configured (exit 2) or does not answer (exit 3).
Once the flags parse, every exit writes the reports (a configuration error, a stopping preflight or
an interrupted run too: what ran, marked so).
Exit codes: 0 no unexpected failure, 1 unexpected failures, stale baseline entries or the gate,
            2 usage or configuration error (the preflight's included), 3 target unreachable,
            130 interrupted (SIGINT), 143 terminated (SIGTERM, or npm/npx above it ended).`;

interface RunArgs extends TargetArgs {
  readonly seed?: number;
  readonly runs?: number;
  readonly concurrency?: number;
  readonly reportDir: string;
  readonly baseline?: string;
  readonly writeBaseline?: string;
  readonly specs: string[];
  readonly quiet: boolean;
  readonly oracle?: OracleMode;
  readonly minRanPercent?: number;
  readonly failOnSkip: boolean;
  readonly judge?: JudgeMode;
  readonly reinterpret?: ReinterpretMode;
  /** `--history`: the token-standard history judge (core-tx-parser), on or off. */
  readonly history?: HistoryMode;
  /** `--canton-version`: the line to judge the target by, whatever it reports. */
  readonly cantonVersion?: CantonVersion;
  /** `--splice-version`: the Splice release to judge the Scan by, whatever it says. */
  readonly spliceVersion?: string;
}


/** `--min-ran PERCENT`: 0 to 100, decimals allowed, a trailing % tolerated. */
function parsePercent(v: string): number {
  const m = /^(\d+(?:\.\d+)?)%?$/.exec(v);
  if (!m || Number(m[1]) > 100) throw new UsageError(`--min-ran takes a percentage from 0 to 100 (got '${v}')`);
  return Number(m[1]);
}

export function parseRunArgs(argv: string[]): RunArgs | 'help' {
  let values;
  try {
    ({ values } = parseFlags({
      args: argv,
      options: {
        ...TARGET_FLAG_OPTIONS,
        seed: { type: 'string' },
        runs: { type: 'string' },
        concurrency: { type: 'string' },
        'report-dir': { type: 'string' },
        baseline: { type: 'string' },
        'write-baseline': { type: 'string' },
        spec: { type: 'string', multiple: true },
        quiet: { type: 'boolean', short: 'q' },
        oracle: { type: 'string' },
        'min-ran': { type: 'string' },
        'fail-on-skip': { type: 'boolean' },
        judge: { type: 'string' },
        reinterpret: { type: 'string' },
        history: { type: 'string' },
        'canton-version': { type: 'string' },
        'splice-version': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (values.help) return 'help';
  const target = targetArgsOf(values);
  if (values.oracle !== undefined && values.oracle !== 'reference' && values.oracle !== 'none') throw new UsageError(`--oracle takes reference or none (got '${values.oracle}')`);
  if (values.judge !== undefined && values.judge !== 'model' && values.judge !== 'none') throw new UsageError(`--judge takes model or none (got '${values.judge}')`);
  if (values.reinterpret !== undefined && values.reinterpret !== 'engine' && values.reinterpret !== 'none') throw new UsageError(`--reinterpret takes engine or none (got '${values.reinterpret}')`);
  if (values.history !== undefined && values.history !== 'parser' && values.history !== 'none') throw new UsageError(`--history takes parser or none (got '${values.history}')`);
  const cantonVersion = values['canton-version'];
  if (cantonVersion !== undefined && !isCantonVersion(cantonVersion)) throw new UsageError(`--canton-version takes ${CANTON_VERSIONS.join(', ')} (got '${cantonVersion}')`);
  const spliceVersion = values['splice-version'];
  if (spliceVersion !== undefined && !/^\d+\.\d+\.\d+$/.test(spliceVersion)) throw new UsageError(`--splice-version takes a Splice release such as 0.6.12 (got '${spliceVersion}')`);
  return {
    ...target,
    ...(values.seed !== undefined ? { seed: int('seed', values.seed, 0)! } : {}),
    ...(values.runs !== undefined ? { runs: int('runs', values.runs, 1)! } : {}),
    ...(values.concurrency !== undefined ? { concurrency: int('concurrency', values.concurrency, 1)! } : {}),
    reportDir: values['report-dir'] ?? 'reports',
    ...(values.baseline !== undefined ? { baseline: values.baseline } : {}),
    ...(values['write-baseline'] !== undefined ? { writeBaseline: values['write-baseline'] } : {}),
    specs: values.spec ?? [],
    quiet: values.quiet === true,
    ...(values.oracle !== undefined ? { oracle: values.oracle as OracleMode } : {}),
    ...(values['min-ran'] !== undefined ? { minRanPercent: parsePercent(values['min-ran']) } : {}),
    failOnSkip: values['fail-on-skip'] === true,
    ...(values.judge !== undefined ? { judge: values.judge as JudgeMode } : {}),
    ...(values.reinterpret !== undefined ? { reinterpret: values.reinterpret as ReinterpretMode } : {}),
    ...(values.history !== undefined ? { history: values.history as HistoryMode } : {}),
    ...(cantonVersion !== undefined ? { cantonVersion } : {}),
    ...(spliceVersion !== undefined ? { spliceVersion } : {}),
  };
}

/** Configuration errors of our own kinds become usage errors (exit 2) with their message. */
export function usage<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ProfileError || e instanceof BaselineError || e instanceof SelectionError || e instanceof SpecLoadError || e instanceof TokenSourceError) throw new UsageError(e.message);
    throw e;
  }
}

async function usageAsync<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof SpecLoadError) throw new UsageError(e.message);
    throw e;
  }
}

export function tokensOf(args: Pick<RunArgs, 'token' | 'tokenFile'>, profile: Profile): TokenProvider | undefined {
  if (args.token !== undefined) return usage(() => staticToken(args.token!));
  if (args.tokenFile !== undefined) return tokenFile(args.tokenFile);
  if (profile.auth?.tokenCommand) return tokenCommand(profile.auth.tokenCommand);
  if (profile.auth?.signing) return signingTokens(profile.auth.signing, profile.ledger?.userId ?? 'participant_admin');
  return undefined;
}

/**
 * The start of every replay line: runs as printed from the project that installed the package
 * (`npx`), against the same URLs, profile, documents and auth. A token appears by reference only
 * (`"$TOKEN"`), never as itself: reports are published as CI artifacts.
 */
export function replayPrefix(args: RunArgs): string {
  const q = (v: string) => (/^[\w@%+=:,./-]+$/.test(v) ? v : shellQuote(v));
  const parts = ['npx canton-conformance run'];
  if (args.target) parts.push(`--target ${q(args.target)}`);
  for (const g of GROUPS) if (args.urls[g]) parts.push(`--${g}-url ${q(args.urls[g])}`);
  if (args.scanProxyUrl !== undefined) parts.push(`--scan-proxy-url ${q(args.scanProxyUrl)}`);
  if (args.profile) parts.push(`--profile ${q(args.profile)}`);
  if (args.token !== undefined) parts.push('--token "$TOKEN"');
  if (args.tokenFile !== undefined) parts.push(`--token-file ${q(args.tokenFile)}`);
  for (const spec of args.specs) parts.push(`--spec ${q(spec)}`);
  if (args.runs) parts.push(`--runs ${args.runs}`);
  if (args.timeoutMs !== undefined) parts.push(`--timeout ${args.timeoutMs}`);
  return parts.join(' ');
}

/**
 * Against a target without --profile the suite is read-only and knows no ids: say so in the
 * report's warnings (and so on the console), with how many checks that skipped and what to pass.
 */
function missingRightsOf(v: PreflightVerdict): { missingRights?: string[] } {
  const rights = [...new Set([...(v.missingRights ?? []), ...(v.lacksRights ?? [])])];
  return rights.length > 0 ? { missingRights: rights } : {};
}

function explainDefaultProfile(args: RunArgs, inProcess: boolean, report: Report): Report {
  if (inProcess || args.profile !== undefined) return report;
  const skipped = report.checks.filter((c) => c.status === 'skip').length;
  if (skipped === 0) return report;
  const note =
    `${skipped} check(s) skipped because no --profile was given: the default profile is read-only and names no parties, templates or ids, ` +
    `so checks that write or need known data cannot run. Give --profile participant, registry or scan-readonly (with their CC_* variables) ` +
    `or your own file (fixtures/profiles/README.md); each skipped check's message says what it needs.`;
  return { ...report, warnings: [note, ...report.warnings] };
}

export async function run(argv: string[]): Promise<number> {
  const args = parseRunArgs(argv);
  if (args === 'help') {
    console.log(RUN_HELP);
    return ExitCode.Ok;
  }
  // Before anything runs: a report folder that cannot be written is a usage error now, not after the run.
  await writableDir(args.reportDir, 'the reports');
  // From here the report directory is known: every way out writes the reports.
  const state = newRunState({ ...args, seed: args.seed ?? randomSeed(), runs: args.runs ?? DEFAULTS.runs });
  const stop = listenForStop();
  try {
    const done = await Promise.race([certify(args, state), stop.stopped]);
    if (typeof done === 'number') return done;
    if (process.stderr.isTTY === true) process.stderr.write('\r\x1b[2K'); // the progress line rewritten in place
    await writeStoppedReports(args.reportDir, state, { reason: 'interrupted', signal: done.signal, message: done.message });
    // The checks still in flight would keep the process alive for their timeouts: end it here.
    process.exit(SIGNAL_EXIT[done.signal]);
  } catch (e) {
    if (e instanceof UsageError) await writeStoppedReports(args.reportDir, state, { reason: 'configuration-error', message: e.message });
    throw e;
  } finally {
    stop.dispose();
  }
}

/**
 * The command to write the first baseline: the same target, profile, auth, documents and
 * selection as the run that asked for a missing one, and `--write-baseline FILE`.
 */
export function firstBaselineCommand(args: RunArgs, file: string): string {
  const q = (v: string) => (/^[\w@%+=:,./-]+$/.test(v) ? v : shellQuote(v));
  const parts = [replayPrefix(args)];
  if (args.only.length > 0) parts.push(`--only ${q(args.only.join(','))}`);
  if (args.skip.length > 0) parts.push(`--skip ${q(args.skip.join(','))}`);
  if (args.shard) parts.push(`--shard ${args.shard.index}/${args.shard.total}`);
  if (args.seed !== undefined) parts.push(`--seed ${args.seed}`);
  if (args.reportDir !== 'reports') parts.push(`--report-dir ${q(args.reportDir)}`);
  parts.push(`--write-baseline ${q(file)}`);
  return parts.join(' ');
}

async function certify(args: RunArgs, state: RunState): Promise<number> {
  const inProcess = args.target === undefined && Object.keys(args.urls).length === 0;
  const profile = withScanProxy(usage(() => (args.profile ? loadProfile(args.profile) : inProcess ? loadProfile('reference') : DEFAULT_PROFILE)), args, inProcess);
  state.profile = profile.name;
  if (!inProcess && args.target === undefined) {
    const missing = profile.groups.filter((g) => args.urls[g] === undefined);
    if (missing.length > 0) throw new UsageError(`no URL for the ${missing.join(', ')} group(s): give --target (the default for every group) or --${missing[0]}-url`);
  }
  // The oracle replays writes: only a profile that allows them can have it (read-only ones keep the checks alone).
  if (args.oracle === 'reference' && !profile.writes) throw new UsageError(`--oracle reference replays the checks' writes on a reference ledger; profile '${profile.name}' is read-only (writes: false)`);
  const oracle: OracleMode = args.oracle ?? (profile.writes ? 'reference' : 'none');
  if (args.baseline !== undefined && !existsSync(args.baseline)) {
    throw new UsageError(`baseline ${args.baseline} does not exist. Write the first one from a run (its failures become the accepted ones), review it and commit it:\n  ${firstBaselineCommand(args, args.baseline)}`);
  }
  const baseline: Baseline | undefined = args.baseline ? usage(() => loadBaseline(args.baseline!, catalogue().map((c) => c.id))) : undefined;
  if (args.writeBaseline !== undefined && !existsSync(dirname(resolve(args.writeBaseline)))) throw new UsageError(`--write-baseline ${args.writeBaseline}: its directory does not exist`);
  for (const spec of args.specs.filter(isSpecUrl)) await usageAsync(() => fetchSpec(spec, args.timeoutMs ?? DEFAULTS.timeoutMs));
  usage(() => args.specs.forEach((s) => loadSpec(s)));
  // Fail fast on selection typos, before starting anything.
  state.selected = shardChecks(usage(() => selectChecks(catalogue(), args.only, args.skip)), args.shard).length;
  const tokens = tokensOf(args, profile);
  if (tokens) {
    try {
      await tokens.token();
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }

  let server: InProcessServer | undefined;
  const startedAt = state.startedAt;
  const started = performance.now();
  try {
    // The line asked for is the one the in-process reference serves (the oracle's twin serves it too).
    if (inProcess) server = await startInProcessReference(profile, args.cantonVersion);
    const base = server?.url ?? args.target ?? Object.values(args.urls)[0]!;
    const baseUrls = Object.fromEntries(GROUPS.map((g) => [g, args.urls[g] ?? base])) as Record<Group, string>;
    state.targets = baseUrls;
    const served = Object.fromEntries(profile.groups.map((g) => [g, baseUrls[g]]));
    const down = await unreachable(served, args.timeoutMs ?? DEFAULTS.timeoutMs);
    if (down !== undefined) {
      console.error(`canton-conformance run: target unreachable: ${down.url}: ${down.reason}`);
      const report = unreachableReport({
        target: base,
        targets: baseUrls,
        profile: profile.name,
        seed: state.seed,
        runs: state.runs,
        startedAt,
        durationMs: Math.round(performance.now() - started),
        toolVersion: toolVersion(),
        down,
      });
      const paths = await writeReports({ ...report, wallTimeMs: Math.round(performance.now()) }, args.reportDir);
      if (args.writeBaseline !== undefined) console.error(`baseline: ${args.writeBaseline} not written: no check ran`);
      console.error(`report: ${paths.markdown} (also report.json, junit.xml, report.html) says the target was unreachable`);
      return ExitCode.Unreachable;
    }
    const pre = await preflightOfRun(args, profile, inProcess, served, tokens);
    if (pre.stopped) {
      const run = { target: base, targets: baseUrls, profile: profile.name, seed: state.seed, runs: state.runs, startedAt, durationMs: Math.round(performance.now() - started), toolVersion: toolVersion() };
      const stopped = pre.exitCode === 3 ? unreachableReport({ ...run, down: pre.down }) : preflightReport({ ...run, preflight: pre.verdict });
      const paths = await writeReports({ ...stopped, wallTimeMs: Math.round(performance.now()) }, args.reportDir);
      if (args.writeBaseline !== undefined) console.error(`baseline: ${args.writeBaseline} not written: no check ran`);
      console.error(`report: ${paths.markdown} (also report.json, junit.xml, report.html) says why no check ran`);
      return pre.exitCode;
    }
    state.suiteStarted = performance.now();
    const canton = judgedLine(profile.groups.includes('ledger'), pre.verdict.cantonVersion, args.cantonVersion);
    const result = await runSuite({
      baseUrls,
      // One name for every in-process run, so the shards of one campaign merge (the URL is in `targets`).
      target: server ? 'in-process reference server' : base,
      profile,
      ...(tokens ? { tokens } : {}),
      only: args.only,
      skip: args.skip,
      seed: state.seed,
      runs: state.runs,
      ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
      ...(args.concurrency !== undefined ? { concurrency: args.concurrency } : {}),
      ...(args.shard ? { shard: args.shard } : {}),
      ...(baseline ? { baseline } : {}),
      specFiles: args.specs,
      progress: args.quiet ? 'quiet' : 'auto',
      onResult: (r) => void state.checks.push(r),
      replayPrefix: replayPrefix(args),
      toolVersion: toolVersion(),
      oracle,
      ...(args.judge ? { judge: args.judge } : {}),
      ...(args.reinterpret ? { reinterpret: args.reinterpret } : {}),
      ...(args.history ? { history: args.history } : {}),
      ...(canton !== undefined ? { canton } : {}),
      ...(args.spliceVersion !== undefined ? { spliceVersion: args.spliceVersion } : {}),
      // Rights the preflight found missing in a run it let start, and those the user lacks that a
      // check may need on its way: checks refused for them skip.
      ...missingRightsOf(pre.verdict),
    });
    let report: Report = { ...explainDefaultProfile(args, inProcess, result.report), preflight: pre.verdict };
    let outcome = result.baseline;
    let written: string | undefined;
    if (args.writeBaseline !== undefined) {
      // The run is judged by the baseline it writes: the report says what the gate will say with it.
      const rendered = renderBaseline(report, args.writeBaseline);
      ({ report, outcome } = rebaseline(report, rendered.baseline));
      written = rendered.text;
    }
    const gated = applyGate(report, { ...(args.minRanPercent !== undefined ? { minRanPercent: args.minRanPercent } : {}), failOnSkip: args.failOnSkip });
    report = { ...gated.report, wallTimeMs: Math.round(performance.now()) };
    const paths = await writeReports(report, args.reportDir);
    if (written !== undefined) await writeFile(args.writeBaseline!, written);
    const s = report.summary;
    const stale = report.checks.filter((c) => c.baseline === 'stale').length;
    console.log(
      `canton-conformance: ${report.verdict.toUpperCase()}${stale > 0 ? ` (${plural(stale, 'stale baseline entry', 'stale baseline entries')})` : ''}: ${s.passed} passed, ${s.failed} failed, ${s.errored} errored, ${s.warned} warned, ${s.skipped} skipped; ${ranLine(report)}` +
        ` (seed ${report.seed}, checks ${(report.durationMs / 1000).toFixed(1)} s, wall ${(report.wallTimeMs! / 1000).toFixed(1)} s${report.shard ? `, shard ${report.shard.index}/${report.shard.total}` : ''})`,
    );
    for (const w of report.warnings) console.log(`warning: ${w}`);
    for (const f of report.gate?.failures ?? []) console.log(`  GATE ${f}`);
    const bad = report.checks.filter(isUnexpected);
    for (const c of bad.slice(0, 20)) console.log(`  ${c.baseline === 'stale' ? 'STALE' : c.status.toUpperCase()} ${c.id}: ${c.baseline === 'stale' ? 'passes now; remove it from the baseline' : (c.message ?? '').split('\n')[0]!.slice(0, 160)}`);
    if (bad.length > 20) console.log(`  …and ${bad.length - 20} more`);
    if (outcome.expected.length > 0) console.log(`  ${outcome.expected.length} expected failure(s) from the baseline`);
    if (written !== undefined) console.log(`baseline: wrote ${args.writeBaseline} (${plural(outcome.expected.length, 'accepted failure')}); gate later runs with --baseline ${args.writeBaseline}`);
    console.log(`report: ${paths.html} (also report.json, junit.xml, summary.md)`);
    return outcome.exitCode === 0 && !gated.failed ? ExitCode.Ok : ExitCode.Failures;
  } finally {
    await server?.close();
  }
}
