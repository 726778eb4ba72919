import type { Mutant } from './mutants.js';
import { jsonResponse, parse, pathOf, type Fault, type ProxyRequest, type ProxyResponse, type Upstream } from './mutantProxy.js';
import { everywhere, isObject, ok200, scanError, type Json } from './mutantKit.js';

/**
 * A ninth hunt: Scan, the scan proxy and the registry as a wallet (the @canton-network wallet
 * SDK) relies on them: contexts of transfer instructions that were rejected or withdrawn, the
 * proxy's lookup of an expired preapproval, the DSO's latest round, the
 * instrument list's pages, Scan's lookup by receiver, Scan's timestamps. No id of the reference is
 * named: each fault learns what it needs from the answers. (The hunt's other faults, which the
 * suite does not catch yet, are listed in the session's note: an expired preapproval called
 * direct, which Splice's own registry does too.)
 */

// ---------------------------------------------------------------------------------------------
// Shared helpers

const send = (upstream: Upstream, method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}) =>
  upstream.send({ method, url, headers: { ...headers, 'content-type': 'application/json' }, body: body === undefined ? '' : JSON.stringify(body) });

/** The request's headers as the upstream takes them (auth forwarded when there is one). */
const headersOf = (req: ProxyRequest): Record<string, string> => (typeof req.headers.authorization === 'string' ? { authorization: req.headers.authorization } : {});

const body = (res: ProxyResponse): Json | undefined => {
  const v = parse(res.body);
  return isObject(v) ? v : undefined;
};
const json = (status: number, v: unknown): ProxyResponse => jsonResponse(status, v);

/** The choice and contract id of every ExerciseCommand of a submit-and-wait* request. */
function exercisesOf(req: ProxyRequest): { choice: string; contractId: string }[] {
  if (req.method !== 'POST' || !pathOf(req.url).startsWith('/v2/commands/submit-and-wait')) return [];
  const v = parse(req.body);
  const cmds = isObject(v) ? (isObject(v.commands) ? v.commands : v) : undefined;
  const list = cmds && Array.isArray(cmds.commands) ? cmds.commands : [];
  return list.flatMap((c) => {
    const ex = isObject(c) && isObject(c.ExerciseCommand) ? c.ExerciseCommand : undefined;
    return ex && typeof ex.choice === 'string' && typeof ex.contractId === 'string' ? [{ choice: ex.choice, contractId: ex.contractId }] : [];
  });
}

/**
 * A registry whose index of `kind` contracts is not told of archives by `choices`: contexts of a
 * contract archived by one of them keep their last 200 (instead of 404 "not found").
 */
