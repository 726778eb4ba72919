/**
 * Where a protobuf message's one-byte varints are (enum values, indices, tags of oneofs, small
 * numbers), found by walking the wire format and descending into every length-delimited field that
 * parses as a message. Rewriting one keeps every length right, so a corrupted message still parses
 * and reaches the judgement of what reads it (the Daml-LF decoder and the upload check), where
 * random bytes mostly stop at the wire. (A prepared transaction has next to none: its numbers
 * are times and its node references strings.)
 */
export function oneByteVarints(bytes: Uint8Array, from = 0, to = bytes.length, out: number[] = []): number[] | undefined {
  let at = from;
  const varint = (): number | undefined => {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (at >= to) return undefined;
      const b = bytes[at++]!;
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
    }
    return undefined;
  };
  const found: number[] = [];
  while (at < to) {
    const tag = varint();
    if (tag === undefined || tag >>> 3 === 0) return undefined;
    const wire = tag & 7;
    if (wire === 0) {
      const start = at;
      if (varint() === undefined) return undefined;
      if (at - start === 1) found.push(start);
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else if (wire === 2) {
      const length = varint();
      if (length === undefined || at + length > to) return undefined;
      oneByteVarints(bytes, at, at + length, found);
      at += length;
    } else return undefined;
  }
  if (at !== to) return undefined;
  out.push(...found);
  return out;
}
