import { createHash } from 'node:crypto';
import { compareVersions } from '../../daml-engine/decode/Packages.js';
import type { Mutant } from './mutants.js';
import { parse, pathOf, jsonResponse, type Fault, type Upstream } from './mutantProxy.js';
import { deep, everywhere, is, isObject, ok200, type Json } from './mutantKit.js';

/**
 * An eighth hunt: filters with several entries, pruning the participant does not own up to,
 * reassignment ids that do not pair, ledger time given relative to now, package-name resolution
 * on the prepare path and in the active contract set, rejected completions' offsets. (A Scan
 * payload that is not its blob's needs the blob in Canton's encoding to judge: not yet.)
 */

// ---------------------------------------------------------------------------------------------
// Shared helpers

const get = (upstream: Upstream, path: string, body?: unknown) =>
  upstream.send({ method: body === undefined ? 'GET' : 'POST', url: path, headers: { 'content-type': 'application/json' }, body: body === undefined ? '' : JSON.stringify(body) });

async function ledgerEndOf(upstream: Upstream): Promise<number> {
  const v = parse((await get(upstream, '/v2/state/ledger-end')).body);
  return isObject(v) && typeof v.offset === 'number' ? v.offset : 0;
}

/** Every filter set (`{cumulative: [...]}`) of every event format in a request body, rewritten by `f`. */
const onFilterSets = (body: unknown, f: (cumulative: Json[]) => Json[]): unknown =>
  deep(body, (o) => (Array.isArray(o.cumulative) && o.cumulative.every(isObject) ? { ...o, cumulative: f(o.cumulative as Json[]) } : o));

const kindOf = (entry: Json): string | undefined => (isObject(entry.identifierFilter) ? Object.keys(entry.identifierFilter)[0] : undefined);

