/**
 * The zip reader of DAR uploads, bounded as a whole: the central directory's declared sizes of
 * every entry are summed and checked before anything is inflated, and the actual output is counted
 * while inflating (an entry that inflates past its declared size, or the archive past the bound, is
 * refused at once). The asynchronous form (HTTP uploads) inflates in small steps and yields to the
 * event loop between them, so a large or hostile upload never holds other clients up; the
 * synchronous one (start-up DARs) inflates each entry in one native call (node:zlib, several times
 * fflate's speed), its output capped just past what the entry and the bound allow.
 */
import { inflateRawSync } from 'node:zlib';
import { Inflate } from 'fflate';

/** What a DAR may inflate to, all entries together: a bound against zip bombs (real DARs: ~10 MiB). */
export const MAX_DAR_INFLATED_BYTES = 128 * 1024 * 1024;

/**
 * Output each inflate step aims at. The compressed input fed per step follows the entry's ratio so
 * far (between 1 and 64 KiB): an honest DAR (ratio ~5) takes large steps, since each push regrows
 * fflate's 32 KiB window and tiny pushes cost more than they inflate; a zip bomb (ratio up to
 * ~1032) takes 1 KiB steps, so no step builds more than about a mebibyte.
 */
const STEP_OUTPUT_BYTES = 1024 * 1024;
const MIN_STEP_INPUT = 1024;
const MAX_STEP_INPUT = 64 * 1024;

export type UnzipFailure =
  | { readonly kind: 'corrupt'; readonly message: string }
  | { readonly kind: 'zipBomb'; readonly message: string };

export type UnzipResult =
  | { readonly ok: true; readonly files: Readonly<Record<string, Uint8Array>> }
  | { readonly ok: false; readonly failure: UnzipFailure };

interface Entry {
  readonly name: string;
  readonly method: number;
  readonly crc: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localOffset: number;
}

const u16 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u32 = (b: Uint8Array, i: number) => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;

class ZipError extends Error {
  constructor(readonly failure: UnzipFailure) {
    super(failure.message);
  }
}
const corrupt = (message: string): never => { throw new ZipError({ kind: 'corrupt', message }); };

