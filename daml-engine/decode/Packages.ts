/**
 * Decoded packages by id and by name and version (package metadata), with the definition
 * look-ups the evaluator needs. A `Packages` is what an engine's caller can hand to `getPackage`.
 */
import type { DefDataType, DefInterface, DefTemplate, DefValue, Module, Package } from '../ast/Package.js';
import type { QualifiedName } from '../ast/Type.js';
import type { PackageCache } from './decodeArchive.js';
import type { Dar } from './decodeDar.js';

export class Packages {
  private readonly byId: PackageCache = new Map();
  private readonly byNameVersion = new Map<string, Package>();

  /** The map `decodeDar` / `decodeArchive` fill: decoding is then cached across DARs. */
  get cache(): PackageCache {
    return this.byId;
  }

  add(pkg: Package): void {
    this.byId.set(pkg.id, pkg);
    if (pkg.metadata) this.byNameVersion.set(`${pkg.metadata.name}@${pkg.metadata.version}`, pkg);
  }

  addDar(dar: Dar): void {
    for (const pkg of dar.packages) this.add(pkg);
  }

  get(id: string): Package | undefined {
    return this.byId.get(id);
  }

  byName(name: string, version: string): Package | undefined {
    return this.byNameVersion.get(`${name}@${version}`);
  }

  /** Every version of a package name, by version order (numeric segments). */
  versionsOf(name: string): Package[] {
    return [...this.byNameVersion.values()]
      .filter((p) => p.metadata?.name === name)
      .sort((a, b) => compareVersions(a.metadata!.version, b.metadata!.version));
  }

  get size(): number {
    return this.byId.size;
  }

  all(): IterableIterator<Package> {
    return this.byId.values();
  }
}

export function compareVersions(a: string, b: string): number {
  const xs = a.split('.').map(Number);
  const ys = b.split('.').map(Number);
  for (let i = 0; i < Math.max(xs.length, ys.length); i++) {
    const d = (xs[i] ?? -1) - (ys[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/** Look-ups of definitions by qualified name in a package source. */
export type PackageSource = (id: string) => Package | undefined;

function moduleOf(source: PackageSource, name: QualifiedName): Module | undefined {
  return source(name.packageId)?.modules.get(name.module);
}
export const lookupValue = (s: PackageSource, n: QualifiedName): DefValue | undefined => moduleOf(s, n)?.values.get(n.name);
export const lookupDataType = (s: PackageSource, n: QualifiedName): DefDataType | undefined => moduleOf(s, n)?.dataTypes.get(n.name);
export const lookupTemplate = (s: PackageSource, n: QualifiedName): DefTemplate | undefined => moduleOf(s, n)?.templates.get(n.name);
export const lookupInterface = (s: PackageSource, n: QualifiedName): DefInterface | undefined => moduleOf(s, n)?.interfaces.get(n.name);
