import type { EngineLimits } from '../ledger/engine/engineLimits.js';
import type { HttpHandler, WebSocketHandler } from 'msw';
import { createApps } from '../apps/index.js';
import { SeedingClock } from '../apps/world/SeedingClock.js';
import { APP_WORLD_TIME, seedAppWorld, type AppWorld } from '../apps/world/seedAppWorld.js';
import { loadSpliceDars, seedSpliceAppWorld, spliceSeedingFailure, type SpliceAppWorld } from '../apps/splice/seedSpliceAppWorld.js';
import type { SpliceAmulet } from '../apps/splice/SpliceAmulet.js';
import { readSpliceDars } from '../apps/splice/spliceDars.js';
import type { Authenticator } from '../http/api/auth/types.js';
import { ledgerApiChannels } from '../http/api/channels/channelTable.js';
import type { StreamChannel } from '../http/api/channels/StreamChannel.js';
import type { HttpConfig } from '../http/api/config.js';
import { consoleLogger } from '../http/api/consoleLogger.js';
import { createDispatcher, type Dispatch } from '../http/api/createDispatcher.js';
import type { Route } from '../http/api/route.js';
import { ledgerApiRoutes } from '../http/api/routes/routeTable.js';
import { API_VERSION, CANTON_VERSIONS, channelsOf, DEFAULT_CANTON_VERSION, isCantonVersion, routesOf, type CantonVersion } from '../http/api/cantonVersion.js';
import type { ApiLogger, ApiServices } from '../http/api/services.js';
import { createApiServices } from '../server.js';
import { applyFixtures, defaultWorldPath, type FixtureDarCache, formatFixtureError, loadFixtures, parseFixtures, type AppliedFixtures, type FixtureFile } from '../ledger/fixtures/index.js';
import { createLedger, type Ledger, type LedgerOptions, type Result } from '../ledger/index.js';
import { darLoader, readDarFiles, type DarEntry } from '../ledger/packages/startupDars.js';
import { createJwtAuthenticator } from '../http/api/auth/jwtAuthenticator.js';
import { APP_PROVIDER_PARTICIPANT_ID, LOCALNET_AUDIENCE, LOCALNET_PORTS, LOCALNET_SECRET, localNetUrls, type LocalNetPorts } from '../localnet/localNetConfig.js';
import { localNetRoutes } from '../localnet/localNetRoutes.js';
import { declareLocalNetTemplates, seedLocalNet } from '../localnet/seedLocalNet.js';
import { attachValidatorAutomation } from '../localnet/ValidatorAutomation.js';
import type { PassedChecks } from '../ledger/packages/validateDarPackages.js';
import { parseBaseUrl, type BaseUrl } from './baseUrl.js';
import { createDispatchHandler } from './createDispatchHandler.js';
import { createStreamLink } from './createStreamLink.js';
import {
  addPreapproval,
  allocateParty,
  createContract,
  createUser,
  unwrap,
  type CreatedContract,
  type NewContract,
  type NewPreapproval,
  type NewUser,
} from './ledgerSetup.js';

export const DEFAULT_LEDGER_URL = 'http://localhost:7575';
/**
 * The same default address as `npm start` prints it: code written against the server
 * (`http://127.0.0.1:7575`, the README's snippets) runs against the default handlers unchanged.
 */
export const DEFAULT_LEDGER_ALIAS_URL = 'http://127.0.0.1:7575';