/** The central directory (APPNOTE 4.3.12 / 4.3.16); no zip64 (no DAR needs it). */
function centralDirectory(b: Uint8Array): Entry[] {
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 0xffff); i--) {
    if (u32(b, i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) corrupt('no end of central directory record');
  const count = u16(b, eocd + 10);
  const size = u32(b, eocd + 12);
  let p = u32(b, eocd + 16);
  if (count === 0xffff || size === 0xffffffff || p === 0xffffffff) corrupt('zip64 archives are not supported');
  if (p + size > eocd) corrupt('the central directory lies outside the archive');
  const entries: Entry[] = [];
  const utf8 = new TextDecoder();
  for (let n = 0; n < count; n++) {
    if (p + 46 > eocd || u32(b, p) !== 0x02014b50) corrupt(`central directory entry ${n} is malformed`);
    const nameLength = u16(b, p + 28);
    const end = p + 46 + nameLength + u16(b, p + 30) + u16(b, p + 32);
    if (end > eocd) corrupt(`central directory entry ${n} runs past the directory`);
    entries.push({
      name: utf8.decode(b.subarray(p + 46, p + 46 + nameLength)),
      method: u16(b, p + 10),
      crc: u32(b, p + 16),
      compressedSize: u32(b, p + 20),
      size: u32(b, p + 24),
      localOffset: u32(b, p + 42),
    });
    p = end;
  }
  return entries;
}

/**
 * Entries inflated before, by their compressed bytes: the DARs of one folder (`serve --splice-dars`)
 * carry the same dependencies, compressed alike (LocalNet's 12 DARs: 397 DALFs, 41 distinct). An
 * entry whose method, sizes, CRC and compressed bytes equal one inflated before inflates to the
 * same bytes, so those are reused (shared: nothing writes to an inflated file). Keep one only as
 * long as the DARs read with it (it holds their files).
 */
export class InflatedEntries {
  readonly #byKey = new Map<string, { readonly data: Uint8Array; readonly file: Uint8Array }[]>();
  /** How many entries were reused rather than inflated (for the bench). */
  reused = 0;
  /** `key`: the entry's method, CRC and sizes; `data`: its compressed bytes. */
  find(key: string, data: Uint8Array): Uint8Array | undefined {
    const hit = this.#byKey.get(key)?.find((k) => Buffer.compare(k.data, data) === 0);
    if (hit !== undefined) this.reused++;
    return hit?.file;
  }
  add(key: string, data: Uint8Array, file: Uint8Array): void {
    const list = this.#byKey.get(key) ?? [];
    // A copy: the archive's bytes may be dropped (or reused by the caller) after it is read.
    list.push({ data: data.slice(), file });
    this.#byKey.set(key, list);
  }
}
const keyOf = (e: Entry) => `${e.method}:${e.crc}:${e.compressedSize}:${e.size}`;

/** Steps of inflating the entries `wanted` keeps; yields between steps, returns the files. */
function* unzipSteps(bytes: Uint8Array, wanted: (name: string) => boolean, bound: number, memo?: InflatedEntries, native = false): Generator<void, Record<string, Uint8Array>> {
  const entries = centralDirectory(bytes);
  let declared = 0;
  for (const e of entries) declared += e.size;
  if (declared > bound) throw new ZipError({ kind: 'zipBomb', message: `the archive's entries declare ${declared} bytes, more than the ${bound} bytes a DAR may inflate to` });
  const files: Record<string, Uint8Array> = {};
  let total = 0;
  for (const e of entries) {
    if (!wanted(e.name)) continue;
    const h = e.localOffset;
    if (h + 30 > bytes.length || u32(bytes, h) !== 0x04034b50) corrupt(`${e.name}: bad local header`);
    const start = h + 30 + u16(bytes, h + 26) + u16(bytes, h + 28);
    const data = bytes.subarray(start, start + e.compressedSize);
    if (start + e.compressedSize > bytes.length) corrupt(`${e.name}: the entry runs past the archive`);
    if (e.method === 0) {
      if (e.compressedSize !== e.size) corrupt(`${e.name}: a stored entry's sizes differ`);
      files[e.name] = data.slice();
      total += e.size;
      continue;
    }
    if (e.method !== 8) corrupt(`${e.name}: unsupported compression method ${e.method}`);
    const known = memo?.find(keyOf(e), data);
    if (known !== undefined) {
      // Counted toward the bound as if inflated: the same archive is refused or accepted either way.
      total += known.length;
      if (total > bound) throw new ZipError({ kind: 'zipBomb', message: `the archive inflates to more than ${bound} bytes` });
      files[e.name] = known;
      continue;
    }
    if (native) {
      const file = inflateEntry(e, data, bound, total);
      total += file.length;
      files[e.name] = file;
      memo?.add(keyOf(e), data, file);
      continue;
    }
    // Written in place as it inflates (no final copy of a large entry in one go).
    const file = new Uint8Array(e.size);
    let out = 0;
    let ended = false;
    const inflater = new Inflate((chunk, final) => {
      total += chunk.length;
      if (out + chunk.length > e.size) throw new ZipError({ kind: 'zipBomb', message: `${e.name} inflates past its declared ${e.size} bytes` });
      if (total > bound) throw new ZipError({ kind: 'zipBomb', message: `the archive inflates to more than ${bound} bytes` });
      file.set(chunk, out);
      out += chunk.length;
      if (final) ended = true;
    });
    try {
      let step = MIN_STEP_INPUT;
      for (let i = 0; i < data.length; ) {
        const before = out;
        const input = Math.min(step, data.length - i);
        inflater.push(data.subarray(i, i + input), i + input >= data.length);
        i += input;
        const ratio = Math.max(1, (out - before) / input);
        step = Math.min(MAX_STEP_INPUT, Math.max(MIN_STEP_INPUT, Math.floor(STEP_OUTPUT_BYTES / ratio)));
        yield;
      }
      if (data.length === 0) inflater.push(new Uint8Array(0), true);
    } catch (error) {
      if (error instanceof ZipError) throw error;
      corrupt(`${e.name}: ${error instanceof Error ? error.message : 'cannot inflate'}`);
    }
    if (!ended || out !== e.size) corrupt(`${e.name}: inflates to ${out} bytes, its header says ${e.size}`);
    files[e.name] = file;
    memo?.add(keyOf(e), data, file);
  }
  return files;
}

/**
 * One entry in one native call. The output is capped at one byte past the smaller of the entry's
 * declared size and what the bound leaves, so a lying header costs no more than that, and the
 * failure is the one the stepped form reports (past the declared size first, then past the bound).
 */
function inflateEntry(e: Entry, data: Uint8Array, bound: number, total: number): Uint8Array {
  const left = bound - total;
  const cap = Math.min(e.size, left) + 1;
  let file: Uint8Array | undefined;
  try {
    const b = inflateRawSync(data, { maxOutputLength: cap });
    // A plain Uint8Array, as the stepped form gives (a Buffer's slice() is a view, not a copy).
    file = new Uint8Array(b.buffer, b.byteOffset, b.length);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') return corrupt(`${e.name}: ${error instanceof Error ? error.message : 'cannot inflate'}`);
  }
  const length = file?.length ?? cap; // past the cap: at least cap bytes
  if (length > e.size) throw new ZipError({ kind: 'zipBomb', message: `${e.name} inflates past its declared ${e.size} bytes` });
  if (length > left) throw new ZipError({ kind: 'zipBomb', message: `the archive inflates to more than ${bound} bytes` });
  if (file === undefined || length !== e.size) return corrupt(`${e.name}: inflates to ${length} bytes, its header says ${e.size}`);
  return file;
}

function run(steps: () => Generator<void, Record<string, Uint8Array>>): UnzipResult {
  try {
    const it = steps();
    for (;;) {
      const r = it.next();
      if (r.done) return { ok: true, files: r.value };
    }
  } catch (error) {
    if (error instanceof ZipError) return { ok: false, failure: error.failure };
    return { ok: false, failure: { kind: 'corrupt', message: error instanceof Error ? error.message : 'unreadable' } };
  }
}

/** Inflates at once (start-up DARs, direct callers of the ledger); `memo`: reuse entries other archives inflated. */
export function unzipDar(bytes: Uint8Array, wanted: (name: string) => boolean, bound = MAX_DAR_INFLATED_BYTES, memo?: InflatedEntries): UnzipResult {
  return run(() => unzipSteps(bytes, wanted, bound, memo, true));
}

/** Inflates in steps, yielding to the event loop about every `sliceMs` (HTTP uploads). */
export async function unzipDarAsync(bytes: Uint8Array, wanted: (name: string) => boolean, bound = MAX_DAR_INFLATED_BYTES, sliceMs = 4): Promise<UnzipResult> {
  try {
    const it = unzipSteps(bytes, wanted, bound);
    let since = performance.now();
    for (;;) {
      const r = it.next();
      if (r.done) return { ok: true, files: r.value };
      if (performance.now() - since >= sliceMs) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        since = performance.now();
      }
    }
  } catch (error) {
    if (error instanceof ZipError) return { ok: false, failure: error.failure };
    return { ok: false, failure: { kind: 'corrupt', message: error instanceof Error ? error.message : 'unreadable' } };
  }
}
