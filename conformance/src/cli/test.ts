import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { QualifiedName, ScriptLedgerFactory } from '../../../daml-engine/index.js';
import { inMemoryScriptLedger, loadDarScripts, runDarScripts, scriptName } from '../../../daml-engine/index.js';
import { coreScriptLedgers } from '../../../reference-server/src/ledger/engine/CoreScriptLedger.js';
import { renderScriptJunit, renderScriptSummary } from '../report/writeScriptReports.js';
import { closest } from '../runner/select.js';
import { ExitCode, UsageError } from './exitCodes.js';
import { parseFlags } from './parseFlags.js';

export const TEST_HELP = `Usage: canton-conformance test --dar FILE [--script Module:name]... [--report-dir DIR]
                             [--max-steps N] [--ledger core|memory]

Runs the Daml Script tests of a DAR (every top-level \`Script\` value of its main package, as
\`daml test\` does), each on a fresh ledger with static time from the epoch, without a JVM.
Prints one line per script (PASS/FAIL, name, milliseconds) and writes junit.xml (debug output in
each test case's system-out) and summary.md.

  --dar FILE          the DAR to test (its dependencies, daml-script included, are inside it)
  --script M:name     run only this script; repeatable
  --report-dir DIR    where junit.xml and summary.md go (default: reports)
  --max-steps N       evaluation steps one script may take before it fails as looping
                      (default 200000000)
  --ledger core       (default) the reference server's participant: the DAR uploaded and vetted,
                      parties hint::1220..., users and rights, offsets; time moves forward only
  --ledger memory     a small ledger of its own, as daml test's IDE ledger (time may go back)

Exit codes: 0 every script passed, 1 a script failed, 2 usage error, unknown script, or a DAR
that cannot be read, decoded or uploaded.`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseFlags({
    args: argv,
    options: {
      dar: { type: 'string' },
      script: { type: 'string', multiple: true },
      'report-dir': { type: 'string' },
      'max-steps': { type: 'string' },
      ledger: { type: 'string' },
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
  const ledgerKind = values.ledger ?? 'core';
  if (ledgerKind !== 'core' && ledgerKind !== 'memory') throw new UsageError(`--ledger takes core or memory (got '${ledgerKind}')`);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(values.dar);
  } catch (e) {
    throw new UsageError(`cannot read the DAR ${values.dar}: ${(e as Error).message}`);
  }
  const loaded = loadDarScripts(bytes);
  if (!loaded.ok) throw new UsageError(`${values.dar}: ${loaded.message}`);
  const byName = new Map(loaded.loaded.scripts.map((s) => [scriptName(s), s]));
  const selected: QualifiedName[] = [];
  for (const wanted of values.script ?? []) {
    const ref = byName.get(wanted);
    if (!ref) {
      const hint = closest(wanted, byName.keys());
      throw new UsageError(`no script '${wanted}' in ${values.dar}${hint ? ` (did you mean ${hint}?)` : ''}; scripts are named Module:name`);
    }
    if (!selected.includes(ref)) selected.push(ref);
  }
  let ledger: ScriptLedgerFactory = inMemoryScriptLedger;
  if (ledgerKind === 'core') {
    const core = coreScriptLedgers(loaded.loaded);
    if (!core.ok) throw new UsageError(`${values.dar}: the participant refuses the DAR: ${core.error}`);
    ledger = core.value;
  }
  const mainName = loaded.loaded.dar.main.metadata ? `${loaded.loaded.dar.main.metadata.name}-${loaded.loaded.dar.main.metadata.version}` : loaded.loaded.dar.main.id;
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const results = runDarScripts(loaded.loaded, selected.length > 0 ? selected : loaded.loaded.scripts, {
    stepBudget: maxSteps === undefined ? undefined : Number(maxSteps),
    ledger,
    onResult: (r) => {
      console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name}  ${r.durationMs.toFixed(0)} ms${r.ok ? '' : `\n      ${r.failure!.kind}: ${r.failure!.message}`}`);
    },
  });
  const durationMs = performance.now() - started;
  const failed = results.filter((r) => !r.ok).length;
  const reportDir = values['report-dir'] ?? 'reports';
  await mkdir(reportDir, { recursive: true });
  const run = { dar: mainName, startedAt, durationMs, results };
  await writeFile(join(reportDir, 'junit.xml'), renderScriptJunit(run));
  await writeFile(join(reportDir, 'summary.md'), renderScriptSummary(run));
  console.log(`\n${results.length - failed} passed, ${failed} failed, ${results.length} script${results.length === 1 ? '' : 's'} in ${(durationMs / 1000).toFixed(1)} s on ${ledgerKind === 'core' ? 'the ledger core' : 'the in-memory ledger'}; reports in ${reportDir}`);
  return failed > 0 ? ExitCode.Failures : ExitCode.Ok;
}
