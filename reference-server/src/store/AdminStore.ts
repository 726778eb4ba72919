/**
 * Participant administration state outside the update log: uploaded packages, the vetting state
 * per synchronizer, and identity provider configs. Plain data only (strings, numbers, byte
 * arrays), so a durable store can keep it as rows and `AdminState` round-trips through
 * `snapshot()`/the constructor unchanged.
 */

/** An uploaded package: the archive payload it was uploaded with, and what the DAR said of it. */
export interface StoredPackage {
  readonly packageId: string;
  readonly packageName: string;
  readonly packageVersion: string;
  /** The DALF's `ArchivePayload` bytes (SHA-256 of them is the package id). */
  readonly payload: Uint8Array;
  /** Upload time, ms since the epoch. */
  readonly uploadedAt: number;
}

export interface VettingBounds {
  readonly validFromInclusive?: string;
  readonly validUntilExclusive?: string;
}

/**
 * The participant's `VettedPackages` topology state on one synchronizer. Built-in (catalogue)
 * packages are vetted unless listed in `unvetted`; uploaded ones only when listed in `vetted`.
 */
export interface SynchronizerVetting {
  readonly serial: number;
  readonly vetted: Readonly<Record<string, VettingBounds>>;
  readonly unvetted: readonly string[];
}

export interface StoredIdentityProvider {
  readonly identityProviderId: string;
  readonly issuer: string;
  readonly jwksUrl: string;
  readonly audience: string;
  readonly isDeactivated: boolean;
}

export interface AdminState {
  readonly packages: readonly StoredPackage[];
  readonly vetting: Readonly<Record<string, SynchronizerVetting>>;
  readonly identityProviders: readonly StoredIdentityProvider[];
}

export interface AdminStore {
  package(packageId: string): StoredPackage | undefined;
  /** In upload order. */
  packages(): readonly StoredPackage[];
  /** Records all packages of one upload at once (a DAR is registered whole or not at all). */
  putPackages(packages: readonly StoredPackage[]): void;
  vetting(synchronizerId: string): SynchronizerVetting | undefined;
  putVetting(synchronizerId: string, vetting: SynchronizerVetting): void;
  identityProvider(id: string): StoredIdentityProvider | undefined;
  /** In creation order. */
  identityProviders(): readonly StoredIdentityProvider[];
  putIdentityProvider(config: StoredIdentityProvider): void;
  deleteIdentityProvider(id: string): boolean;
  snapshot(): AdminState;
}

export const emptyAdminState: AdminState = { packages: [], vetting: {}, identityProviders: [] };

export class MemoryAdminStore implements AdminStore {
  readonly #packages = new Map<string, StoredPackage>();
  readonly #vetting = new Map<string, SynchronizerVetting>();
  readonly #idps = new Map<string, StoredIdentityProvider>();

  constructor(state: AdminState = emptyAdminState) {
    for (const p of state.packages) this.#packages.set(p.packageId, p);
    for (const [id, v] of Object.entries(state.vetting)) this.#vetting.set(id, v);
    for (const c of state.identityProviders) this.#idps.set(c.identityProviderId, c);
  }

  package(packageId: string): StoredPackage | undefined {
    return this.#packages.get(packageId);
  }
  packages(): readonly StoredPackage[] {
    return [...this.#packages.values()];
  }
  putPackages(packages: readonly StoredPackage[]): void {
    for (const p of packages) this.#packages.set(p.packageId, p);
  }
  vetting(synchronizerId: string): SynchronizerVetting | undefined {
    return this.#vetting.get(synchronizerId);
  }
  putVetting(synchronizerId: string, vetting: SynchronizerVetting): void {
    this.#vetting.set(synchronizerId, vetting);
  }
  identityProvider(id: string): StoredIdentityProvider | undefined {
    return this.#idps.get(id);
  }
  identityProviders(): readonly StoredIdentityProvider[] {
    return [...this.#idps.values()];
  }
  putIdentityProvider(config: StoredIdentityProvider): void {
    this.#idps.set(config.identityProviderId, config);
  }
  deleteIdentityProvider(id: string): boolean {
    return this.#idps.delete(id);
  }
  snapshot(): AdminState {
    return { packages: this.packages(), vetting: Object.fromEntries(this.#vetting), identityProviders: this.identityProviders() };
  }
}
