import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';

import { forEachExpr } from '../../daml-engine/ast/forEachExpr.js';
import type { Package } from '../../daml-engine/ast/Package.js';
import { decodeArchive } from '../../daml-engine/decode/decodeArchive.js';
import { decodeDar, parseManifest } from '../../daml-engine/decode/decodeDar.js';
import { allDars, DARS_DIR, HAS_DARS, loadDar } from './damlFixtures.js';

// A tiny protobuf writer for hand-made archives.
function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) { out.push((n & 0x7f) | 0x80); n >>>= 7; }
  out.push(n);
  return out;
}
const lenField = (field: number, bytes: Uint8Array | number[]): number[] => [...varint((field << 3) | 2), ...varint(bytes.length), ...bytes];
const strField = (field: number, s: string): number[] => lenField(field, [...new TextEncoder().encode(s)]);

async function archive(payload: Uint8Array, hash?: string): Promise<Uint8Array> {
  const { createHash } = await import('node:crypto');
  const id = hash ?? createHash('sha256').update(payload).digest('hex');
  return new Uint8Array([...lenField(3, payload), ...strField(4, id)]);
}
const payload = (minor: string, pkg: number[]): Uint8Array => new Uint8Array([...strField(3, minor), ...lenField(4, pkg)]);

/** The main DALF of a reference DAR. */
function mainDalf(relative: string): { path: string; bytes: Uint8Array } {
  const entries = unzipSync(readFileSync(`${DARS_DIR}/${relative}`));
  const manifest = parseManifest(new TextDecoder().decode(entries['META-INF/MANIFEST.MF']!));
  const path = manifest.get('Main-Dalf')!;
  return { path, bytes: entries[path]! };
}

describe.skipIf(!HAS_DARS)('decoding the reference DARs (needs ../shared/upstream/daml/dars)', () => {
  it('decodes every DAR of shared/upstream/daml/dars, each package id the SHA-256 its file name carries', () => {
    const files = allDars();
    expect(files.length).toBeGreaterThanOrEqual(28);
    const cache = new Map<string, Package>();
    for (const file of files) {
      const result = decodeDar(readFileSync(file), cache);
      if (!result.ok) throw new Error(`${file}: ${result.failure.message}`);
      const { main, packages } = result.value;
      expect(main.lfVersion, file).toBe('2.1');
      // DAR file names are <name>-<version>.dar; the main package's metadata says the same.
      expect(basename(file, '.dar')).toBe(`${main.metadata!.name}-${main.metadata!.version}`);
      for (const pkg of packages) expect(pkg.id).toMatch(/^[0-9a-f]{64}$/);
      expect(new Set(packages.map((p) => p.id)).size).toBe(packages.length);
    }
    // Value bodies decode lazily: walking every expression of every package forces them all.
    const kinds = new Set<string>();
    const builtins = new Set<string>();
    let nodes = 0;
    for (const pkg of cache.values()) {
      forEachExpr(pkg, (e) => {
        nodes++;
        kinds.add(e.kind === 'update' ? `update.${e.update.kind}` : e.kind);
        if (e.kind === 'builtin') builtins.add(e.builtin);
      });
    }
    expect(nodes).toBeGreaterThan(500_000);
    // No reference DAR uses an experimental builtin or contract keys (LF 2.1 has none).
    expect([...kinds].filter((k) => /experimental|ByKey/.test(k))).toEqual([]);
    expect(kinds).toContain('update.tryCatch');
    expect(builtins).toContain('FAIL_WITH_STATUS');
  }, 180_000);

  it('gives each value its name, type and a body decoded on first read, then kept (splice-amulet 0.1.14)', () => {
    const { dar } = loadDar('splice-amulet-0.1.14.dar');
    const values = [...dar.main.modules.values()].flatMap((m) => [...m.values.values()]);
    expect(values.length).toBeGreaterThan(100);
    for (const v of values.slice(0, 50)) {
      // What a copy, JSON or a deep comparison sees: the three fields, the body among them.
      expect(Object.keys(v)).toEqual(['name', 'type', 'expr']);
      const body = v.expr;
      expect(body.kind).toBeTypeOf('string');
      expect(v.expr).toBe(body);
      expect({ ...v }).toEqual({ name: v.name, type: v.type, expr: body });
    }
  });

  it('resolves templates, choices, interface instances and references across packages (splice-amulet 0.1.14)', () => {
    const { dar, packages } = loadDar('splice-amulet-0.1.14.dar');
    const amuletModule = dar.main.modules.get('Splice.Amulet')!;
    const amulet = amuletModule.templates.get('Amulet')!;
    expect(amulet.param).toBe('this');
    const record = amuletModule.dataTypes.get('Amulet')!.cons;
    expect(record.kind === 'record' && record.fieldNames).toEqual(['dso', 'owner', 'amount']);
    // Amulet implements the token standard's Holding interface, defined in another package.
    const holding = [...amulet.implements.values()].find((i) => i.iface.name === 'Holding')!;
    expect(holding.iface.module).toBe('Splice.Api.Token.HoldingV1');
    const holdingPackage = packages.get(holding.iface.packageId)!;
    expect(holdingPackage.metadata?.name).toBe('splice-api-token-holding-v1');
    expect(holdingPackage.modules.get('Splice.Api.Token.HoldingV1')!.interfaces.get('Holding')!.view.kind).toBe('con');
    // A choice, with its controllers and update body decoded.
    const rules = dar.main.modules.get('Splice.AmuletRules')!.templates.get('AmuletRules')!;
    const transfer = rules.choices.get('AmuletRules_Transfer')!;
    expect(transfer.consuming).toBe(false);
    expect(transfer.update.kind).toBeDefined();
    expect(packages.byName('splice-amulet', '0.1.14')?.id).toBe(dar.main.id);
    // Value bodies decode on demand.
    let values = 0;
    for (const module of dar.main.modules.values()) for (const value of module.values.values()) { expect(value.expr.kind).toBeTypeOf('string'); values++; }
    expect(values).toBeGreaterThan(5000);
  });

  it('decodes a package once: a second DAR sharing packages reuses the cached ones', () => {
    const { packages, dar } = loadDar('splice-amulet-0.1.14.dar');
    const stdlib = dar.packages.find((p) => p.metadata?.name === 'daml-stdlib')!;
    const second = loadDar('splice-wallet-0.1.14.dar', packages).dar;
    expect(second.packages.find((p) => p.id === stdlib.id)).toBe(stdlib);
  });
});

