import { assertFloat32, assertInt32, assertUInt32, PbLong, PbULong, type IBinaryWriter, type WireType } from '@protobuf-ts/runtime';

/**
 * A protobuf writer for `toBinary`'s `writerFactory` that writes every field straight into one
 * growing buffer, byte for byte what protobuf-ts's own BinaryWriter writes. That writer collects
 * each nested message in arrays of chunks and copies it into its parent when joined, and encodes
 * each string into a fresh array: for a prepared transaction (values nested records deep, hundreds
 * of strings) that was a sixth of what an interactive prepare cost. Here a nested message reserves
 * one byte for its length at `fork()`; `join()` writes the length there, moving the message's bytes
 * along only when the length needs more than one byte (a message of 128 bytes or more).
 */
export class OneBufferWriter implements IBinaryWriter {
  #buf: Buffer;
  #pos = 0;
  /** Where each open fork's reserved length byte is. */
  readonly #forks: number[] = [];

  constructor(initialSize = 4096) {
    this.#buf = Buffer.allocUnsafe(initialSize);
  }

  /** All bytes written, as a copy; the writer starts again empty. */
  finish(): Uint8Array {
    if (this.#forks.length > 0) throw new Error('invalid state, a fork is not joined');
    const bytes = new Uint8Array(this.#buf.subarray(0, this.#pos));
    this.#pos = 0;
    return bytes;
  }

  fork(): this {
    this.#room(1);
    this.#forks.push(this.#pos);
    this.#pos += 1;
    return this;
  }

  join(): this {
    const at = this.#forks.pop();
    if (at === undefined) throw new Error('invalid state, fork stack empty');
    const length = this.#pos - at - 1;
    const size = varintSize(length);
    if (size > 1) {
      this.#room(size - 1);
      this.#buf.copyWithin(at + size, at + 1, this.#pos);
      this.#pos += size - 1;
    }
    writeVarint32(this.#buf, at, length);
    return this;
  }

  tag(fieldNo: number, type: WireType): this {
    return this.uint32(((fieldNo << 3) | type) >>> 0);
  }

  raw(chunk: Uint8Array): this {
    this.#room(chunk.length);
    this.#buf.set(chunk, this.#pos);
    this.#pos += chunk.length;
    return this;
  }

  uint32(value: number): this {
    assertUInt32(value);
    this.#room(5);
    this.#pos = writeVarint32(this.#buf, this.#pos, value);
    return this;
  }

  int32(value: number): this {
    assertInt32(value);
    if (value >= 0) {
      this.#room(5);
      this.#pos = writeVarint32(this.#buf, this.#pos, value);
    } else {
      // A negative int32 is sign-extended to 64 bits: ten bytes.
      this.#varint64(value >>> 0, -1);
    }
    return this;
  }

  sint32(value: number): this {
    assertInt32(value);
    this.#room(5);
    this.#pos = writeVarint32(this.#buf, this.#pos, ((value << 1) ^ (value >> 31)) >>> 0);
    return this;
  }

  int64(value: string | number | bigint): this {
    const long = PbLong.from(value);
    this.#varint64(long.lo, long.hi);
    return this;
  }

  uint64(value: string | number | bigint): this {
    const long = PbULong.from(value);
    this.#varint64(long.lo, long.hi);
    return this;
  }

  sint64(value: string | number | bigint): this {
    const long = PbLong.from(value);
    const sign = long.hi >> 31;
    this.#varint64((long.lo << 1) ^ sign, ((long.hi << 1) | (long.lo >>> 31)) ^ sign);
    return this;
  }

  fixed64(value: string | number | bigint): this {
    const long = PbULong.from(value);
    return this.#fixed64(long.lo, long.hi);
  }

  sfixed64(value: string | number | bigint): this {
    const long = PbLong.from(value);
    return this.#fixed64(long.lo, long.hi);
  }

  bool(value: boolean): this {
    this.#room(1);
    this.#buf[this.#pos++] = value ? 1 : 0;
    return this;
  }

  fixed32(value: number): this {
    assertUInt32(value);
    this.#room(4);
    this.#pos = this.#buf.writeUInt32LE(value, this.#pos);
    return this;
  }

  sfixed32(value: number): this {
    assertInt32(value);
    this.#room(4);
    this.#pos = this.#buf.writeInt32LE(value, this.#pos);
    return this;
  }

  float(value: number): this {
    assertFloat32(value);
    this.#room(4);
    this.#pos = this.#buf.writeFloatLE(value, this.#pos);
    return this;
  }

  double(value: number): this {
    this.#room(8);
    this.#pos = this.#buf.writeDoubleLE(value, this.#pos);
    return this;
  }

  bytes(value: Uint8Array): this {
    return this.uint32(value.byteLength).raw(value);
  }

  string(value: string): this {
    // UTF-8 takes at most 3 bytes per UTF-16 unit (a surrogate pair: 4 for 2). Short strings are
    // written after a one-byte length, filled in after; others are measured first.
    const most = 3 * value.length;
    if (most < 128) {
      this.#room(1 + most);
      const n = this.#buf.write(value, this.#pos + 1, 'utf8');
      this.#buf[this.#pos] = n;
      this.#pos += 1 + n;
      return this;
    }
    const n = Buffer.byteLength(value, 'utf8');
    this.#room(5 + n);
    this.#pos = writeVarint32(this.#buf, this.#pos, n);
    this.#pos += this.#buf.write(value, this.#pos, 'utf8');
    return this;
  }

  #fixed64(lo: number, hi: number): this {
    this.#room(8);
    this.#buf.writeInt32LE(lo | 0, this.#pos);
    this.#buf.writeInt32LE(hi | 0, this.#pos + 4);
    this.#pos += 8;
    return this;
  }

  /** A 64-bit varint from its low and high 32 bits (as protobuf's goog.varint64write). */
  #varint64(lo: number, hi: number): void {
    this.#room(10);
    const buf = this.#buf;
    let pos = this.#pos;
    let low = lo >>> 0;
    let high = hi >>> 0;
    while (high > 0 || low > 0x7f) {
      buf[pos++] = (low & 0x7f) | 0x80;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high = high >>> 7;
    }
    buf[pos++] = low;
    this.#pos = pos;
  }

  #room(n: number): void {
    if (this.#pos + n <= this.#buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(2 * this.#buf.length, this.#pos + n));
    this.#buf.copy(next, 0, 0, this.#pos);
    this.#buf = next;
  }
}

function varintSize(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

/** Writes `value` (an unsigned 32-bit number) as a varint at `at`; where the next byte goes. */
function writeVarint32(buf: Buffer, at: number, value: number): number {
  let pos = at;
  let v = value;
  while (v > 0x7f) {
    buf[pos++] = (v & 0x7f) | 0x80;
    v = v >>> 7;
  }
  buf[pos++] = v;
  return pos;
}
