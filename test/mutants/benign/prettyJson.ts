import { parse, type Fault } from '../mutantProxy.js';

/** JSON written with whitespace (two-space indentation, a final newline): insignificant in JSON (RFC 8259, 2). */
const pretty = (text: string) => {
  const v = parse(text);
  return v === undefined ? text : `${JSON.stringify(v, null, 2)}\n`;
};

export const prettyJson: Fault = {
  response: (_req, res) => ((res.headers['content-type'] ?? '').includes('json') ? { ...res, body: pretty(res.body) } : res),
  wsResponse: (_req, frame) => [pretty(frame)],
};