describe.skipIf(!HAS_DARS)('bad input is a failure as data naming what is wrong (needs ../shared/upstream/daml/dars)', () => {
  it('a truncated DALF', () => {
    const { path, bytes } = mainDalf('splice-util-0.1.4.dar');
    for (const cut of [1, 10, 1000, bytes.length - 1]) {
      const result = decodeArchive(bytes.subarray(0, cut), undefined, path);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(['truncated', 'corrupt']).toContain(result.failure.kind);
        expect(result.failure.file).toBe(path);
      }
    }
  });

  it('a DALF whose payload does not hash to its package id', () => {
    const { bytes } = mainDalf('splice-util-0.1.4.dar');
    const tampered = bytes.slice();
    tampered[100] = tampered[100]! ^ 0x01; // inside the payload, which comes first
    const result = decodeArchive(tampered);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.failure.kind).toBe('hashMismatch');
      expect(result.failure.message).toMatch(/hashes to [0-9a-f]{64}/);
    }
  });

  it('corrupt package bytes with a correct hash', async () => {
    // A Package whose module (field 1) claims more bytes than there are.
    const result = decodeArchive(await archive(payload('1', [0x0a, 0x7f, 0x01])));
    expect(result).toMatchObject({ ok: false, failure: { kind: 'truncated' } });
    // An interned string index that does not exist.
    const badIndex = [...lenField(1, [0x08, 0x05])];
    expect(decodeArchive(await archive(payload('1', badIndex)))).toMatchObject({ ok: false, failure: { kind: 'corrupt', message: expect.stringMatching(/interned dotted name 5/) } });
  });

  it('an LF version the protos do not describe, and LF 1', async () => {
    expect(decodeArchive(await archive(payload('99', [])))).toMatchObject({ ok: false, failure: { kind: 'unsupportedVersion', message: expect.stringMatching(/2\.99/) } });
    const lf1 = new Uint8Array([...strField(3, '15'), ...lenField(2, [])]);
    expect(decodeArchive(await archive(lf1))).toMatchObject({ ok: false, failure: { kind: 'unsupportedVersion', message: expect.stringMatching(/Daml-LF 1/) } });
    // The smallest valid LF 2.1 package: no modules.
    expect(decodeArchive(await archive(payload('1', [])))).toMatchObject({ ok: true, value: { lfVersion: '2.1' } });
  });

  it('a DAR that is not a zip, has no manifest, or lacks a listed DALF', () => {
    expect(decodeDar(new Uint8Array([1, 2, 3]))).toMatchObject({ ok: false, failure: { kind: 'badZip' } });
    expect(decodeDar(zipSync({ 'a.txt': new Uint8Array([1]) }))).toMatchObject({ ok: false, failure: { kind: 'badManifest' } });
    const manifest = new TextEncoder().encode('Manifest-Version: 1.0\nMain-Dalf: main.dalf\nDalfs: main.dalf, other.dalf\n');
    expect(decodeDar(zipSync({ 'META-INF/MANIFEST.MF': manifest }))).toMatchObject({ ok: false, failure: { kind: 'missingEntry', file: 'main.dalf' } });
  });
});
