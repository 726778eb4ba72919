import { createApps } from './apps/index.js';
import { SeedingClock } from './apps/world/SeedingClock.js';
import { APP_WORLD_TIME, seedAppWorld } from './apps/world/seedAppWorld.js';
import { createAuthenticator, type AuthConfig } from './http/api/auth/authConfig.js';
import { consoleLogger } from './http/api/consoleLogger.js';
import { defaultWorldPath, formatFixtureError, loadWorld, type FixtureError } from './ledger/fixtures/index.js';
import { createLedger } from './ledger/index.js';
import { createReferenceServer, type ReferenceServer } from './server.js';

export interface StartOptions {
  readonly port: number;
  readonly host: string;
  /** A fixtures file; undefined means the default world, fixtures/default-world.json. */
  readonly fixtures: string | undefined;
  /** Default `{ mode: 'none' }`. A key that cannot be loaded rejects with AuthConfigError. */
  readonly auth?: AuthConfig;
  /** Scan's reward accounting (the earliest-round endpoints); default on. */
  readonly rewardAccounting?: boolean;
  /** The participant's http-list-max-elements-limit; default the ledger's (200). */
  readonly listMaxElements?: number | undefined;
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
export async function startReferenceServer(options: StartOptions): Promise<ReferenceServer> {
  // The registry's and Scan's part of the default world is seeded first, on a still clock, so its
  // contract ids are the same on every start (the README names them); apps attach before any
  // fixture can name their templates.
  const clock = new SeedingClock(APP_WORLD_TIME);
  const ledger = createLedger({ clock, ...(options.listMaxElements === undefined ? {} : { listMaxElements: options.listMaxElements }) });
  createApps(ledger, { scan: { rewardAccounting: options.rewardAccounting !== false } });
  if (options.fixtures === undefined) {
    const apps = seedAppWorld(ledger);
    if (!apps.ok) throw new Error(`the apps' default world cannot be seeded: ${apps.error.code}: ${apps.error.cause}`);
  }
  clock.release();
  const world = loadWorld(ledger, options.fixtures ?? defaultWorldPath());
  if (!world.ok) throw new FixturesError(world.error);
  const authenticator = await createAuthenticator(options.auth ?? { mode: 'none' }, { participantId: ledger.config.participantId, log: consoleLogger });
  return createReferenceServer({ port: options.port, host: options.host, ledger, authenticator });
}
