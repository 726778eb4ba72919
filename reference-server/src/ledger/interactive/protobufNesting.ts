import type { IMessageType } from '@protobuf-ts/runtime';

/**
 * How deep a protobuf message nests, read from its wire form with its schema and without
 * recursion, so that a hostile encoding can be refused before a recursive decoder runs out of
 * stack (protobuf's recursion limit: Canton's decoder refuses such input too).
 */
export type Nesting = { readonly kind: 'within' } | { readonly kind: 'too-deep'; readonly limit: number } | { readonly kind: 'malformed' };

interface Frame {
  readonly type: IMessageType<object> | 'map-entry';
  /** For a map entry: the message type of its value (field 2), if the value is a message. */
  readonly value?: IMessageType<object> | undefined;
  readonly end: number;
}

/** Checks that no message in `bytes` (a `root`) nests more than `limit` levels below it. */
export function protobufNesting(bytes: Uint8Array, root: IMessageType<object>, limit: number): Nesting {
  const stack: Frame[] = [{ type: root, end: bytes.length }];
  let pos = 0;
  const varint = (): number | undefined => {
    let result = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      if (pos >= bytes.length) return undefined;
      const b = bytes[pos++] as number;
      // Lengths and tags fit 32 bits; higher bits only matter for scalar varints, which are skipped.
      if (shift < 32) result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
    }
    return undefined;
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
    if (tag === undefined) return { kind: 'malformed' };
    const wireType = tag & 7;
    const field = Math.floor(tag / 8);
    switch (wireType) {
      case 0:
        if (varint() === undefined) return { kind: 'malformed' };
        break;
      case 1:
        pos += 8;
        break;
      case 5:
        pos += 4;
        break;
      case 2: {
        const length = varint();
        if (length === undefined || pos + length > frame.end) return { kind: 'malformed' };
        const nested = nestedType(frame, field);
        if (nested === undefined) {
          pos += length;
          break;
        }
        if (stack.length > limit) return { kind: 'too-deep', limit };
        stack.push({ ...nested, end: pos + length });
        break;
      }
      default:
        // Groups (3, 4) are not used by these messages; anything else is not protobuf.
        return { kind: 'malformed' };
    }
  }
}

/** The frame a length-delimited field opens, or undefined when it holds bytes, a string or packed scalars. */
function nestedType(frame: Frame, field: number): Omit<Frame, 'end'> | undefined {
  if (frame.type === 'map-entry') return field === 2 && frame.value !== undefined ? { type: frame.value } : undefined;
  const info = frame.type.fields.find((f) => f.no === field);
  if (info === undefined) return undefined;
  if (info.kind === 'message') return { type: info.T() as IMessageType<object> };
  if (info.kind === 'map') return { type: 'map-entry', value: info.V.kind === 'message' ? (info.V.T() as IMessageType<object>) : undefined };
  return undefined;
}
