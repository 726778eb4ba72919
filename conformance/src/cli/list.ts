import { catalogue } from '../checks/catalogue.js';
import { parseSelectors, SelectionError, selectChecks } from '../runner/select.js';
import { ExitCode, UsageError } from './exitCodes.js';
import { parseFlags } from './parseFlags.js';
import { coverageOf, type Coverage } from '../report/coverage.js';
import { JUDGE_DAML } from '../reinterpret/judgeDamlIds.js';
import { INVARIANTS } from '../judge/invariants.js';
import { JUDGE_HISTORY } from '../history/historyIds.js';

function printCoverage(c: Coverage): void {
  const w = Math.max(...c.operations.map((o) => `${o.method} ${o.path}`.length));
  for (const o of c.operations) console.log(`${`${o.method} ${o.path}`.padEnd(w)}  ${o.checks.length === 0 ? 'NO BEHAVIOUR CHECK' : o.checks.join(', ')}`);
  console.log('');
  for (const r of c.rules) console.log(`rule: ${r.rule}\n      ${r.checks.length === 0 ? `NO CHECK${r.gap ? ` (${r.gap})` : ''}` : r.checks.join(', ')}`);
  console.log('');
  console.log(`${c.operations.length - c.uncovered.length} of ${c.operations.length} operations have a behaviour check${c.uncovered.length ? `; none: ${c.uncovered.join(', ')}` : ''}`);
  console.log(`${c.rules.length - c.uncheckedRules.length} of ${c.rules.length} documented rules have a check${c.uncheckedRules.length ? `; none: ${c.uncheckedRules.map((r) => `"${r}"`).join(', ')}` : ''}`);
}

export const LIST_HELP = `Usage: canton-conformance list [--only SEL] [--skip SEL] [--json] [--coverage] [--invariants]

Prints every check: id, level, group, kind and title (or JSON with the operation and rule too).
--only/--skip take the same selectors as \`run\`, so you can preview a selection.
--coverage maps every operation of specs/ to its behaviour checks and every documented rule to
the checks that enforce it, and names the operations and rules with none (exit 1 if any
operation has none).
--invariants prints the named invariants (judge.*) every answer is judged by against the target's
own earlier answers, and what re-interpretation compares (judge.daml.*: a check fails with one of
these when a transaction it caused differs from the engine's), and what the history judge holds
the parsed token-standard history to (judge.history.*), with the rule each enforces.`;

export async function run(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseFlags({ args: argv, options: { only: { type: 'string', multiple: true }, skip: { type: 'string', multiple: true }, json: { type: 'boolean' }, coverage: { type: 'boolean' }, invariants: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: false }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (values.help) {
    console.log(LIST_HELP);
    return ExitCode.Ok;
  }
  if (values.invariants) {
    const all = [...INVARIANTS, ...JUDGE_DAML, ...JUDGE_HISTORY];
    if (values.json) console.log(JSON.stringify(all, null, 2));
    else for (const i of all) console.log(`${i.id}  ${i.title}\n    ${i.rule}`);
    return ExitCode.Ok;
  }
  let checks;
  try {
    checks = selectChecks(catalogue(), parseSelectors(values.only ?? []), parseSelectors(values.skip ?? []));
  } catch (e) {
    if (e instanceof SelectionError) throw new UsageError(e.message);
    throw e;
  }
  if (values.coverage) {
    const c = coverageOf(checks);
    if (values.json) console.log(JSON.stringify(c, null, 2));
    else printCoverage(c);
    return c.uncovered.length > 0 ? ExitCode.Failures : ExitCode.Ok;
  }
  if (values.json) {
    console.log(JSON.stringify(checks.map(({ id, title, group, operationId, level, kind, specRef, requires, observer }) => ({ id, title, group, operationId, level, kind, specRef, ...(requires ? { requires } : {}), ...(observer ? { observer } : {}) })), null, 2));
    return ExitCode.Ok;
  }
  const w = Math.max(...checks.map((c) => c.id.length));
  for (const c of checks) console.log(`${c.id.padEnd(w)}  ${c.level.padEnd(6)}  ${c.group.padEnd(8)}  ${c.kind.padEnd(11)}  ${c.title}`);
  console.log(`\n${checks.length} checks`);
  return Promise.resolve(ExitCode.Ok);
}
