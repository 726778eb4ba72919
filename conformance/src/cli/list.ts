import { parseArgs } from 'node:util';
import { catalogue } from '../checks/catalogue.js';
import { parseSelectors, SelectionError, selectChecks } from '../runner/select.js';
import { ExitCode, UsageError } from './exitCodes.js';

const HELP = `Usage: canton-conformance list [--only SEL] [--skip SEL] [--json]

Prints every check: id, level, group, kind and title (or JSON with the operation and rule too).
--only/--skip take the same selectors as \`run\`, so you can preview a selection.`;

export async function run(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { only: { type: 'string', multiple: true }, skip: { type: 'string', multiple: true }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (values.help) {
    console.log(HELP);
    return ExitCode.Ok;
  }
  let checks;
  try {
    checks = selectChecks(catalogue(), parseSelectors(values.only ?? []), parseSelectors(values.skip ?? []));
  } catch (e) {
    if (e instanceof SelectionError) throw new UsageError(e.message);
    throw e;
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
