/**
 * What re-interpretation needs of the target's ledger: the packages it used and the input
 * contracts as it reported them. Behind an interface so that a model of the target built from its
 * own answers can back it later; `httpLedgerSource` asks the target itself.
 */
import { decodeArchive, encodeArchive, type Package } from '../../../daml-engine/index.js';
import { isObject, type Json } from '../checks/support/expect.js';
import type { CheckContext } from '../checks/types.js';
import type { AuthMode } from '../target/exchange.js';

export type PackageLookup = { readonly ok: true; readonly pkg: Package } | { readonly ok: false; readonly reason: string };

/** A created event of an input contract, as the target reported it. */
export interface ReportedContract {
  readonly contractId: string;
  readonly templateId: string;
  readonly createArgument: unknown;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
  /** The contract key, when the event carries one. */
  readonly contractKey?: unknown;
  /** Archived by now (events-by-contract-id answered an archived event too). */
  readonly archived?: boolean;
  /** Where it was archived, when known: the archive's offset and synchronizer. */
  readonly archivedAt?: ArchiveMark;
}

/** An archive's offset, and its synchronizer when known. */
export interface ArchiveMark {
  readonly offset: number;
  readonly synchronizerId?: string;
}

export interface LedgerSource {
  /** The package `packageId` as the target serves it, decoded (cached by id for the run). */
  packageOf(packageId: string): Promise<PackageLookup>;
  /** The created event of `contractId` visible to `parties`, or undefined. */
  contract(contractId: string, parties: readonly string[], options?: { readonly fresh?: boolean }): Promise<ReportedContract | undefined>;
  /** A created event the target reported in a transaction the suite read: later inputs need not be asked for. */
  remember?(created: ReportedContract): void;
  /**
   * The packages re-runs of this run have decoded so far, by id (a package id names its bytes):
   * a re-run starts with them, so only the first to need a dependency looks for it.
   */
  decodedPackages?(): Promise<Map<string, Package>>;
}

/**
 * The packages one re-run uses: `need(id)` fetches a package and its imports (undefined, or why
 * not); `getPackage` for the engine. A package of LF 2.1 lists no imports, so the engine's and the
 * codec's look-ups of a package not fetched yet are noted, and `fetchMissed` fetches them for the
 * caller's next attempt (true when it fetched any).
 */
export function packageFetcher(source: LedgerSource): {
  need(packageId: string): Promise<string | undefined>;
  getPackage(packageId: string): Package | undefined;
  fetchMissed(): Promise<boolean>;
} {
  let packages = new Map<string, Package>();
  let shared = false;
  const missed = new Set<string>();
  const refused = new Set<string>();
  const need = async (packageId: string): Promise<string | undefined> => {
    if (!shared) {
      shared = true;
      const run = await source.decodedPackages?.();
      if (run !== undefined) {
        for (const [id, p] of packages) run.set(id, p);
        packages = run;
      }
    }
    if (packages.has(packageId)) return undefined;
    const p = await source.packageOf(packageId);
    if (!p.ok) return p.reason;
    packages.set(packageId, p.pkg);
    // Dependencies are fetched too: the engine resolves references across packages.
    for (const dep of p.pkg.imports ?? []) {
      const why = await need(dep);
      if (why !== undefined) return why;
    }
    return undefined;
  };
  const getPackage = (id: string): Package | undefined => {
    const p = packages.get(id);
    if (p === undefined && !refused.has(id)) missed.add(id);
    return p;
  };
  const fetchMissed = async (): Promise<boolean> => {
    const ids = [...missed];
    missed.clear();
    let fetched = false;
    for (const id of ids) {
      if ((await need(id)) === undefined) fetched = true;
      else refused.add(id);
    }
    return fetched;
  };
  return { need, getPackage, fetchMissed };
}

/** Attempts at most: each may find packages the last one looked up and the target has not served yet. */
const MAX_ATTEMPTS = 48;

/**
 * Runs `attempt` until it is `settled`, or no package it looked up is left to fetch: LF 2.1
 * packages list no imports, so each attempt may reveal one the next can use.
 */
export async function untilPackagesFound<R>(fetcher: ReturnType<typeof packageFetcher>, attempt: () => Promise<R>, settled: (r: R) => boolean): Promise<R> {
  for (let n = 1; ; n++) {
    const r = await attempt();
    if (settled(r) || n === MAX_ATTEMPTS || !(await fetcher.fetchMissed())) return r;
  }
}

/** Packages decoded per run, by id (a package id names its bytes, so the cache never goes stale). */
type PackageCacheMemo = Map<string, Promise<PackageLookup>>;

