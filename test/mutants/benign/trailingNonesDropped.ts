import { isObject, type Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, rewriteFrame, rewriteJsonBody } from './jsonWalk.js';

/**
 * The ledger's Daml values (create arguments, choice arguments and results, interface views,
 * keys) with each record's trailing None fields left out, as Canton 3.5's JSON Ledger API writes
 * them: its SchemaProcessorsImpl encodes values with transcode's
 * `JsonCodec(removeTrailingNonesInRecords = true)`, whose record encoder drops the trailing
 * fields that encode as null. Splice's Scan writes every None field as null (ApiCodecCompressed
 * over the codegen's record, Contract.toHttp), so a payload and the ledger's createArgument of one
 * contract differ by those members. Only records: a variant keeps its `value` (a None payload).
 */
const LEDGER_VALUES = ['createArgument', 'choiceArgument', 'exerciseResult', 'viewValue', 'contractKey'];

const isVariant = (o: Json) => typeof o.tag === 'string' && Object.keys(o).length === 2 && 'value' in o;

function withoutTrailingNones(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutTrailingNones);
  if (!isObject(v)) return v;
  const entries = Object.entries(v).map(([k, x]) => [k, withoutTrailingNones(x)] as const);
  let kept = entries.length;
  if (!isVariant(v)) while (kept > 0 && entries[kept - 1]![1] === null) kept--;
  return Object.fromEntries(entries.slice(0, kept));
}

function values(o: Json): Json {
  if (!LEDGER_VALUES.some((k) => o[k] !== undefined)) return o;
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, LEDGER_VALUES.includes(k) ? withoutTrailingNones(x) : x]));
}
const rewrite = (v: unknown) => mapApiObjects(v, values);

export const trailingNonesDropped: Fault = {
  response: (req, res) => (isLedgerPath(req.url) ? rewriteJsonBody(res, rewrite) : res),
  wsResponse: (_req, frame) => [rewriteFrame(frame, rewrite)],
};
