/**
 * A minimal protobuf wire-format writer, the inverse of `decode/WireReader.ts` (the encoding of
 * https://protobuf.dev/programming-guides/encoding/). Fields are written in the order called.
 *
 * A sub-message is written in place by `message(field, body)`: its length is not known before its
 * body, so the writer notes a hole where the length goes and `finish()` fills every hole in one
 * pass. Moving bodies right as lengths become known would copy each byte once per enclosing
 * message, and Daml-LF expressions nest hundreds deep.
 */

const utf8 = new TextEncoder();

export class WireWriter {
  private buf = new Uint8Array(256);
  pos = 0;
  /** Where each sub-message's length goes (ascending) and the length. */
  private readonly holeAt: number[] = [];
  private readonly holeLength: number[] = [];
  /** Bytes the filled holes will add. */
  private extra = 0;

  private ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  /** The bytes written so far, lengths filled in (a copy). */
  finish(): Uint8Array {
    if (this.holeAt.length === 0) return this.buf.slice(0, this.pos);
    const out = new Uint8Array(this.pos + this.extra);
    let src = 0, dst = 0;
    for (let i = 0; i < this.holeAt.length; i++) {
      const at = this.holeAt[i]!;
      out.set(this.buf.subarray(src, at), dst);
      dst += at - src;
      src = at;
      let v = this.holeLength[i]!;
      while (v >= 0x80) { out[dst++] = (v & 0x7f) | 0x80; v >>>= 7; }
      out[dst++] = v;
    }
    out.set(this.buf.subarray(src, this.pos), dst);
    return out;
  }

  tag(field: number, wireType: 0 | 1 | 2 | 5): void {
    this.varint32((field << 3 | wireType) >>> 0);
  }

  /** An unsigned 32-bit varint. */
  varint32(n: number): void {
    this.ensure(5);
    let v = n >>> 0;
    while (v >= 0x80) { this.buf[this.pos++] = (v & 0x7f) | 0x80; v >>>= 7; }
    this.buf[this.pos++] = v;
  }

  /** An int32 / enum value: negative numbers are sign-extended to ten bytes, as protobuf does. */
  int32(n: number): void {
    if (n >= 0) this.varint32(n);
    else this.varint64(BigInt.asUintN(64, BigInt(n)));
  }

  /** An unsigned 64-bit varint. */
  varint64(n: bigint): void {
    this.ensure(10);
    let v = BigInt.asUintN(64, n);
    while (v >= 0x80n) { this.buf[this.pos++] = Number(v & 0x7fn) | 0x80; v >>= 7n; }
    this.buf[this.pos++] = Number(v);
  }

  /** sint64 (zig-zag). */
  sint64(n: bigint): void {
    const v = BigInt.asIntN(64, n);
    this.varint64((v << 1n) ^ (v >> 63n));
  }

  /** sfixed64 (little-endian two's complement). */
  sfixed64(n: bigint): void {
    this.ensure(8);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).setBigInt64(0, BigInt.asIntN(64, n), true);
    this.pos += 8;
  }

  bytes(b: Uint8Array): void {
    this.varint32(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  string(s: string): void {
    this.bytes(utf8.encode(s));
  }

  // ---- whole fields ------------------------------------------------------------------------------

  int32Field(field: number, n: number): void { this.tag(field, 0); this.int32(n); }
  boolField(field: number, b: boolean): void { this.tag(field, 0); this.varint32(b ? 1 : 0); }
  sint64Field(field: number, n: bigint): void { this.tag(field, 0); this.sint64(n); }
  sfixed64Field(field: number, n: bigint): void { this.tag(field, 1); this.sfixed64(n); }
  bytesField(field: number, b: Uint8Array): void { this.tag(field, 2); this.bytes(b); }
  stringField(field: number, s: string): void { this.tag(field, 2); this.string(s); }

  /** A length-delimited sub-message written by `body`, in place. */
  message(field: number, body: () => void): void {
    this.tag(field, 2);
    const hole = this.holeAt.length;
    this.holeAt.push(this.pos);
    this.holeLength.push(0);
    const start = this.pos;
    const extraBefore = this.extra;
    body();
    const length = this.pos - start + this.extra - extraBefore;
    this.holeLength[hole] = length;
    this.extra += varint32Size(length);
  }

  /** An empty message (the proto's `Unit`). */
  unitField(field: number): void {
    this.tag(field, 2);
    this.varint32(0);
  }
}

function varint32Size(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}