export interface CreateHandlersOptions {
  /**
   * Base URL of the JSON Ledger API (group B) and its WebSocket streams. Default
   * `http://localhost:7575`, and then `http://127.0.0.1:7575` answers too (where a default URL applies).
   */
  readonly ledgerUrl?: string;
  /** Base URL of the token registry (group A). Default: the ledger URL. */
  readonly registryUrl?: string;
  /** Base URL of Scan (group C), e.g. `https://scan.example/api/scan`. Default: the ledger URL. */
  readonly scanUrl?: string;
  /**
   * What the ledger starts with, and returns to on `reset()`: `'none'` (default: no parties, no
   * contracts), `'default'` (the world `npm start` serves), a fixture file path, or a parsed file.
   */
  readonly fixtures?: 'none' | 'default' | string | FixtureFile;
  /**
   * DARs on the ledger from the start (and after every `reset()`), uploaded as `POST /v2/dars`
   * uploads them and vetted on every synchronizer: the bytes of a DAR, or in Node a file path
   * (relative to the working directory). An entry that cannot be read or uploaded throws an
   * error naming it (`dars[1] (my-app.dar): ...`).
   */
  readonly dars?: readonly (Uint8Array | string)[];
  /**
   * A folder of Splice's DARs (Node only), as `serve --splice-dars`: loaded first on every ledger,
   * and the apps' world (`appWorld`, or `localnet`) is built on its splice-amulet, whose ids are in
   * `spliceWorld` (`appWorld` stays undefined). Its round history steps the seeding clock five
   * ticks on (your `ledgerOptions.clock` too, if it has `advance`). A folder without splice-amulet throws.
   */
  readonly spliceDars?: string;
  /**
   * Also seed the registry's and Scan's sample world (allocation instructions, transfer
   * preapprovals, a round history) before the fixtures, as `npm start` does: the same ids the
   * README names, after every `reset()` (unless `ledgerOptions.clock` is given: then they follow
   * that clock). Its ids are in `appWorld`. Default: what the fixture file declares
   * (`"appWorld"`), else false.
   */
  readonly appWorld?: boolean;
  /** Ledger settings (participant id, clock, limits...). */
  readonly ledgerOptions?: LedgerOptions;
  /** The bounds on uploaded Daml code (README "Resource limits"); defaults otherwise. */
  readonly engineLimits?: Partial<EngineLimits>;
  /**
   * Package checks passed before, by another test file (in Node, `defaultPassedChecks()` from
   * `canton-conformance`: the cache `test` and `serve` use): `dars` are not checked again.
   */
  readonly passedChecks?: PassedChecks;
  /** The Canton line mocked (default 3.5, as of 3.5.10), as `serve --canton-version` (not with `localnet`). */
  readonly cantonVersion?: CantonVersion;
  readonly http?: Partial<HttpConfig>;
  /** Default: none (every caller may do everything, like an unsecured sandbox). */
  readonly authenticator?: Authenticator;
  /** Where unexpected failures are reported. Default: stderr. */
  readonly log?: ApiLogger;
  /**
   * Answer at Splice LocalNet's URLs as `serve --localnet` does (the wallet SDK's
   * `localNetStaticConfig`): the ledger at `http://localhost:2975`, the validator at
   * `http://localhost:2000/api/validator` (registry under its scan proxy), Scan at
   * `http://scan.localhost:4000/api/scan`, the token-standard registry at `http://localhost:5003`;
   * LocalNet's HS256 auth (secret `unsafe`) unless `authenticator` is given; the Amulet world
   * seeded (unless `appWorld: false`), with the Ping template, the validator party and
   * `ledger-api-user`. `ports` moves the listeners. The URL options do not apply.
   */
  readonly localnet?: boolean | { readonly ports?: Partial<LocalNetPorts> };
}

export interface MockLedgerApi {
  /** Pass to `setupServer(...handlers)`: one HTTP handler per base URL, one WebSocket link. */
  readonly handlers: Array<HttpHandler | WebSocketHandler>;
  /** The ledger the handlers serve now (a new one after each `reset()`). */
  readonly ledger: Ledger;
  /** What the fixtures put on the ledger, by the names the fixture file uses. */
  readonly world: AppliedFixtures;
  /** The registry's and Scan's sample world, when `appWorld: true`. */
  readonly appWorld: AppWorld | undefined;
  /** The same world on Splice's own packages, when `spliceDars` is given. */
  readonly spliceWorld: SpliceAppWorld | undefined;
  /** The base URLs the handlers answer, as normalised (no trailing slash); `streams` is the ws:// form. */
  readonly urls: { readonly ledger: string; readonly registry: string; readonly scan: string; readonly streams: string; readonly validator?: string; readonly tokenStandard?: string; readonly appProviderLedger?: string };
  /** A fresh ledger with the fixtures applied again; open streams of the old one end. */
  reset(): void;
  /** Allocates a party and returns its id. */
  allocateParty(hint: string): string;
  /** Creates a user with rights and returns its id. */
  createUser(userId: string, user?: NewUser): string;
  /** Creates one contract (its signatories must be among `actAs`). */
  createContract(contract: NewContract): CreatedContract;
  /** Creates a transfer preapproval for a receiver (what Scan's lookup by party answers). */
  addPreapproval(preapproval: NewPreapproval): CreatedContract;
}

