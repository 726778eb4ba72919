import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { InflatedEntries, unzipDar, unzipDarAsync } from './unzipDar.js';
import { declareEntrySizes } from '../../../../conformance/src/generators/dar.js';

const all = () => true;
const MiB = 1024 * 1024;

describe('unzipDar', () => {
  it('reads what fflate writes, stored and deflated, and only the entries wanted', () => {
    const files = { 'a.dalf': new Uint8Array([1, 2, 3]), 'b.txt': new TextEncoder().encode('x'.repeat(10_000)) };
    for (const level of [0, 9] as const) {
      const r = unzipDar(zipSync(files, { level }), (n) => n.endsWith('.dalf'));
      expect(r).toEqual({ ok: true, files: { 'a.dalf': new Uint8Array([1, 2, 3]) } });
    }
  });

  it('with InflatedEntries: an entry another archive inflated alike is reused, any other byte inflates anew, the bound still counts it', () => {
    // Words in a fixed pseudo-random order: deflate levels 1 and 6 compress them differently.
    let seed = 7;
    const words = Array.from({ length: 20_000 }, () => ['amulet', 'round', 'holding', 'transfer', 'rules', 'dso', 'fee', 'lock'][(seed = (seed * 1103515245 + 12345) % 2 ** 31) % 8]);
    const shared = new TextEncoder().encode(words.join(' '));
    const memo = new InflatedEntries();
    const first = unzipDar(zipSync({ 'x/dep.dalf': shared, 'x/main.dalf': new Uint8Array([1]) }, { level: 6 }), all, undefined, memo);
    const second = unzipDar(zipSync({ 'y/dep.dalf': shared, 'y/main.dalf': new Uint8Array([2]) }, { level: 6 }), all, undefined, memo);
    if (!first.ok || !second.ok) throw new Error('unreadable');
    expect(memo.reused).toBe(1);
    expect(second.files['y/dep.dalf']).toBe(first.files['x/dep.dalf']);
    expect(second.files['y/main.dalf']).toEqual(new Uint8Array([2]));
    // The same sizes and CRC but other compressed bytes (another level): inflated, not reused.
    const other = zipSync({ 'z/dep.dalf': shared }, { level: 1 });
    const third = unzipDar(other, all, undefined, memo);
    expect(third.ok && third.files['z/dep.dalf']).toEqual(shared);
    expect(memo.reused).toBe(1);
    // A reused entry counts toward the bound as if inflated.
    expect(unzipDar(zipSync({ 'w/dep.dalf': shared }, { level: 6 }), all, shared.length - 1, memo)).toMatchObject({ ok: false, failure: { kind: 'zipBomb' } });
  });

  it('refuses an archive whose declared sizes sum past the bound before inflating anything', () => {
    const zip = zipSync({ 'a.dalf': new Uint8Array(600 * 1024), 'b.dalf': new Uint8Array(600 * 1024) }, { level: 9 });
    expect(unzipDar(zip, all, MiB)).toMatchObject({ ok: false, failure: { kind: 'zipBomb', message: expect.stringMatching(/declare 1228800 bytes/) } });
    // Entries not read count too: the bound is the whole archive's.
    expect(unzipDar(zip, (n) => n === 'a.dalf', MiB)).toMatchObject({ ok: false, failure: { kind: 'zipBomb' } });
    expect(unzipDar(zip, all, 2 * MiB).ok).toBe(true);
  });

  it('stops inflating an entry that outgrows its declared size (a real bomb: 8 MiB of zeros declared as 100 bytes)', () => {
    const zip = declareEntrySizes(zipSync({ 'a.dalf': new Uint8Array(8 * MiB) }, { level: 1 }), 100);
    expect(unzipDar(zip, all)).toMatchObject({ ok: false, failure: { kind: 'zipBomb', message: 'a.dalf inflates past its declared 100 bytes' } });
  });

  it('refuses an entry that inflates to less than declared, and corrupt archives', () => {
    const zip = declareEntrySizes(zipSync({ 'a.dalf': new Uint8Array(1000) }, { level: 9 }), 2000);
    expect(unzipDar(zip, all)).toMatchObject({ ok: false, failure: { kind: 'corrupt' } });
    expect(unzipDar(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0]), all)).toMatchObject({ ok: false, failure: { kind: 'corrupt' } });
    const good = zipSync({ 'a.dalf': new Uint8Array(5000).fill(1) }, { level: 9 });
    expect(unzipDar(good.slice(0, good.length - 30), all)).toMatchObject({ ok: false, failure: { kind: 'corrupt' } });
  });

  it('the asynchronous form yields to the event loop between steps and gives the same files', async () => {
    const data = new Uint8Array(MiB / 2).map((_, i) => (i * 7919) % 251);
    const zip = zipSync({ 'a.dalf': data }, { level: 6 });
    let otherWorkRan = false;
    setImmediate(() => { otherWorkRan = true; });
    const r = await unzipDarAsync(zip, all, undefined, 0);
    expect(otherWorkRan).toBe(true);
    expect(r.ok && r.files['a.dalf']).toEqual(data);
    expect(await unzipDarAsync(declareEntrySizes(zipSync({ 'a.dalf': new Uint8Array(8 * MiB) }, { level: 1 }), 100), all, undefined, 0))
      .toMatchObject({ ok: false, failure: { kind: 'zipBomb' } });
  });
});
