import { createHash } from 'node:crypto';
import type { Mutant } from './mutants.js';
import { parse, pathOf, type Fault, type ProxyRequest, type ProxyResponse, type Upstream } from './mutantProxy.js';
import { at, deep, isObject, ok200, type Json } from './mutantKit.js';

/**
 * A seventeenth hunt: a registry and a Scan whose answers are well-shaped but contradict the
 * ledger they read. Wallets take the contracts, blobs, synchronizers and context values the apps
 * name and submit them to that ledger, or compute with the payloads they show (fees, prices).
 */

/** Scan's reads of the DSO's contracts (AmuletRules, rounds, DSO info), and the scan proxy's forms. */
const SCAN_READS = /\/v0\/(?:scan-proxy\/)?(?:amulet-rules|dso|open-and-issuing-mining-rounds)$/;
const TRANSFER_CONTEXTS = /^\/registry\/transfer-instruction\/v[12]\/[^/]+\/choice-contexts\/[^/]+$/;

const templateIs = (o: Json, name: string) => typeof o.template_id === 'string' && o.template_id.endsWith(`:${name}`);

/** `f` on every contract (template_id, contract_id, payload) of Scan's wallet reads. */
const onScanContracts = (f: (c: Json, body: unknown) => Json): Fault => ({
  response: (req, res) => (at(req, SCAN_READS) ? ok200(res, (v) => deep(v, (o) => (typeof o.template_id === 'string' && typeof o.contract_id === 'string' && isObject(o.payload) ? f(o, v) : o))) : res),
});

/** Every contract of a template in a JSON value (Scan's bodies hold each once, or twice for the DSO's rounds). */
function contractsOf(v: unknown, name: string): Json[] {
  const out: Json[] = [];
  deep(v, (o) => {
    if (templateIs(o, name) && typeof o.contract_id === 'string' && !out.some((c) => c.contract_id === o.contract_id)) out.push(o);
    return o;
  });
  return out.sort((a, b) => String(a.contract_id).localeCompare(String(b.contract_id)));
}

/** `o` with the member at `path` set by `f` of its value, where every step is an object. */
function setAt(o: Json, path: readonly string[], f: (x: unknown) => unknown): Json {
  const [head, ...rest] = path;
  if (head === undefined || !(head in o)) return o;
  return { ...o, [head]: rest.length === 0 ? f(o[head]) : isObject(o[head]) ? setAt(o[head], rest, f) : o[head] };
}

/** A decimal string times 100 (as Scan's codec writes it), anything else as it is. */
const hundredfold = (x: unknown): unknown => (typeof x === 'string' && /^\d+(\.\d+)?$/.test(x) ? String(Number(x) * 100) : x);

/**
 * The participant's connected synchronizers, learnt upstream once; `other(id)` is another one
 * than `id` (the next in the participant's list), so the fault names a synchronizer the
 * participant is connected to, just not the one the contract is on.
 */
function otherSynchronizer(): { learn(req: ProxyRequest, upstream: Upstream): Promise<void>; other(id: unknown): unknown } {
  let ids: string[] | undefined;
  return {
    async learn(req, upstream) {
      if (ids !== undefined) return;
      const res = await upstream.send({ method: 'GET', url: '/v2/state/connected-synchronizers', headers: { ...req.headers }, body: '' });
      const v = parse(res.body);
      const list = isObject(v) && Array.isArray(v.connectedSynchronizers) ? v.connectedSynchronizers : [];
      ids = list.filter(isObject).map((s) => String(s.synchronizerId));
    },
    other(id) {
      if (ids === undefined || ids.length < 2 || typeof id !== 'string') return id;
      const i = ids.indexOf(id);
      return ids[(i + 1) % ids.length];
    },
  };
}

/** Scan names, as every contract's domain_id, another synchronizer the participant is connected to. */
const scanDomainElsewhere: Fault = (() => {
  const s = otherSynchronizer();
  return {
    request: async (req, upstream) => {
      if (at(req, SCAN_READS)) await s.learn(req, upstream);
      return req;
    },
    response: (req: ProxyRequest, res: ProxyResponse) =>
      at(req, SCAN_READS) ? ok200(res, (v) => deep(v, (o) => (isObject(o.contract) && typeof o.domain_id === 'string' ? { ...o, domain_id: s.other(o.domain_id) } : o))) : res,
  };
})();

