/**
 * A serializable Daml value in the protobuf form of Daml-LF's `value.proto` (`Value`, not the
 * Ledger API's), as Canton's `ValueCoder.encodeValue` writes it for the EXCEPTION_VALUE resource
 * of an UNHANDLED_EXCEPTION error: fields in number order, oneof members always written, proto3
 * defaults of plain fields left out.
 */
import type { Value } from '../../../../daml-engine/value/Value.js';
import { numericToScaledText } from '../../../../daml-engine/value/numeric.js';

class Writer {
  readonly bytes: number[] = [];
  varint(n: bigint): void {
    let x = BigInt.asUintN(64, n);
    while (x >= 0x80n) { this.bytes.push(Number(x & 0x7fn) | 0x80); x >>= 7n; }
    this.bytes.push(Number(x));
  }
  tag(field: number, wire: number): void { this.varint(BigInt((field << 3) | wire)); }
  lengthDelimited(field: number, body: readonly number[] | Uint8Array): void {
    this.tag(field, 2);
    this.varint(BigInt(body.length));
    for (const b of body) this.bytes.push(b);
  }
  string(field: number, s: string, always: boolean): void {
    if (s === '' && !always) return;
    this.lengthDelimited(field, Buffer.from(s, 'utf8'));
  }
  message(field: number, build: (w: Writer) => void): void {
    const inner = new Writer();
    build(inner);
    this.lengthDelimited(field, inner.bytes);
  }
}

function write(w: Writer, v: Value): void {
  switch (v.kind) {
    case 'unit': return w.message(1, () => undefined);
    case 'bool': w.tag(2, 0); return w.varint(v.value ? 1n : 0n);
    case 'int64': w.tag(3, 0); return w.varint((v.value << 1n) ^ (v.value >> 63n)); // sint64: zig-zag
    case 'date': w.tag(4, 0); return w.varint(BigInt(v.days)); // int32: negatives sign-extended to 10 bytes
    case 'timestamp': {
      w.tag(5, 1); // sfixed64, little-endian
      const b = Buffer.alloc(8);
      b.writeBigInt64LE(v.micros);
      for (const x of b) w.bytes.push(x);
      return;
    }
    case 'numeric': return w.string(6, numericToScaledText(v), true);
    case 'party': return w.string(7, v.value, true);
    case 'text': return w.string(8, v.value, true);
    case 'contractId': return w.lengthDelimited(9, Buffer.from(v.value, 'hex'));
    case 'optional': return w.message(10, (o) => { if (v.value !== undefined) o.message(1, (x) => write(x, v.value!)); });
    case 'nil': case 'cons': return w.message(11, (l) => {
      for (let cell: Value = v; cell.kind === 'cons'; cell = cell.tail) { const head = cell.head; l.message(1, (x) => write(x, head)); }
    });
    case 'genMap': return w.message(12, (m) => {
      for (const [k, x] of v.entries) m.message(1, (e) => { e.message(1, (y) => write(y, k)); e.message(2, (y) => write(y, x)); });
    });
    case 'record': return w.message(13, (r) => {
      for (const f of v.fields) r.message(1, (field) => field.message(1, (x) => write(x, f)));
    });
    case 'variant': return w.message(14, (x) => { x.string(1, v.constructor, false); x.message(2, (y) => write(y, v.value)); });
    case 'enum': return w.message(15, (x) => x.string(1, v.constructor, false));
    case 'textMap': return w.message(16, (m) => {
      for (const [k, x] of v.entries) m.message(1, (e) => { e.string(1, k, false); e.message(2, (y) => write(y, x)); });
    });
    default: throw new Error(`a ${v.kind} value is not serializable`);
  }
}

/** The value's `value.proto` bytes, or undefined for a value that is not serializable. */
export function lfValueBytes(v: Value): Uint8Array | undefined {
  const w = new Writer();
  try {
    write(w, v);
  } catch {
    return undefined;
  }
  return Uint8Array.from(w.bytes);
}