const emptyWorld: AppliedFixtures = { parties: {}, users: [], contracts: {}, templates: [] };

/**
 * msw handlers over a fresh in-memory ledger of the reference server's core. Requests run through
 * the same dispatcher, pipeline and renderers as the Koa server, so answers match it byte for byte.
 *
 * @example
 * const mock = createHandlers({ ledgerUrl: 'http://ledger.test' });
 * const server = setupServer(...mock.handlers);
 * beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
 * afterEach(() => mock.reset());
 * afterAll(() => server.close());
 */
const limitsOf = (options: CreateHandlersOptions) => ({
  ...(options.engineLimits === undefined ? {} : { engineLimits: options.engineLimits }),
  ...(options.passedChecks === undefined ? {} : { passedChecks: options.passedChecks }),
});

export function createHandlers(options: CreateHandlersOptions = {}): MockLedgerApi {
  // Typed, but JavaScript callers and `as` casts get past the type: a line the handlers do not
  // serve is refused, as `serve --canton-version` refuses it, not served as the default.
  if (options.cantonVersion !== undefined && !isCantonVersion(options.cantonVersion)) {
    throw new TypeError(`[canton-conformance] cantonVersion takes ${CANTON_VERSIONS.map((v) => `'${v}'`).join(', ')}, got ${JSON.stringify(options.cantonVersion)}`);
  }
  if (options.localnet !== undefined && options.localnet !== false) return createLocalNetHandlers(options, options.localnet === true ? {} : (options.localnet.ports ?? {}));
  const ledgerBase = parseBaseUrl('ledgerUrl', options.ledgerUrl ?? DEFAULT_LEDGER_URL);
  const registryBase = options.registryUrl === undefined ? ledgerBase : parseBaseUrl('registryUrl', options.registryUrl);
  const scanBase = options.scanUrl === undefined ? ledgerBase : parseBaseUrl('scanUrl', options.scanUrl);
  const fixtures = readFixtures(options.fixtures ?? 'none');
  // Read, decoded and checked on the first ledger only: reset() records what that found again.
  const loadDars = darLoader(readDars(options.dars ?? []));
  const fixtureDars: FixtureDarCache = new Map();
  const version = options.cantonVersion ?? DEFAULT_CANTON_VERSION;
  const routes: readonly Route[] = routesOf(ledgerApiRoutes, version);
  const channels: readonly StreamChannel[] = channelsOf(ledgerApiChannels, version);

  // The option wins; else what the fixture file declares; else none (the handlers start empty).
  const withAppWorld = options.appWorld ?? fixtures?.file.appWorld ?? false;
  const loadSplice = spliceLoader(options.spliceDars);
  const freshLedger = (): { ledger: Ledger; world: AppliedFixtures; appWorld: AppWorld | undefined; spliceWorld: SpliceAppWorld | undefined } => {
    // As the server does: the apps' world first, on a clock pinned at its seeding time (unless the
    // caller brings a clock), so its ids are the documented ones, the same after every reset().
    const seeding = withAppWorld && options.ledgerOptions?.clock === undefined ? new SeedingClock(APP_WORLD_TIME) : undefined;
    const ledger = createLedger({ apiVersion: API_VERSION[version], ...options.ledgerOptions, ...limitsOf(options), ...(seeding === undefined ? {} : { clock: seeding }) });
    // Splice's DARs before the apps attach: the apps index its templates.
    const splice = loadSplice?.(ledger);
    // The registry and Scan follow the ledger from its first commit (rounds are counted from there).
    createApps(ledger, splice === undefined ? {} : { splice });
    const { appWorld, spliceWorld } = seedWorlds(ledger, withAppWorld, splice);
    seeding?.release();
    unwrapDars(loadDars(ledger));
    let world = emptyWorld;
    if (fixtures !== undefined) {
      const applied = applyFixtures(ledger, fixtures.file, fixtures.name, fixtureDars);
      if (!applied.ok) throw new Error(`[canton-conformance] fixtures do not apply:\n${applied.error.map(formatFixtureError).join('\n')}`);
      world = applied.value;
    }
    return { ledger, world, appWorld, spliceWorld };
  };
  const log = options.log ?? consoleLogger;
  const servicesFor = (ledger: Ledger, reuse?: ApiServices): ApiServices =>
    createApiServices({
      ledger,
      log,
      ...(options.http === undefined ? {} : { http: options.http }),
      ...(options.authenticator === undefined ? {} : { authenticator: options.authenticator }),
      // Compiled once: request validation outlives resets, only the ledger is replaced.
      ...(reuse === undefined ? {} : { validateBody: reuse.validateBody }),
    });

  const first = freshLedger();
  const base = servicesFor(first.ledger);
  let state = { services: base, world: first.world, appWorld: first.appWorld, spliceWorld: first.spliceWorld, dispatch: createDispatcher(routes, base), generation: new AbortController() };

  const dispatch = (): Dispatch => state.dispatch;
  // Without a ledger URL, the loopback address answers as well as localhost.
  const alias = options.ledgerUrl === undefined ? parseBaseUrl('ledgerUrl', DEFAULT_LEDGER_ALIAS_URL) : undefined;
  // Most specific base first: a scan base of `http://host/api/scan` must win over `http://host`.
  const bases = uniqueBases([ledgerBase, registryBase, scanBase, ...(alias === undefined ? [] : [alias])]).sort((a, b) => b.href.length - a.href.length);
  const streamBases = alias === undefined ? [ledgerBase] : [ledgerBase, alias];
  const handlers: Array<HttpHandler | WebSocketHandler> = [
    ...bases.map((b) => createDispatchHandler(b, dispatch)),
    ...streamBases.map((b) => createStreamLink(b, channels, { services: () => state.services, generation: () => state.generation.signal })),
  ];

  return mockLedgerApi({
    handlers,
    urls: { ledger: ledgerBase.href, registry: registryBase.href, scan: scanBase.href, streams: ledgerBase.href.replace(/^http/, 'ws') },
    current: () => ({ ledger: state.services.ledger, world: state.world, appWorld: state.appWorld, spliceWorld: state.spliceWorld }),
    reset() {
      const next = freshLedger();
      const services = servicesFor(next.ledger, base);
      state.generation.abort();
      state = { services, world: next.world, appWorld: next.appWorld, spliceWorld: next.spliceWorld, dispatch: createDispatcher(routes, services), generation: new AbortController() };
    },
  });
}

