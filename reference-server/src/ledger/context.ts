import type { AdminStore } from '../store/AdminStore.js';
import type { LedgerStore } from '../store/LedgerStore.js';
import type { LedgerConfig } from './config.js';
import type { Interner } from './intern.js';
import type { Renderer } from './render.js';
import type { Catalogue } from './templates/Catalogue.js';

/** The shared parts of a ledger that its services work on. */
export interface LedgerContext {
  readonly config: LedgerConfig;
  readonly store: LedgerStore;
  /** Packages, vetting and identity provider configs. */
  readonly admin: AdminStore;
  readonly catalogue: Catalogue;
  readonly renderer: Renderer;
  readonly interner: Interner;
}