function contextsOutliveArchive(pathPattern: RegExp, choices: readonly string[]): Fault {
  const cache = new Map<string, ProxyResponse>();
  const archived = new Set<string>();
  return {
    response(req, res) {
      for (const ex of exercisesOf(req)) if (res.status === 200 && choices.includes(ex.choice)) archived.add(ex.contractId);
      const m = req.method === 'POST' ? pathPattern.exec(pathOf(req.url)) : null;
      if (m === null) return res;
      const id = decodeURIComponent(m[1]!);
      if (res.status === 200) {
        cache.set(pathOf(req.url), res);
        cache.set(id, res);
        return res;
      }
      if (res.status === 404 && archived.has(id)) return cache.get(pathOf(req.url)) ?? cache.get(id) ?? res;
      return res;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// 5. latest_mining_round: the most recently created round contract, an issuing one.

/**
 * GET /v0/dso (and the proxy's form) answers as latest_mining_round the round contract it indexed
 * last, which is the IssuingMiningRound the same advance created, not the OpenMiningRound with
 * the highest round number.
 */
const latestRoundIsIssuing: Fault = {
  async request(req, upstream) {
    const path = pathOf(req.url);
    if (req.method !== 'GET' || (path !== '/v0/dso' && path !== '/v0/scan-proxy/dso')) return req;
    const res = await upstream.send(req);
    const b = body(res);
    if (res.status !== 200 || b === undefined) return res;
    const rounds = body(await send(upstream, 'POST', '/v0/open-and-issuing-mining-rounds', { cached_open_mining_round_contract_ids: [], cached_issuing_round_contract_ids: [] }, headersOf(req)));
    const issuing = rounds && isObject(rounds.issuing_mining_rounds) ? Object.values(rounds.issuing_mining_rounds).filter(isObject) : [];
    const num = (r: Json) => Number(isObject(r.contract) && isObject(r.contract.payload) && isObject(r.contract.payload.round) ? r.contract.payload.round.number : -1);
    const newest = issuing.sort((a, c) => num(c) - num(a))[0];
    return newest === undefined ? res : json(200, { ...b, latest_mining_round: newest });
  },
};

// ---------------------------------------------------------------------------------------------
// 7. The instrument list's page token never ends.

/**
 * GET /registry/metadata/v1/instruments answers every page with a nextPageToken (the last id of
 * the page) and reads a token past the last instrument as no token: the last page points back at
 * the first, and a client that walks the pages never ends (the same instruments again and again).
 */
const instrumentPagesLoop: Fault = {
  request(req) {
    if (req.method !== 'GET' || pathOf(req.url) !== '/registry/metadata/v1/instruments') return req;
    const [p, q = ''] = req.url.split('?');
    const params = new URLSearchParams(q);
    params.delete('pageToken');
    const rest = params.toString();
    return { ...req, url: rest === '' ? p! : `${p!}?${rest}` };
  },
  response(req, res) {
    if (req.method !== 'GET' || pathOf(req.url) !== '/registry/metadata/v1/instruments') return res;
    return ok200(res, (v) => {
      if (!isObject(v) || !Array.isArray(v.instruments) || v.instruments.length === 0) return v;
      const last = v.instruments[v.instruments.length - 1];
      return isObject(last) && typeof last.id === 'string' ? { ...v, nextPageToken: last.id } : v;
    });
  },
};

// ---------------------------------------------------------------------------------------------
// 8. Scan's preapproval lookup matches the provider as well as the receiver.

const PREAPPROVAL_PATHS = /^\/v0\/(scan-proxy\/)?transfer-preapprovals\/by-party\/([^/]+)$/;

/**
 * GET /v0/transfer-preapprovals/by-party/{party} (and the proxy's) matches a preapproval whose
 * receiver or provider is the party: a wallet provider that manages others' preapprovals is
 * answered one of theirs (the newest), as if it were its own.
 */
const preapprovalByProvider: Fault = {
  async request(req, upstream) {
    const m = req.method === 'GET' ? PREAPPROVAL_PATHS.exec(pathOf(req.url)) : null;
    if (m === null) return req;
    const res = await upstream.send(req);
    if (res.status !== 404) return res;
    const party = decodeURIComponent(m[2]!);
    const end = body(await send(upstream, 'GET', '/v2/state/ledger-end', undefined, headersOf(req)))?.offset;
    if (typeof end !== 'number') return res;
    const acs = parse(
      (
        await send(upstream, 'POST', '/v2/state/active-contracts', {
          activeAtOffset: end,
          eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] } }, verbose: true },
        }, headersOf(req))
      ).body,
    );
    const mine = (Array.isArray(acs) ? acs : []).flatMap((e) => {
      const a = isObject(e) && isObject(e.contractEntry) && isObject(e.contractEntry.JsActiveContract) ? e.contractEntry.JsActiveContract : undefined;
      const ev = a && isObject(a.createdEvent) ? a.createdEvent : undefined;
      const arg = ev && isObject(ev.createArgument) ? ev.createArgument : undefined;
      return ev && arg && String(ev.templateId).endsWith(':Splice.AmuletRules:TransferPreapproval') && arg.provider === party ? [{ a: a!, ev, arg }] : [];
    });
    const newest = mine.sort((x, y) => String(y.arg.validFrom).localeCompare(String(x.arg.validFrom)))[0];
    if (newest === undefined) return res;
    return json(200, {
      transfer_preapproval: {
        contract: { template_id: newest.ev.templateId, contract_id: newest.ev.contractId, payload: newest.arg, created_event_blob: newest.ev.createdEventBlob, created_at: newest.ev.createdAt },
        domain_id: newest.a.synchronizerId,
      },
    });
  },
};

// ---------------------------------------------------------------------------------------------
// 9. Scan's created_at in local time, labelled UTC.

/** An RFC 3339 UTC timestamp one hour later, still labelled Z (a server at UTC+1 printing its wall clock as UTC). */
const anHourLater = (t: string): string => {
  const ms = Date.parse(t);
  if (!Number.isFinite(ms)) return t;
  const frac = /\.(\d+)Z$/.exec(t)?.[1];
  const iso = new Date(ms + 3_600_000).toISOString().replace(/\.\d{3}Z$/, '');
  return `${iso}${frac === undefined ? '' : `.${frac}`}Z`;
};
const scanCreatedAtLocal: Fault = {
  response: (req, res) => (pathOf(req.url).startsWith('/v0/') ? everywhere((o) => (typeof o.created_at === 'string' && typeof o.contract_id === 'string' ? { ...o, created_at: anHourLater(o.created_at) } : o)).response!(req, res) : res),
};

// ---------------------------------------------------------------------------------------------

