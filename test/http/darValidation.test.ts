/**
 * Upload validation as a participant does it: hostile DARs built here (daml-engine/build, fflate
 * zip bombs) are refused with Canton's codes, leave no trace (not listed, not vetted, not after a
 * restart), say the same on /v2/dars/validate, and never affect a valid upload after them.
 */
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Expr } from '../../daml-engine/ast/Expr.js';
import type { Type } from '../../daml-engine/ast/Type.js';
import { E } from '../../daml-engine/build/E.js';
import { PackageBuilder } from '../../daml-engine/build/PackageBuilder.js';
import { T } from '../../daml-engine/build/T.js';
import { MAX_WIRE_NESTING } from '../../daml-engine/decode/decodePackage.js';
import { encodePackageArchive } from '../../daml-engine/encode/encodeArchive.js';
import { encodeDar } from '../../daml-engine/encode/encodeDar.js';
import { ManualClock } from '../../reference-server/src/ledger/index.js';
import { MAX_DAR_INFLATED_BYTES } from '../../reference-server/src/ledger/packages/unzipDar.js';
import { ILL_TYPED } from '../daml/illTypedPackages.js';
import { buildSamplePackage } from '../daml/samplePackage.js';
import { restartableLedgers } from '../store/support/restartableLedgers.js';
import { expectCantonError, expectNoStackTrace } from './support/cantonError.js';
import { get, post } from './support/ledgerApi.js';
import { upload } from './support/packages.js';
import { startServer, type TestServer } from './support/startServer.js';
import { declareEntrySizes } from '../../conformance/src/generators/dar.js';

let server: TestServer;
let sync: string;
beforeAll(async () => {
  server = await startServer();
  sync = server.ledger.config.synchronizers[0]!.id;
});
afterAll(() => server.close());

let serial = 0;
/** A fresh package with one value `Main:v`, as a DAR (fresh names so uploads never clash). */
function darWithValue(type: Type, expr: Expr, options: { name?: string; version?: string } = {}): { id: string; dar: Uint8Array } {
  const b = new PackageBuilder({ name: options.name ?? `hostile-${++serial}`, version: options.version ?? '1.0.0' });
  b.module('Main').value('v', type, expr);
  const built = b.build();
  return { id: built.id, dar: built.dar() };
}

function deepTypeDar(): { id: string; dar: Uint8Array } {
  const b = new PackageBuilder({ name: `deep-type-${++serial}`, version: '1.0.0' });
  const fields: { name: string; type: Type }[] = [];
  let t: Type = T.int64;
  for (let i = 0; i < 100_000; i++) { t = T.list(t); fields.push({ name: `f${i}`, type: t }); }
  b.module('Main').record('Deep', fields);
  const built = b.build();
  return { id: built.id, dar: built.dar() };
}

function deepExprDar(): { id: string; dar: Uint8Array } {
  let e: Expr = E.int64(0);
  for (let i = 0; i < MAX_WIRE_NESTING + 10; i++) e = E.some(T.int64, e);
  const b = new PackageBuilder({ name: `deep-expr-${++serial}`, version: '1.0.0' });
  b.module('Main').value('v', T.int64, e);
  const { dalf, id } = encodePackageArchive(b.toPackage());
  return { id, dar: encodeDar({ name: 'deep-expr', main: dalf }) };
}

/**
 * A package whose module has two definitions of one name (`of` picks the kind; the rest is the
 * same sound module), encoded as is: a Map cannot hold them, so the module's map gets two keys
 * for two definitions named alike.
 */
function collidingDar(of: 'values' | 'value and type' | 'templates' | 'choices'): { id: string; dar: Uint8Array } {
  const b = new PackageBuilder({ name: `colliding-${++serial}`, version: '1.0.0' });
  const m = b.module('Main');
  m.value('v', T.int64, E.int64(1));
  m.value('w', T.int64, E.int64(2));
  m.record('R', { n: T.int64 });
  const party = (t: { field(f: string): Expr }) => E.list(T.party, [t.field('p')]);
  const choice = (name: string) => ({ name, returnType: T.unit, controllers: party, update: () => E.pure(T.unit, E.unit) });
  m.template('T', { fields: { p: T.party }, signatories: party, choices: [choice('Go'), choice('Stay')] });
  m.template('U', { fields: { p: T.party }, signatories: party });
  const p = b.toPackage();
  const main = p.modules.get('Main')!;
  const values = new Map(main.values);
  const templates = new Map(main.templates);
  if (of === 'values') values.set('w', { ...values.get('w')!, name: 'v' });
  if (of === 'value and type') values.set('w', { ...values.get('w')!, name: 'R' });
  if (of === 'templates') templates.set('U', { ...templates.get('U')!, name: 'T' });
  if (of === 'choices') {
    const t = templates.get('T')!;
    templates.set('T', { ...t, choices: new Map([...t.choices].map(([k, c]) => [k, { ...c, name: 'Go' }])) });
  }
  const { dalf, id } = encodePackageArchive({ ...p, modules: new Map([['Main', { ...main, values, templates }]]) });
  return { id, dar: encodeDar({ name: `colliding-${serial}`, main: dalf }) };
}

