/**
 * Checks a participant passed before are not run again (`PassedChecks`, kept on disk by
 * `passedChecksIn`), and a package decoded before is not decoded again. A remembered pass holds
 * only while the packages its check looked up are there (or absent) as they were; refusals are
 * never remembered.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { E } from '../../daml-engine/build/E.js';
import { PackageBuilder, type BuiltPackage } from '../../daml-engine/build/PackageBuilder.js';
import { T } from '../../daml-engine/build/T.js';
import type { Package } from '../../daml-engine/ast/Package.js';
import { defaultPassedChecks as fromEntry } from '../../index.js';
import { createLedger } from '../../reference-server/src/ledger/index.js';
import { createHandlers } from '../../reference-server/src/msw/createHandlers.js';
import { checkerId, defaultCacheDir, passedChecksIn } from '../../reference-server/src/ledger/packages/passedChecksIn.js';
import { darEntryWanted, readDar } from '../../reference-server/src/ledger/packages/readDar.js';
import { unzipDar } from '../../reference-server/src/ledger/packages/unzipDar.js';
import type { LookedUp, PassedChecks } from '../../reference-server/src/ledger/packages/validateDarPackages.js';
import { validateDarPackages } from '../../reference-server/src/ledger/packages/validateDarPackages.js';

const packagesOf = (dar: Uint8Array) => {
  const parsed = readDar(dar, unzipDar(dar, darEntryWanted));
  if (!parsed.ok) throw new Error(parsed.error.reason);
  return parsed.value.packages;
};

/** A library package and one whose value reads the library's. */
function libraryAndUser(tag: string): { lib: BuiltPackage; user: BuiltPackage } {
  const l = new PackageBuilder({ name: `passed-lib-${tag}`, version: '1.0.0' });
  l.module('Lib').value('one', T.int64, E.int64(1n));
  const lib = l.build();
  const u = new PackageBuilder({ name: `passed-user-${tag}`, version: '1.0.0' });
  u.module('User').value('two', T.int64, E.val(lib.ref('Lib', 'one')));
  return { lib, user: u.build() };
}

/** A package whose value is ill-typed: the check refuses it. */
function illTyped(tag: string): BuiltPackage {
  const b = new PackageBuilder({ name: `passed-bad-${tag}`, version: '1.0.0' });
  b.module('Bad').value('v', T.int64, E.text('not an Int64') as ReturnType<typeof E.int64>);
  return b.build();
}

/** PassedChecks in memory, recording what the validation asked and told. */
function memory(initial: Record<string, LookedUp> = {}) {
  const entries = new Map(Object.entries(initial));
  const asked: string[] = [];
  const cache: PassedChecks = {
    get: (id) => {
      asked.push(id);
      return entries.get(id);
    },
    set: (id, lookedUp) => void entries.set(id, lookedUp),
  };
  return { cache, entries, asked };
}

describe('validateDarPackages with passed checks', () => {
  it('remembers each package that passes, with the packages its check looked up', () => {
    const { lib, user } = libraryAndUser('remember');
    const m = memory();
    const r = validateDarPackages(packagesOf(user.dar({ dependencies: [lib.dalf] })), () => undefined, { passed: m.cache });
    expect(r.ok).toBe(true);
    expect(new Map(m.entries.get(user.id)).get(lib.id)).toBe(true);
    expect(m.entries.has(lib.id)).toBe(true);
  });

  it('does not check a remembered package again (a cache claiming an ill-typed package passed is believed)', () => {
    const bad = illTyped('believed');
    const dar = bad.dar();
    expect(validateDarPackages(packagesOf(dar), () => undefined).ok).toBe(false);
    const m = memory({ [bad.id]: [[bad.id, true]] });
    expect(validateDarPackages(packagesOf(dar), () => undefined, { passed: m.cache }).ok).toBe(true);
  });

  it('checks a remembered package again when a package its check found is missing now', () => {
    const { lib, user } = libraryAndUser('missing');
    const m = memory();
    expect(validateDarPackages(packagesOf(user.dar({ dependencies: [lib.dalf] })), () => undefined, { passed: m.cache }).ok).toBe(true);
    // The same package alone: its dependency is neither in the DAR nor known.
    const r = validateDarPackages(packagesOf(user.dar()), () => undefined, { passed: m.cache });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.code).toBe('DAR_NOT_SELF_CONSISTENT');
  });

  it('checks a remembered package again when a package its check did not find is there now', () => {
    const { lib, user } = libraryAndUser('appeared');
    // Remembered as passing while `lib` was absent: another world than this upload's.
    const m = memory({ [user.id]: [[user.id, true], [lib.id, false]] });
    const dar = user.dar({ dependencies: [lib.dalf] });
    validateDarPackages(packagesOf(dar), () => undefined, { passed: m.cache });
    // Checked again: what is remembered now is this upload's world.
    expect(new Map(m.entries.get(user.id)).get(lib.id)).toBe(true);
  });

  it('never remembers a refusal', () => {
    const bad = illTyped('refused');
    const m = memory();
    expect(validateDarPackages(packagesOf(bad.dar()), () => undefined, { passed: m.cache }).ok).toBe(false);
    expect(m.entries.size).toBe(0);
  });

  it('takes a package decoded before instead of decoding it again, bodies and all', () => {
    const { lib, user } = libraryAndUser('decoded');
    const pkgs = packagesOf(user.dar({ dependencies: [lib.dalf] }));
    const already = new Map<string, Package>([[user.id, user.package]]);
    const r = validateDarPackages(pkgs, () => undefined, { decoded: (id) => already.get(id) });
    expect(r.ok).toBe(true);
    const out = r.ok ? r.value : [];
    expect(out.find((p) => p.id === user.id)).toBe(user.package);
    expect(out.find((p) => p.id === lib.id)).not.toBe(lib.package);
  });
});

