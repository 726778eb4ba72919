import { readFileSync, rmSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import type { AuthConfig } from '../../../reference-server/src/http/api/auth/authConfig.js';
import { fixtureKeyPath } from './fixtureKeyPath.js';
import { defaultHttpConfig, type HttpConfig } from '../../../reference-server/src/http/api/config.js';
import type { EngineLimits } from '../../../reference-server/src/ledger/engine/engineLimits.js';
import { ExitCode, UsageError } from './exitCodes.js';
import { hostNotFound } from './hostNotFound.js';
import { CANTON_VERSIONS, isCantonVersion, type CantonVersion } from '../../../reference-server/src/http/api/cantonVersion.js';
import { parseFlags } from './parseFlags.js';
import { startedByNpm, watchParent } from './watchParent.js';

export const SERVE_HELP = `Usage: canton-conformance serve [--port N] [--host H] [--fixtures FILE] [--dar FILE]... [--splice-dars DIR]
         [--auth none|hs256|rs256|es256]
         [--auth-secret S | --auth-public-key FILE | --auth-jwks URL | --auth-test-key]
         [--audience A | --scope S] [--no-reward-accounting] [--list-max-elements N]
         [--data-dir DIR] [--max-streams-per-user N] [--canton-version 3.4|3.5|3.6]
         [--headers-timeout-ms MS] [--request-timeout-ms MS] [--ready-file FILE] [--log-requests]
         [--step-budget N] [--allocation-budget-mib N] [--max-transaction-mib N] [--view-step-budget N]
         [--no-engine-thread]
       canton-conformance serve --localnet [--localnet-port-base N] [--host H] [--fixtures FILE]
         [--dar FILE]... [--splice-dars DIR] [--data-dir DIR] [--no-reward-accounting]
         [--list-max-elements N] [--ready-file FILE] [--log-requests] [--no-engine-thread]

Starts the reference server (JSON Ledger API v2 over HTTP and WebSocket) and prints one line with
its URL, its auth mode and the DARs it loaded once it listens. Stops cleanly on SIGINT or SIGTERM
(started by npm or npx: also when npm is stopped, so no server is left behind).

Options:
  --port N         port to listen on (default: $PORT, else 7575; 0 picks a free port)
  --host H         address to bind (default: $HOST, else 127.0.0.1)
  --fixtures FILE  the ledger world to start from (default: the fixtures shipped in fixtures/);
                   the registry's and Scan's sample world is seeded beside it unless the file
                   says "appWorld": false
  --dar FILE       upload a DAR at start, as POST /v2/dars does (repeat for more): its packages are
                   listed and vetted on every synchronizer (with --localnet: the ledger both
                   participants serve); a file that cannot be read or uploaded stops the start
  --splice-dars DIR  a folder of Splice's DARs (LocalNet's, or a Splice release's; of several
                   versions of a package, the highest): they are loaded first and the default
                   world's Amulet (the DSO's AmuletRules and rounds, the parties' amulet and
                   preapprovals) is built on its splice-amulet, which the token-standard registry
                   and Scan then answer from; without it they answer from built-in ports. A folder
                   without splice-amulet stops the start (exit 2)
  --auth MODE      none (default): no authentication, like an unsecured sandbox;
                   hs256 | rs256 | es256: every request needs a JWT signed with that algorithm
                   ("Authorization: Bearer <JWT>", or the jwt.token.<JWT> WebSocket subprotocol);
                   its "sub" is the user id, whose rights come from the user store
  --auth-secret S  the HS256 shared secret
  --auth-public-key FILE  the RS256/ES256 public key: PEM (SPKI or certificate), JWK or JWKS file
  --auth-jwks URL  an http(s) JWKS URL (fetched on demand, cached, keys rotate by kid) or a file: URL
  --auth-test-key  the TEST-ONLY key of that algorithm bundled with this package (fixtures/keys),
                   the one \`canton-conformance token\` signs with; works from any directory.
                   Public: never use it for anything real
  --audience A     accept audience-based tokens whose aud contains A
                   (e.g. https://daml.com/jwt/aud/participant/<participantId>)
  --scope S        accept scope-based tokens whose scope contains S (default daml_ledger_api;
                   without --audience or --scope, tokens for this participant's audience pass too)
  --list-max-elements N  list endpoints (active contracts, updates, completions) answer 413 above N
                   elements unless ?limit= asks for fewer (the participant's
                   http-list-max-elements-limit; default 200)
  --canton-version V  the Canton line served (default 3.5, as of 3.5.10): /v2/version answers 3.4.0,
                   3.5.10 or 3.6.0, and operations that line's JSON Ledger API document lacks answer
                   404 (3.4: no pages, contract lookup, vetting list/update, GetCompletions; 3.6, a
                   preview of main's 3.6.0-SNAPSHOT: no flats, trees, transaction lookups, old vetting;
                   adds the lookups by transaction hash, the party JWKS, transactionHash,
                   the ledger end's synchronizerTimes, CanActAsAnyParty)
  --max-streams-per-user N  open WebSocket streams one user may hold (the unsecured server counts
                   as one user); the next gets MAXIMUM_NUMBER_OF_STREAMS (default 1000)
  --headers-timeout-ms MS  a client must send its request headers within MS, else 408 (default 20000)
  --request-timeout-ms MS  a client must send its whole request within MS, else 408 (default 60000);
                   responses, streams included, are not limited
  --step-budget N  evaluation steps one command on an uploaded package may take; past them it is
                   refused with INTERPRETATION_TIME_EXCEEDED (default 10000000)
  --allocation-budget-mib N  MiB one command may allocate, builtins charged by the size of what
                   they build; past it: INTERPRETATION_ALLOCATION_EXCEEDED (default 256)
  --max-transaction-mib N  MiB a command's result, and its transaction's values, may take; past
                   it: TRANSACTION_SIZE_EXCEEDED (default 16)
  --view-step-budget N  evaluation steps one interface view on a read or stream may take; past
                   them the view reports a failed viewStatus and the read goes on (default 1000000)
  --no-engine-thread  commands on uploaded packages run on the server's own thread, in slices
                   between other requests, instead of on a thread of their own beside it (the
                   default: the same answers, with --splice-dars about 25% more Amulet transfers
                   a second on two cores, for about 100 MB more memory)
  --no-reward-accounting  Scan runs without reward accounting: the earliest-round endpoints answer
                   404 "Reward accounting is not enabled", as a Scan without its activity store does
  --ready-file FILE  once it listens, write its URL (with --localnet: the ledger's) to FILE, and
                   remove FILE when it stops: a script waits for this file, not for a /livez that
                   another server on the port may answer
  --log-requests   one line per request on stderr: time, method, path (no query), status,
                   duration and the authenticated user ("-" for none); WebSocket upgrades too.
                   Tokens, headers and bodies are never logged
  --data-dir DIR   keep the ledger in an SQLite database in DIR (created if missing): a restart on
                   the same DIR, even after kill -9, resumes at the same ledger end with the same
                   offsets, ids and deduplication; one server per DIR. Without it the ledger lives
                   in memory and is gone when the server stops

LocalNet mode (a drop-in for Splice LocalNet's app-user side, one ledger behind its listeners):
  --localnet       the JSON Ledger API on 2975, the validator on 2000 under /api/validator
                   (validator-user, the scan proxy, the registry under /v0/scan-proxy), Scan on
                   4000 under /api/scan, the token-standard registry on 5003; HS256 tokens signed
                   with the secret "unsafe" for the audience https://canton.network.global (the
                   --auth flags do not apply); ledger-api-user is the participant admin acting as
                   the validator party; other users are created on first use, without rights;
                   the app provider's participant on 3975 (same ledger, its own participant id)
                   co-hosts parties
  --localnet-port-base N  listen on N..N+4 instead (ledger, validator, scan, token standard,
                   app provider ledger); 0 picks free ports. Prints one line naming the URLs

Try the secured mode from any directory:
  canton-conformance serve --auth es256 --auth-test-key &
  curl -H "Authorization: Bearer $(canton-conformance token --user alice --auth es256)" \\
       http://127.0.0.1:7575/v2/authenticated-user`;

interface ServeArgs {
  /** `--localnet`: LocalNet's listeners; `portBase` undefined means LocalNet's own ports. */
  readonly localnet?: { readonly portBase: number | undefined };
  readonly port: number;
  readonly host: string;
  readonly fixtures: string | undefined;
  /** `--dar FILE`, in the order given. */
  readonly dars: readonly string[];
  /** `--splice-dars DIR`. */
  readonly spliceDars: string | undefined;
  readonly auth: AuthConfig;
  readonly rewardAccounting: boolean;
  readonly listMaxElements: number | undefined;
  readonly cantonVersion?: CantonVersion;
  readonly dataDir: string | undefined;
  readonly http: Partial<HttpConfig>;
  /** `--ready-file FILE`: the URL is written there once the server listens. */
  readonly readyFile: string | undefined;
  readonly logRequests: boolean;
  readonly engineLimits: Partial<EngineLimits>;
  /** Commands on uploaded packages run on a thread of their own (unless `--no-engine-thread`). */
  readonly engineThread: boolean;
}

/** Flags win over PORT/HOST, which win over the defaults. */
export function parseServeArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ServeArgs | 'help' {
  let values;
  try {
    ({ values } = parseFlags({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        fixtures: { type: 'string' },
        dar: { type: 'string', multiple: true },
        'splice-dars': { type: 'string' },
        auth: { type: 'string' },
        'auth-secret': { type: 'string' },
        'auth-public-key': { type: 'string' },
        'auth-jwks': { type: 'string' },
        'auth-test-key': { type: 'boolean' },
        audience: { type: 'string' },
        scope: { type: 'string' },
        'no-reward-accounting': { type: 'boolean' },
        'no-engine-thread': { type: 'boolean' },
        'list-max-elements': { type: 'string' },
        'canton-version': { type: 'string' },
        'data-dir': { type: 'string' },
        'max-streams-per-user': { type: 'string' },
        'headers-timeout-ms': { type: 'string' },
        'request-timeout-ms': { type: 'string' },
        'step-budget': { type: 'string' },
        'allocation-budget-mib': { type: 'string' },
        'max-transaction-mib': { type: 'string' },
        'view-step-budget': { type: 'string' },
        localnet: { type: 'boolean' },
        'localnet-port-base': { type: 'string' },
        'ready-file': { type: 'string' },
        'log-requests': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (values.help === true) return 'help';
  const localnet = localNetOf(values);
  const auth = authConfigOf(values);
  const rawPort = values.port ?? env['PORT'] ?? '7575';
  const port = /^\d{1,5}$/.test(rawPort) ? Number(rawPort) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`invalid port '${rawPort}' (expected 0-65535)`);
  const host = values.host ?? env['HOST'] ?? '127.0.0.1';
  if (host === '') throw new UsageError('--host must not be empty');
  const rawMax = values['list-max-elements'];
  const listMaxElements = rawMax === undefined ? undefined : /^\d{1,9}$/.test(rawMax) && Number(rawMax) > 0 ? Number(rawMax) : Number.NaN;
  if (Number.isNaN(listMaxElements)) throw new UsageError(`--list-max-elements must be a positive whole number, got '${rawMax}'`);
  const rawVersion = values['canton-version'];
  if (rawVersion !== undefined && !isCantonVersion(rawVersion)) throw new UsageError(`--canton-version must be one of ${CANTON_VERSIONS.join(', ')}, got '${rawVersion}'`);
  if (rawVersion !== undefined && localnet !== undefined) throw new UsageError('--canton-version cannot be combined with --localnet (LocalNet serves 3.5)');
  const dars = values.dar ?? [];
  if (dars.includes('')) throw new UsageError('--dar must name a file');
  const spliceDars = values['splice-dars'];
  if (spliceDars === '') throw new UsageError('--splice-dars must name a folder');
  const dataDir = values['data-dir'];
  if (dataDir === '') throw new UsageError('--data-dir must not be empty');
  const http: Partial<Mutable<HttpConfig>> = {};
  const count = (flag: string, raw: string | undefined): number | undefined => {
    if (raw === undefined) return undefined;
    if (!/^\d{1,9}$/.test(raw) || Number(raw) <= 0) throw new UsageError(`--${flag} must be a positive whole number, got '${raw}'`);
    return Number(raw);
  };
  const streams = count('max-streams-per-user', values['max-streams-per-user']);
  if (streams !== undefined) http.maxStreamsPerUser = streams;
  const headers = count('headers-timeout-ms', values['headers-timeout-ms']);
  if (headers !== undefined) http.headersTimeoutMs = headers;
  const request = count('request-timeout-ms', values['request-timeout-ms']);
  if (request !== undefined) http.requestTimeoutMs = request;
  const engineLimits: Partial<Mutable<EngineLimits>> = {};
  const steps = count('step-budget', values['step-budget']);
  if (steps !== undefined) engineLimits.stepBudget = steps;
  const allocation = count('allocation-budget-mib', values['allocation-budget-mib']);
  if (allocation !== undefined) engineLimits.allocationBudget = allocation * MiB;
  const transaction = count('max-transaction-mib', values['max-transaction-mib']);
  if (transaction !== undefined) engineLimits.maxTransactionBytes = transaction * MiB;
  const viewSteps = count('view-step-budget', values['view-step-budget']);
  if (viewSteps !== undefined) engineLimits.viewStepBudget = viewSteps;
  // Node refuses a headers timeout longer than the request timeout.
  const effectiveHeaders = http.headersTimeoutMs ?? defaultHttpConfig.headersTimeoutMs;
  const effectiveRequest = http.requestTimeoutMs ?? defaultHttpConfig.requestTimeoutMs;
  if (effectiveHeaders > effectiveRequest) throw new UsageError(`--headers-timeout-ms (${effectiveHeaders}) must not exceed --request-timeout-ms (${effectiveRequest})`);
  const readyFile = values['ready-file'];
  if (readyFile === '') throw new UsageError('--ready-file must name a file');
  return {
    ...(localnet === undefined ? {} : { localnet }),
    port, host, fixtures: values.fixtures, dars, spliceDars, auth, rewardAccounting: values['no-reward-accounting'] !== true, listMaxElements, ...(rawVersion === undefined ? {} : { cantonVersion: rawVersion }), dataDir, http,
    readyFile, logRequests: values['log-requests'] === true, engineLimits, engineThread: values['no-engine-thread'] !== true,
  };
}

const MiB = 1024 * 1024;

/** `--localnet [--localnet-port-base N]`; LocalNet's auth is fixed, so the auth flags and --port conflict with it. */
function localNetOf(values: Record<string, string | boolean | readonly string[] | undefined>): ServeArgs['localnet'] {
  const raw = values['localnet-port-base'];
  const rawBase = typeof raw === 'string' ? raw : undefined;
  if (values['localnet'] !== true) {
    if (rawBase !== undefined) throw new UsageError('--localnet-port-base needs --localnet');
    return undefined;
  }
  const conflicting = ['port', 'auth', 'auth-secret', 'auth-public-key', 'auth-jwks', 'auth-test-key', 'audience', 'scope'].find((f) => values[f] !== undefined);
  if (conflicting !== undefined) {
    throw new UsageError(
      conflicting === 'port'
        ? '--localnet listens on LocalNet\'s ports (2975, 2000, 4000, 5003, 3975); move them with --localnet-port-base N, not --port'
        : `--localnet uses LocalNet's auth (HS256, secret "unsafe", audience https://canton.network.global); --${conflicting} does not apply`,
    );
  }
  if (rawBase === undefined) return { portBase: undefined };
  const base = /^\d{1,5}$/.test(rawBase) ? Number(rawBase) : Number.NaN;
  if (!(base === 0 || (base >= 1 && base <= 65531))) throw new UsageError(`--localnet-port-base must be 0 (free ports) or 1-65531, got '${rawBase}'`);
  return { portBase: base };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface AuthFlags {
  readonly auth?: string | undefined;
  readonly 'auth-secret'?: string | undefined;
  readonly 'auth-public-key'?: string | undefined;
  readonly 'auth-jwks'?: string | undefined;
  readonly 'auth-test-key'?: boolean | undefined;
  readonly audience?: string | undefined;
  readonly scope?: string | undefined;
}

/** The auth flags as one consistent configuration, or a usage error naming the conflict. */
export function authConfigOf(flags: AuthFlags): AuthConfig {
  const mode = flags.auth ?? 'none';
  const sources = (['auth-secret', 'auth-public-key', 'auth-jwks', 'auth-test-key'] as const).filter((f) => flags[f] !== undefined && flags[f] !== false);
  if (mode === 'none') {
    const stray = [...sources, ...(['audience', 'scope'] as const).filter((f) => flags[f] !== undefined)];
    if (stray.length > 0) throw new UsageError(`--${stray[0]} needs --auth hs256, rs256 or es256`);
    return { mode: 'none' };
  }
  if (mode !== 'hs256' && mode !== 'rs256' && mode !== 'es256') throw new UsageError(`--auth must be none, hs256, rs256 or es256, got '${mode}'`);
  if (flags.audience !== undefined && flags.scope !== undefined) throw new UsageError('give either --audience or --scope, not both');
  if (flags.audience === '' || flags.scope === '') throw new UsageError(`--${flags.audience === '' ? 'audience' : 'scope'} must not be empty`);
  if (sources.length > 1) throw new UsageError(`give one key source, not both --${sources[0]} and --${sources[1]}`);
  const target = { ...(flags.audience === undefined ? {} : { audience: flags.audience }), ...(flags.scope === undefined ? {} : { scope: flags.scope }) };
  if (flags['auth-test-key'] === true) {
    // The bundled TEST-ONLY keys, found relative to this package (not the working directory).
    if (mode === 'hs256') return { mode, key: { kind: 'secret', secret: readFileSync(fixtureKeyPath('hs256.secret'), 'utf8').trim() }, ...target };
    return { mode, key: { kind: 'public-key-file', path: fixtureKeyPath(`${mode}-public.pem`) }, ...target };
  }
  if (mode === 'hs256') {
    if (flags['auth-secret'] === undefined) throw new UsageError('--auth hs256 needs --auth-secret S (or --auth-test-key)');
    return { mode, key: { kind: 'secret', secret: flags['auth-secret'] }, ...target };
  }
  if (flags['auth-public-key'] !== undefined) return { mode, key: { kind: 'public-key-file', path: flags['auth-public-key'] }, ...target };
  if (flags['auth-jwks'] !== undefined) return { mode, key: { kind: 'jwks', url: flags['auth-jwks'] }, ...target };
  throw new UsageError(`--auth ${mode} needs --auth-public-key FILE, --auth-jwks URL or --auth-test-key`);
}

export async function run(argv: string[]): Promise<number> {
  const args = parseServeArgs(argv);
  if (args === 'help') {
    console.log(SERVE_HELP);
    return ExitCode.Ok;
  }
  if (args.localnet !== undefined) return runLocalNet(args, args.localnet.portBase);
  // Loaded here so `--help` and usage errors stay fast.
  const { startReferenceServer } = await import('../../../reference-server/src/startReferenceServer.js');
  const { defaultPassedChecks } = await import('../../../reference-server/src/ledger/packages/passedChecksIn.js');
  let server;
  try {
    removeReadyFile(args.readyFile);
    server = await startReferenceServer({
      ...args,
      passedChecks: defaultPassedChecks(),
      ...requestLogOf(args),
      notice: (message) => console.error(`canton-conformance: ${message}`),
      // Stop rather than answer while the ledger can no longer be stored: what was acknowledged is on disk.
      onStorageFailure: (error) => {
        console.error(`canton-conformance: the ledger can no longer be written to ${args.dataDir ?? '?'} (${error.message}); stopping`);
        process.exit(1);
      },
    });
  } catch (e) {
    // A key that cannot be loaded is a configuration error (exit 2), not a crash.
    if (e instanceof Error && e.name === 'AuthConfigError') throw new UsageError(e.message);
    // So is a fixtures file that does not hold up, and a port that cannot be had.
    if (e instanceof Error && e.name === 'FixturesError') throw new UsageError(`invalid fixtures:\n${e.message}`);
    // And a data directory that is locked, damaged or not ours.
    if (e instanceof Error && e.name === 'DataDirError') throw new UsageError(e.message);
    // And a DAR that cannot be read or uploaded (one line naming it).
    if (e instanceof Error && e.name === 'DarsError') throw new UsageError(e.message);
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`${args.host}:${args.port} is already in use (pick another with --port or PORT)`);
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new UsageError(`cannot listen on ${args.host}:${args.port} (${code})`);
    throw hostNotFound(e, args.host, args.port) ?? e;
  }
  return serveUntilStopped(`canton-conformance reference server listening on ${server.url} (${startedWith(args.auth, server.dars)})`, server.url, args.readyFile, server.close);
}

/**
 * Announces the start (`announce`), serves until SIGINT or SIGTERM, then closes. However this ends
 * (a ready file that cannot be written included), nothing is left listening: an open server would
 * keep the process alive.
 */
async function serveUntilStopped(line: string, url: string, readyFile: string | undefined, close: () => Promise<void>): Promise<number> {
  const stop = stopSignal();
  try {
    const ready = await announce(line, url, readyFile);
    if (ready === ExitCode.Ok) await stop.stopped;
    return ready;
  } finally {
    stop.cancel();
    removeReadyFile(readyFile);
    await close();
  }
}

/** `auth: MODE (key source, audience or scope); DARs: a.dar, b.dar`: what this start serves with. */
export function startedWith(auth: AuthConfig | 'localnet', dars: readonly string[]): string {
  return `auth: ${auth === 'localnet' ? 'hs256 (LocalNet\'s secret "unsafe", audience https://canton.network.global)' : authSummary(auth)}; DARs: ${dars.length === 0 ? 'none' : dars.join(', ')}`;
}

/** The mode and where its key comes from; never the secret itself. */
function authSummary(auth: AuthConfig): string {
  if (auth.mode === 'none') return 'none';
  const source = (() => {
    const key = auth.key;
    if (key.kind === 'secret') return key.secret === readFileSync(fixtureKeyPath('hs256.secret'), 'utf8').trim() ? 'the TEST-ONLY key' : 'a shared secret';
    if (key.kind === 'public-key-file') return key.path === fixtureKeyPath(`${auth.mode}-public.pem`) ? 'the TEST-ONLY key' : `public key ${key.path}`;
    return `JWKS ${withoutCredentials(key.url)}`;
  })();
  const target = auth.audience !== undefined ? `, audience ${auth.audience}` : auth.scope !== undefined ? `, scope ${auth.scope}` : '';
  return `${auth.mode} (${source}${target})`;
}

function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    return url;
  }
}

/** `--log-requests`: one line per request on stderr. */
function requestLogOf(args: ServeArgs): { requestLog?: (line: string) => void } {
  return args.logRequests ? { requestLog: (line) => void process.stderr.write(`${line}\n`) } : {};
}

/**
 * Prints the start-up line, then writes `--ready-file` (whole or not at all: written aside, then
 * renamed). A file that cannot be written is a configuration error: the caller stops the server.
 */
async function announce(line: string, url: string, readyFile: string | undefined): Promise<number> {
  console.log(line);
  if (readyFile === undefined) return ExitCode.Ok;
  const aside = `${readyFile}.${process.pid}.tmp`;
  try {
    await writeFile(aside, `${url}\n`);
    await rename(aside, readyFile);
    // Gone however the process ends (a storage failure exits at once).
    process.once('exit', () => removeReadyFile(readyFile));
    return ExitCode.Ok;
  } catch (e) {
    console.error(`canton-conformance: --ready-file ${readyFile} cannot be written (${(e as Error).message}); stopping`);
    // Its folder may be no folder at all (then there is nothing aside to remove either).
    await rm(aside, { force: true }).catch(() => undefined);
    return ExitCode.Usage;
  }
}

/** An old ready file would tell a waiting script that this start is done before it is. */
function removeReadyFile(readyFile: string | undefined): void {
  try {
    if (readyFile !== undefined) rmSync(readyFile, { force: true });
  } catch {
    // Not a file (a directory): writing it will fail and say so.
  }
}

/**
 * Listens from now on for the first SIGINT or SIGTERM, or, when npm started the server, for npm's
 * shell in between to go (npm passes the signal to that shell only; see watchParent). Made before
 * the server is announced, so a signal sent the moment the line or the ready file appears is a
 * clean stop (reports and ready file handled), never the default kill.
 */
function stopSignal(): { readonly stopped: Promise<void>; readonly cancel: () => void } {
  let cancel: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    const unwatch = startedByNpm() ? watchParent(() => stop()) : () => undefined;
    cancel = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      unwatch();
    };
    const stop = () => {
      cancel();
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return { stopped, cancel };
}

async function runLocalNet(args: ServeArgs, portBase: number | undefined): Promise<number> {
  const { startLocalNet } = await import('../../../reference-server/src/localnet/startLocalNet.js');
  const { portsFrom } = await import('../../../reference-server/src/localnet/localNetConfig.js');
  const { defaultPassedChecks } = await import('../../../reference-server/src/ledger/packages/passedChecksIn.js');
  let localnet;
  try {
    removeReadyFile(args.readyFile);
    localnet = await startLocalNet({
      ...requestLogOf(args),
      host: args.host,
      fixtures: args.fixtures,
      dars: args.dars,
      spliceDars: args.spliceDars,
      rewardAccounting: args.rewardAccounting,
      listMaxElements: args.listMaxElements,
      engineLimits: args.engineLimits,
      engineThread: args.engineThread,
      passedChecks: defaultPassedChecks(),
      dataDir: args.dataDir,
      http: args.http,
      ...(portBase === undefined ? {} : { ports: portBase === 0 ? { ledger: 0, validator: 0, scan: 0, tokenStandard: 0, appProviderLedger: 0 } : portsFrom(portBase) }),
      notice: (message) => console.error(`canton-conformance: ${message}`),
      onStorageFailure: (error) => {
        console.error(`canton-conformance: the ledger can no longer be written to ${args.dataDir ?? '?'} (${error.message}); stopping`);
        process.exit(1);
      },
    });
  } catch (e) {
    if (e instanceof Error && e.name === 'DarsError') throw new UsageError(e.message);
    if (e instanceof Error && (e.name === 'FixturesError' || e.name === 'DataDirError')) throw new UsageError(e.name === 'FixturesError' ? `invalid fixtures:\n${e.message}` : e.message);
    if (e instanceof Error && e.name === 'LocalNetListenError') throw new UsageError(`${e.message}${portBase === undefined ? ' (is LocalNet running? move the listeners with --localnet-port-base N)' : ''}`);
    throw e;
  }
  const u = localnet.urls;
  return serveUntilStopped(
    `canton-conformance LocalNet listening: ledger ${u.ledger}, validator ${u.validator}, scan ${u.scan}, token standard ${u.tokenStandard}, app provider ledger ${u.appProviderLedger} (${startedWith('localnet', localnet.dars)})`,
    u.ledger,
    args.readyFile,
    localnet.close,
  );
}
