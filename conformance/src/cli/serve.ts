import { parseArgs } from 'node:util';
import { ExitCode, UsageError } from './exitCodes.js';

const HELP = `Usage: canton-conformance serve [--port N] [--host H] [--fixtures FILE] [--auth none]

Starts the reference server (JSON Ledger API v2 over HTTP and WebSocket) and prints one line with
its URL once it listens. Stops cleanly on SIGINT or SIGTERM.

Options:
  --port N         port to listen on (default: $PORT, else 7575; 0 picks a free port)
  --host H         address to bind (default: $HOST, else 127.0.0.1)
  --fixtures FILE  the ledger world to start from (default: the fixtures shipped in fixtures/)
  --auth none      no authentication, like an unsecured sandbox (the only mode in this build)`;

interface ServeArgs {
  readonly port: number;
  readonly host: string;
  readonly fixtures: string | undefined;
}

/** Flags win over PORT/HOST, which win over the defaults. */
export function parseServeArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ServeArgs | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        fixtures: { type: 'string' },
        auth: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (values.help === true) return 'help';
  if (values.auth !== undefined && values.auth !== 'none') {
    throw new UsageError(`--auth ${values.auth} is not available in this build (only --auth none)`);
  }
  const rawPort = values.port ?? env['PORT'] ?? '7575';
  const port = /^\d{1,5}$/.test(rawPort) ? Number(rawPort) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`invalid port '${rawPort}' (expected 0-65535)`);
  const host = values.host ?? env['HOST'] ?? '127.0.0.1';
  if (host === '') throw new UsageError('--host must not be empty');
  return { port, host, fixtures: values.fixtures };
}

export async function run(argv: string[]): Promise<number> {
  const args = parseServeArgs(argv);
  if (args === 'help') {
    console.log(HELP);
    return ExitCode.Ok;
  }
  // Loaded here so `--help` and usage errors stay fast.
  const { startReferenceServer } = await import('../../../reference-server/src/startReferenceServer.js');
  let server;
  try {
    server = await startReferenceServer(args);
  } catch (e) {
    // A fixtures file that does not hold up, or a port that cannot be had, is a configuration error (exit 2).
    if (e instanceof Error && e.name === 'FixturesError') throw new UsageError(`invalid fixtures:\n${e.message}`);
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`${args.host}:${args.port} is already in use (pick another with --port or PORT)`);
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new UsageError(`cannot listen on ${args.host}:${args.port} (${code})`);
    throw e;
  }
  console.log(`canton-conformance reference server listening on ${server.url}`);

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  return ExitCode.Ok;
}
