/**
 * A minimal protobuf wire-format reader over one byte array (the encoding of
 * https://protobuf.dev/programming-guides/encoding/). The Daml-LF decoder walks messages with it
 * field by field: a message is read as `while (r.pos < end) { const tag = r.tag(); ... }`.
 *
 * Malformed input throws `WireError`; the archive decoder turns it into a decode failure as data.
 */

export class WireError extends Error {
  override readonly name = 'WireError';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export class WireReader {
  pos = 0;

  constructor(readonly buf: Uint8Array) {}

  /** The next field's tag (field number << 3 | wire type). */
  tag(): number {
    return this.uint32();
  }

  /** A varint that fits 32 bits (int32 fields, tags, lengths); negative int32s come back negative. */
  uint32(): number {
    const buf = this.buf;
    let pos = this.pos;
    let b = buf[pos++]!;
    let result = b & 0x7f;
    if (b >= 0x80) {
      b = buf[pos++]!; result |= (b & 0x7f) << 7;
      if (b >= 0x80) {
        b = buf[pos++]!; result |= (b & 0x7f) << 14;
        if (b >= 0x80) {
          b = buf[pos++]!; result |= (b & 0x7f) << 21;
          if (b >= 0x80) {
            b = buf[pos++]!; result |= (b & 0x0f) << 28;
            // A negative int32 is sign-extended to ten bytes: skip the high ones.
            for (let i = 0; b >= 0x80 && i < 5; i++) b = buf[pos++]!;
            if (b >= 0x80) throw new WireError(`varint too long at byte ${this.pos}`);
          }
        }
      }
    }
    if (pos > buf.length) throw new WireError(`truncated varint at byte ${this.pos}`);
    this.pos = pos;
    return result;
  }

  /** A 64-bit varint as an unsigned bigint. */
  uint64(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw new WireError(`truncated varint at byte ${this.pos}`);
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return result;
      shift += 7n;
      if (shift > 63n) throw new WireError(`varint too long at byte ${this.pos}`);
    }
  }

  /** sint64 (zig-zag). */
  sint64(): bigint {
    const n = this.uint64();
    return (n >> 1n) ^ -(n & 1n);
  }

  /** sfixed64 (little-endian two's complement). */
  sfixed64(): bigint {
    if (this.pos + 8 > this.buf.length) throw new WireError(`truncated fixed64 at byte ${this.pos}`);
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8);
    this.pos += 8;
    return view.getBigInt64(0, true);
  }

  bool(): boolean {
    return this.uint32() !== 0;
  }

  /** The end offset of a length-delimited field whose length comes next. */
  limit(): number {
    const length = this.uint32();
    const end = this.pos + length;
    if (length < 0 || end > this.buf.length) throw new WireError(`length ${length} at byte ${this.pos} runs past the end`);
    return end;
  }

  bytes(): Uint8Array {
    const end = this.limit();
    const out = this.buf.subarray(this.pos, end);
    this.pos = end;
    return out;
  }

  string(): string {
    const bytes = this.bytes();
    try {
      return utf8.decode(bytes);
    } catch {
      throw new WireError(`invalid UTF-8 in a string ending at byte ${this.pos}`);
    }
  }

  /** Skip a field of the given wire type (the low three bits of its tag). */
  skip(tag: number): void {
    switch (tag & 7) {
      case 0: this.uint64(); return;
      case 1: this.pos += 8; break;
      case 2: this.pos = this.limit(); return;
      case 5: this.pos += 4; break;
      default: throw new WireError(`unsupported wire type ${tag & 7} (field ${tag >>> 3}) at byte ${this.pos}`);
    }
    if (this.pos > this.buf.length) throw new WireError('truncated fixed-width field');
  }
}