/** The choice contexts at `contexts` disclose their contracts with another connected synchronizer's id. */
function contextsOnOtherSynchronizer(contexts: RegExp): Fault {
  const s = otherSynchronizer();
  const isContext = (req: ProxyRequest) => req.method === 'POST' && contexts.test(pathOf(req.url));
  return {
    request: async (req, upstream) => {
      if (isContext(req)) await s.learn(req, upstream);
      return req;
    },
    response: (req: ProxyRequest, res: ProxyResponse) =>
      isContext(req)
        ? ok200(res, (v) => (isObject(v) && Array.isArray(v.disclosedContracts) ? { ...v, disclosedContracts: v.disclosedContracts.map((d) => (isObject(d) && typeof d.synchronizerId === 'string' ? { ...d, synchronizerId: s.other(d.synchronizerId) } : d)) } : v))
        : res,
  };
}

/** The v2 transfer-instruction accept context: each disclosed contract carries the blob of the next one. */
const v2AcceptBlobsRotated: Fault = {
  response: (req, res) => {
    if (req.method !== 'POST' || !/^\/registry\/transfer-instruction\/v2\/[^/]+\/choice-contexts\/accept$/.test(pathOf(req.url))) return res;
    return ok200(res, (v) => {
      if (!isObject(v) || !Array.isArray(v.disclosedContracts) || v.disclosedContracts.length < 2) return v;
      const list = v.disclosedContracts.filter(isObject);
      return { ...v, disclosedContracts: list.map((d, i) => ({ ...d, createdEventBlob: list[(i + 1) % list.length]!.createdEventBlob })) };
    });
  },
};

/** The v2 transfer-instruction accept context names, as its open round, the AmuletRules (another template). */
const v2AcceptOpenRoundIsRules: Fault = {
  response: (req, res) => {
    if (req.method !== 'POST' || !/^\/registry\/transfer-instruction\/v2\/[^/]+\/choice-contexts\/accept$/.test(pathOf(req.url))) return res;
    return ok200(res, (v) => {
      const values = isObject(v) && isObject(v.choiceContextData) && isObject(v.choiceContextData.values) ? v.choiceContextData.values : undefined;
      if (!isObject(v) || values === undefined || !isObject(values['open-round']) || !isObject(values['amulet-rules'])) return v;
      return { ...v, choiceContextData: { ...(v.choiceContextData as Json), values: { ...values, 'open-round': values['amulet-rules'] } } };
    });
  },
};

/** Preapprovals past their expiry shown as renewed: expiresAt a year on, lastRenewedAt now (the ledger's contract is as it was). */
const expiredPreapprovalShownRenewed: Fault = {
  response: (req, res) =>
    at(req, /\/v0\/(?:scan-proxy\/)?transfer-preapprovals\/by-party\/[^/]+$/)
      ? ok200(res, (v) =>
          deep(v, (o) => {
            if (!templateIs(o, 'TransferPreapproval') || !isObject(o.payload) || Date.parse(String(o.payload.expiresAt)) >= Date.now()) return o;
            const base = Date.parse(String(o.created_at));
            return { ...o, payload: { ...o.payload, lastRenewedAt: new Date(base).toISOString(), expiresAt: new Date(base + 365 * 86_400_000).toISOString() } };
          }),
        )
      : res,
};

/** Allocation choice contexts (v1 and v2: execute-transfer, withdraw, cancel). */
const ALLOCATION_CONTEXTS = /^\/registry\/allocations\/v[12]\/[^/]+\/choice-contexts\/[^/]+$/;

/** Featured app rights (Scan's and the proxy's lookups) served with the AmuletRules' blob, learnt from Scan's AmuletRules answers. */
const featuredRightWithRulesBlob: Fault = (() => {
  let rulesBlob: unknown;
  return {
    response: (req, res) => {
      if (at(req, SCAN_READS)) {
        deep(parse(res.body), (o) => {
          if (templateIs(o, 'AmuletRules') && typeof o.created_event_blob === 'string') rulesBlob = o.created_event_blob;
          return o;
        });
        return res;
      }
      if (!at(req, /\/v0\/(?:scan-proxy\/)?featured-apps\/[^/]+$/) || rulesBlob === undefined) return res;
      return ok200(res, (v) => deep(v, (o) => (templateIs(o, 'FeaturedAppRight') ? { ...o, created_event_blob: rulesBlob } : o)));
    },
  };
})();

