import type { Mutant } from './mutants.js';
import { parse } from './mutantProxy.js';
import { at, isObject, scanError } from './mutantKit.js';

/** Scan's POST bodies: a Scan that closes them (refuses members scan.yaml does not list). */
const KNOWN: Record<string, readonly string[]> = {
  '/v0/amulet-rules': ['cached_amulet_rules_contract_id', 'cached_amulet_rules_domain_id'],
  '/v0/open-and-issuing-mining-rounds': ['cached_open_mining_round_contract_ids', 'cached_issuing_round_contract_ids'],
};

export const SCAN_OPEN_BODIES_MUTANTS: readonly Mutant[] = [
  {
    name: 'scan-post-bodies-closed',
    description: "Scan's POST bodies refuse members scan.yaml does not declare (a strict decoder), with 400",
    caughtBy: 'scan.post-bodies.unknown-members-ignored',
    fault: {
      request: (req) => {
        const path = Object.keys(KNOWN).find((p) => req.method === 'POST' && at(req, new RegExp(`^${p}$`)));
        const body = path === undefined ? undefined : parse(req.body);
        if (path === undefined || !isObject(body)) return req;
        const unknown = Object.keys(body).filter((k) => !KNOWN[path]!.includes(k));
        return unknown.length === 0 ? req : scanError(400, `Unexpected fields: ${unknown.join(', ')}`);
      },
    },
  },
];
