import type { Mutant } from './mutants.js';
import { jsonResponse, parse, pathOf } from './mutantProxy.js';

/** Mutants of ledger time bounds, replayed signatures and strict registry timestamps (timeAndReplay.ts). */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** What a `Date.parse`-based reader makes of every timestamp it is given: 2025-02-30 becomes March 2. */
const rolledOver = (v: unknown): unknown => {
  if (typeof v === 'string' && TIMESTAMP.test(v)) {
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? v : new Date(ms).toISOString();
  }
  if (Array.isArray(v)) return v.map(rolledOver);
  return isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rolledOver(x)])) : v;
};

export const TIME_AND_REPLAY_MUTANTS: readonly Mutant[] = [
  {
    name: 'ledger-time-unbounded',
    description: 'minLedgerTimeAbs is taken as given, however far ahead, with no record-time check: the submission an hour ahead commits',
    caughtBy: 'ledger.commands.ledger-time-bounded',
    fault: {
      // The proxy cannot date a commit; it lets the submission through as a participant without the check would.
      request(req) {
        if (req.method !== 'POST' || pathOf(req.url) !== '/v2/commands/submit-and-wait') return req;
        const body = parse(req.body);
        if (!isObject(body) || body.minLedgerTimeAbs === undefined) return req;
        const { minLedgerTimeAbs: _dropped, ...rest } = body;
        return { ...req, body: JSON.stringify(rest) };
      },
    },
  },
  {
    name: 'signature-replayed',
    description: 'an executed prepared transaction executed again outside command deduplication commits again (no deduplication on the transaction UUID)',
    caughtBy: 'ledger.interactive.replay-commits-nothing',
    fault: {
      response(req, res) {
        if (req.method !== 'POST' || pathOf(req.url) !== '/v2/interactive-submission/executeAndWait' || res.status < 400) return res;
        const body = parse(res.body);
        if (!isObject(body) || (body.code !== 'DUPLICATE_CONFIRMATION_REQUEST_UUID' && body.code !== 'DUPLICATE_COMMAND')) return res;
        return jsonResponse(200, { updateId: '1220' + 'ab'.repeat(32), completionOffset: 1 });
      },
    },
  },
  {
    name: 'registry-timestamps-rolled-over',
    description: 'the registry reads factory timestamps with Date.parse: 2025-02-30 becomes March 2, year 0 and 24:00 are accepted',
    caughtBy: 'registry.transfer-factory.strict-timestamps',
    needs: 'registry',
    fault: {
      request(req) {
        if (req.method !== 'POST' || !/^\/registry\/transfer-instruction\/v1\/transfer-factory$/.test(pathOf(req.url))) return req;
        const body = parse(req.body);
        return isObject(body) ? { ...req, body: JSON.stringify(rolledOver(body)) } : req;
      },
    },
  },
];
