import type { Ledger } from '../ledger/index.js';
import { AmuletLedgerView } from './amulet/AmuletLedgerView.js';
import { AmuletRegistry } from './amulet/AmuletRegistry.js';
import { RoundAutomation } from './amulet/RoundAutomation.js';
import { registerAppTemplates, type AppTemplates } from './registerAppTemplates.js';
import { RegistryApp } from './registry/RegistryApp.js';
import { ScanApp, type ScanOptions } from './scan/ScanApp.js';

export interface AppsOptions {
  readonly scan?: ScanOptions;
}

/** The apps over one ledger: the sample registry (group A) and Scan (group C). */
export interface Apps {
  readonly templates: AppTemplates;
  readonly registry: RegistryApp;
  /** Amulet's token-standard registry (the DSO is the instrument admin). */
  readonly amulet: AmuletRegistry;
  readonly scan: ScanApp;
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
  const templates = registerAppTemplates(ledger.catalogue);
  const registry = new RegistryApp(ledger, templates);
  const amuletView = new AmuletLedgerView(ledger, templates);
  const rounds = new RoundAutomation(ledger, amuletView);
  const amulet = new AmuletRegistry(ledger, amuletView, rounds);
  const scan = new ScanApp(ledger, templates, options.scan, amuletView, rounds);
  const apps: Apps = {
    templates,
    registry,
    amulet,
    scan,
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
