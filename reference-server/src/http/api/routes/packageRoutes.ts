import type * as P from '../../../ledger/packages/packageWire.js';
import { darEntryWanted } from '../../../ledger/packages/readDar.js';
import { type UnzipResult, unzipDarAsync } from '../../../ledger/packages/unzipDar.js';
import type { Ledger } from '../../../ledger/Ledger.js';
import { err, ok, type Result } from '../../../ledger/result.js';
import { parseRfc3339 } from '../../../ledger/rfc3339.js';
import { bytesResponse, emptyResponse } from '../apiResponse.js';
import { jsonResult, refused } from '../ledgerResult.js';
import { readStringQuery } from '../readQuery.js';
import { defineRoute, type Route, type RouteInput } from '../route.js';
import type { Problem } from '../types.js';

const packageId = (params: Readonly<Record<string, string>>): string => params['package-id'] ?? '';

/** `true`/`false`, as the participant's query decoder reads booleans; absent is undefined. */
function readBooleanQuery(query: URLSearchParams, name: string): Result<boolean | undefined, Problem> {
  const raw = query.get(name);
  if (raw === null) return ok(undefined);
  if (raw === 'true' || raw === 'false') return ok(raw === 'true');
  return err({ kind: 'decode', message: `Invalid value for: query parameter ${name}` });
}

/**
 * A DAR's entries inflated, then its packages read, decoded and checked, all in slices that yield
 * to the event loop (other clients are served meanwhile); upload and validation take the outcome.
 */
async function inflateAndCheck(ledger: Ledger, bytes: Uint8Array): Promise<UnzipResult> {
  const inflated = await unzipDarAsync(bytes, darEntryWanted);
  if (inflated.ok) await ledger.prepareDar(bytes, inflated);
  return inflated;
}

/** The two upload operations share their query (`vetAllPackages`, `synchronizerId`) and body (the DAR bytes). */
function darUpload() {
  return async ({ request, query, services }: RouteInput<undefined>) => {
    const vetAllPackages = readBooleanQuery(query, 'vetAllPackages');
    if (!vetAllPackages.ok) return vetAllPackages;
    const synchronizerId = readStringQuery(query, 'synchronizerId');
    const options = {
      ...(vetAllPackages.value === undefined ? {} : { vetAllPackages: vetAllPackages.value }),
      ...(synchronizerId === undefined ? {} : { synchronizerId }),
    };
    const bytes = request.bodyBytes ?? new Uint8Array(0);
    return jsonResult(services.ledger.uploadDar(bytes, options, await inflateAndCheck(services.ledger, bytes)));
  };
}

/**
 * The package service (list, fetch, status: any authenticated caller), package management (DAR
 * upload and validation: ParticipantAdmin), vetting (list: anyone; update: ParticipantAdmin) and
 * the interactive submission service's preferred-package queries (anyone).
 */
export const packageRoutes: readonly Route[] = [
  defineRoute({
    method: 'POST',
    path: '/v2/packages',
    operationId: 'postV2Packages',
    group: 'B',
    body: 'binary',
    access: () => ({ participantAdmin: true }),
    handle: darUpload(),
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/dars',
    operationId: 'postV2Dars',
    group: 'B',
    body: 'binary',
    access: () => ({ participantAdmin: true }),
    handle: darUpload(),
  }),
  defineRoute({
    method: 'POST',
    path: '/v2/dars/validate',
    operationId: 'postV2DarsValidate',
    group: 'B',
    body: 'binary',
    access: () => ({ participantAdmin: true }),
    // The participant answers a valid DAR with an empty 200 (the operation declares no content).
    handle: async ({ request, query, services }) => {
      const synchronizerId = readStringQuery(query, 'synchronizerId');
      const bytes = request.bodyBytes ?? new Uint8Array(0);
      // Checked against the named synchronizer's vetting state; without one, the DAR alone is checked.
      const result = services.ledger.validateDar(bytes, {
        vetAllPackages: synchronizerId !== undefined,
        ...(synchronizerId === undefined ? {} : { synchronizerId }),
      }, await inflateAndCheck(services.ledger, bytes));
      return result.ok ? ok(emptyResponse(200)) : refused(result.error);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/packages',
    operationId: 'getV2Packages',
    group: 'B',
    body: 'none',
    handle: ({ services }) => jsonResult(ok(services.ledger.listPackages())),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/packages/{package-id}',
    operationId: 'getV2PackagesPackage-id',
    group: 'B',
    body: 'none',
    handle: ({ params, services }) => {
      const found = services.ledger.getPackage(packageId(params));
      return found.ok ? ok(bytesResponse(found.value.payload, { 'Canton-Package-Hash': found.value.hash })) : refused(found.error);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/packages/{package-id}/status',
    operationId: 'getV2PackagesPackage-idStatus',
    group: 'B',
    body: 'none',
    handle: ({ params, services }) => jsonResult(services.ledger.packageStatus(packageId(params))),
  }),
  defineRoute<P.ListVettedPackagesRequest>({
    method: 'POST',
    path: '/v2/package-vetting/list',
    operationId: 'postV2Package-vettingList',
    group: 'B',
    body: 'json',
    handle: ({ body, services }) => jsonResult(services.ledger.listVettedPackages(body)),
  }),
  defineRoute<P.ListVettedPackagesRequest>({
    method: 'GET',
    path: '/v2/package-vetting',
    operationId: 'getV2Package-vetting',
    group: 'B',
    // Deprecated form of /list: a GET whose body fetch clients cannot send, so an absent body reads as `{}`.
    body: 'json-optional',
    handle: ({ body, services }) => jsonResult(services.ledger.listVettedPackages(body)),
  }),
  defineRoute<P.UpdateVettedPackagesRequest>({
    method: 'POST',
    path: '/v2/package-vetting/update',
    operationId: 'postV2Package-vettingUpdate',
    group: 'B',
    body: 'json',
    access: () => ({ participantAdmin: true }),
    handle: ({ body, services }) => jsonResult(services.ledger.updateVettedPackages(body)),
  }),
  defineRoute<P.UpdateVettedPackagesRequest>({
    method: 'POST',
    path: '/v2/package-vetting',
    operationId: 'postV2Package-vetting',
    group: 'B',
    body: 'json',
    access: () => ({ participantAdmin: true }),
    handle: ({ body, services }) => jsonResult(services.ledger.updateVettedPackages(body)),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/interactive-submission/preferred-package-version',
    operationId: 'getV2Interactive-submissionPreferred-package-version',
    group: 'B',
    body: 'none',
    handle: ({ query, services }) => {
      const validAt = query.get('vetting_valid_at');
      if (validAt !== null && validAt !== '' && parseRfc3339(validAt) === undefined) {
        return err({ kind: 'decode', message: 'Invalid value for: query parameter vetting_valid_at' });
      }
      return jsonResult(
        services.ledger.preferredPackageVersion({
          parties: query.getAll('parties').filter((p) => p !== ''),
          packageName: readStringQuery(query, 'package-name'),
          vettingValidAt: readStringQuery(query, 'vetting_valid_at'),
          synchronizerId: readStringQuery(query, 'synchronizer-id'),
        }),
      );
    },
  }),
  defineRoute<P.GetPreferredPackagesRequest>({
    method: 'POST',
    path: '/v2/interactive-submission/preferred-packages',
    operationId: 'postV2Interactive-submissionPreferred-packages',
    group: 'B',
    body: 'json',
    handle: ({ body, services }) => jsonResult(services.ledger.preferredPackages(body)),
  }),
];