/** The v2 transfer factory's context: each disclosed contract with the blob of the next one (v1 is right). */
const v2FactoryBlobsRotated: Fault = {
  response: (req, res) => {
    if (req.method !== 'POST' || pathOf(req.url) !== '/registry/transfer-instruction/v2/transfer-factory') return res;
    return ok200(res, (v) => {
      const c = isObject(v) && isObject(v.choiceContext) ? v.choiceContext : undefined;
      if (!isObject(v) || c === undefined || !Array.isArray(c.disclosedContracts) || c.disclosedContracts.length < 2) return v;
      const list = c.disclosedContracts.filter(isObject);
      return { ...v, choiceContext: { ...c, disclosedContracts: list.map((d, i) => ({ ...d, createdEventBlob: list[(i + 1) % list.length]!.createdEventBlob })) } };
    });
  },
};

/** An id of Scan's own for a contract id: the same length and form, never the ledger's. */
const ownId = (cid: string) => `00${createHash('sha256').update(`scan's own id of ${cid}`).digest('hex')}${cid.slice(66)}`;

/**
 * Scan (and the proxy) name each IssuingMiningRound by an id of their own (a surrogate key of
 * Scan's store), in the map's keys and the contract alike; payload and blob the ledger's.
 */
const issuingRoundIdsOfScan: Fault = {
  response: (req, res) =>
    at(req, SCAN_READS)
      ? ok200(res, (v) => {
          const renamed = deep(v, (o) => (templateIs(o, 'IssuingMiningRound') && typeof o.contract_id === 'string' ? { ...o, contract_id: ownId(o.contract_id) } : o));
          return isObject(renamed) && isObject(renamed.issuing_mining_rounds)
            ? { ...renamed, issuing_mining_rounds: Object.fromEntries(Object.entries(renamed.issuing_mining_rounds).map(([k, r]) => [ownId(k), r])) }
            : renamed;
        })
      : res,
};