/** A fault that rewrites the event formats of every JSON request, HTTP and WebSocket frames alike. */
function onEveryRequestFormat(f: (cumulative: Json[]) => Json[]): Fault {
  return {
    request: (req) => {
      const v = parse(req.body);
      if (req.method !== 'POST' || !pathOf(req.url).startsWith('/v2/') || !isObject(v)) return req;
      const out = onFilterSets(v, f);
      return { ...req, body: JSON.stringify(out) };
    },
    wsRequest: (_req, frame) => {
      const v = parse(frame);
      return isObject(v) ? JSON.stringify(onFilterSets(v, f)) : frame;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// 1. Of several interface filters of one party, only the first is honoured.

const firstInterfaceOnly = onEveryRequestFormat((cumulative) => {
  let seen = false;
  return cumulative.filter((c) => {
    if (kindOf(c) !== 'InterfaceFilter') return true;
    if (seen) return false;
    seen = true;
    return true;
  });
});

// 2. includeCreatedEventBlob is read from the first filter of the list, for every filter of it.

const blobOfFirstFilter = onEveryRequestFormat((cumulative) => {
  if (cumulative.length < 2) return cumulative;
  const flagOf = (c: Json): boolean | undefined => {
    const k = kindOf(c);
    const inner = k && isObject(c.identifierFilter) ? (c.identifierFilter as Json)[k] : undefined;
    return isObject(inner) && isObject(inner.value) ? inner.value.includeCreatedEventBlob === true : undefined;
  };
  const first = flagOf(cumulative[0]!) ?? false;
  return cumulative.map((c) => {
    const k = kindOf(c);
    const inner = k && isObject(c.identifierFilter) ? (c.identifierFilter as Json)[k] : undefined;
    if (!k || !isObject(inner) || !isObject(inner.value)) return c;
    return { ...c, identifierFilter: { [k]: { ...inner, value: { ...inner.value, includeCreatedEventBlob: first } } } };
  });
});

// ---------------------------------------------------------------------------------------------
// 3. The participant pruned, but latest-pruned-offsets still says 0.

/**
 * A participant that pruned up to half its ledger end (at the proxy's first read) and answers
 * GET /v2/state/latest-pruned-offsets from a value it never updated (0): reads of the update
 * stream from before that offset and active contracts at an offset in (0, pruned) are refused with
 * PARTICIPANT_PRUNED_DATA_ACCESSED. A client (PQS, a wallet's history) starting from the pruned
 * offset the participant reports fails.
 */
function prunedButReportsZero(): Fault {
  let pruned: number | undefined;
  const refuse = (what: string) =>
    jsonResponse(400, {
      code: 'PARTICIPANT_PRUNED_DATA_ACCESSED',
      cause: `${what} precedes pruned offset ${pruned}`,
      context: { earliest_offset: String(pruned) },
      errorCategory: 9,
      grpcCodeValue: 9,
      correlationId: null,
      traceId: null,
      resources: [],
    });
  return {
    request: async (req, upstream) => {
      if (!pathOf(req.url).startsWith('/v2/')) return req;
      pruned ??= Math.floor((await ledgerEndOf(upstream)) / 2);
      if (pruned < 2) return req;
      const v = parse(req.body);
      const path = pathOf(req.url);
      if (req.method === 'POST' && isObject(v)) {
        if (/^\/v2\/updates(\/flats|\/trees)?$/.test(path) && typeof v.beginExclusive === 'number' && v.beginExclusive < pruned) return refuse(`beginExclusive ${v.beginExclusive}`);
        if (/^\/v2\/state\/active-contracts(-page)?$/.test(path) && typeof v.activeAtOffset === 'number' && v.activeAtOffset > 0 && v.activeAtOffset < pruned) return refuse(`activeAtOffset ${v.activeAtOffset}`);
        if (path === '/v2/updates/update-by-offset' && typeof v.offset === 'number' && v.offset <= pruned) return refuse(`offset ${v.offset}`);
      }
      return req;
    },
    response: (req, res) => (is(req, 'GET', '/v2/state/latest-pruned-offsets') ? ok200(res, () => ({ participantPrunedUpToInclusive: 0, allDivulgedContractsPrunedUpToInclusive: 0 })) : res),
  };
}

// ---------------------------------------------------------------------------------------------
// 4. Assignments carry a reassignment id of their own.

/** The id an assignment is indexed under: derived from the contract and its counter, not the unassignment's id. */
const ownReassignmentId = (o: Json): string => {
  const ev = isObject(o.createdEvent) ? o.createdEvent : {};
  return createHash('sha256').update(`assign|${String(ev.contractId)}|${String(o.reassignmentCounter)}`).digest('hex');
};
const assignmentsOwnIds = everywhere((o) => (isObject(o.createdEvent) && typeof o.reassignmentId === 'string' && typeof o.target === 'string' ? { ...o, reassignmentId: ownReassignmentId(o) } : o));

// ---------------------------------------------------------------------------------------------
// 5. minLedgerTimeRel dropped by the JSON codec.

const SUBMITS = /^\/v2\/(commands\/(submit-and-wait.*|async\/submit)|interactive-submission\/prepare)$/;
const minLedgerTimeRelDropped: Fault = {
  request: (req) => {
    const v = parse(req.body);
    if (req.method !== 'POST' || !SUBMITS.test(pathOf(req.url)) || !isObject(v)) return req;
    const strip = (o: Json): Json => {
      const { minLedgerTimeRel: _gone, ...rest } = o;
      return rest;
    };
    const body = isObject(v.commands) ? { ...v, commands: strip(v.commands) } : strip(v);
    return { ...req, body: JSON.stringify(body) };
  },
};

// ---------------------------------------------------------------------------------------------
// Package versions, from the vetting list (packageName and packageVersion of each vetted package).

interface Vetted {
  readonly packageId: string;
  readonly name: string;
  readonly version: string;
}


async function vettedNow(upstream: Upstream, names?: readonly string[]): Promise<Vetted[]> {
  const out: Vetted[] = [];
  let pageToken = '';
  for (let i = 0; i < 50; i++) {
    const body = { ...(names ? { packageMetadataFilter: { packageNamePrefixes: names } } : {}), ...(pageToken ? { pageToken } : {}) };
    const v = parse((await get(upstream, '/v2/package-vetting/list', body)).body);
    if (!isObject(v) || !Array.isArray(v.vettedPackages)) break;
    const now = Date.now();
    for (const s of v.vettedPackages.filter(isObject)) {
      for (const p of (Array.isArray(s.packages) ? s.packages : []).filter(isObject)) {
        if (typeof p.packageId !== 'string' || typeof p.packageName !== 'string' || typeof p.packageVersion !== 'string') continue;
        if (typeof p.validFromInclusive === 'string' && Date.parse(p.validFromInclusive) > now) continue;
        if (typeof p.validUntilExclusive === 'string' && Date.parse(p.validUntilExclusive) <= now) continue;
        out.push({ packageId: p.packageId, name: p.packageName, version: p.packageVersion });
      }
    }
    if (typeof v.nextPageToken !== 'string' || v.nextPageToken === '') break;
    pageToken = v.nextPageToken;
  }
  return out;
}

/** The vetted package of `name` that `pick` prefers (lowest or highest version). */
function chosen(vetted: readonly Vetted[], name: string, pick: 'lowest' | 'highest'): string | undefined {
  const of = vetted.filter((p) => p.name === name).sort((a, b) => compareVersions(a.version, b.version));
  return (pick === 'lowest' ? of[0] : of[of.length - 1])?.packageId;
}

// 6. prepare resolves #package-name to the lowest vetted version (submit resolves it right).

const prepareRunsOldest: Fault = {
  request: async (req, upstream) => {
    const v = parse(req.body);
    if (!is(req, 'POST', '/v2/interactive-submission/prepare') || !isObject(v)) return req;
    const names = new Set<string>();
    deep(v, (o) => {
      for (const k of ['templateId', 'interfaceId']) if (typeof o[k] === 'string' && (o[k] as string).startsWith('#')) names.add((o[k] as string).slice(1).split(':')[0]!);
      return o;
    });
    if (names.size === 0) return req;
    const vetted = await vettedNow(upstream, [...names]);
    const body = deep(v, (o) => {
      if (typeof o.templateId !== 'string' || !o.templateId.startsWith('#')) return o;
      const [name, ...rest] = o.templateId.slice(1).split(':');
      const id = chosen(vetted, name!, 'lowest');
      return id ? { ...o, templateId: [id, ...rest].join(':') } : o;
    }) as Json;
    const { packageIdSelectionPreference: _ignored, ...rest } = body;
    return { ...req, body: JSON.stringify(rest) };
  },
};

// 7. Created events name every contract under the highest vetted version of its package: in the
// active contract set only, or in every read (answers, updates, active contracts, WebSocket frames).

const ACS = /^\/v2\/state\/active-contracts(-page)?$/;
const READS = /^\/v2\/(state\/active-contracts(-page)?|updates.*|commands\/submit-and-wait.*|events\/.*|contracts\/.*|interactive-submission\/execute.*)$/;

/** On the reads whose path matches `paths`, each created event renamed to the newest vetted version of its package (asked of the vetting before each read). */
function namesNewestVersion(paths: RegExp): () => Fault {
  return () => {
    let newest = new Map<string, string>();
    const refresh = async (upstream: Upstream) => {
      const vetted = await vettedNow(upstream);
      newest = new Map([...new Set(vetted.map((p) => p.name))].map((name) => [name, chosen(vetted, name, 'highest')!]));
    };
    const upgraded = (o: Json): Json => {
      if (typeof o.templateId !== 'string' || typeof o.packageName !== 'string' || !('createArgument' in o)) return o;
      const id = newest.get(o.packageName);
      if (id === undefined) return o;
      const [, ...rest] = o.templateId.split(':');
      return { ...o, templateId: [id, ...rest].join(':') };
    };
    const matches = (url: string) => paths.test(pathOf(url));
    return {
      request: async (req, upstream) => {
        if (matches(req.url)) await refresh(upstream);
        return req;
      },
      response: (req, res) => (matches(req.url) ? ok200(res, (v) => deep(v, upgraded)) : res),
      wsRequest: async (req, frame, upstream) => {
        if (matches(req.url)) await refresh(upstream);
        return frame;
      },
      wsResponse: (req, frame) => {
        const v = matches(req.url) ? parse(frame) : undefined;
        return [v === undefined ? frame : JSON.stringify(deep(v, upgraded))];
      },
    };
  };
}

// 7c. events-by-contract-id leaves out the interface views its event format asks for.

const eventsByIdWithoutViews: Fault = {
  response: (req, res) => (is(req, 'POST', '/v2/events/events-by-contract-id') ? ok200(res, (v) => deep(v, (o) => ('interfaceViews' in o && 'createArgument' in o ? (({ interfaceViews: _gone, ...rest }) => rest)(o) : o))) : res),
};

// ---------------------------------------------------------------------------------------------
// 8. A rejected command's completion carries the next offset, not its own.

const isRejectedCompletion = (o: Json) => typeof o.commandId === 'string' && typeof o.offset === 'number' && isObject(o.status) && typeof o.status.code === 'number' && o.status.code !== 0;
const rejectionOffsetAhead = everywhere((o) => (isRejectedCompletion(o) ? { ...o, offset: (o.offset as number) + 1 } : o));

export const HUNT8_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt8-cumulative-first-interface-only',
    description: "of a party's several InterfaceFilters in one cumulative list only the first is honoured (a codec that maps the list onto one interface filter): a wallet reading holdings and transfer instructions in one query never sees its pending transfers",
    caughtBy: 'ledger.filters.active-contracts',
    fault: firstInterfaceOnly,
  },
  {
    name: 'hunt8-cumulative-blob-of-first-filter',
    description: "includeCreatedEventBlob is taken from the first filter of a party's cumulative list for all of them: a client asking a wildcard without blobs and the Holding interface with blobs gets no blob to disclose its holdings with",
    caughtBy: 'ledger.filters.active-contracts',
    fault: blobOfFirstFilter,
  },
  {
    name: 'hunt8-pruned-but-reports-zero',
    description: 'the participant pruned up to half its ledger end but GET /v2/state/latest-pruned-offsets still answers 0: a client starting its history at the pruned offset the participant reports is refused PARTICIPANT_PRUNED_DATA_ACCESSED',
    caughtBy: 'ledger.pruned-offsets.shape',
    fault: prunedButReportsZero,
  },
  {
    name: 'hunt8-assignment-own-reassignment-id',
    description: "assigned events carry a reassignment id of their own (derived from the contract and its counter), not the unassignment's (the same everywhere): a client pairing an assignment with the unassignment it completes keeps the contract in flight forever",
    caughtBy: 'ledger.reassignment.unassign-assign',
    fault: assignmentsOwnIds,
  },
  {
    name: 'hunt8-min-ledger-time-rel-dropped',
    description: 'the JSON codec drops Commands.minLedgerTimeRel (minLedgerTimeAbs is kept): a command an application holds back by a relative ledger time runs at once',
    caughtBy: 'ledger.commands.ledger-time-bounded',
    fault: minLedgerTimeRelDropped,
  },
  {
    name: 'hunt8-prepare-package-name-runs-oldest',
    description: "prepare resolves a #package-name template to the lowest vetted version of that name and ignores packageIdSelectionPreference (submit resolves it right): an external party's wallet signs, and commits, the old code of an upgraded package",
    caughtBy: 'ledger.commands.package-selection',
    fault: prepareRunsOldest,
  },
  {
    name: 'hunt8-acs-names-newest-version',
    description: "the active contract set names each contract's template by the highest vetted version of its package (the package-name resolution of commands applied to reads), the payload left as created: a client decoding a 1.0.0 contract by the 2.0.0 template it is told expects fields the contract lacks",
    caughtBy: 'ledger.commands.package-selection',
    fault: namesNewestVersion(ACS),
  },
  {
    name: 'hunt8-every-read-names-newest-version',
    description: "every created event (submission answers, updates, active contracts, events by contract id, WebSocket frames) names the contract's template by the highest vetted version of its package, the payload as created (the same everywhere): a client decoding a 1.0.0 contract by the 2.0.0 template it is told expects fields the contract lacks",
    caughtBy: 'ledger.commands.contract-upgrade',
    fault: namesNewestVersion(READS),
  },
  {
    name: 'hunt8-events-by-contract-id-without-views',
    description: "events-by-contract-id leaves out the interface views its event format asks for (the update stream and active contracts carry them): the wallet SDK's parser, which looks the create of an archived holding up there and reads its Holding view, cannot explain the archive",
    caughtBy: 'registry.cross-group.transfer-context-lets-accept-succeed',
    fault: eventsByIdWithoutViews,
  },
  {
    name: 'hunt8-rejection-completion-offset-ahead',
    description: "rejected commands' completions carry the offset after their own (the next offset the index allocates), HTTP and WebSocket alike: a client resuming its completions from the last one it saw skips the completion that follows",
    caughtBy: 'ledger.async.rejection-completes',
    fault: rejectionOffsetAhead,
  },
];
