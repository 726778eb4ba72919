import { createApps } from './apps/index.js';
import { API_VERSION, DEFAULT_CANTON_VERSION, type CantonVersion } from './http/api/cantonVersion.js';
import { SeedingClock } from './apps/world/SeedingClock.js';
import { APP_WORLD_TIME, seedAppWorld } from './apps/world/seedAppWorld.js';
import { loadSpliceDars, preferSplicePackageNames, seedSpliceAppWorld, spliceSeedingFailure } from './apps/splice/seedSpliceAppWorld.js';
import { spliceAmuletOn, type SpliceAmulet } from './apps/splice/SpliceAmulet.js';
import { registerAppTemplates } from './apps/registerAppTemplates.js';
import { readSpliceDars, type SpliceDarSet } from './apps/splice/spliceDars.js';
import { createAuthenticator, type AuthConfig } from './http/api/auth/authConfig.js';
import type { HttpConfig } from './http/api/config.js';
import { consoleLogger } from './http/api/consoleLogger.js';
import type { ApiLogger } from './http/api/services.js';
import { applyFixtures, defaultWorldPath, formatFixtureError, loadFixtures, restoreDeclaredTemplates, type FixtureError } from './ledger/fixtures/index.js';
import { createLedger, resolveConfig, type Ledger, type LedgerOptions } from './ledger/index.js';
import { DarsError, readDarFiles, uploadDars } from './ledger/packages/startupDars.js';
import type { EngineLimits } from './ledger/engine/engineLimits.js';
import type { EngineWorkerOptions } from './ledger/engine/EngineWorker.js';
import type { PassedChecks } from './ledger/packages/validateDarPackages.js';
import { SqliteStore } from './store/sqlite/SqliteStore.js';
import { createReferenceServer, type ReferenceServer } from './server.js';

export interface StartOptions {
  readonly port: number;
  readonly host: string;
  /**
   * A fixtures file; undefined means the default world, fixtures/default-world.json. The registry's
   * and Scan's sample world is seeded before it unless the file says `"appWorld": false`.
   */
  readonly fixtures: string | undefined;
  /**
   * DAR files (paths) uploaded at start, as `POST /v2/dars` uploads them, vetted on every
   * synchronizer. One that cannot be read or uploaded rejects with DarsError naming it.
   */
  readonly dars?: readonly string[];
  /**
   * A folder of Splice's DARs (`--splice-dars`; LocalNet's or a Splice release's, the highest
   * version of each package): loaded first, and the default world's Amulet (the DSO's rules and
   * rounds, the parties' amulet and preapprovals) is built on its splice-amulet through the engine,
   * which the registry and Scan then answer from. A folder without splice-amulet, or a DAR that
   * cannot be loaded, rejects with DarsError (one line).
   */
  readonly spliceDars?: string | undefined;
  /** Default `{ mode: 'none' }`. A key that cannot be loaded rejects with AuthConfigError. */
  readonly auth?: AuthConfig;
  /** Scan's reward accounting (the earliest-round endpoints); default on. */
  readonly rewardAccounting?: boolean;
  /** The Canton line served (default 3.5): its operations only, and its version on /v2/version. */
  readonly cantonVersion?: CantonVersion;
  /** The participant's http-list-max-elements-limit; default the ledger's (200). */
  readonly listMaxElements?: number | undefined;
  /**
   * Who this node is: its participant id (whose namespace its parties get) and the two
   * synchronizers it is connected to; default the reference's own (`participant1::1220c0ffee…`,
   * `global-synchronizer::…`, `private-synchronizer::…`). Another identity serves the same world
   * under other ids, as another operator's node would.
   */
  readonly identity?: Pick<LedgerOptions, 'participantId' | 'synchronizers'> | undefined;
  /** The participant's offset-checkpoint-cache-update-interval: how often live streams may get a checkpoint (default 15 s). */
  readonly checkpointIntervalMs?: number | undefined;
  /** The bounds on uploaded Daml code (README "Resource limits"); defaults otherwise. */
  readonly engineLimits?: Partial<EngineLimits> | undefined;
  /**
   * Engine runs (the command service's, interactive submission's) on a thread of their own (`createLedger({ engineWorker })`),
   * the HTTP face answering on meanwhile; `serve` has it unless `--no-engine-thread`. Default off.
   * Options name another worker module (tests running the TypeScript sources start the built one).
   */
  readonly engineThread?: boolean | EngineWorkerOptions | undefined;
  /** Packages the upload check passed before (`serve` keeps them in the user's cache): not checked again. */
  readonly passedChecks?: PassedChecks | undefined;
  /**
   * Keep the ledger in an SQLite database in this directory (created if missing): a restart on
   * the same directory resumes at the same ledger end. Default: in memory, gone on exit. A
   * directory that cannot be used rejects with DataDirError.
   */
  readonly dataDir?: string | undefined;
  /** With `dataDir`: SQLite's synchronous setting (see SqliteStoreOptions); default NORMAL. */
  readonly synchronous?: 'NORMAL' | 'FULL';
  /** With `dataDir`: told when the directory can no longer be written (default: throw). */
  readonly onStorageFailure?: (error: Error) => void;
  /** Told about what start-up did that the caller did not ask for (a restored ledger, ignored fixtures). */
  readonly notice?: (message: string) => void;
  /** Settings of the HTTP face (stream limit per user, timeouts against slow clients); defaults otherwise. */
  readonly http?: Partial<HttpConfig>;
  /**
   * Declares more templates once the apps are attached, before any fixture or restored update
   * names them (`serve --localnet` adds Canton's built-in Ping).
   */
  readonly declareTemplates?: (ledger: Ledger) => void;
  /** Where the server logs (default stderr); `run` certifying it in-process keeps refusals out of its own output. */
  readonly log?: ApiLogger;
  /** `serve --log-requests`: told one line per request and WebSocket upgrade (see requestLog.ts). */
  readonly requestLog?: (line: string) => void;
  /**
   * The time the ledger follows once its world is seeded, in milliseconds (default `Date.now`):
   * tests inject one, so what depends on ledger time (Scan's rounds) never depends on the wall clock.
   */
  readonly systemTime?: () => number;
}

