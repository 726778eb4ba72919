/**
 * Mutations of protobuf messages without their schema, for fuzzing a decoder with inputs that
 * are almost right: the wire format is parsed into fields (a length-delimited field is read as a
 * nested message when its bytes parse as one), one field somewhere in the tree is changed, and the
 * tree is written back. Byte flips mostly make inputs a decoder refuses at once; these reach the
 * checks behind it (an interned-string index one past the table, a type that refers to itself, a
 * field repeated or gone).
 */

export type WireField =
  | { readonly no: number; readonly kind: 'varint'; readonly value: bigint }
  | { readonly no: number; readonly kind: 'fixed64' | 'fixed32'; readonly bytes: Uint8Array }
  | { readonly no: number; readonly kind: 'bytes'; readonly bytes: Uint8Array }
  | { readonly no: number; readonly kind: 'message'; readonly fields: WireField[] };

/** A path to a field: the index of each field from the top message down. */
export type FieldPath = readonly number[];

/** What to do at the field a path names. */
export type Mutation =
  | { readonly op: 'setVarint'; readonly value: bigint }
  | { readonly op: 'delete' }
  | { readonly op: 'duplicate' }
  | { readonly op: 'swapWithNext' }
  | { readonly op: 'truncateBytes'; readonly keep: number }
  | { readonly op: 'flipByte'; readonly at: number; readonly xor: number };

function readVarint(b: Uint8Array, at: number): [bigint, number] | undefined {
  let v = 0n;
  for (let shift = 0n, i = at; i < b.length && shift < 70n; i++, shift += 7n) {
    const byte = b[i]!;
    v |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [v, i + 1];
  }
  return undefined;
}

/** The fields of `b` when it is a whole, plausible message (field numbers 1..536870911, nothing left over); else undefined. */
export function parseMessage(b: Uint8Array, depth = 0): WireField[] | undefined {
  const fields: WireField[] = [];
  let at = 0;
  while (at < b.length) {
    const tag = readVarint(b, at);
    if (!tag) return undefined;
    const [key, next] = tag;
    const no = Number(key >> 3n);
    if (no < 1 || no > 0x1fffffff) return undefined;
    at = next;
    switch (Number(key & 7n)) {
      case 0: {
        const v = readVarint(b, at);
        if (!v) return undefined;
        fields.push({ no, kind: 'varint', value: v[0] });
        at = v[1];
        break;
      }
      case 1: if (at + 8 > b.length) return undefined; fields.push({ no, kind: 'fixed64', bytes: b.slice(at, at + 8) }); at += 8; break;
      case 5: if (at + 4 > b.length) return undefined; fields.push({ no, kind: 'fixed32', bytes: b.slice(at, at + 4) }); at += 4; break;
      case 2: {
        const len = readVarint(b, at);
        if (!len || len[1] + Number(len[0]) > b.length) return undefined;
        const bytes = b.slice(len[1], len[1] + Number(len[0]));
        at = len[1] + Number(len[0]);
        // Text parses as a message now and then; a message of printable field keys only is rare enough.
        const inner = bytes.length > 0 && depth < 64 ? parseMessage(bytes, depth + 1) : undefined;
        fields.push(inner ? { no, kind: 'message', fields: inner } : { no, kind: 'bytes', bytes });
        break;
      }
      default: return undefined;
    }
  }
  return fields;
}

function varint(v: bigint, out: number[]): void {
  let x = BigInt.asUintN(64, v);
  while (x >= 0x80n) { out.push(Number(x & 0x7fn) | 0x80); x >>= 7n; }
  out.push(Number(x));
}

export function writeMessage(fields: readonly WireField[]): Uint8Array {
  const out: number[] = [];
  const put = (bytes: Uint8Array) => { for (const x of bytes) out.push(x); };
  for (const f of fields) {
    switch (f.kind) {
      case 'varint': varint(BigInt(f.no) << 3n, out); varint(f.value, out); break;
      case 'fixed64': varint((BigInt(f.no) << 3n) | 1n, out); put(f.bytes); break;
      case 'fixed32': varint((BigInt(f.no) << 3n) | 5n, out); put(f.bytes); break;
      case 'bytes': varint((BigInt(f.no) << 3n) | 2n, out); varint(BigInt(f.bytes.length), out); put(f.bytes); break;
      case 'message': {
        const inner = writeMessage(f.fields);
        varint((BigInt(f.no) << 3n) | 2n, out); varint(BigInt(inner.length), out); put(inner);
        break;
      }
    }
  }
  return Uint8Array.from(out);
}

/** Every path in the tree, with the field it leads to (pre-order). */
export function fieldPaths(fields: readonly WireField[], prefix: FieldPath = []): { path: FieldPath; field: WireField }[] {
  const out: { path: FieldPath; field: WireField }[] = [];
  fields.forEach((field, i) => {
    const path = [...prefix, i];
    out.push({ path, field });
    if (field.kind === 'message') out.push(...fieldPaths(field.fields, path));
  });
  return out;
}

/** The tree with `mutation` applied at `path` (a mutation that does not fit the field leaves it as it is). */
export function mutate(fields: readonly WireField[], path: FieldPath, mutation: Mutation): WireField[] {
  const [i, ...rest] = path as [number, ...number[]];
  const copy = [...fields];
  const f = copy[i];
  if (f === undefined) return copy;
  if (rest.length > 0) {
    if (f.kind === 'message') copy[i] = { ...f, fields: mutate(f.fields, rest, mutation) };
    return copy;
  }
  switch (mutation.op) {
    case 'setVarint': if (f.kind === 'varint') copy[i] = { ...f, value: mutation.value }; break;
    case 'delete': copy.splice(i, 1); break;
    case 'duplicate': copy.splice(i, 0, f); break;
    case 'swapWithNext': if (i + 1 < copy.length) { copy[i] = copy[i + 1]!; copy[i + 1] = f; } break;
    case 'truncateBytes': if (f.kind === 'bytes') copy[i] = { ...f, bytes: f.bytes.slice(0, Math.min(mutation.keep, f.bytes.length)) }; break;
    case 'flipByte':
      if (f.kind === 'bytes' && f.bytes.length > 0) {
        const bytes = f.bytes.slice();
        const at = mutation.at % bytes.length;
        bytes[at] = bytes[at]! ^ (mutation.xor || 1);
        copy[i] = { ...f, bytes };
      }
      break;
  }
  return copy;
}