const packageIds = async (): Promise<string[]> => (await get(server, '/v2/packages')).body.packageIds as string[];
const vetted = async (packageId: string): Promise<boolean> => {
  const res = await post(server, '/v2/package-vetting/list', { packageMetadataFilter: { packageIds: [packageId] } });
  return (res.body.vettedPackages as { packages: { packageId: string }[] }[]).some((v) => v.packages.some((p) => p.packageId === packageId));
};

const hostile: { what: string; build: () => { id: string; dar: Uint8Array }; code: string; says: RegExp }[] = [
  { what: 'a package name that is a path', build: () => darWithValue(T.int64, E.int64(1), { name: '../x/y' }), code: 'DAR_VALIDATION_ERROR', says: /invalid package name '\.\.\/x\/y'/ },
  { what: 'an empty package name', build: () => darWithValue(T.int64, E.int64(1), { name: '' }), code: 'DAR_VALIDATION_ERROR', says: /invalid package name ''/ },
  { what: 'a 10,000-character package name', build: () => darWithValue(T.int64, E.int64(1), { name: 'n'.repeat(10_000) }), code: 'DAR_VALIDATION_ERROR', says: /invalid package name/ },
  { what: 'the version "latest"', build: () => darWithValue(T.int64, E.int64(1), { version: 'latest' }), code: 'DAR_VALIDATION_ERROR', says: /invalid package version 'latest'/ },
  { what: 'an unbound variable', build: () => darWithValue(T.int64, E.var('ghost')), code: 'DAR_VALIDATION_ERROR', says: /Main:v .*unknown expr variable: ghost/ },
  { what: 'a builtin its LF version lacks', build: () => darWithValue(T.int64, E.builtin('ADD_BIGNUMERIC')), code: 'DAR_VALIDATION_ERROR', says: /ADD_BIGNUMERIC is not available in Daml-LF 2\.1/ },
  { what: 'an ill-kinded type', build: () => darWithValue(T.builtin('LIST', T.int64, T.int64), E.unit), code: 'DAR_VALIDATION_ERROR', says: /kind mismatch/ },
  { what: 'a type nested 100,000 deep', build: deepTypeDar, code: 'DAR_VALIDATION_ERROR', says: /Main:Deep .*types nest deeper than/ },
  { what: 'an expression nested past the wire bound', build: deepExprDar, code: 'DAR_PARSE_ERROR', says: /nest deeper than/ },
  // Daml's decoder refuses a module with two definitions of one name (its PackageError).
  { what: 'two values of one name', build: () => collidingDar('values'), code: 'DAR_PARSE_ERROR', says: /Collision on definition name v/ },
  { what: 'a value named as a data type', build: () => collidingDar('value and type'), code: 'DAR_PARSE_ERROR', says: /Collision on definition name R/ },
  { what: 'two templates of one name', build: () => collidingDar('templates'), code: 'DAR_PARSE_ERROR', says: /Collision on template name T/ },
  { what: 'two choices of one name', build: () => collidingDar('choices'), code: 'DAR_PARSE_ERROR', says: /Collision on choice name Go/ },
  {
    what: 'a synonym that expands to itself',
    build: () => {
      const b = new PackageBuilder({ name: `cyclic-${++serial}`, version: '1.0.0' });
      const m = b.module('Main');
      m.synonym('A', [], T.list(T.syn(m.ref('B'))));
      m.synonym('B', [], T.syn(m.ref('A')));
      const built = b.build();
      return { id: built.id, dar: built.dar() };
    },
    code: 'DAR_VALIDATION_ERROR', says: /Main:A .*cycle in type synonyms: Main:A → Main:B → Main:A/,
  },
  {
    what: 'a template whose choice takes a function',
    build: () => {
      const b = new PackageBuilder({ name: `unserializable-${++serial}`, version: '1.0.0' });
      b.module('Main').template('T', {
        fields: { p: T.party }, signatories: (t) => E.list(T.party, [t.field('p')]),
        choices: [{ name: 'Go', argType: T.arrow(T.int64, T.int64), returnType: T.unit, controllers: (c) => E.list(T.party, [c.field('p')]), update: () => E.pure(T.unit, E.unit) }],
      });
      const built = b.build();
      return { id: built.id, dar: built.dar() };
    },
    code: 'DAR_VALIDATION_ERROR', says: /Main:T\/Go .*expected serializable type: reason: function type; problem: choice argument/,
  },
  { what: 'a reference to a package it does not carry', build: () => darWithValue(T.int64, E.val({ packageId: 'e'.repeat(64), module: 'M', name: 'x' })), code: 'DAR_NOT_SELF_CONSISTENT', says: /e{64}/ },
  // Ill-typed code (daml-lf-2.rst typing rules): the definition and the rule broken are named.
  ...ILL_TYPED.map(({ what, build, definition, says }) => ({
    what: `ill-typed: ${what}`,
    build: () => { const p = build(`ill-typed-${++serial}`); return { id: p.id, dar: p.dar() }; },
    code: 'DAR_VALIDATION_ERROR',
    says: new RegExp(`${definition} .*type mismatch: ${says.source}`),
  })),
];