/** A started server, and the DARs this start loaded (the Splice folder's, `--dar`, then the fixture file's), as named. */
export interface StartedServer extends ReferenceServer {
  readonly dars: readonly string[];
}

/** The Splice DARs of `options.spliceDars`, read and checked (a folder without splice-amulet: DarsError). */
function readSpliceFolder(options: Pick<StartOptions, 'spliceDars'>): SpliceDarSet | undefined {
  if (options.spliceDars === undefined) return undefined;
  const read = readSpliceDars(options.spliceDars);
  if (!read.ok) throw new DarsError(read.error);
  return read.value;
}

/** Uploads the folder's DARs on `ledger` and resolves its splice-amulet (DarsError otherwise). */
function spliceOn(ledger: Ledger, set: SpliceDarSet | undefined): SpliceAmulet | undefined {
  if (set === undefined) return undefined;
  const loaded = loadSpliceDars(ledger, set);
  if (!loaded.ok) throw new DarsError(loaded.error);
  return loaded.value;
}

/** A fixtures file that cannot be served: every problem, each with its file and JSON path. */
export class FixturesError extends Error {
  override readonly name = 'FixturesError';
  constructor(readonly problems: readonly FixtureError[]) {
    super(problems.map(formatFixtureError).join('\n'));
  }
}

/**
 * What `canton-conformance serve` and `npm start` run: the reference server over a fixtures world,
 * checked before the port opens (a bad file is refused with every problem listed).
 */
