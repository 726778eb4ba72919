import type { Mutant } from './mutants.js';
import { jsonResponse, pathOf } from './mutantProxy.js';
import { at, isObject, onBody, scanError } from './mutantKit.js';

/** Mutants of the Scan checks that had none: the scan-proxy forms, traffic status, the preapproval lookup's edge cases, the earliest round, the cross-group payload check. */
const LOOKUP = /^\/v0\/transfer-preapprovals\/by-party\//;
const ROUND = /^\/v0\/internal\/reward-accounting-process\/rounds\/earliest-available$/;

export const SCAN_COVERAGE_MUTANTS: readonly Mutant[] = [
  {
    name: 'proxy-dso-party-id-wrong',
    description: 'the scan proxy names the validator operator, not the DSO, as the DSO party',
    caughtBy: 'scan.proxy.dso-party-id',
    fault: onBody(/^\/v0\/scan-proxy\/dso-party-id$/, (v) => ({ ...v, dso_party_id: `validator::1220${'0'.repeat(64)}` })),
  },
  {
    name: 'proxy-dso-stale-rules',
    description: "the scan proxy's DSO info carries a stale AmuletRules contract",
    caughtBy: 'scan.proxy.dso',
    fault: onBody(/^\/v0\/scan-proxy\/dso$/, (v) => {
      const r = isObject(v.amulet_rules) ? v.amulet_rules : {};
      const c = isObject(r.contract) ? r.contract : {};
      return { ...v, amulet_rules: { ...r, contract: { ...c, contract_id: `00${'cd'.repeat(32)}` } } };
    }),
  },
  {
    name: 'proxy-rounds-empty',
    description: 'the scan proxy lists no open mining round',
    caughtBy: 'scan.proxy.open-round-now',
    fault: onBody(/^\/v0\/scan-proxy\/open-and-issuing-mining-rounds$/, (v) => ({ ...v, open_mining_rounds: [] })),
  },
  {
    name: 'proxy-featured-apps-unchecked-party',
    description: 'the scan proxy answers 404 (no right) for a malformed provider party instead of 400',
    caughtBy: 'scan.proxy.featured-apps-party-checked',
    fault: { response: (req, res) => (res.status === 400 && at(req, /^\/v0\/scan-proxy\/featured-apps\//) ? scanError(404, 'No featured app right found') : res) },
  },
  {
    name: 'proxy-preapproval-stale',
    description: "the scan proxy's preapproval lookup answers an older copy (another created_at) than Scan",
    caughtBy: 'scan.proxy.preapproval-same-as-scan',
    fault: onBody(/^\/v0\/scan-proxy\/transfer-preapprovals\/by-party\//, (v) => {
      const p = isObject(v.transfer_preapproval) ? v.transfer_preapproval : {};
      const c = isObject(p.contract) ? p.contract : {};
      return { ...v, transfer_preapproval: { ...p, contract: { ...c, created_at: '2020-01-01T00:00:00Z' } } };
    }),
  },
  {
    name: 'traffic-status-any-member',
    description: 'the traffic status of a malformed member id is answered with zero counters instead of 400',
    caughtBy: 'scan.traffic-status.member-checked',
    fault: {
      response: (req, res) =>
        res.status === 400 && at(req, /^\/v0\/domains\/[^/]+\/members\/[^/]+\/traffic-status$/)
          ? jsonResponse(200, { traffic_status: { actual: { total_consumed: 0, total_limit: 0 }, target: { total_purchased: 0 } } })
          : res,
    },
  },
  {
    name: 'traffic-status-no-member-known',
    description: "the traffic status of every well-formed member, the ledger's own participant included, is 404 (a Scan whose sequencer connection lists no member)",
    caughtBy: 'scan.traffic-status.member-checked',
    fault: { request: (req) => (/^\/v0\/domains\/[^/]+\/members\/(PAR|MED)(::|%3A%3A)/i.test(pathOf(req.url)) ? scanError(404, 'No traffic state found for member') : req) },
  },
  {
    name: 'preapproval-raw-party-404',
    description: "the lookup only matches party ids with '::' percent-encoded; the raw form answers 404",
    caughtBy: 'scan.preapproval.percent-encoded-party',
    fault: { request: (req) => (at(req, LOOKUP) && req.url.includes('::') ? scanError(404, 'No TransferPreapproval found') : req) },
  },
  {
    name: 'preapproval-expired-filtered',
    description: 'the lookup drops preapprovals past their expiry although nobody archived them',
    caughtBy: 'scan.preapproval.expired-still-returned',
    fault: (profile) => ({
      request: (req) =>
        at(req, LOOKUP) && decodeURIComponent(pathOf(req.url).split('/').pop() ?? '') === profile.scan?.expiredPreapprovalParty ? scanError(404, 'No TransferPreapproval found') : req,
    }),
  },
  {
    name: 'preapproval-malformed-party-404',
    description: 'a string that is not a party id is looked up anyway: 404 instead of 400',
    caughtBy: 'scan.preapproval.malformed-party-400',
    fault: { response: (req, res) => (res.status === 400 && at(req, LOOKUP) ? scanError(404, 'No TransferPreapproval found') : res) },
  },
  {
    name: 'earliest-round-as-string',
    description: 'the earliest round is answered as a string ("5"), not an integer',
    caughtBy: 'scan.earliest-round.shape',
    fault: onBody(ROUND, (v) => ({ ...v, earliest_round: String(v.earliest_round) })),
  },
  {
    name: 'earliest-round-legacy-path-differs',
    description: 'the pre-0.6.5 path answers a different round than the current one',
    caughtBy: 'scan.earliest-round.legacy-path',
    fault: { request: (req) => (at(req, /^\/v0\/reward-accounting-process\/rounds\/earliest-available$/) ? jsonResponse(200, { earliest_round: 987654 }) : req) },
  },
  {
    name: 'preapproval-payload-not-ledgers',
    description: "Scan's preapproval payload is not the ledger's createArgument (a renamed field)",
    caughtBy: 'scan.cross-group.preapproval-matches-ledger',
    fault: onBody(LOOKUP, (v) => {
      const p = isObject(v.transfer_preapproval) ? v.transfer_preapproval : {};
      const c = isObject(p.contract) ? p.contract : {};
      const { expiresAt, ...payload } = isObject(c.payload) ? c.payload : {};
      return { ...v, transfer_preapproval: { ...p, contract: { ...c, payload: { ...payload, expires_at: expiresAt } } } };
    }),
  },
];
