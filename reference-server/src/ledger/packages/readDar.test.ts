import { createHash } from 'node:crypto';
import { BinaryWriter, WireType } from '@protobuf-ts/runtime';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readArchive } from './readArchive.js';
import { readDar, readManifest } from './readDar.js';

/** An Archive around a payload whose package sits in `field` (2: Daml-LF 1, 4: Daml-LF 2), with or without metadata. */
function archive(field: 2 | 4, meta?: { name: string; version: string }): { bytes: Uint8Array; id: string } {
  const pkg = new BinaryWriter();
  if (meta) {
    pkg.tag(2, WireType.LengthDelimited).string(meta.name).tag(2, WireType.LengthDelimited).string(meta.version);
    pkg.tag(4, WireType.LengthDelimited).bytes(new BinaryWriter().tag(1, WireType.Varint).int32(0).tag(2, WireType.Varint).int32(1).finish());
  } else {
    pkg.tag(2, WireType.LengthDelimited).string(`no-metadata-${field}`);
  }
  const payload = new BinaryWriter().tag(3, WireType.LengthDelimited).string('15').tag(field, WireType.LengthDelimited).bytes(pkg.finish()).finish();
  const id = createHash('sha256').update(payload).digest('hex');
  return { bytes: new BinaryWriter().tag(3, WireType.LengthDelimited).bytes(payload).tag(4, WireType.LengthDelimited).string(id).finish(), id };
}

describe('readArchive', () => {
  it('reads Daml-LF 1 and 2 packages, their metadata and LF version', () => {
    const lf1 = archive(2, { name: 'old', version: '0.1.0' });
    expect(readArchive(lf1.bytes)).toMatchObject({ ok: true, value: { packageId: lf1.id, name: 'old', version: '0.1.0', lfVersion: '1.15' } });
    const lf2 = archive(4, { name: 'new', version: '2.0.0' });
    expect(readArchive(lf2.bytes)).toMatchObject({ ok: true, value: { packageId: lf2.id, name: 'new', lfVersion: '2.15' } });
  });

  it('refuses other hash functions, a missing payload and a wrong hash', () => {
    expect(readArchive(new BinaryWriter().tag(1, WireType.Varint).int32(1).finish()).ok).toBe(false);
    expect(readArchive(new BinaryWriter().tag(4, WireType.LengthDelimited).string('a'.repeat(64)).finish())).toMatchObject({ ok: false, error: 'the archive has no payload' });
    const a = archive(4, { name: 'x', version: '1' });
    const tampered = new BinaryWriter().tag(3, WireType.LengthDelimited).bytes(new Uint8Array([0x1a, 0x01, 0x31])).tag(4, WireType.LengthDelimited).string(a.id).finish();
    expect(readArchive(tampered)).toMatchObject({ ok: false, error: expect.stringMatching(/^Mismatching hashes/) });
  });
});

describe('readDar', () => {
  it('follows wrapped manifest lines and names packages without metadata after their DALF file', () => {
    const main = archive(4, { name: 'main-pkg', version: '1.0.0' });
    const dep = archive(2);
    const mainPath = `main-pkg-1.0.0-${main.id}/main-pkg-1.0.0-${main.id}.dalf`;
    const depPath = `main-pkg-1.0.0-${main.id}/daml-prim-0.0.0-${dep.id}.dalf`;
    // JAR manifests wrap at 72 bytes: continuation lines start with one space.
    const wrap = (line: string) => line.match(/.{1,70}/g)!.join('\r\n ');
    const manifest = ['Manifest-Version: 1.0', wrap(`Main-Dalf: ${mainPath}`), wrap(`Dalfs: ${mainPath}, ${depPath}`), 'Format: daml-lf', ''].join('\r\n');
    const dar = readDar(zipSync({ 'META-INF/MANIFEST.MF': strToU8(manifest), [mainPath]: main.bytes, [depPath]: dep.bytes }));
    expect(dar.ok).toBe(true);
    if (!dar.ok) return;
    expect(dar.value.mainPackageId).toBe(main.id);
    expect(dar.value.packages.map((p) => [p.packageName, p.packageVersion])).toEqual([['main-pkg', '1.0.0'], ['daml-prim', '0.0.0']]);
  });

  it('refuses a non-daml-lf format and a package with neither metadata nor a telling file name', () => {
    const a = archive(4, { name: 'p', version: '1.0.0' });
    expect(readDar(zipSync({ 'META-INF/MANIFEST.MF': strToU8('Main-Dalf: a.dalf\nFormat: jar\n'), 'a.dalf': a.bytes })).ok).toBe(false);
    const anon = archive(4);
    expect(readDar(zipSync({ 'META-INF/MANIFEST.MF': strToU8('Main-Dalf: a.dalf\n'), 'a.dalf': anon.bytes }))).toMatchObject({ ok: false, error: { code: 'DAR_PARSE_ERROR', reason: expect.stringMatching(/no name and version/) } });
  });

  it('reads manifest keys and values', () => {
    expect(readManifest('A: 1\r\nB: x\r\n y\r\n\r\n')).toEqual(new Map([['A', '1'], ['B', 'xy']]));
  });
});
