import { cantonHash, TOPOLOGY_TRANSACTION_PURPOSE } from '../../conformance/src/checks/support/topologyHash.js';
import { jsonResponse, parse, pathOf } from './mutantProxy.js';
import type { Mutant } from './mutants.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Mutants of the wire details the published clients rely on (issue #10). */
export const CLIENT_WIRE_MUTANTS: readonly Mutant[] = [
  {
    name: 'topology-multihash-without-prefixes',
    description: "generate-topology's multiHash hashes the sorted transaction hashes back to back, without Canton's count and length prefixes",
    caughtBy: 'ledger.external-party.topology-multihash',
    fault: {
      response(req, res) {
        if (req.method !== 'POST' || pathOf(req.url) !== '/v2/parties/external/generate-topology' || res.status !== 200) return res;
        const v = parse(res.body);
        if (!isObject(v) || !Array.isArray(v.topologyTransactions)) return res;
        const hashes = (v.topologyTransactions as string[]).map((t) => cantonHash(TOPOLOGY_TRANSACTION_PURPOSE, Buffer.from(t, 'base64'))).sort(Buffer.compare);
        return { ...res, body: JSON.stringify({ ...v, multiHash: cantonHash(55, ...hashes).toString('base64') }) };
      },
    },
  },
  {
    name: 'verbose-false-with-format-refused',
    description: 'a request with eventFormat/updateFormat and verbose: false is refused as "both filter/verbose and a format" (only verbose: true conflicts)',
    caughtBy: 'ledger.acs.verbose-false-with-format',
    fault: {
      request(req) {
        const body = parse(req.body);
        const path = pathOf(req.url);
        if (req.method !== 'POST' || (path !== '/v2/state/active-contracts' && path !== '/v2/updates') || !isObject(body) || body.verbose !== false) return req;
        if (body.eventFormat === undefined && body.updateFormat === undefined) return req;
        return jsonResponse(400, {
          code: 'INVALID_ARGUMENT',
          cause: 'The submitted request has invalid arguments: Both filter/verbose and event_format is specified. Please use either backwards compatible arguments (filter and verbose) or event_format, but not both.',
          correlationId: null,
          traceId: '0'.repeat(32),
          context: {},
          resources: [],
          errorCategory: 8,
          grpcCodeValue: 3,
          retryInfo: null,
          definiteAnswer: null,
        });
      },
    },
  },
];