export const HUNT9_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt9-proxy-drops-expired-preapproval',
    description: "the scan proxy's preapproval lookup filters out preapprovals past their expiresAt (404) while Scan returns them (splice#6610): a wallet on the proxy cannot find, renew or cancel its expired preapproval",
    caughtBy: 'scan.proxy.preapproval-same-as-scan',
    needs: 'scan',
    fault: {
      response: (req, res) => {
        if (req.method !== 'GET' || !pathOf(req.url).startsWith('/v0/scan-proxy/transfer-preapprovals/by-party/') || res.status !== 200) return res;
        const p = body(res)?.transfer_preapproval;
        const exp = isObject(p) && isObject(p.contract) && isObject(p.contract.payload) ? Date.parse(String(p.contract.payload.expiresAt)) : NaN;
        return Number.isFinite(exp) && exp <= Date.now() ? scanError(404, `No TransferPreapproval found for party: ${decodeURIComponent(pathOf(req.url).split('/').pop()!)}`) : res;
      },
    },
  },
  {
    name: 'hunt9-dso-latest-round-is-issuing',
    description: 'GET /v0/dso (and the proxy) answer as latest_mining_round the round contract indexed last, the newest IssuingMiningRound, not the OpenMiningRound with the highest round number',
    caughtBy: 'scan.dso.consistent',
    fault: latestRoundIsIssuing,
  },
  {
    name: 'hunt9-instrument-pages-loop',
    description: 'the instrument list answers every page with a nextPageToken and reads a token past the last instrument as none: the last page points back at the first, and a client walking the pages never ends',
    caughtBy: 'registry.metadata.instrument-read-equals-list-entry',
    fault: instrumentPagesLoop,
  },
  {
    name: 'hunt9-preapproval-lookup-by-provider',
    description: "Scan's (and the proxy's) preapproval lookup matches the provider as well as the receiver: a wallet provider without a preapproval of its own is answered the newest preapproval it manages for someone else",
    caughtBy: 'scan.preapproval.known-party',
    needs: 'scan',
    fault: preapprovalByProvider,
  },
  {
    name: 'hunt9-scan-created-at-local-time',
    description: "Scan (and the proxy) write each contract's created_at in the server's local time (UTC+1) labelled Z: an hour later than the ledger's createdAt",
    caughtBy: 'scan.cross-group.preapproval-matches-ledger',
    needs: 'scan',
    fault: scanCreatedAtLocal,
  },
  {
    name: 'hunt9-rejected-withdrawn-instruction-contexts-served',
    description: 'the registry drops a transfer instruction from its index only when it is accepted: one rejected or withdrawn keeps answering its contexts (v1 and v2, 200 instead of 404), so a wallet keeps offering accept/reject on a transfer that is gone',
    caughtBy: 'registry.cross-group.transfer-contexts-let-reject-withdraw-succeed',
    needs: 'registry',
    fault: contextsOutliveArchive(/^\/registry\/transfer-instruction\/v[12]\/([^/]+)\/choice-contexts\/[a-z-]+$/, ['TransferInstruction_Reject', 'TransferInstruction_Withdraw']),
  },
  {
    name: 'hunt9-settled-allocation-contexts-served',
    description: "the registry's allocation index is never told of archives: an allocation executed, cancelled or withdrawn keeps answering its choice contexts (200 instead of 404), so a venue keeps offering to settle an allocation that is gone",
    caughtBy: 'registry.cross-group.allocation-contexts-let-choices-succeed',
    needs: 'registry',
    fault: contextsOutliveArchive(/^\/registry\/allocations\/v[12]\/([^/]+)\/choice-contexts\/[a-z-]+$/, ['Allocation_ExecuteTransfer', 'Allocation_Cancel', 'Allocation_Withdraw']),
  },
  {
    name: 'hunt9-locked-holding-view-without-lock',
    description: "the Holding view of a LockedAmulet (funds locked to a pending two-step transfer) is computed without its lock: a wallet lists the locked amount as free and picks it as the input of its next transfer, which the ledger refuses",
    caughtBy: 'registry.holdings.views-after-offer',
    needs: 'registry',
    fault: everywhere((o) => {
      if (typeof o.templateId !== 'string' || !o.templateId.endsWith(':Splice.Amulet:LockedAmulet') || !Array.isArray(o.interfaceViews)) return o;
      return { ...o, interfaceViews: o.interfaceViews.map((v) => (isObject(v) && isObject(v.viewValue) && String(v.interfaceId).endsWith(':Splice.Api.Token.HoldingV1:Holding') ? { ...v, viewValue: { ...v.viewValue, lock: null } } : v)) };
    }),
  },
  {
    name: 'hunt9-holding-admin-is-owner',
    description: "every Holding view names its owner as the instrument's admin: a wallet files each holding under a token of its own, not the registry's",
    caughtBy: 'registry.holdings.views-after-offer',
    needs: 'registry',
    fault: everywhere((o) => {
      if (!Array.isArray(o.interfaceViews)) return o;
      return { ...o, interfaceViews: o.interfaceViews.map((v) => (isObject(v) && isObject(v.viewValue) && isObject(v.viewValue.instrumentId) && String(v.interfaceId).endsWith(':Splice.Api.Token.HoldingV1:Holding') ? { ...v, viewValue: { ...v.viewValue, instrumentId: { ...v.viewValue.instrumentId, admin: v.viewValue.owner } } } : v)) };
    }),
  },
  {
    name: 'hunt9-proxy-featured-apps-empty',
    description: "the scan proxy's featured-apps lookup answers every provider an empty object (no right) while Scan answers the provider's FeaturedAppRight: a wallet on the proxy never marks its app's transfers as featured",
    caughtBy: 'scan.cross-group.featured-app-right-found',
    needs: 'scan',
    fault: {
      response: (req, res) => (req.method === 'GET' && pathOf(req.url).startsWith('/v0/scan-proxy/featured-apps/') && res.status === 200 ? json(200, {}) : res),
    },
  },
];
