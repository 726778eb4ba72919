import { isObject, type Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { rewriteJsonBody } from './jsonWalk.js';

/**
 * A registry whose choice contexts carry more entries than the choices read, of every kind the
 * standard's AnyValue has (splice-api-token-metadata-v1: AV_Text, AV_Int, AV_Decimal, AV_Bool,
 * AV_Date, AV_Time, AV_RelTime, AV_Party, AV_List, AV_Map), under names of the vendor's own
 * (a newer registry passing data its own choices read; Splice's choices look their entries up by
 * name and ignore the others). Each value is written as the JSON API reads a Daml value of its
 * type: Int64 and Numeric as strings (a Numeric without trailing zeros), a RelTime as its record.
 * No contract id is added: every contract a context names stays disclosed.
 */
const EXTRA: Json = {
  'vendor.example/policy': { tag: 'AV_Text', value: 'kyc-tier-2' },
  'vendor.example/sequence': { tag: 'AV_Int', value: '42' },
  'vendor.example/fee-rate': { tag: 'AV_Decimal', value: '0.25' },
  'vendor.example/compliance-checked': { tag: 'AV_Bool', value: true },
  'vendor.example/business-day': { tag: 'AV_Date', value: '2026-03-02' },
  'vendor.example/quoted-at': { tag: 'AV_Time', value: '2026-03-02T09:30:00.5Z' },
  'vendor.example/quote-validity': { tag: 'AV_RelTime', value: { microseconds: '60000000' } },
  'vendor.example/jurisdictions': { tag: 'AV_List', value: [{ tag: 'AV_Text', value: 'CH' }, { tag: 'AV_Text', value: 'LI' }] },
  'vendor.example/limits': { tag: 'AV_Map', value: { daily: { tag: 'AV_Decimal', value: '10000' }, weekly: { tag: 'AV_Int', value: '5' } } },
};

/** A party of the vendor's, named only as data (an AV_Party need name no party of this ledger's). */
const OPERATOR = `vendor-operator::1220${'ab'.repeat(32)}`;

function withValues(v: unknown): unknown {
  if (!isObject(v)) return v;
  const ctx = isObject(v.choiceContextData) ? v : isObject(v.choiceContext) && isObject(v.choiceContext.choiceContextData) ? v.choiceContext : undefined;
  if (!ctx || !isObject(ctx.choiceContextData) || !isObject(ctx.choiceContextData.values)) return v;
  const data = ctx.choiceContextData as Json;
  const values = { ...(data.values as Json), ...EXTRA, 'vendor.example/operator': { tag: 'AV_Party', value: OPERATOR } };
  const patched = { ...ctx, choiceContextData: { ...data, values } };
  return ctx === v ? patched : { ...v, choiceContext: patched };
}

export const richContextValues: Fault = {
  response: (req, res) => (res.status === 200 && /^\/+registry\//.test(req.url) ? rewriteJsonBody(res, withValues) : res),
};