/**
 * The LocalNet layout: one dispatcher per listener, each with that listener's routes (the same
 * tables `serve --localnet` mounts), over one ledger; the streams on the ledger's base.
 */
function createLocalNetHandlers(options: CreateHandlersOptions, portOverrides: Partial<LocalNetPorts>): MockLedgerApi {
  const ports = { ...LOCALNET_PORTS, ...portOverrides };
  const urls = localNetUrls(ports);
  const origin = (url: string) => parseBaseUrl('localnet', new URL(url).origin);
  // The participants' listeners also carry the streams; the app provider's answers under its own participant id.
  const listeners: { base: BaseUrl; routes: readonly Route[]; streams?: true; participantId?: string }[] = [
    { base: origin(urls.ledger), routes: localNetRoutes.ledger, streams: true },
    { base: origin(urls.validator), routes: localNetRoutes.validator },
    { base: origin(urls.scan), routes: localNetRoutes.scan },
    { base: origin(urls.tokenStandard), routes: localNetRoutes.tokenStandard },
    { base: origin(urls.appProviderLedger), routes: localNetRoutes.appProviderLedger, streams: true, participantId: APP_PROVIDER_PARTICIPANT_ID },
  ];
  const asListener = (services: ApiServices, participantId: string | undefined): ApiServices => (participantId === undefined ? services : { ...services, participantId });
  const fixtures = readFixtures(options.fixtures ?? 'none');
  // Read, decoded and checked on the first ledger only: reset() records what that found again.
  const loadDars = darLoader(readDars(options.dars ?? []));
  const fixtureDars: FixtureDarCache = new Map();
  const withAppWorld = options.appWorld ?? fixtures?.file.appWorld ?? true;
  const loadSplice = spliceLoader(options.spliceDars);
  const freshLedger = () => {
    const seeding = withAppWorld && options.ledgerOptions?.clock === undefined ? new SeedingClock(APP_WORLD_TIME) : undefined;
    const ledger = createLedger({ ...options.ledgerOptions, ...limitsOf(options), ...(seeding === undefined ? {} : { clock: seeding }) });
    const splice = loadSplice?.(ledger);
    createApps(ledger, splice === undefined ? {} : { splice });
    declareLocalNetTemplates(ledger);
    const { appWorld, spliceWorld } = seedWorlds(ledger, withAppWorld, splice);
    seeding?.release();
    attachValidatorAutomation(ledger, seedLocalNet(ledger), options.log ?? consoleLogger);
    unwrapDars(loadDars(ledger));
    let world = emptyWorld;
    if (fixtures !== undefined) {
      const applied = applyFixtures(ledger, fixtures.file, fixtures.name, fixtureDars);
      if (!applied.ok) throw new Error(`[canton-conformance] fixtures do not apply:\n${applied.error.map(formatFixtureError).join('\n')}`);
      world = applied.value;
    }
    return { ledger, world, appWorld, spliceWorld };
  };
  let current = freshLedger();
  const authenticator =
    options.authenticator ??
    createJwtAuthenticator({ algorithm: 'HS256', key: new TextEncoder().encode(LOCALNET_SECRET), target: { kind: 'audience', audience: LOCALNET_AUDIENCE } });
  const log = options.log ?? consoleLogger;
  const servicesFor = (ledger: Ledger, reuse?: ApiServices): ApiServices =>
    createApiServices({ ledger, log, authenticator, ...(options.http === undefined ? {} : { http: options.http }), ...(reuse === undefined ? {} : { validateBody: reuse.validateBody }) });
  const base = servicesFor(current.ledger);
  const dispatchers = (services: ApiServices) => listeners.map((l) => createDispatcher(l.routes, asListener(services, l.participantId)));
  let state = { services: base, dispatch: dispatchers(base), generation: new AbortController() };
  const handlers: Array<HttpHandler | WebSocketHandler> = [
    ...listeners.map((l, i) => createDispatchHandler(l.base, () => state.dispatch[i] as Dispatch)),
    ...listeners
      .filter((l) => l.streams)
      .map((l) => createStreamLink(l.base, ledgerApiChannels, { services: () => asListener(state.services, l.participantId), generation: () => state.generation.signal })),
  ];
  return mockLedgerApi({
    handlers,
    urls: { ledger: urls.ledger, registry: urls.registry, scan: urls.scan, streams: urls.ledger.replace(/^http/, 'ws'), validator: urls.validator, tokenStandard: urls.tokenStandard, appProviderLedger: urls.appProviderLedger },
    current: () => ({ ledger: state.services.ledger, world: current.world, appWorld: current.appWorld, spliceWorld: current.spliceWorld }),
    reset() {
      current = freshLedger();
      const services = servicesFor(current.ledger, base);
      state.generation.abort();
      state = { services, dispatch: dispatchers(services), generation: new AbortController() };
    },
  });
}

