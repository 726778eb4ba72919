import { BinaryWriter, WireType } from '@protobuf-ts/runtime';
import type { Package } from '../../../../daml-engine/ast/Package.js';
import type { PackageCache } from '../../../../daml-engine/decode/decodeArchive.js';
import { decodeArchive } from '../../../../daml-engine/decode/decodeArchive.js';
import type { DecodeFailure } from '../../../../daml-engine/decode/DecodeFailure.js';
import type { DataTypes } from '../../../../daml-engine/json/DataTypes.js';
import { packageDataTypes } from '../../../../daml-engine/json/packageDataTypes.js';
import type { AdminStore } from '../../store/AdminStore.js';

/**
 * The uploaded packages as the engine runs them: decoded from the payloads the admin store keeps,
 * once per package id. Decoding is lazy, so a restarted ledger (`--data-dir`) decodes a package
 * when a command or a stored contract first needs it.
 */
export class EnginePackages {
  readonly #cache: PackageCache;
  /** Whether `#cache` is the caller's (then it may hold packages never uploaded here). */
  readonly #shared: boolean;
  /** Packages whose payload the engine cannot read (Daml-LF 1, corrupt): stored, never executable. */
  readonly #undecodable = new Map<string, DecodeFailure>();
  readonly dataTypes: DataTypes;

  /** `cache`: decoded packages to share (only packages the admin store holds are ever answered). */
  constructor(readonly admin: AdminStore, cache?: PackageCache) {
    this.#cache = cache ?? new Map();
    this.#shared = cache !== undefined;
    this.dataTypes = packageDataTypes((id) => this.get(id));
  }

  /** The decoded package, or undefined when it was never uploaded or cannot be decoded. */
  get(packageId: string): Package | undefined {
    const cached = this.#cache.get(packageId);
    // A shared cache may hold packages never uploaded here: those stay unknown.
    if (cached !== undefined && (!this.#shared || this.admin.package(packageId) !== undefined)) return cached;
    if (this.#undecodable.has(packageId)) return undefined;
    const stored = this.admin.package(packageId);
    if (stored === undefined) return undefined;
    const r = decodeArchive(archiveOf(packageId, stored.payload), this.#cache, packageId);
    if (!r.ok) {
      this.#undecodable.set(packageId, r.failure);
      return undefined;
    }
    return r.value;
  }

  /**
   * A package decoded before from bytes whose SHA-256 is `packageId` (this ledger's or the shared
   * cache), uploaded here or not: the upload check takes it instead of decoding the payload again,
   * and the bodies it decodes are then the ones the engine runs.
   */
  decoded(packageId: string): Package | undefined {
    return this.#cache.get(packageId);
  }

  /** A package the upload check decoded, kept once the admin store holds it. */
  adopt(pkg: Package): void {
    if (this.admin.package(pkg.id) !== undefined && !this.#cache.has(pkg.id)) this.#cache.set(pkg.id, pkg);
  }

  /** Why a stored package is not executable, if it is not. */
  failureOf(packageId: string): DecodeFailure | undefined {
    this.get(packageId);
    return this.#undecodable.get(packageId);
  }
}

/** A daml_lf.proto `Archive` around a stored payload (hash function SHA-256 is field 1's default). */
export function archiveOf(packageId: string, payload: Uint8Array): Uint8Array {
  return new BinaryWriter().tag(3, WireType.LengthDelimited).bytes(payload).tag(4, WireType.LengthDelimited).string(packageId).finish();
}
