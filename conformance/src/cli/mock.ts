import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createConnection, createServer } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { closest } from '../runner/select.js';
import { isSpecGroup, ourSpecFile, packageRoot, SPEC_GROUPS, type SpecGroup } from '../schema/index.js';
import { ExitCode, UsageError } from './exitCodes.js';
import { hostNotFound } from './hostNotFound.js';
import { parseFlags } from './parseFlags.js';
import { startedByNpm, watchParent } from './watchParent.js';

export const DEFAULT_MOCK_PORT = 4010;
const READY_TIMEOUT_MS = 60_000;

export interface MockOptions {
  group: SpecGroup;
  /** 0 picks a free port. */
  port: number;
  host: string;
  /** Generate responses from the schemas (json-schema-faker) instead of serving the examples. */
  dynamic: boolean;
  /** Makes dynamic responses reproducible. */
  seed?: number;
}

export interface RunningMock {
  url: string;
  specFile: string;
  child: ChildProcess;
  /** Resolves with Prism's exit code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Stops Prism (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

export const MOCK_USAGE = [
  'Usage: canton-conformance mock --group registry|ledger|scan [--port N] [--host H] [--dynamic] [--seed N]',
  '',
  'Starts Prism on our OpenAPI document of one endpoint group: a contract-only stub that answers',
  'with the documented examples (or, with --dynamic, with data generated from the schemas) and',
  'rejects requests that do not match the document. It keeps no state: for behaviour, use the',
  'reference server (`serve`) or the msw handlers.',
  '',
  'The ledger document declares bearer authentication on its operations, so Prism answers 401',
  'to a request without an Authorization header: send any `Authorization: Bearer x` (Prism does',
  'not check the token).',
  '',
  '  --group G    registry (A), ledger (B) or scan (C)            (required)',
  `  --port N     port to listen on; 0 picks a free one           (default ${DEFAULT_MOCK_PORT})`,
  '  --host H     interface to bind                               (default 127.0.0.1)',
  '  --dynamic    generate responses from the schemas',
  '  --seed N     seed for --dynamic, for reproducible responses',
].join('\n');

/** Reads the command line; anything wrong is a UsageError (exit 2). */
export function parseMockArgs(argv: string[]): MockOptions | 'help' {
  let values;
  try {
    ({ values } = parseFlags({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        group: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        dynamic: { type: 'boolean' },
        seed: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\n\n${MOCK_USAGE}`);
  }
  if (values.help) return 'help';
  const group = values.group;
  if (group === undefined) throw new UsageError(`--group is required (${SPEC_GROUPS.join('|')})\n\n${MOCK_USAGE}`);
  if (!isSpecGroup(group)) {
    const near = closest(group, SPEC_GROUPS);
    throw new UsageError(`unknown group '${group}'${near === undefined ? '' : ` (did you mean '${near}'?)`}: expected one of ${SPEC_GROUPS.join(', ')}`);
  }
  const options: MockOptions = {
    group,
    port: values.port === undefined ? DEFAULT_MOCK_PORT : integer('--port', values.port, 0, 65535),
    host: values.host ?? '127.0.0.1',
    dynamic: values.dynamic ?? false,
  };
  if (values.host === '') throw new UsageError('--host must not be empty');
  if (values.seed !== undefined) options.seed = integer('--seed', values.seed, 0, Number.MAX_SAFE_INTEGER);
  return options;
}

function integer(flag: string, text: string, min: number, max: number): number {
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got '${text}'`);
  return n;
}

/** The Prism CLI script of our own dependency (not whatever `prism` is on PATH). */
export function prismBin(): string {
  const require = createRequire(import.meta.url);
  const pkgFile = require.resolve('@stoplight/prism-cli/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin['prism'];
  if (bin === undefined) throw new Error(`@stoplight/prism-cli declares no 'prism' bin in ${pkgFile}`);
  return join(dirname(pkgFile), bin);
}

/** Resolves with a port that was free a moment ago (the OS picks it when `port` is 0). */
function claimPort(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' || e.code === 'EACCES' || e.code === 'EADDRNOTAVAIL' ? new UsageError(`cannot listen on ${host}:${port}: ${e.code}`) : hostNotFound(e, host, port) ?? e),
    );
    probe.listen(port, host, () => {
      const address = probe.address();
      const chosen = typeof address === 'object' && address !== null ? address.port : port;
      probe.close(() => resolve(chosen));
    });
  });
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);

/**
 * Starts Prism on our spec of one group and resolves once it accepts connections. Prism's own
 * output goes where `stdio` says (the CLI shows it; tests drop it).
 */
export async function startMock(options: MockOptions, stdio: 'inherit' | 'ignore' = 'inherit'): Promise<RunningMock> {
  const specFile = ourSpecFile(options.group);
  const port = await claimPort(options.host, options.port);
  const args = [prismBin(), 'mock', specFile, '--port', String(port), '--host', options.host];
  if (options.dynamic) args.push('--dynamic');
  if (options.seed !== undefined) args.push('--seed', String(options.seed));
  const child = spawn(process.execPath, args, { stdio: ['ignore', stdio, stdio] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: 1, signal: null }));
  });
  let gone = false;
  void exited.then(() => (gone = true));

  // Prism takes a few seconds to load a large document; poll until it listens or dies.
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await accepts(options.host, port))) {
    if (gone) {
      const { code, signal } = await exited;
      throw new Error(`Prism exited before listening (code ${code}, signal ${signal}) on ${specFile}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`Prism did not listen on ${options.host}:${port} within ${READY_TIMEOUT_MS / 1000}s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://${urlHost(options.host)}:${port}`,
    specFile,
    child,
    exited,
    async stop() {
      if (!gone) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `canton-conformance mock`: runs Prism in the foreground until it exits or we are signalled (its log shown; tests drop it). */
export async function run(argv: string[], prismOutput: 'inherit' | 'ignore' = 'inherit'): Promise<number> {
  const options = parseMockArgs(argv);
  if (options === 'help') {
    console.log(MOCK_USAGE);
    return ExitCode.Ok;
  }
  let mock: RunningMock;
  try {
    mock = await startMock(options, prismOutput);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    console.error(`canton-conformance mock: ${(e as Error).message}`);
    return ExitCode.Failures;
  }
  let forwarded = false;
  const forward = (signal: NodeJS.Signals) => {
    forwarded = true;
    mock.child.kill(signal);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, forward);
  // npm/npx pass a signal to their shell only: once it is gone, stop Prism as if signalled (see watchParent).
  const unwatch = startedByNpm() ? watchParent(() => forward('SIGTERM')) : () => undefined;
  // However this process ends, Prism ends with it rather than keep the port.
  let gone = false;
  const orphanGuard = () => void (gone || mock.child.kill('SIGTERM'));
  process.once('exit', orphanGuard);
  console.log(`Prism mock of the ${options.group} spec (${relative(packageRoot(), mock.specFile)}) on ${mock.url}`);
  const { code } = await mock.exited;
  gone = true;
  unwatch();
  process.off('exit', orphanGuard);
  for (const s of signals) process.off(s, forward);
  // Stopped on request (Ctrl-C) is a normal end; Prism dying on its own is not.
  if (forwarded) return ExitCode.Ok;
  return code === 0 ? ExitCode.Ok : ExitCode.Failures;
}
