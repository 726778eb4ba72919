import type { Ledger, LedgerError, Result } from '../../ledger/index.js';
import { fail, ok, PARTICIPANT_ADMIN_USER } from '../../ledger/index.js';
import { uploadDars } from '../../ledger/packages/startupDars.js';
import { createApps, type AppsOptions } from '../createApps.js';
import { registerAppTemplates } from '../registerAppTemplates.js';
import { DSO_RULES_TEMPLATE } from '../templateIds.js';
import { seedSampleRegistry, type AppWorld } from '../world/seedAppWorld.js';
import { seedSpliceAmulet, type SpliceAmuletWorld } from './seedSpliceAmulet.js';
import { seedSpliceRoundHistory } from './seedSpliceRoundHistory.js';
import { spliceAmuletOn, type SpliceAmulet } from './SpliceAmulet.js';
import type { SpliceDarSet } from './spliceDars.js';
import { seedTestTokens, type TestTokenWorld } from './testTokens/seedTestTokens.js';

/** The package of the ports' DsoRules (`#splice-dso-governance:...`). */
const DSO_RULES_PACKAGE = DSO_RULES_TEMPLATE.slice(1, DSO_RULES_TEMPLATE.indexOf(':'));

/** The default world on Splice's own packages: the sample registry, and Amulet as seedSpliceAmulet builds it. */
export interface SpliceAppWorld extends Pick<AppWorld, 'parties' | 'registry'>, Omit<SpliceAmuletWorld, 'rounds'> {
  /**
   * The rounds after the seeded history (seedSpliceRoundHistory): the three open ones and Scan's
   * earliest complete round, 1 as on the ports (undefined, and the bootstrap's rounds 0-2, where
   * the ledger's clock cannot be stepped while seeding).
   */
  readonly rounds: SpliceAmuletWorld['rounds'] & { readonly earliestRound: number | undefined };
  /** The loaded splice-amulet. */
  readonly splice: { readonly packageId: string; readonly version: string };
  /** The DSO's governance contract Scan's /v0/dso reports (the ports' model: splice-dso-governance is not among the DARs a client holds). */
  readonly dsoRules: string;
  /** Splice's test tokens, where their DARs are in the folder: their registries are under `/registries/test-token-v1` and `-v2`. */
  readonly testTokens: TestTokenWorld;
}

/**
 * Uploads the folder's DARs (as `--dar` does) and resolves its splice-amulet, before any app
 * attaches: the apps must be created with it. The error is one line naming the DAR. `upload`
 * replaces the upload (msw's reset() records what the first ledger checked: darLoader).
 */
export function loadSpliceDars(ledger: Ledger, set: SpliceDarSet, upload: (ledger: Ledger) => Result<void, string> = (l) => uploadDars(l, set.dars)): Result<SpliceAmulet, string> {
  // The ports' templates first: they stay declared (the apps index them by package id), and the
  // registration skips what the catalogue already resolves, which the uploaded package would.
  registerAppTemplates(ledger.catalogue);
  const uploaded = upload(ledger);
  if (!uploaded.ok) return { ok: false, error: `--splice-dars ${uploaded.error}` };
  preferSplicePackageNames(ledger);
  const amulet = spliceAmuletOn(ledger, set.amulet.mainPackageId, set.amulet.packageVersion);
  return amulet.ok ? amulet : { ok: false, error: `--splice-dars ${set.amulet.name}: splice-amulet ${set.amulet.packageVersion} lacks a template the world is built on (${amulet.error.cause}); ${BUILT_ON}` };
}

/**
 * The releases the world is built and tested on. An older splice-amulet may lack the token
 * standard's templates (0.1.8 has no AmuletTransferInstruction) or refuse a seeded transfer
 * (0.1.9: alice's pending transfer fails with ITR_InsufficientFunds): refused at start, naming its version.
 */
const BUILT_ON = "the world is built on splice-amulet 0.1.14 (LocalNet's) and later releases";

/** Why the world could not be seeded on `splice`, in one line naming its version (`serve` exits 2 with it). */
export function spliceSeedingFailure(splice: Pick<SpliceAmulet, 'version'>, error: LedgerError): string {
  // A Daml failure's cause carries its trace on lines of their own: one line here.
  const cause = error.cause.split('\n').map((l) => l.trim()).filter((l) => l !== '' && l !== '.').join(' ');
  return `--splice-dars: the default world cannot be seeded on splice-amulet ${splice.version} (${error.code}: ${cause}); ${BUILT_ON}`;
}

/**
 * The ports are the fallback: every package name of theirs that the folder's packages have
 * (splice-amulet; splice-wallet and the trading app where LocalNet declares them) names Splice's
 * package in commands, filters and reads, as on a participant that holds only Splice's, and the
 * ports' packages of those names leave `/v2/packages` and package selection. Kept: the ports'
 * DsoRules (`splice-dso-governance`), which the world still seeds, as a client holds no DSO DARs.
 */
export function preferSplicePackageNames(ledger: Ledger): readonly string[] {
  return ledger.preferUploadedPackageNames(new Set([DSO_RULES_PACKAGE]));
}

/**
 * The apps attached with `splice` (see createApps) and the default world seeded on it: the
 * sample registry as on the ports, the DSO's governance contract, and the real Amulet world.
 * Seed under a clock pinned at APP_WORLD_TIME, as seedAppWorld; the round history then steps
 * it five ticks (50 minutes) on.
 */
export function seedSpliceAppWorld(ledger: Ledger, splice: SpliceAmulet, options: Omit<AppsOptions, 'splice'> = {}): Result<SpliceAppWorld, LedgerError> {
  const apps = createApps(ledger, { ...options, splice });
  if (apps.templates.amuletRules !== splice.templates.amuletRules) return fail('INVALID_ARGUMENT', 'the apps of this ledger were attached without the Splice DARs; load them before any app attaches');
  const base = seedSampleRegistry(ledger);
  if (!base.ok) return base;
  const { parties } = base.value;
  const dso = parties.dso;
  const governance = ledger.interpret({
    userId: PARTICIPANT_ADMIN_USER,
    commandId: `app-world-${base.value.steps + 1}`,
    actAs: [dso],
    commands: [{ CreateCommand: { templateId: DSO_RULES_TEMPLATE, createArguments: { dso, epoch: '0', svs: { [dso]: { name: 'sv-1', joinedAsOfRound: { number: '0' } } } } } }],
  });
  if (!governance.ok) return governance;
  const committed = ledger.commit(governance.value);
  if (!committed.ok) return committed;
  const amulet = seedSpliceAmulet(ledger, splice, parties, base.value.steps + 1);
  if (!amulet.ok) return amulet;
  const testTokens = seedTestTokens(ledger, parties, 0);
  if (!testTokens.ok) return testTokens;
  // Last: it moves ledger time on, and everything above is named at APP_WORLD_TIME.
  const history = seedSpliceRoundHistory(ledger, apps.rounds, splice, dso);
  if (!history.ok) return history;
  const rounds = { amuletRules: amulet.value.rounds.amuletRules, openRounds: history.value?.openRounds ?? amulet.value.rounds.openRounds, earliestRound: history.value?.earliestRound };
  return ok({ ...base.value, ...amulet.value, rounds, splice: { packageId: splice.packageId, version: splice.version }, dsoRules: governance.value.results[0] as string, testTokens: testTokens.value });
}