describe('passedChecksIn', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'passed-checks-'));
  const id = (c: string) => c.repeat(64);

  it('keeps entries across instances, one file per package under the checker', () => {
    const d = dir();
    passedChecksIn(d, 'checker-a')!.set(id('a'), [[id('b'), true], [id('c'), false]]);
    expect(passedChecksIn(d, 'checker-a')!.get(id('a'))).toEqual([[id('b'), true], [id('c'), false]]);
    expect(readdirSync(join(d, 'passed-checks', 'checker-a'))).toEqual([`${id('a')}.json`]);
  });

  it('forgets everything when the checker changes', () => {
    const d = dir();
    passedChecksIn(d, 'checker-a')!.set(id('a'), []);
    expect(passedChecksIn(d, 'checker-b')!.get(id('a'))).toBeUndefined();
  });

  it('reads a malformed or foreign entry as a miss', () => {
    const d = dir();
    const c = passedChecksIn(d, 'checker-a')!;
    c.set(id('a'), []);
    const file = join(d, 'passed-checks', 'checker-a', `${id('a')}.json`);
    for (const text of ['not json', '[]', '{"format":1,"packageId":"x","lookedUp":[]}', `{"format":1,"packageId":"${id('a')}","lookedUp":[["x",true]]}`,
      `{"format":1,"packageId":"${id('a')}","lookedUp":[["${id('b')}","yes"]]}`, `{"format":2,"packageId":"${id('a')}","lookedUp":[]}`]) {
      writeFileSync(file, text);
      expect(c.get(id('a'))).toBeUndefined();
    }
    // A package id that is no id never becomes a path.
    expect(c.get('../../etc/passwd')).toBeUndefined();
    c.set('../escape', []);
    expect(existsSync(join(d, 'passed-checks', 'escape.json'))).toBe(false);
  });

  it('never fails when it cannot write', () => {
    const d = dir();
    const blocker = join(d, 'file');
    writeFileSync(blocker, '');
    const c = passedChecksIn(join(blocker, 'below'), 'checker-a')!;
    expect(() => c.set(id('a'), [])).not.toThrow();
    expect(c.get(id('a'))).toBeUndefined();
  });

  it('names the checker after the engine code: 32 hex digits, the same within a process', () => {
    expect(checkerId()).toMatch(/^[0-9a-f]{32}$/);
    expect(checkerId()).toBe(checkerId());
  });

  it('is off with CANTON_CONFORMANCE_CACHE=off, there with a directory, else under the user cache', () => {
    expect(defaultCacheDir({ CANTON_CONFORMANCE_CACHE: 'off' })).toBeUndefined();
    expect(defaultCacheDir({ CANTON_CONFORMANCE_CACHE: '/x/y' })).toBe('/x/y');
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/c' })).toBe(join('/c', 'canton-conformance'));
  });

  it('makes a second ledger skip the check the first one passed', () => {
    const { lib, user } = libraryAndUser('ledger');
    const d = dir();
    const dar = user.dar({ dependencies: [lib.dalf] });
    const sync = { synchronizerId: createLedger().config.synchronizers[0]!.id };
    const first = createLedger({ passedChecks: passedChecksIn(d) });
    expect(first.uploadDar(dar, sync).ok).toBe(true);
    const files = readdirSync(join(d, 'passed-checks', checkerId()!)).sort();
    expect(files).toEqual([`${lib.id}.json`, `${user.id}.json`].sort());
    const asked: string[] = [];
    const disk = passedChecksIn(d)!;
    const second = createLedger({ passedChecks: { get: (id) => (asked.push(id), disk.get(id)), set: () => { throw new Error('checked again'); } } });
    expect(second.uploadDar(dar, sync).ok).toBe(true);
    expect(asked.sort()).toEqual([lib.id, user.id].sort());
    expect(JSON.parse(readFileSync(join(d, 'passed-checks', checkerId()!, `${user.id}.json`), 'utf8')).packageId).toBe(user.id);
  });

  it('lets msw handlers of another test file skip the checks (the package entry exports it)', () => {
    const { lib, user } = libraryAndUser('msw');
    const d = dir();
    const dar = user.dar({ dependencies: [lib.dalf] });
    expect(fromEntry({ CANTON_CONFORMANCE_CACHE: 'off' })).toBeUndefined();
    const disk = fromEntry({ CANTON_CONFORMANCE_CACHE: d })!;
    createHandlers({ dars: [dar], passedChecks: disk });
    let written = 0;
    const counting: PassedChecks = { get: (id) => disk.get(id), set: () => void written++ };
    const again = createHandlers({ dars: [dar], passedChecks: counting });
    again.reset();
    expect(written).toBe(0);
    expect(readdirSync(join(d, 'passed-checks', checkerId()!))).toHaveLength(2);
  });
});
