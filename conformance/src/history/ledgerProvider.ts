/**
 * The ledger provider core-tx-parser asks for the events of archived contracts, over the suite's
 * own HTTP client: every request it makes is one of the check's exchanges (evidence, schema
 * observers), and the suite still talks to its target over HTTP only.
 */
import { isObject } from '../checks/support/expect.js';
import type { TargetClient } from '../target/createTarget.js';
import type { Exchange, HttpMethod } from '../target/exchange.js';

/** The slice of `AbstractLedgerProvider` (@canton-network/core-provider-ledger) the parser calls. */
export interface ParserLedgerProvider {
  request(args: { readonly method: string; readonly params?: unknown }): Promise<unknown>;
}

/** A refused request as the parser expects it: the Canton error code in `code` (it tolerates CONTRACT_EVENTS_NOT_FOUND). */
export class LedgerApiRefusal extends Error {
  constructor(readonly code: string | undefined, readonly exchange: Exchange) {
    super(`${exchange.request.method} ${exchange.path} answered ${exchange.response ? `HTTP ${exchange.response.status}` : exchange.error?.message ?? 'nothing'}${code ? ` (${code})` : ''}`);
  }
}

const METHODS: Record<string, HttpMethod> = { get: 'GET', post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE' };

export function httpLedgerProvider(client: TargetClient, onExchange: (e: Exchange) => void = () => {}): ParserLedgerProvider {
  return {
    async request(args) {
      const p = isObject(args.params) ? args.params : {};
      if (args.method !== 'ledgerApi' || typeof p.resource !== 'string') throw new Error(`the history judge's provider serves ledgerApi requests only (asked ${args.method})`);
      const method = METHODS[String(p.requestMethod ?? 'get').toLowerCase()] ?? 'GET';
      const query = isObject(p.query) ? (Object.fromEntries(Object.entries(p.query).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))) as Record<string, string | number | boolean>) : undefined;
      const e = await client.request('ledger', { method, path: p.resource, ...(p.body === undefined ? {} : { json: p.body }), ...(query ? { query } : {}) });
      onExchange(e);
      const r = e.response;
      const body = r ? parse(r.text) : undefined;
      if (r === undefined || r.status < 200 || r.status > 299) throw new LedgerApiRefusal(isObject(body) && typeof body.code === 'string' ? body.code : undefined, e);
      return body;
    },
  };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