describe('a hostile DAR is refused whole, with Canton’s validation error, and leaves no trace', () => {
  it.each(hostile)('$what: $code', async ({ build, code, says }) => {
    const { id, dar } = build();
    for (const path of ['/v2/dars/validate', `/v2/dars?synchronizerId=${encodeURIComponent(sync)}`, `/v2/packages?synchronizerId=${encodeURIComponent(sync)}`]) {
      const res = await upload(server, path, dar);
      expect(res.status, path).toBe(400);
      expectCantonError(res.body, code);
      expect(JSON.stringify(res.body.context)).toMatch(says);
      expectNoStackTrace(res.text);
    }
    expect(await packageIds()).not.toContain(id);
    expect(await vetted(id)).toBe(false);
    // A valid DAR afterwards is recorded as usual.
    const sample = buildSamplePackage(`sample-after-${++serial}`);
    expect((await upload(server, `/v2/dars?synchronizerId=${encodeURIComponent(sync)}`, sample.dar())).status).toBe(200);
    expect(await packageIds()).toContain(sample.id);
  }, 120_000);

  it('names the package and the definition in the context', async () => {
    const { id, dar } = darWithValue(T.int64, E.var('ghost'));
    const res = await upload(server, '/v2/dars/validate', dar);
    expectCantonError(res.body, 'DAR_VALIDATION_ERROR', 'Package validation failed.');
    expect(res.body.context).toMatchObject({ packageId: id, definition: 'Main:v', reason: 'unknownVariable' });
  });
});

describe('zip bombs under the upload bound are refused before or while inflating (ZIP_BOMB)', () => {
  const sampleDar = () => buildSamplePackage(`sample-zip-${++serial}`).dar();

  it('entries whose declared sizes sum past the bound, each under it', async () => {
    const entries: Record<string, Uint8Array> = {};
    for (let i = 0; i < 3; i++) entries[`x${i}.dalf`] = new Uint8Array(16);
    const bomb = declareEntrySizes(zipSync(entries, { level: 0 }), () => Math.floor(MAX_DAR_INFLATED_BYTES / 2));
    const res = await upload(server, '/v2/dars?vetAllPackages=false', bomb);
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'ZIP_BOMB', 'Dar zip file seems to be a zip bomb.');
    expect(res.body.context.msg).toMatch(/declare \d+ bytes, more than/);
  });

  it('an entry that inflates past what its header declares (fflate-built, 32 MiB of zeros declared as 1 KiB)', async () => {
    const bomb = declareEntrySizes(zipSync({ 'META-INF/MANIFEST.MF': new Uint8Array(32 * 1024 * 1024) }, { level: 1 }), () => 1024);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    for (const path of ['/v2/dars?vetAllPackages=false', '/v2/dars/validate']) {
      const res = await upload(server, path, bomb);
      expect(res.status).toBe(400);
      expectCantonError(res.body, 'ZIP_BOMB');
      expect(res.body.context.msg).toMatch(/inflates past its declared 1024 bytes/);
    }
    const dar = sampleDar();
    expect((await upload(server, '/v2/dars?vetAllPackages=false', dar)).status).toBe(200);
  });
});

describe('after a --data-dir restart', () => {
  const { newDataDir, ledgerOn, stopAll } = restartableLedgers();

  it('a refused DAR is still absent and later uploads still work', () => {
    const dir = newDataDir('dar-validation-');
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const first = ledgerOn(dir, clock);
    const syncId = first.config.synchronizers[0]!.id;
    const bad = deepTypeDar();
    const refused = first.uploadDar(bad.dar, { synchronizerId: syncId });
    expect(first.validateDar(bad.dar, { vetAllPackages: false })).toMatchObject({ ok: false, error: { code: 'DAR_VALIDATION_ERROR' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'DAR_VALIDATION_ERROR' } });
    const good = buildSamplePackage(`sample-restart-${++serial}`);
    expect(first.uploadDar(good.dar(), { synchronizerId: syncId }).ok).toBe(true);
    stopAll();
    const second = ledgerOn(dir, clock);
    expect(second.listPackages().packageIds).toContain(good.id);
    expect(second.listPackages().packageIds).not.toContain(bad.id);
    const next = buildSamplePackage(`sample-restart-${++serial}`);
    expect(second.uploadDar(next.dar(), { synchronizerId: syncId }).ok).toBe(true);
    expect(second.validateDar(bad.dar)).toMatchObject({ ok: false, error: { code: 'DAR_VALIDATION_ERROR' } });
  }, 120_000);
});
