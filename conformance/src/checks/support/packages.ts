import { buildDalf, buildDar, type BuiltDalf } from '../../generators/dar.js';
import type { Exchange } from '../../target/exchange.js';
import { LedgerOp } from '../ledgerOps.js';
import type { CheckContext } from '../types.js';
import { expectStatus, isObject, objectBody, responseOf } from './expect.js';
import { pageWalk } from './pageWalk.js';

/** A package name unique to this run and check (Daml package names: letters, digits, `-`, `_`, `.`). */
export const packageName = (ctx: CheckContext, prefix: string): string => ctx.unique(prefix).replace(/[^A-Za-z0-9_.-]/g, '-');

/** Admin operations need ParticipantAdmin: a 403 means the suite's credentials cannot exercise the rule. */
export function skipUnlessAdmin(ctx: CheckContext, e: Exchange, what: string): void {
  if (responseOf(e).status === 403) ctx.skip(`${what} needs ParticipantAdmin, which the suite's credentials lack (HTTP 403)`);
}

/**
 * Where the suite uploads a DAR it needs: `POST /v2/dars`, or on a line without it (3.4) the
 * older `POST /v2/packages`, which takes the same DAR and query.
 */
export const darUploadPath = (ctx: CheckContext): '/v2/dars' | '/v2/packages' => (ctx.lacks(LedgerOp.uploadDar) ? '/v2/packages' : '/v2/dars');

/** Uploads a DAR of fresh packages (main and a dependency); 200 expected. */
export async function uploadFreshDar(
  ctx: CheckContext,
  options: { path?: '/v2/dars' | '/v2/packages'; synchronizerId?: string; version?: string; name?: string } = {},
): Promise<{ main: BuiltDalf; dep: BuiltDalf; exchange: Exchange }> {
  const main = buildDalf({ name: options.name ?? packageName(ctx, 'cc-pkg'), version: options.version ?? '1.0.0' });
  const dep = buildDalf({ name: packageName(ctx, 'cc-dep'), version: '0.1.0' });
  const path = options.path ?? darUploadPath(ctx);
  const query: Record<string, string | boolean> = options.synchronizerId === undefined ? { vetAllPackages: false } : { synchronizerId: options.synchronizerId };
  const exchange = await ctx.http.request('ledger', { method: 'POST', path, query, bytes: buildDar({ main, dependencies: [dep] }) });
  skipUnlessAdmin(ctx, exchange, `POST ${path}`);
  expectStatus(ctx, exchange, 200, `POST ${path} with a valid DAR`);
  return { main, dep, exchange };
}

/** Uploads `dar` vetting its packages on the first synchronizer (vetting is per synchronizer); 200 expected, a skip without ParticipantAdmin. */
export async function uploadVetted(ctx: CheckContext, dar: Uint8Array, what: string): Promise<{ sync: string; exchange: Exchange }> {
  const sync = await firstSynchronizer(ctx);
  const path = darUploadPath(ctx);
  const exchange = await ctx.http.request('ledger', { method: 'POST', path, query: { vetAllPackages: true, synchronizerId: sync }, bytes: dar });
  skipUnlessAdmin(ctx, exchange, `POST ${path}`);
  expectStatus(ctx, exchange, 200, what);
  return { sync, exchange };
}

export async function listPackageIds(ctx: CheckContext): Promise<{ ids: string[]; exchange: Exchange }> {
  const exchange = await ctx.http.request('ledger', { method: 'GET', path: '/v2/packages' });
  expectStatus(ctx, exchange, 200, 'GET /v2/packages');
  const ids = objectBody(ctx, exchange, 'package list').packageIds;
  if (!Array.isArray(ids) || ids.some((i) => typeof i !== 'string')) return ctx.fail('packageIds must be a list of strings', exchange);
  return { ids: ids as string[], exchange };
}

