import type { OracleCheckResult } from '../report/model.js';
import { evidenceOf } from '../runner/evidenceOf.js';
import type { Exchange } from '../target/exchange.js';
import type { OracleOutcome } from './oracleSession.js';

const show = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v)?.slice(0, 300) ?? String(v));

/** The report's view of what the oracle found for one check, and the failure it makes of it. */
export function oracleResultOf(outcome: OracleOutcome): { result: OracleCheckResult; failure?: { message: string; exchange: Exchange } } {
  const first = outcome.findings[0];
  const result: OracleCheckResult = {
    compared: outcome.compared,
    ...(outcome.stopped === undefined ? {} : { notReplayed: outcome.stopped }),
    ...(first === undefined
      ? {}
      : {
          differences: outcome.findings.length,
          difference: {
            path: first.difference.path,
            why: first.difference.why,
            ...(first.difference.target === undefined ? {} : { target: first.difference.target }),
            ...(first.difference.reference === undefined ? {} : { reference: first.difference.reference }),
            targetExchange: evidenceOf(first.target),
            referenceExchange: evidenceOf(first.reference),
          },
        }),
  };
  if (first === undefined) return { result };
  const d = first.difference;
  const more = outcome.findings.length > 1 ? ` (and ${outcome.findings.length - 1} more difference(s))` : '';
  const message = `the answer differs from the reference ledger's (the oracle) at ${d.path} of ${first.target.request.method} ${first.target.path}: target ${show(d.target)}, reference ${show(d.reference)}: ${d.why}${more}`;
  return { result, failure: { message, exchange: first.target } };
}