export async function startReferenceServer(options: StartOptions): Promise<StartedServer> {
  const { ledger, store, dars } = openLedger(options);
  try {
    const log = options.log ?? consoleLogger;
    const authenticator = await createAuthenticator(options.auth ?? { mode: 'none' }, {
      participantId: ledger.config.participantId,
      log,
      issuers: (issuer) => {
        const c = ledger.identityProviderOfIssuer(issuer);
        return c === undefined ? undefined : { identityProviderId: c.identityProviderId, jwksUrl: c.jwksUrl, audience: c.audience ?? '', isDeactivated: c.isDeactivated === true };
      },
    });
    const server = await createReferenceServer({
      port: options.port,
      host: options.host,
      ledger,
      authenticator,
      log,
      ...(options.http === undefined ? {} : { http: options.http }),
      ...(options.requestLog === undefined ? {} : { requestLog: options.requestLog }),
      ...(options.cantonVersion === undefined ? {} : { cantonVersion: options.cantonVersion }),
    });
    ledger.prepareEngineThread();
    return { ...server, dars, close: async () => void (await server.close(), await ledger.close(), store?.close()) };
  } catch (e) {
    await ledger.close();
    store?.close();
    throw e;
  }
}

/**
 * The ledger a start serves: a new one seeded with the fixtures, or the one restored from
 * `dataDir`. The caller closes the store (if any) when it stops serving.
 */
export function openLedger(options: Omit<StartOptions, 'port' | 'host'>): { ledger: Ledger; store: SqliteStore | undefined; dars: readonly string[] } {
  const store =
    options.dataDir === undefined
      ? undefined
      : SqliteStore.open(options.dataDir, {
          participantId: resolveConfig(options.identity).participantId,
          ...(options.synchronous === undefined ? {} : { synchronous: options.synchronous }),
          ...(options.onStorageFailure === undefined ? {} : { onFailure: options.onStorageFailure }),
        });
  try {
    const opened = store === undefined || store.isNew ? seedWorld(options, store) : restoreWorld(options, store);
    return { ...opened, store };
  } catch (e) {
    // Nothing of a start that failed stays in the directory (it is still new next time).
    store?.abandon();
    throw e;
  }
}

/**
 * A new ledger: the registry's and Scan's part of the default world is seeded first, on a still
 * clock, so its contract ids are the same on every start (the README names them); apps attach
 * before any fixture can name their templates. With a new durable store all of it is one
 * transaction (nothing here awaits), so a start that dies half-way leaves the directory new.
 */
function seedWorld(options: Omit<StartOptions, 'port' | 'host'>, store: SqliteStore | undefined): { ledger: Ledger; dars: readonly string[] } {
  const file = options.fixtures ?? defaultWorldPath();
  const fixtures = loadFixtures(file, { shipped: options.fixtures === undefined });
  if (!fixtures.ok) throw new FixturesError(fixtures.error);
  const spliceSet = readSpliceFolder(options);
  const clock = new SeedingClock(APP_WORLD_TIME, options.systemTime);
  const ledger = createLedger({ clock, ...ledgerOptionsOf(options), ...(store === undefined ? {} : { store, blobKey: store.blobKey }) });
  // Splice's DARs before the apps attach: the apps index its templates.
  const splice = spliceOn(ledger, spliceSet);
  const apps = { scan: { rewardAccounting: options.rewardAccounting !== false }, ...(splice === undefined ? {} : { splice }) };
  createApps(ledger, apps);
  options.declareTemplates?.(ledger);
  // Beside any fixture file unless it says "appWorld": false; the fixtures reuse the apps' parties.
  if (fixtures.value.appWorld !== false) {
    if (splice === undefined) {
      const seeded = seedAppWorld(ledger, apps);
      if (!seeded.ok) throw new Error(`the apps' default world cannot be seeded: ${seeded.error.code}: ${seeded.error.cause}`);
    } else {
      // The folder's splice-amulet is the user's input: one that cannot carry the world is refused as such.
      const seeded = seedSpliceAppWorld(ledger, splice, apps);
      if (!seeded.ok) throw new DarsError(spliceSeedingFailure(splice, seeded.error));
    }
  }
  clock.release();
  loadStartupDars(ledger, options);
  const world = applyFixtures(ledger, fixtures.value, file);
  if (!world.ok) throw new FixturesError(world.error);
  return { ledger, dars: [...(spliceSet?.dars.map((d) => d.name) ?? []), ...(options.dars ?? []), ...(fixtures.value.dars ?? [])] };
}

/**
 * A ledger read back from its directory: the templates fixtures declared are declared again, the
 * apps attach, then the update log is replayed through them. Record times never go back behind
 * the last one written, even if the system clock did.
 */