/** `auth`: the credentials contract reads use (a reader's token, for parties the run's user may not read as). */
export function httpLedgerSource(ctx: Pick<CheckContext, 'http' | 'shared'>, auth?: AuthMode): LedgerSource {
  const cache = ctx.shared<PackageCacheMemo>('reinterpret.packages', () => Promise.resolve(new Map()));
  const decoded = ctx.shared<Map<string, Package>>('reinterpret.decoded', () => Promise.resolve(new Map()));
  // Created events the target already reported in the run (a contract id names one creation).
  const reported = ctx.shared<Map<string, ReportedContract>>('reinterpret.contracts', () => Promise.resolve(new Map()));
  return {
    decodedPackages: () => decoded,
    async packageOf(packageId) {
      const memo = await cache;
      let hit = memo.get(packageId);
      if (!hit) {
        hit = fetchPackage(ctx, packageId);
        memo.set(packageId, hit);
      }
      return hit;
    },
    async contract(contractId, parties, options = {}) {
      const known = options.fresh === true ? undefined : (await reported).get(contractId);
      if (known !== undefined) return known;
      const filters = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };
      const e = await ctx.http.request('ledger', {
        method: 'POST', path: '/v2/events/events-by-contract-id',
        json: { contractId, eventFormat: { filtersByParty: Object.fromEntries(parties.map((p) => [p, filters])), verbose: true } },
        ...(auth === undefined ? {} : { auth }),
      });
      const body = e.response?.status === 200 ? parseJson(e.response.text) : undefined;
      const created = isObject(body) && isObject(body.created) && isObject(body.created.createdEvent) ? body.created.createdEvent : undefined;
      const c = created ? reportedContract(created) : undefined;
      if (c === undefined || !isObject(body) || !isObject(body.archived)) return c;
      const a = isObject(body.archived.archivedEvent) ? body.archived.archivedEvent : {};
      const sync = typeof body.archived.synchronizerId === 'string' ? { synchronizerId: body.archived.synchronizerId } : {};
      return { ...c, archived: true, ...(typeof a.offset === 'number' ? { archivedAt: { offset: a.offset, ...sync } } : {}) };
    },
    remember(created) {
      void reported.then((m) => m.set(created.contractId, created));
    },
  };
}

async function fetchPackage(ctx: Pick<CheckContext, 'http'>, packageId: string): Promise<PackageLookup> {
  const e = await ctx.http.request('ledger', { method: 'GET', path: `/v2/packages/${packageId}` });
  const r = e.response;
  if (r?.status !== 200) return { ok: false, reason: `GET /v2/packages/${packageId} answered ${r ? `HTTP ${r.status}` : e.error?.message ?? 'nothing'}` };
  if (r.bytes === undefined || r.truncated) return { ok: false, reason: `GET /v2/packages/${packageId} did not answer the package's bytes (application/octet-stream, complete)` };
  return packageFromPayload(packageId, r.bytes);
}

/** The package `GET /v2/packages/{packageId}` answered, decoded; or why the engine cannot use it. */
export function packageFromPayload(packageId: string, payload: Uint8Array): PackageLookup {
  // The endpoint answers the archive payload; its SHA-256 is the id, which decodeArchive checks.
  const d = decodeArchive(encodeArchive(payload, { hash: packageId }).dalf);
  if (d.ok) return modulesOf(packageId, d.value, true);
  // A payload that is not the id's: still read it, to say plainly when it is a package without code.
  const loose = d.failure.kind === 'hashMismatch' ? decodeArchive(encodeArchive(payload).dalf) : d;
  const port = loose.ok ? modulesOf(packageId, loose.value, false) : undefined;
  if (port !== undefined && !port.ok) return port;
  return { ok: false, reason: `the engine cannot decode package ${packageId}: ${d.failure.message}` };
}

/**
 * A package the target serves without modules names templates it runs by other means (the
 * reference's hand-written ports of Amulet, the token standard and the LocalNet apps): there is
 * no Daml-LF to re-run, which the skip says.
 */
function modulesOf(packageId: string, pkg: Package, hashOk: boolean): PackageLookup {
  if (pkg.modules.size > 0) return { ok: true, pkg };
  const named = pkg.metadata === undefined ? '' : ` (${pkg.metadata.name} ${pkg.metadata.version})`;
  return {
    ok: false,
    reason: `hand-written port: package ${packageId}${named} is served without Daml-LF modules${hashOk ? '' : ' (and its payload does not hash to its id)'}, so the engine has no code to re-run`,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** A created event's fields re-interpretation uses; undefined when they are missing. */
export function reportedContract(c: Json): ReportedContract | undefined {
  if (typeof c.contractId !== 'string' || typeof c.templateId !== 'string') return undefined;
  return {
    contractId: c.contractId, templateId: c.templateId, createArgument: c.createArgument, signatories: strings(c.signatories), observers: strings(c.observers),
    ...(c.contractKey === undefined || c.contractKey === null ? {} : { contractKey: c.contractKey }),
  };
}
