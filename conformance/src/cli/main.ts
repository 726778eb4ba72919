import { readFileSync } from 'node:fs';
import { closest } from '../runner/select.js';
import { ExitCode, UsageError } from './exitCodes.js';

/** Whether `e` is Node's error for a file or folder it could not use (it names the path): the user's configuration, exit 2. */
function isPathError(e: unknown): e is NodeJS.ErrnoException & { path: string } {
  const x = e as NodeJS.ErrnoException;
  return e instanceof Error && typeof x.code === 'string' && typeof x.syscall === 'string' && typeof x.path === 'string';
}

/** One module per command; each exports `run(argv)` resolving to an exit code. */
type Command = { summary: string; load: () => Promise<{ run(argv: string[]): Promise<number> }> };

const commands: Record<string, Command> = {
  serve: { summary: 'start the reference server (Koa) with the default or given fixtures', load: () => import('./serve.js') },
  run: { summary: 'run the conformance suite against a target and write a report', load: () => import('./run.js') },
  doctor: { summary: 'preflight: is the target the kind the profile says, does the token work, which rights and checks are missing', load: () => import('./doctor.js') },
  list: { summary: 'list every check id with its title, group and level', load: () => import('./list.js') },
  mock: { summary: 'start Prism on one of our specs (registry, ledger or scan)', load: () => import('./mock.js') },
  report: { summary: 'merge or compare reports (report merge, report --diff A B)', load: () => import('./report.js') },
  test: { summary: "run the Daml Script tests of a DAR on the reference server's ledger core (test --dar FILE)", load: () => import('./test.js') },
  token: { summary: 'mint a test JWT for a user, signed with the TEST-ONLY keys in fixtures/keys', load: () => import('./token.js') },
};

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

function help(): string {
  const width = Math.max(...Object.keys(commands).map((c) => c.length));
  return [
    'Usage: canton-conformance <command> [options]',
    '',
    'Commands:',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  --help     show this help (or `<command> --help` for a command)',
    '  --version  print the version',
    '',
    'Exit codes: 0 no unexpected failure, 1 unexpected failures or stale baseline entries,',
    '            2 usage or configuration error, 3 target unreachable,',
    '            130/143 stopped by SIGINT/SIGTERM (`run` writes the reports of what ran).',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(help());
    return name === undefined ? ExitCode.Usage : ExitCode.Ok;
  }
  if (name === '--version' || name === '-v') {
    console.log(packageVersion());
    return ExitCode.Ok;
  }
  const command = commands[name];
  if (command === undefined) {
    const near = closest(name, Object.keys(commands));
    console.error(`canton-conformance: unknown command '${name}'${near ? ` (did you mean '${near}'?)` : ''}\n\n${help()}`);
    return ExitCode.Usage;
  }
  try {
    return await (await command.load()).run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`canton-conformance ${name}: ${e.message}`);
      return ExitCode.Usage;
    }
    // A file or folder the command was given and cannot use (a baseline to write, a report folder
    // filled up meanwhile): Node's message names it; a configuration error, not a crash.
    if (isPathError(e)) {
      console.error(`canton-conformance ${name}: ${e.message}`);
      return ExitCode.Usage;
    }
    throw e;
  }
}