export const HUNT17_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt17-scan-issuing-round-blobs-rotated',
    description: "Scan (and the proxy) serve each IssuingMiningRound with the created_event_blob of the next one (blobs joined to rounds by position over two differently ordered reads): a wallet claiming rewards of a round discloses a blob that is another round's, and the ledger refuses it",
    caughtBy: 'scan.cross-group.contracts-match-ledger',
    fault: (() => {
      return onScanContracts((c, body) => {
        if (!templateIs(c, 'IssuingMiningRound')) return c;
        const all = contractsOf(body, 'IssuingMiningRound');
        if (all.length < 2) return c;
        const i = all.findIndex((x) => x.contract_id === c.contract_id);
        return { ...c, created_event_blob: all[(i + 1) % all.length]!.created_event_blob };
      });
    })(),
  },
  {
    name: 'hunt17-scan-amulet-rules-holding-fee-not-ledgers',
    description: "Scan (its AmuletRules, DSO info and proxy forms alike) answers the AmuletRules with a holding fee ten times the ledger's (a config cache of its own instead of the contract's payload): a wallet shows and budgets fees the ledger will not charge",
    caughtBy: 'scan.cross-group.contracts-match-ledger',
    fault: onScanContracts((c) => (templateIs(c, 'AmuletRules') ? { ...c, payload: setAt(c.payload as Json, ['configSchedule', 'initialValue', 'transferConfig', 'holdingFee', 'rate'], (x) => (typeof x === 'string' ? String(Number(x) * 10) : x)) } : c)),
  },
  {
    // Benign hunt 15's guard: a None field may be null or absent, but a None is not the ledger's Some.
    name: 'hunt17-scan-preapproval-fee-none',
    description: "Scan (its AmuletRules, DSO info and proxy forms alike) answers the AmuletRules with transferPreapprovalFee null (None) where the ledger's has a fee: a wallet prices a preapproval at Splice's default fee instead of the DSO's",
    caughtBy: 'scan.cross-group.contracts-match-ledger',
    fault: onScanContracts((c) => (templateIs(c, 'AmuletRules') ? { ...c, payload: setAt(c.payload as Json, ['configSchedule', 'initialValue', 'transferPreapprovalFee'], () => null) } : c)),
  },
  {
    name: 'hunt17-scan-open-round-price-not-ledgers',
    description: "Scan (rounds, DSO info's latest round, the proxy) answers each OpenMiningRound with an amuletPrice a hundred times the ledger's: a wallet converting USD amounts at the round's price sends a hundredth of what its user asked",
    caughtBy: 'scan.cross-group.contracts-match-ledger',
    fault: onScanContracts((c) => (templateIs(c, 'OpenMiningRound') ? { ...c, payload: setAt(c.payload as Json, ['amuletPrice'], hundredfold) } : c)),
  },
  {
    name: 'hunt17-scan-domain-id-other-connected-synchronizer',
    description: "Scan (and the proxy) name as every contract's domain_id another synchronizer the participant is connected to, not the one the contract is assigned to: a wallet submits its transfer there with the disclosed AmuletRules and round, which that synchronizer does not know",
    caughtBy: 'scan.cross-group.contracts-match-ledger',
    fault: scanDomainElsewhere,
  },
  {
    name: 'hunt17-transfer-context-synchronizer-elsewhere',
    description: "the transfer-instruction choice contexts (v1 and v2) disclose their contracts with another connected synchronizer's id than the one the ledger has them on: a wallet's accept is routed to a synchronizer where they do not exist",
    caughtBy: 'registry.cross-group.transfer-context-lets-accept-succeed',
    fault: contextsOnOtherSynchronizer(TRANSFER_CONTEXTS),
  },
  {
    name: 'hunt17-v2-accept-context-blobs-rotated',
    description: 'the v2 transfer-instruction accept context discloses each contract with the blob of the next one (v1 is right): a wallet on the v2 API accepts with blobs of other contracts, and the ledger refuses its disclosures',
    caughtBy: 'registry.cross-group.transfer-context-lets-accept-succeed',
    fault: v2AcceptBlobsRotated,
  },
  {
    name: 'hunt17-v2-accept-context-open-round-is-rules',
    description: "the v2 transfer-instruction accept context names the AmuletRules as its open-round value (a context value of another template; v1 is right): the accept fetches an OpenMiningRound by an AmuletRules id and fails",
    caughtBy: 'registry.cross-group.transfer-context-lets-accept-succeed',
    fault: v2AcceptOpenRoundIsRules,
  },
  {
    name: 'hunt17-expired-preapproval-shown-renewed',
    description: "Scan (and the proxy) show a preapproval past its expiry as renewed (lastRenewedAt its creation, expiresAt a year on) while the ledger's contract is expired: a sender's wallet sends through it, and TransferPreapproval_Send fails as expired",
    caughtBy: 'scan.cross-group.preapproval-matches-ledger',
    fault: expiredPreapprovalShownRenewed,
  },
  {
    name: 'hunt17-allocation-context-synchronizer-elsewhere',
    description: "the allocation choice contexts (v1 and v2) disclose their contracts with another connected synchronizer's id than the one the ledger has them on: a venue's settlement is routed where they do not exist",
    caughtBy: 'registry.cross-group.allocation-contexts-let-choices-succeed',
    fault: contextsOnOtherSynchronizer(ALLOCATION_CONTEXTS),
  },
  {
    name: 'hunt17-featured-right-blob-of-rules',
    description: "Scan's (and the proxy's) featured-apps lookup serves the provider's FeaturedAppRight with the AmuletRules' created_event_blob (a blob column joined by the wrong key): a wallet marking its transfer as featured discloses a blob that is another contract, and the ledger refuses it",
    caughtBy: 'scan.cross-group.featured-app-right-found',
    fault: featuredRightWithRulesBlob,
  },
  {
    name: 'hunt17-v2-factory-blobs-rotated',
    description: 'the v2 transfer factory discloses each contract of its choice context with the blob of the next one (v1 is right): a wallet on the v2 API cannot transfer, its disclosures refused',
    caughtBy: 'registry.transfer-factory.kind-matches-outcome',
    fault: v2FactoryBlobsRotated,
  },
  {
    name: 'hunt17-scan-issuing-round-ids-not-ledgers',
    description: "Scan (and the proxy) name each IssuingMiningRound by an id of their own store (keys and contract_id alike; payload and blob the ledger's): a wallet claiming rewards discloses the round under an id its blob is not of, and the ledger refuses it",
    caughtBy: 'scan.cross-group.contracts-match-ledger',
    fault: issuingRoundIdsOfScan,
  },
];
