import type { IMessageType } from '@protobuf-ts/runtime';

/**
 * How deep a protobuf message nests, read from its wire form with its schema and without
 * recursion, so that a hostile encoding can be refused before a recursive decoder runs out of
 * stack (protobuf's recursion limit: Canton's decoder refuses such input too).
 */
export type Nesting = { readonly kind: 'within' } | { readonly kind: 'too-deep'; readonly limit: number } | { readonly kind: 'malformed' };

/** What a length-delimited field opens: a message of a type, a map entry (and its value's message type, if any), or nothing (bytes, a string, packed scalars). */
type Opens = { readonly type: IMessageType<object> | 'map-entry'; readonly value?: IMessageType<object> | undefined } | null;

interface Frame {
  readonly type: IMessageType<object> | 'map-entry';
  /** For a map entry: the message type of its value (field 2), if the value is a message. */
  readonly value?: IMessageType<object> | undefined;
  readonly end: number;
}

/** Checks that no message in `bytes` (a `root`) nests more than `limit` levels below it. */
export function protobufNesting(bytes: Uint8Array, root: IMessageType<object>, limit: number): Nesting {
  const stack: Frame[] = [{ type: root, end: bytes.length }];
  const size = bytes.length;
  let pos = 0;
  /** The varint at `pos` (advancing it), or -1 when it runs past the end or over ten bytes. */
  const varint = (): number => {
    let result = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      if (pos >= size) return -1;
      const b = bytes[pos++] as number;
      // Lengths and tags fit 32 bits; higher bits only matter for scalar varints, which are skipped.
      if (shift < 32) result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
    }
    return -1;
  };
  for (;;) {
    const frame = stack[stack.length - 1] as Frame;
    if (pos === frame.end) {
      if (stack.length === 1) return { kind: 'within' };
      stack.pop();
      continue;
    }
    if (pos > frame.end) return { kind: 'malformed' };
    const tag = varint();
    if (tag < 0) return { kind: 'malformed' };
    const wireType = tag & 7;
    switch (wireType) {
      case 0:
        if (varint() < 0) return { kind: 'malformed' };
        break;
      case 1:
        pos += 8;
        break;
      case 5:
        pos += 4;
        break;
      case 2: {
        const length = varint();
        if (length < 0 || pos + length > frame.end) return { kind: 'malformed' };
        const nested = opens(frame, (tag - wireType) / 8);
        if (nested === null) {
          pos += length;
          break;
        }
        if (stack.length > limit) return { kind: 'too-deep', limit };
        stack.push({ type: nested.type, value: nested.value, end: pos + length });
        break;
      }
      default:
        // Groups (3, 4) are not used by these messages; anything else is not protobuf.
        return { kind: 'malformed' };
    }
  }
}

/** Per message type, what each field number opens: looked up once per type and field (every nested field of a large transaction asks). */
const tables = new WeakMap<IMessageType<object>, Map<number, Opens>>();

function opens(frame: Omit<Frame, 'end'>, field: number): Opens {
  if (frame.type === 'map-entry') return field === 2 && frame.value !== undefined ? { type: frame.value } : null;
  let table = tables.get(frame.type);
  if (table === undefined) tables.set(frame.type, (table = new Map()));
  let known = table.get(field);
  if (known === undefined) table.set(field, (known = nestedType(frame.type, field)));
  return known;
}

/** The frame a length-delimited field of `type` opens, or null when it holds bytes, a string or packed scalars. */
function nestedType(type: IMessageType<object>, field: number): Opens {
  const info = type.fields.find((f) => f.no === field);
  if (info === undefined) return null;
  if (info.kind === 'message') return { type: info.T() as IMessageType<object> };
  if (info.kind === 'map') return { type: 'map-entry', value: info.V.kind === 'message' ? (info.V.T() as IMessageType<object>) : undefined };
  return null;
}