/** The first synchronizer the participant is connected to (vetting happens per synchronizer). */
export async function firstSynchronizer(ctx: CheckContext): Promise<string> {
  return ctx.shared('packages.first-synchronizer', async () => {
    const e = await ctx.http.request('ledger', { method: 'GET', path: '/v2/state/connected-synchronizers' });
    expectStatus(ctx, e, 200, 'GET /v2/state/connected-synchronizers');
    const list = objectBody(ctx, e, 'connected synchronizers').connectedSynchronizers;
    const first = Array.isArray(list) ? list.find((s) => isObject(s) && typeof s.synchronizerId === 'string') : undefined;
    if (!isObject(first)) return ctx.skip('the participant is connected to no synchronizer');
    return first.synchronizerId as string;
  });
}

export interface VettedEntry {
  readonly synchronizerId: string;
  readonly participantId: string;
  readonly topologySerial: number;
  readonly packages: readonly { packageId: string; packageName?: string; packageVersion?: string; validFromInclusive?: string }[];
}

/**
 * Where the suite changes vetting it needs: `POST /v2/package-vetting/update`, or on a line without
 * it (3.4) its deprecated form `POST /v2/package-vetting`, which takes the same body and answers alike.
 */
export function vettingUpdate(ctx: CheckContext): { readonly path: '/v2/package-vetting/update' | '/v2/package-vetting'; readonly operationId: string } {
  return ctx.lacks(LedgerOp.updateVetted)
    ? { path: '/v2/package-vetting', operationId: LedgerOp.updateVettedDeprecated }
    : { path: '/v2/package-vetting/update', operationId: LedgerOp.updateVetted };
}

/**
 * POST /v2/package-vetting/list with a filter (`deprecated`: GET /v2/package-vetting, the only
 * list a 3.4 participant has, and the default there); the entries, shape-checked, of every page:
 * vetting is topology state, so the list holds the other participants of the synchronizers too
 * (sorted by synchronizer, then participant), and a page the server sized ("the server will
 * decide") may end before this participant's entries.
 */
export async function listVetted(
  ctx: CheckContext,
  filter: Record<string, unknown>,
  how: 'list' | 'deprecated' = ctx.lacks(LedgerOp.listVetted) ? 'deprecated' : 'list',
): Promise<{ entries: VettedEntry[]; exchange: Exchange }> {
  const what = how === 'list' ? 'POST /v2/package-vetting/list' : 'GET /v2/package-vetting';
  const send = (token: string | undefined) => {
    const json = token === undefined ? filter : { ...filter, pageToken: token };
    return how === 'list'
      ? ctx.http.request('ledger', { method: 'POST', path: '/v2/package-vetting/list', json })
      : ctx.http.request('ledger', { method: 'GET', path: '/v2/package-vetting', ...(Object.keys(json).length === 0 ? {} : { json }) });
  };
  const walk = await pageWalk(ctx, send, (body, e) => {
    const entries = body.vettedPackages ?? [];
    if (!Array.isArray(entries) || entries.some((v) => !isObject(v) || !Array.isArray(v.packages) || typeof v.synchronizerId !== 'string')) {
      return ctx.fail('vettedPackages must be a list of {synchronizerId, participantId, topologySerial, packages}', e);
    }
    return entries;
  }, { what });
  return { entries: walk.items as VettedEntry[], exchange: walk.last };
}

/** This participant's id (GET /v2/parties/participant-id), as its vetting entries name it. */
export async function ownParticipantId(ctx: CheckContext): Promise<string> {
  return ctx.shared('packages.participant-id', async () => {
    const e = await ctx.http.request('ledger', { method: 'GET', path: '/v2/parties/participant-id' });
    expectStatus(ctx, e, 200, 'GET /v2/parties/participant-id');
    const id = objectBody(ctx, e, 'participant id').participantId;
    return typeof id === 'string' ? id : ctx.fail('participantId must be a string', e);
  });
}

export const vettedOn = (entries: readonly VettedEntry[], synchronizerId: string, packageId: string) =>
  entries.some((v) => v.synchronizerId === synchronizerId && v.packages.some((p) => p.packageId === packageId));

export const vetChange = (packageId: string) => ({ operation: { Vet: { value: { packages: [{ packageId }] } } } });
export const unvetChange = (packageId: string) => ({ operation: { Unvet: { value: { packages: [{ packageId }] } } } });