function restoreWorld(options: Omit<StartOptions, 'port' | 'host'>, store: SqliteStore): { ledger: Ledger; dars: readonly string[] } {
  const spliceSet = readSpliceFolder(options);
  const clock = new SeedingClock(0, options.systemTime);
  const ledger = createLedger({ clock, ...ledgerOptionsOf(options), store, blobKey: store.blobKey });
  // The restored ledger holds the folder's packages from its first start: the apps index them
  // before the log is replayed; the folder is uploaded again after (unchanged DARs change nothing).
  let splice: SpliceAmulet | undefined;
  if (spliceSet !== undefined) {
    registerAppTemplates(ledger.catalogue);
    const resolved = spliceAmuletOn(ledger, spliceSet.amulet.mainPackageId, spliceSet.amulet.packageVersion);
    if (!resolved.ok) throw new DarsError(`--splice-dars ${spliceSet.dir}: ${store.directory} holds a ledger started without this folder's ${spliceSet.amulet.packageName} ${spliceSet.amulet.packageVersion} (start with a new --data-dir)`);
    splice = resolved.value;
    preferSplicePackageNames(ledger);
  }
  createApps(ledger, { scan: { rewardAccounting: options.rewardAccounting !== false }, ...(splice === undefined ? {} : { splice }) });
  options.declareTemplates?.(ledger);
  const declared = restoreDeclaredTemplates(ledger);
  if (!declared.ok) throw new FixturesError(declared.error);
  ledger.recover();
  clock.release(store.entryAt(store.ledgerEnd)?.recordTime ?? 0);
  // Uploading a DAR again changes nothing; a changed one is checked like any upload.
  if (spliceSet !== undefined) {
    const again = uploadDars(ledger, spliceSet.dars);
    if (!again.ok) throw new DarsError(`--splice-dars ${again.error}`);
  }
  loadStartupDars(ledger, options);
  if (options.fixtures !== undefined) options.notice?.(`--fixtures ${options.fixtures} is ignored: ${store.directory} already holds a ledger (start with a new --data-dir to load other fixtures)`);
  options.notice?.(`restored the ledger from ${store.directory}: ledger end ${store.ledgerEnd}`);
  // The DARs of earlier starts are in the restored ledger; this start loaded the --dar ones.
  return { ledger, dars: [...(spliceSet?.dars.map((d) => d.name) ?? []), ...(options.dars ?? [])] };
}

/** `--dar` files, before the fixtures (whose own `dars` come next, in their order). */
function loadStartupDars(ledger: Ledger, options: Pick<StartOptions, 'dars'>): void {
  if (options.dars === undefined || options.dars.length === 0) return;
  const read = readDarFiles(options.dars);
  if (!read.ok) throw new DarsError(`--dar ${read.error.path}: ${read.error.reason}`);
  const uploaded = uploadDars(ledger, read.value);
  if (!uploaded.ok) throw new DarsError(`--dar ${uploaded.error}`);
}

/** The ledger settings of the start options: the node's identity, its list limit and checkpoint interval, engine limits, and the version its line answers. */
const ledgerOptionsOf = (options: Pick<StartOptions, 'listMaxElements' | 'checkpointIntervalMs' | 'engineLimits' | 'engineThread' | 'cantonVersion' | 'passedChecks' | 'identity'>) => ({
  apiVersion: API_VERSION[options.cantonVersion ?? DEFAULT_CANTON_VERSION],
  ...(options.identity?.participantId === undefined ? {} : { participantId: options.identity.participantId }),
  ...(options.identity?.synchronizers === undefined ? {} : { synchronizers: options.identity.synchronizers }),
  ...(options.passedChecks === undefined ? {} : { passedChecks: options.passedChecks }),
  ...(options.listMaxElements === undefined ? {} : { listMaxElements: options.listMaxElements }),
  ...(options.checkpointIntervalMs === undefined ? {} : { checkpointIntervalMs: options.checkpointIntervalMs }),
  ...(options.engineLimits === undefined ? {} : { engineLimits: options.engineLimits }),
  ...(options.engineThread === undefined || options.engineThread === false ? {} : { engineWorker: options.engineThread }),
});