/** The face both layouts return: the current ledger and worlds, the URLs, reset, and the seeding helpers over the current ledger. */
function mockLedgerApi(parts: {
  handlers: MockLedgerApi['handlers'];
  urls: MockLedgerApi['urls'];
  current: () => { ledger: Ledger; world: AppliedFixtures; appWorld: AppWorld | undefined; spliceWorld: SpliceAppWorld | undefined };
  reset: () => void;
}): MockLedgerApi {
  const ledger = () => parts.current().ledger;
  return {
    handlers: parts.handlers,
    get ledger() {
      return ledger();
    },
    get world() {
      return parts.current().world;
    },
    get appWorld() {
      return parts.current().appWorld;
    },
    get spliceWorld() {
      return parts.current().spliceWorld;
    },
    urls: parts.urls,
    reset: parts.reset,
    allocateParty: (hint) => allocateParty(ledger(), hint),
    createUser: (userId, user) => createUser(ledger(), userId, user),
    createContract: (contract) => createContract(ledger(), contract),
    addPreapproval: (preapproval) => addPreapproval(ledger(), preapproval),
  };
}

function readFixtures(fixtures: 'none' | 'default' | string | FixtureFile): { file: FixtureFile; name: string } | undefined {
  if (fixtures === 'none') return undefined;
  // A file given as an object is checked like one read from disk (schema, then application).
  const name = typeof fixtures === 'string' ? (fixtures === 'default' ? defaultWorldPath() : fixtures) : '(the fixtures option)';
  const loaded = typeof fixtures === 'string' ? loadFixtures(name) : parseFixtures(JSON.stringify(fixtures), name);
  if (!loaded.ok) throw new Error(`[canton-conformance] cannot load fixtures:\n${loaded.error.map(formatFixtureError).join('\n')}`);
  return { file: loaded.value, name };
}

