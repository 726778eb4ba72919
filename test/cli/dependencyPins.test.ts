import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * npm applies `overrides` only in the project being installed: in this checkout, never in a
 * user's project that installs the package. A pin this checkout needs for a package the
 * installed package itself pulls in (a non-dev entry of the lockfile) must therefore also be a
 * dependency of ours, at the same version: npm places it beside us first, and the deeper range
 * that wanted the broken release is satisfied by it.
 *
 * The case that made this rule: core-tx-parser 1.8.0 reaches `core-rpc-transport@^1.8.0`, whose
 * newest release (1.11.0) wants a `core-types@^1.11.0` the registry does not have, so
 * `npm install canton-conformance-<version>.tgz` failed with ETARGET.
 */
interface PackageJson {
  readonly dependencies?: Record<string, string>;
  readonly overrides?: Record<string, unknown>;
}
interface Lockfile {
  readonly packages: Record<string, { readonly version?: string; readonly dev?: boolean }>;
}

/** The overrides a user's install would not apply: pins of packages the installed package needs, missing from `dependencies` at that version. */
function pinsLostOnInstall(pkg: PackageJson, lock: Lockfile): string[] {
  const lost: string[] = [];
  for (const [name, pin] of Object.entries(pkg.overrides ?? {})) {
    if (typeof pin !== 'string') continue; // nested overrides: none today
    const entries = Object.entries(lock.packages).filter(([path]) => path === `node_modules/${name}` || path.endsWith(`/node_modules/${name}`));
    const shipped = entries.some(([, e]) => e.dev !== true);
    if (shipped && pkg.dependencies?.[name] !== pin) lost.push(`${name}@${pin}`);
  }
  return lost;
}

const read = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

describe('dependency pins reach a user install', () => {
  it('every override of a package we ship with is also our dependency at that version', () => {
    expect(pinsLostOnInstall(read<PackageJson>('package.json'), read<Lockfile>('package-lock.json'))).toEqual([]);
  });

  it('catches a pin kept only in overrides (the package.json before the fix)', () => {
    const pkg: PackageJson = { dependencies: { a: '1.0.0' }, overrides: { transport: '1.8.0', devOnly: '2.0.0' } };
    const lock: Lockfile = {
      packages: {
        '': {},
        'node_modules/transport': { version: '1.8.0' },
        'node_modules/devOnly': { version: '2.0.0', dev: true },
      },
    };
    expect(pinsLostOnInstall(pkg, lock)).toEqual(['transport@1.8.0']);
    expect(pinsLostOnInstall({ ...pkg, dependencies: { a: '1.0.0', transport: '1.8.0' } }, lock)).toEqual([]);
    expect(pinsLostOnInstall({ ...pkg, dependencies: { a: '1.0.0', transport: '^1.8.0' } }, lock)).toEqual(['transport@1.8.0']);
  });
});
