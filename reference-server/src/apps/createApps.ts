import type { Ledger } from '../ledger/index.js';
import { AmuletLedgerView } from './amulet/AmuletLedgerView.js';
import { AmuletRegistry } from './amulet/AmuletRegistry.js';
import { RoundAutomation, type RoundKeeper } from './amulet/RoundAutomation.js';
import { registerAppTemplates, type AppTemplates } from './registerAppTemplates.js';
import { RegistryApp } from './registry/RegistryApp.js';
import { ScanApp, type ScanOptions } from './scan/ScanApp.js';
import type { SpliceAmulet } from './splice/SpliceAmulet.js';
import { SpliceRoundAutomation } from './splice/SpliceRoundAutomation.js';

export interface AppsOptions {
  readonly scan?: ScanOptions;
  /**
   * Splice's own splice-amulet, loaded on the ledger (`--splice-dars`): the registry's and Scan's
   * Amulet indexes follow its templates instead of the ports', and the DSO's rounds move by its
   * choices (SpliceRoundAutomation).
   */
  readonly splice?: SpliceAmulet;
}

/** The apps over one ledger: the sample registry (group A) and Scan (group C). */
export interface Apps {
  /** The templates the apps index (Splice's own where the world is built on them). */
  readonly templates: AppTemplates;
  readonly registry: RegistryApp;
  /** Amulet's token-standard registry (the DSO is the instrument admin). */
  readonly amulet: AmuletRegistry;
  readonly scan: ScanApp;
  /** The DSO's round automation the registry and Scan run on read (the ports' or Splice's real choices). */
  readonly rounds: RoundKeeper;
  /** Stops following the ledger (the apps answer from stale indexes afterwards). */
  detach(): void;
}

const attached = new WeakMap<Ledger, Apps>();

/**
 * Registers the apps' templates on the ledger and attaches the registry and Scan to it: from now
 * on their indexes follow every commit. One set of apps per ledger: a second call returns the
 * first one's apps (its options win), so the server, the msw handlers and fixture loading can
 * all call it. Attach before contracts of these templates are created if Scan is to see its
 * ingestion start at the ledger's beginning (see RoundTracker).
 */
export function createApps(ledger: Ledger, options: AppsOptions = {}): Apps {
  const existing = attached.get(ledger);
  if (existing !== undefined) return existing;
  const ported = registerAppTemplates(ledger.catalogue);
  const templates: AppTemplates = options.splice === undefined ? ported : { ...ported, ...options.splice.templates };
  const registry = new RegistryApp(ledger, ported);
  const amuletView = new AmuletLedgerView(ledger, templates);
  const rounds = options.splice === undefined ? new RoundAutomation(ledger, amuletView) : new SpliceRoundAutomation(ledger, amuletView, options.splice);
  const amulet = new AmuletRegistry(ledger, amuletView, rounds, options.splice !== undefined);
  const scan = new ScanApp(ledger, templates, options.scan, amuletView, rounds);
  const apps: Apps = {
    templates,
    registry,
    amulet,
    scan,
    rounds,
    detach: () => {
      registry.detach();
      scan.detach();
      amuletView.detach();
    },
  };
  attached.set(ledger, apps);
  return apps;
}

/** The apps attached to a ledger, attaching them with default options if none are yet. */
export function appsOf(ledger: Ledger): Apps {
  return attached.get(ledger) ?? createApps(ledger);
}