/** The `dars` option's entries, read once: named `dars[i]`, with the path when one was given. */
function readDars(entries: readonly (Uint8Array | string)[]): DarEntry[] {
  return entries.map((entry, i) => {
    if (entry instanceof Uint8Array) return { name: `dars[${i}]`, bytes: entry };
    if (typeof entry !== 'string' || entry === '') throw new Error(`[canton-conformance] dars[${i}]: expected the bytes of a DAR (Uint8Array) or a file path`);
    const read = readDarFiles([entry]);
    if (!read.ok) throw new Error(`[canton-conformance] dars[${i}] (${entry}): ${read.error.reason}`);
    return { name: `dars[${i}] (${entry})`, bytes: read.value[0]!.bytes };
  });
}

/** `spliceDars`: the folder read once; each ledger loads it (checked on the first only, as `dars`). */
function spliceLoader(dir: string | undefined): ((ledger: Ledger) => SpliceAmulet) | undefined {
  if (dir === undefined) return undefined;
  const set = readSpliceDars(dir);
  if (!set.ok) throw new Error(`[canton-conformance] ${set.error}`);
  const upload = darLoader(set.value.dars);
  return (ledger) => {
    const loaded = loadSpliceDars(ledger, set.value, upload);
    if (!loaded.ok) throw new Error(`[canton-conformance] ${loaded.error}`);
    return loaded.value;
  };
}

/** The apps' world on the ports, or on Splice's packages when they are loaded. */
function seedWorlds(ledger: Ledger, withAppWorld: boolean, splice: SpliceAmulet | undefined): { appWorld: AppWorld | undefined; spliceWorld: SpliceAppWorld | undefined } {
  if (!withAppWorld) return { appWorld: undefined, spliceWorld: undefined };
  if (splice === undefined) return { appWorld: unwrap('seeding the apps world', seedAppWorld(ledger)), spliceWorld: undefined };
  const seeded = seedSpliceAppWorld(ledger, splice);
  if (!seeded.ok) throw new Error(`[canton-conformance] ${spliceSeedingFailure(splice, seeded.error)}`);
  return { appWorld: undefined, spliceWorld: seeded.value };
}

function unwrapDars(loaded: Result<void, string>): void {
  if (!loaded.ok) throw new Error(`[canton-conformance] ${loaded.error}`);
}

function uniqueBases(bases: readonly BaseUrl[]): BaseUrl[] {
  const seen = new Map<string, BaseUrl>();
  for (const b of bases) seen.set(b.href, b);
  return [...seen.values()];
}
