import { BinaryWriter, WireType } from '@protobuf-ts/runtime';
import type { AdminStore, StoredPackage, SynchronizerVetting, VettingBounds } from '../../store/AdminStore.js';
import type { LedgerConfig } from '../config.js';
import type { LedgerError } from '../errors.js';
import { fail } from '../errors.js';
import { decodePageToken, encodePageToken } from '../pages.js';
import { isValidPartyId } from '../parties.js';
import { ok, type Result } from '../result.js';
import type { Catalogue } from '../templates/Catalogue.js';
import { isPlainObject, show } from '../values.js';
import type * as P from './packageWire.js';
import { readDar, readDarSteps, type ParsedDar } from './readDar.js';
import type { UnzipResult } from './unzipDar.js';
import type { Package } from '../../../../daml-engine/ast/Package.js';
import { type PassedChecks, type ValidateOptions, validateDarPackages, validateDarPackagesAsync } from './validateDarPackages.js';
import { samplePackage } from '../templates/samplePackage.js';
import { checkUpgrade, isInvalidDamlPrimOrStdlib, supportsUpgrades } from '../../../../daml-engine/check/checkUpgrade.js';
import { compareVersions } from '../../../../daml-engine/decode/Packages.js';
import { parseRfc3339 } from '../rfc3339.js';

type R<T> = Result<T, LedgerError>;

/** What the package services work on: the admin store, the catalogue's built-in packages, the clock. */
export interface PackageContext {
  readonly config: LedgerConfig;
  readonly admin: AdminStore;
  readonly catalogue: Catalogue;
  readonly isKnownParty: (party: string) => boolean;
  /** Uploaded packages as the engine decoded them (dependencies of a DAR being checked). */
  readonly enginePackage?: (packageId: string) => Package | undefined;
  /** A package already decoded from bytes hashing to its id (uploaded here or not): not decoded again. */
  readonly decodedPackage?: (packageId: string) => Package | undefined;
  /** Packages the checker passed before (across processes): not checked again. */
  readonly passedChecks?: PassedChecks;
}

/** A package the participant knows: uploaded (with its payload) or built in (synthesised payload). */
export interface KnownPackage {
  readonly packageId: string;
  readonly packageName: string;
  readonly packageVersion: string;
  readonly builtIn: boolean;
}

export interface UploadOptions {
  /** Default true, as on the participant. */
  readonly vetAllPackages?: boolean;
  readonly synchronizerId?: string;
}

const PACKAGE_ID = /^[0-9a-f]{64}$/;
/** The participant's first VettedPackages transaction on a synchronizer happens at connect. */
const INITIAL_SERIAL = 1;

// ------------------------------------------------------------------ the package store

export function knownPackages(ctx: PackageContext): KnownPackage[] {
  const out = new Map<string, KnownPackage>();
  for (const p of ctx.catalogue.packages()) out.set(p.packageId, { ...p, builtIn: true });
  for (const p of ctx.admin.packages()) out.set(p.packageId, { packageId: p.packageId, packageName: p.packageName, packageVersion: p.packageVersion, builtIn: false });
  return [...out.values()];
}

function knownPackage(ctx: PackageContext, packageId: string): KnownPackage | undefined {
  const uploaded = ctx.admin.package(packageId);
  if (uploaded) return { packageId, packageName: uploaded.packageName, packageVersion: uploaded.packageVersion, builtIn: false };
  const builtIn = ctx.catalogue.packages().find((p) => p.packageId === packageId);
  return builtIn ? { ...builtIn, builtIn: true } : undefined;
}

export function listPackages(ctx: PackageContext): { packageIds: string[] } {
  return { packageIds: knownPackages(ctx).map((p) => p.packageId).sort() };
}

function checkPackageId(packageId: string): R<string> {
  if (!PACKAGE_ID.test(packageId)) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: Invalid package id '${show(packageId)}': 64 lowercase hex digits expected`, {
      context: { field_name: 'package_id' },
    });
  }
  return ok(packageId);
}

/** The archive payload and its hash, as the package service hands them out. */
export function getPackage(ctx: PackageContext, packageId: string): R<{ payload: Uint8Array; hash: string }> {
  const id = checkPackageId(packageId);
  if (!id.ok) return id;
  const uploaded = ctx.admin.package(packageId);
  if (uploaded) return ok({ payload: uploaded.payload, hash: packageId });
  const builtIn = knownPackage(ctx, packageId);
  if (builtIn) return ok({ payload: builtInPayload(builtIn), hash: packageId });
  return fail('PACKAGE_NOT_FOUND', 'Could not find package.', { context: { package_id: packageId }, resources: [['PACKAGE', packageId]] });
}

export function packageStatus(ctx: PackageContext, packageId: string): R<{ packageStatus: P.PackageStatus }> {
  const id = checkPackageId(packageId);
  if (!id.ok) return id;
  return ok({ packageStatus: knownPackage(ctx, packageId) ? 'PACKAGE_STATUS_REGISTERED' : 'PACKAGE_STATUS_UNSPECIFIED' });
}

/**
 * The payload of a built-in package: the real Daml-LF package of the sample templates (its
 * SHA-256 is its id, as for an uploaded DAR); for the hand-written ports (Amulet, the token
 * standard, the LocalNet apps) the synthetic payload below.
 */
function builtInPayload(p: KnownPackage): Uint8Array {
  const sample = samplePackage();
  return p.packageId === sample.id ? sample.payload : syntheticPayload(p.packageName, p.packageVersion);
}

/**
 * A hand-written port has no Daml-LF: its payload is a Daml-LF 2 `ArchivePayload` naming the
 * package (metadata only, no modules), so a reader sees there is no code to run. Its hash is the
 * catalogue's id, not the SHA-256 of these bytes.
 */
export function syntheticPayload(name: string, version: string): Uint8Array {
  const metadata = new BinaryWriter().tag(1, WireType.Varint).int32(0).tag(2, WireType.Varint).int32(1).finish();
  const pkg = new BinaryWriter()
    .tag(2, WireType.LengthDelimited).string(name)
    .tag(2, WireType.LengthDelimited).string(version)
    .tag(4, WireType.LengthDelimited).bytes(metadata)
    .finish();
  return new BinaryWriter().tag(3, WireType.LengthDelimited).string('1').tag(4, WireType.LengthDelimited).bytes(pkg).finish();
}

// ------------------------------------------------------------------ DAR upload

/**
 * Reads and checks a DAR; with `store`, records its packages (all or none) and vets them. The
 * validate operation runs the same checks without `store`.
 */
export function uploadDar(
  ctx: PackageContext, bytes: Uint8Array, options: UploadOptions, store: boolean, now: number, inflated?: UnzipResult,
): R<CheckedDar> {
  // Read and checked ahead, in slices (`prepareDar`, HTTP uploads): taken once, for this ledger only.
  const pre = inflated === undefined ? undefined : prepared.get(inflated);
  if (pre !== undefined) prepared.delete(inflated as UnzipResult);
  const ahead = pre?.admin === ctx.admin ? pre : undefined;
  const dar = ahead?.dar ?? readSafely(bytes, inflated);
  if (!dar.ok) {
    if (dar.error.code === 'ZIP_BOMB') return fail('ZIP_BOMB', 'Dar zip file seems to be a zip bomb.', { context: { msg: dar.error.reason } });
    if (dar.error.code === 'DAR_PARSE_ERROR') return fail('DAR_PARSE_ERROR', 'Failed to parse the dar file content.', { context: { reason: dar.error.reason } });
    return fail('INVALID_DAR', `Dar file is corrupt: ${dar.error.reason}`, { context: { reason: dar.error.reason } });
  }
  // Decoded and checked whole before anything else (validate says what upload would).
  const validated = ahead?.validated !== undefined
    // A package another upload recorded meanwhile is known now: it is not recorded twice.
    ? (ahead.validated.ok ? ok(ahead.validated.value.filter((p) => ctx.admin.package(p.id) === undefined)) : ahead.validated)
    : validateDarPackages(dar.value.packages, knownEnginePackage(ctx), validateOptions(ctx));
  if (!validated.ok) return validated;
  return recordDar(ctx, { parsed: dar.value, decoded: validated.value }, options, store, now);
}

/**
 * What `uploadDar` reads, decodes and checks, done ahead in slices that yield to the event loop
 * (`validateDarPackagesAsync`), so an HTTP upload of a large DAR never holds other clients; the
 * upload (or validation) that follows with the same `inflated` entries takes it instead of doing
 * the work again, then records synchronously (all or none). Packages are never removed, so what
 * was known to the check is still known when it is recorded.
 */
export async function prepareDar(ctx: PackageContext, bytes: Uint8Array, inflated: UnzipResult): Promise<void> {
  const dar = await readInSlices(bytes, inflated);
  const validated = dar.ok ? await validateDarPackagesAsync(dar.value.packages, knownEnginePackage(ctx), validateOptions(ctx)) : undefined;
  prepared.set(inflated, { admin: ctx.admin, dar, ...(validated === undefined ? {} : { validated }) });
}

/** DARs read and checked ahead (`prepareDar`), by the inflated entries they were read from. */
const prepared = new WeakMap<UnzipResult, { readonly admin: AdminStore; readonly dar: ReturnType<typeof readDar>; readonly validated?: R<Package[]> }>();

const validateOptions = (ctx: PackageContext): ValidateOptions => ({ decoded: ctx.decodedPackage, passed: ctx.passedChecks });

/** The decoded packages the participant knows already (uploaded before), by id. */
const knownEnginePackage = (ctx: PackageContext) => (id: string): Package | undefined => (ctx.admin.package(id) === undefined ? undefined : ctx.enginePackage?.(id));

/** `readSafely` a DALF per step, yielding to the event loop every few milliseconds. */
async function readInSlices(bytes: Uint8Array, inflated: UnzipResult, sliceMs = 4): Promise<ReturnType<typeof readDar>> {
  try {
    const steps = readDarSteps(bytes, inflated);
    let since = performance.now();
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      if (performance.now() - since >= sliceMs) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        since = performance.now();
      }
    }
  } catch (e) {
    return { ok: false, error: { code: 'INVALID_DAR', reason: e instanceof Error ? e.message : 'unreadable' } };
  }
}

function readSafely(bytes: Uint8Array, inflated: UnzipResult | undefined): ReturnType<typeof readDar> {
  try {
    return readDar(bytes, inflated);
  } catch (e) {
    // A reader bug must refuse the DAR, not answer 500.
    return { ok: false, error: { code: 'INVALID_DAR', reason: e instanceof Error ? e.message : 'unreadable' } };
  }
}

/**
 * A DAR read and checked once, to record again on another ledger in the same state (msw's
 * `reset()`): its packages as read, and what the check decoded. Packages are immutable, so the
 * decoded `Package` objects are shared by every ledger that records the DAR.
 */
export interface CheckedDar {
  readonly parsed: ParsedDar;
  readonly decoded: readonly Package[];
}

/**
 * The part of an upload after reading and checking: the name-and-version clash check, then
 * recording and vetting (when `store`). A `CheckedDar` from an upload to a ledger in the same
 * state (same packages known) records exactly what uploading its bytes would.
 */
export function recordDar(ctx: PackageContext, dar: CheckedDar, options: UploadOptions, store: boolean, now: number): R<CheckedDar> {
  const packages = dar.parsed.packages;
  const vet = options.vetAllPackages !== false;
  let vetting: { readonly synchronizerId: string; readonly after: Map<string, VettingBounds>; readonly changed: boolean } | undefined;
  if (vet) {
    const sync = targetSynchronizer(ctx, options.synchronizerId, 'upload');
    if (!sync.ok) return sync;
    const after = effectiveVetting(ctx, sync.value);
    const newlyVetted = packages.map((p) => p.packageId).filter((id) => !after.has(id));
    for (const id of newlyVetted) after.set(id, {});
    // Vetting is where Canton checks lineages (since 3.4): an upload that does not vet checks none.
    const sound = validateLineages(ctx, newlyVetted, after, lineageSourceOf(dar));
    if (!sound.ok) return sound;
    vetting = { synchronizerId: sync.value, after, changed: newlyVetted.length > 0 };
  }
  if (!store) return ok(dar);
  const fresh: StoredPackage[] = packages
    .filter((p) => ctx.admin.package(p.packageId) === undefined)
    .map((p) => ({ packageId: p.packageId, packageName: p.packageName, packageVersion: p.packageVersion, payload: p.payload, uploadedAt: now }));
  ctx.admin.putPackages(fresh);
  if (vetting?.changed) saveVetting(ctx, vetting.synchronizerId, vetting.after, currentSerial(ctx, vetting.synchronizerId) + 1);
  return ok(dar);
}

// ------------------------------------------------------------------ upgrade lineages

/** What a lineage check knows of a package beyond the store: the DAR being uploaded. */
interface LineageSource {
  readonly meta: ReadonlyMap<string, { readonly name: string; readonly version: string }>;
  readonly decoded: ReadonlyMap<string, Package>;
}

const lineageSourceOf = (dar: CheckedDar): LineageSource => ({
  meta: new Map(dar.parsed.packages.map((p) => [p.packageId, { name: p.packageName, version: p.packageVersion }])),
  decoded: new Map(dar.decoded.map((p) => [p.id, p])),
});

const NO_SOURCE: LineageSource = { meta: new Map(), decoded: new Map() };

/** A package as Canton names it in errors: `id (name vX)`. */
const described = (id: string, name: string, version: string): string => `${id} (${name} v${version})`;

/**
 * Canton's PackageUpgradeValidator on a vetting change: for the name of each package newly
 * vetted, the packages of that name vetted after the change, ordered by version, form a lineage.
 * daml-prim and daml-stdlib must be utility packages; two neighbours (utility packages aside)
 * never share a version (KNOWN_PACKAGE_VERSION) and each upgrades the one before it
 * (NOT_VALID_UPGRADE_PACKAGE, daml-engine/check/checkUpgrade). Built-in models stand outside
 * lineages: they stand in for real packages, which may be uploaded beside them.
 */
function validateLineages(ctx: PackageContext, newlyVetted: readonly string[], after: ReadonlyMap<string, VettingBounds>, source: LineageSource): R<void> {
  const metas = new Map<string, { readonly name: string; readonly version: string } | undefined>(source.meta);
  const metaOf = (id: string): { readonly name: string; readonly version: string } | undefined => {
    if (metas.has(id)) return metas.get(id);
    const k = knownPackage(ctx, id);
    const meta = k === undefined ? undefined : { name: k.packageName, version: k.packageVersion };
    metas.set(id, meta);
    return meta;
  };
  const decodedOf = (id: string): Package | undefined => source.decoded.get(id) ?? (ctx.admin.package(id) === undefined ? undefined : ctx.enginePackage?.(id));
  // Dependencies come after their users in a DAR: their lineages are checked first, as Canton's topological order does.
  const names = [...new Set(newlyVetted.map((id) => metaOf(id)?.name).filter((n): n is string => n !== undefined).reverse())];
  const vettedByName = new Map<string, { id: string; version: string }[]>();
  for (const id of after.keys()) {
    const meta = metaOf(id);
    if (!meta) continue;
    const same = vettedByName.get(meta.name);
    if (same) same.push({ id, version: meta.version });
    else vettedByName.set(meta.name, [{ id, version: meta.version }]);
  }
  for (const name of names) {
    const lineage: { id: string; version: string; pkg: Package }[] = [];
    for (const { id, version } of vettedByName.get(name) ?? []) {
      const pkg = decodedOf(id);
      if (pkg) lineage.push({ id, version, pkg });
    }
    lineage.sort((a, b) => compareVersions(a.version, b.version) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const p of lineage) {
      if (isInvalidDamlPrimOrStdlib(p.pkg)) {
        return fail('DAML_PRIM_NOT_UTILITY_PACKAGE', `Tried to vet a package ${described(p.id, name, p.version)}, but this package is not a utility package. All packages named \`daml-prim\` or \`daml-std-lib\` must be a utility package.`);
      }
    }
    const upgradable = lineage.filter((p) => supportsUpgrades(p.pkg));
    const pairs = upgradable.slice(1).map((snd, i) => [upgradable[i] as typeof snd, snd] as const);
    for (const [fst, snd] of pairs) {
      if (compareVersions(fst.version, snd.version) === 0) {
        return fail('KNOWN_PACKAGE_VERSION', `Tried to vet two packages with the same name and version: ${described(fst.id, name, fst.version)} and ${described(snd.id, name, snd.version)}.`, {
          context: { oldPackage: described(fst.id, name, fst.version), newPackage: described(snd.id, name, snd.version) },
        });
      }
    }
    for (const [fst, snd] of pairs) {
      const problem = checkUpgrade(fst.pkg, snd.pkg, metaOf);
      if (problem) {
        return fail('NOT_VALID_UPGRADE_PACKAGE', `Upgrade checks indicate that ${described(snd.id, name, snd.version)} cannot be an upgrade of ${described(fst.id, name, fst.version)}. Reason: ${problem.message}`, {
          context: { oldPackage: described(fst.id, name, fst.version), newPackage: described(snd.id, name, snd.version), upgradeError: problem.kind },
        });
      }
    }
  }
  return ok(undefined);
}

/** The synchronizer a vetting change applies to: the one named, or the only one connected. */
function targetSynchronizer(ctx: PackageContext, requested: string | undefined, what: 'upload' | 'vetting'): R<string> {
  const connected = ctx.config.synchronizers.map((s) => s.id);
  if (requested === undefined || requested === '') {
    if (connected.length === 1) return ok(connected[0] as string);
    return fail('PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER', `Cannot autodetect synchronizer: currently connected synchronizers ${connected.join(', ')}`);
  }
  if (!connected.includes(requested)) {
    return fail(
      'PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER',
      what === 'upload'
        ? `Cannot upload a dar because the participant is not connected to synchronizer '${show(requested, 200)}'.`
        : `Cannot vet packages because the participant is not connected to synchronizer '${show(requested, 200)}'.`,
      { context: { synchronizerId: show(requested, 200) } },
    );
  }
  return ok(requested);
}

// ------------------------------------------------------------------ vetting state

function currentSerial(ctx: PackageContext, synchronizerId: string): number {
  return ctx.admin.vetting(synchronizerId)?.serial ?? INITIAL_SERIAL;
}

/** Package id -> bounds of what is vetted on the synchronizer now. */
function effectiveVetting(ctx: PackageContext, synchronizerId: string): Map<string, VettingBounds> {
  const stored = ctx.admin.vetting(synchronizerId);
  const out = new Map<string, VettingBounds>();
  const unvetted = new Set(stored?.unvetted ?? []);
  for (const p of ctx.catalogue.packages()) if (!unvetted.has(p.packageId)) out.set(p.packageId, {});
  // Only packages the participant holds: a built-in package that yielded its name to an uploaded
  // one (`preferUploadedPackageNames`, --splice-dars) left the participant, its vetting with it.
  for (const [id, bounds] of Object.entries(stored?.vetted ?? {})) if (knownPackage(ctx, id)) out.set(id, bounds);
  return out;
}

function saveVetting(ctx: PackageContext, synchronizerId: string, state: ReadonlyMap<string, VettingBounds>, serial: number): void {
  const vetting: SynchronizerVetting = {
    serial,
    vetted: Object.fromEntries(state),
    unvetted: ctx.catalogue.packages().map((p) => p.packageId).filter((id) => !state.has(id)),
  };
  ctx.admin.putVetting(synchronizerId, vetting);
}

function vettedPackagesOf(ctx: PackageContext, synchronizerId: string, state: ReadonlyMap<string, VettingBounds>, serial: number, keep: (p: P.VettedPackage) => boolean = () => true): P.VettedPackages {
  const packages: P.VettedPackage[] = [];
  for (const [packageId, bounds] of state) {
    const known = knownPackage(ctx, packageId);
    const entry: P.VettedPackage = {
      packageId,
      ...(known ? { packageName: known.packageName, packageVersion: known.packageVersion } : {}),
      ...(bounds.validFromInclusive === undefined ? {} : { validFromInclusive: bounds.validFromInclusive }),
      ...(bounds.validUntilExclusive === undefined ? {} : { validUntilExclusive: bounds.validUntilExclusive }),
    };
    if (keep(entry)) packages.push(entry);
  }
  // Sorted by name and version where known, package id as a last resort.
  packages.sort(
    (a, b) =>
      (a.packageName ?? '').localeCompare(b.packageName ?? '') ||
      compareVersions(a.packageVersion ?? '', b.packageVersion ?? '') ||
      a.packageId.localeCompare(b.packageId),
  );
  return { packages, participantId: ctx.config.participantId, synchronizerId, topologySerial: serial };
}

const stringList = (v: unknown, field: string): R<string[]> => {
  if (v === undefined || v === null) return ok([]);
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: ${field} must be a list of strings`);
  return ok(v as string[]);
};

export function listVettedPackages(ctx: PackageContext, req: P.ListVettedPackagesRequest): R<P.ListVettedPackagesResponse> {
  if (!isPlainObject(req)) return fail('INVALID_ARGUMENT', 'The request must be an object');
  const max = ctx.config.features.packageFeature?.maxVettedPackagesPageSize ?? 100;
  const size = req.pageSize ?? 0;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: page_size must be a non-negative integer');
  if (size > max) return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: page_size ${size} exceeds the maximum of ${max}`);
  const after = decodePageToken(typeof req.pageToken === 'string' ? req.pageToken : undefined);
  if (!after.ok) return after;
  const metadata: Record<string, unknown> = isPlainObject(req.packageMetadataFilter) ? req.packageMetadataFilter : {};
  const topology: Record<string, unknown> = isPlainObject(req.topologyStateFilter) ? req.topologyStateFilter : {};
  const ids = stringList(metadata['packageIds'], 'package_metadata_filter.package_ids');
  if (!ids.ok) return ids;
  const prefixes = stringList(metadata['packageNamePrefixes'], 'package_metadata_filter.package_name_prefixes');
  if (!prefixes.ok) return prefixes;
  const participants = stringList(topology['participantIds'], 'topology_state_filter.participant_ids');
  if (!participants.ok) return participants;
  const syncs = stringList(topology['synchronizerIds'], 'topology_state_filter.synchronizer_ids');
  if (!syncs.ok) return syncs;
  const byMetadata = (p: P.VettedPackage) =>
    (ids.value.length === 0 && prefixes.value.length === 0) ||
    ids.value.includes(p.packageId) ||
    prefixes.value.some((prefix) => (p.packageName ?? '').startsWith(prefix));
  if (participants.value.length > 0 && !participants.value.includes(ctx.config.participantId)) return ok({ vettedPackages: [], nextPageToken: '' });
  const candidates = ctx.config.synchronizers
    .map((s) => s.id)
    .filter((id) => syncs.value.length === 0 || syncs.value.includes(id))
    .filter((id) => after.value === undefined || id > after.value)
    .sort();
  const pageSize = size === 0 ? max : size;
  const out: P.VettedPackages[] = [];
  let last: string | undefined;
  for (const id of candidates) {
    const entry = vettedPackagesOf(ctx, id, effectiveVetting(ctx, id), currentSerial(ctx, id), byMetadata);
    if (entry.packages.length === 0) continue;
    if (out.length === pageSize) return ok({ vettedPackages: out, nextPageToken: encodePageToken(last as string) });
    out.push(entry);
    last = id;
  }
  return ok({ vettedPackages: out, nextPageToken: '' });
}

/** Which known packages a reference names (empty fields are wildcards). */
function resolveRef(ctx: PackageContext, ref: unknown): R<KnownPackage[]> {
  if (!isPlainObject(ref)) return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: a package reference must be an object');
  const { packageId, packageName, packageVersion } = ref as P.VettedPackagesRef;
  for (const [field, v] of [['package_id', packageId], ['package_name', packageName], ['package_version', packageVersion]] as const) {
    if (v !== undefined && typeof v !== 'string') return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: ${field} must be a string`);
  }
  if (!packageId && !packageName) {
    return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: a package reference needs a package_id or a package_name');
  }
  return ok(
    knownPackages(ctx).filter(
      (p) => (!packageId || p.packageId === packageId) && (!packageName || p.packageName === packageName) && (!packageVersion || p.packageVersion === packageVersion),
    ),
  );
}

const describeRef = (ref: P.VettedPackagesRef) =>
  `VettedPackagesRef(packageId=${show(ref.packageId ?? '')}, packageName=${show(ref.packageName ?? '')}, packageVersion=${show(ref.packageVersion ?? '')})`;

function checkTimestamp(v: unknown, field: string): R<string | undefined> {
  if (v === undefined || v === null || v === '') return ok(undefined);
  if (typeof v !== 'string' || parseRfc3339(v) === undefined) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: ${field} '${show(v)}' is not an RFC 3339 timestamp`);
  }
  return ok(v);
}

export function updateVettedPackages(ctx: PackageContext, req: P.UpdateVettedPackagesRequest): R<P.UpdateVettedPackagesResponse> {
  if (!isPlainObject(req) || !Array.isArray(req.changes) || req.changes.length === 0) {
    return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: changes', { context: { field_name: 'changes' } });
  }
  const sync = targetSynchronizer(ctx, req.synchronizerId, 'vetting');
  if (!sync.ok) return sync;
  const serial = currentSerial(ctx, sync.value);
  const expected = req.expectedTopologySerial?.serial;
  if (isPlainObject(expected)) {
    if ('Prior' in expected && isPlainObject(expected.Prior) && expected.Prior.value !== serial) {
      return fail('TOPOLOGY_SERIAL_MISMATCH', `The expected topology serial ${show(expected.Prior.value)} does not match the current serial ${serial} of the vetted packages on ${sync.value}`, {
        context: { expected: show(expected.Prior.value), actual: String(serial) },
      });
    }
    if ('NoPrior' in expected) {
      return fail('TOPOLOGY_SERIAL_MISMATCH', `Expected no prior vetted packages on ${sync.value}, but serial ${serial} exists`, { context: { actual: String(serial) } });
    }
  }
  const before = effectiveVetting(ctx, sync.value);
  const after = new Map(before);
  for (const [i, change] of req.changes.entries()) {
    const op: unknown = isPlainObject(change) ? change.operation : undefined;
    if (isPlainObject(op) && isPlainObject(op.Vet) && isPlainObject(op.Vet.value)) {
      const vet = op.Vet.value as { packages?: unknown; newValidFromInclusive?: unknown; newValidUntilExclusive?: unknown };
      if (!Array.isArray(vet.packages) || vet.packages.length === 0) return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: changes[${i}].Vet.packages must be non-empty`);
      const from = checkTimestamp(vet.newValidFromInclusive, 'new_valid_from_inclusive');
      if (!from.ok) return from;
      const until = checkTimestamp(vet.newValidUntilExclusive, 'new_valid_until_exclusive');
      if (!until.ok) return until;
      for (const ref of vet.packages) {
        const matches = resolveRef(ctx, ref);
        if (!matches.ok) return matches;
        if (matches.value.length === 0) {
          return fail('UNRESOLVED_VETTING_REFERENCE', `The vetted package reference ${describeRef(ref as P.VettedPackagesRef)} does not match any package in the package store. Reason: no package matches`);
        }
        if (matches.value.length > 1) {
          return fail('AMBIGUOUS_VETTING_REFERENCE', `The package reference ${describeRef(ref as P.VettedPackagesRef)} matches multiple packages: ${matches.value.map((m) => m.packageId).join(', ')}`);
        }
        after.set((matches.value[0] as KnownPackage).packageId, {
          ...(from.value === undefined ? {} : { validFromInclusive: from.value }),
          ...(until.value === undefined ? {} : { validUntilExclusive: until.value }),
        });
      }
    } else if (isPlainObject(op) && isPlainObject(op.Unvet) && isPlainObject(op.Unvet.value)) {
      const packages = (op.Unvet.value as { packages?: unknown }).packages;
      if (!Array.isArray(packages) || packages.length === 0) return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: changes[${i}].Unvet.packages must be non-empty`);
      for (const ref of packages) {
        const matches = resolveRef(ctx, ref);
        if (!matches.ok) return matches;
        if (matches.value.length === 0) {
          return fail('UNRESOLVED_VETTING_REFERENCE', `The vetted package reference ${describeRef(ref as P.VettedPackagesRef)} does not match any package in the package store. Reason: no package matches`);
        }
        for (const m of matches.value) after.delete(m.packageId);
      }
    } else {
      return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: changes[${i}].operation must be Vet or Unvet`);
    }
  }
  const newlyVetted = [...after.keys()].filter((id) => !before.has(id));
  const sound = validateLineages(ctx, newlyVetted, after, NO_SOURCE);
  if (!sound.ok) return sound;
  const changed = !sameVetting(before, after);
  const newSerial = changed ? serial + 1 : serial;
  if (changed && req.dryRun !== true) saveVetting(ctx, sync.value, after, newSerial);
  return ok({
    pastVettedPackages: vettedPackagesOf(ctx, sync.value, before, serial),
    newVettedPackages: vettedPackagesOf(ctx, sync.value, after, newSerial),
  });
}

function sameVetting(a: ReadonlyMap<string, VettingBounds>, b: ReadonlyMap<string, VettingBounds>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, x] of a) {
    const y = b.get(id);
    if (!y || x.validFromInclusive !== y.validFromInclusive || x.validUntilExclusive !== y.validUntilExclusive) return false;
  }
  return true;
}

// ------------------------------------------------------------------ preferred packages

function vettedAt(bounds: VettingBounds, at: number): boolean {
  const from = bounds.validFromInclusive === undefined ? undefined : parseRfc3339(bounds.validFromInclusive);
  const until = bounds.validUntilExclusive === undefined ? undefined : parseRfc3339(bounds.validUntilExclusive);
  if (from !== undefined && from > at) return false;
  if (until !== undefined && until <= at) return false;
  return true;
}

/** The highest version of a package name vetted on a synchronizer at a time, if any. */
function preferredOn(ctx: PackageContext, synchronizerId: string, packageName: string, at: number, uploadedOnly = false): P.PackageReference | undefined {
  let best: KnownPackage | undefined;
  for (const [id, bounds] of effectiveVetting(ctx, synchronizerId)) {
    if (!vettedAt(bounds, at)) continue;
    const p = knownPackage(ctx, id);
    if (!p || p.packageName !== packageName || (uploadedOnly && p.builtIn)) continue;
    if (!best || compareVersions(p.packageVersion, best.packageVersion) > 0) best = p;
  }
  return best ? { packageId: best.packageId, packageName: best.packageName, packageVersion: best.packageVersion } : undefined;
}

/**
 * The package a `#name` reference runs as (Canton's package selection for a command): the highest
 * version of the name vetted now on a connected synchronizer, or, when `preference` (the
 * submission's `packageIdSelectionPreference`) names a package of that name, that one.
 * `uploadedOnly` leaves out the built-in models (a command on a contract of an uploaded package).
 */
export function selectPackageId(ctx: PackageContext, packageName: string, now: number, preference: readonly string[] = [], uploadedOnly = false): string | undefined {
  for (const id of preference) {
    const p = knownPackage(ctx, id);
    if (p && !p.builtIn && p.packageName === packageName) return id;
  }
  let best: P.PackageReference | undefined;
  for (const s of ctx.config.synchronizers) {
    const ref = preferredOn(ctx, s.id, packageName, now, uploadedOnly);
    if (ref && (!best || compareVersions(ref.packageVersion, best.packageVersion) > 0)) best = ref;
  }
  return best?.packageId;
}

interface PreferenceQuery {
  readonly requirements: readonly { readonly parties: readonly string[]; readonly packageName: string }[];
  readonly synchronizerId: string | undefined;
  readonly vettingValidAt: string | undefined;
}

/**
 * Every party here is hosted by this participant alone, so "vetted by all hosting participants"
 * is "vetted here". A party this participant does not know has no hosting participant that vetted
 * anything: no preference.
 */
function preferences(ctx: PackageContext, q: PreferenceQuery, now: number): R<{ synchronizerId: string; references: P.PackageReference[] } | undefined> {
  for (const r of q.requirements) {
    if (typeof r.packageName !== 'string' || r.packageName === '') return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: package_name', { context: { field_name: 'package_name' } });
    for (const party of r.parties) {
      if (typeof party !== 'string' || !isValidPartyId(party)) return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: '${show(party)}' is not a valid party id`, { context: { field_name: 'parties' } });
    }
  }
  const at = checkTimestamp(q.vettingValidAt, 'vetting_valid_at');
  if (!at.ok) return at;
  const when = at.value === undefined ? now : (parseRfc3339(at.value) ?? now);
  const connected = ctx.config.synchronizers.map((s) => s.id);
  if (q.synchronizerId !== undefined && q.synchronizerId !== '' && !connected.includes(q.synchronizerId)) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: synchronizer '${show(q.synchronizerId, 200)}' is not connected to this participant`, {
      context: { field_name: 'synchronizer_id' },
    });
  }
  if (q.requirements.some((r) => r.parties.some((p) => !ctx.isKnownParty(p)))) return ok(undefined);
  for (const sync of q.synchronizerId ? [q.synchronizerId] : connected) {
    const references: P.PackageReference[] = [];
    for (const r of q.requirements) {
      const ref = preferredOn(ctx, sync, r.packageName, when);
      if (!ref) break;
      references.push(ref);
    }
    if (references.length === q.requirements.length) return ok({ synchronizerId: sync, references });
  }
  return ok(undefined);
}

export function preferredPackageVersion(
  ctx: PackageContext,
  query: { parties: readonly string[]; packageName: string | undefined; vettingValidAt: string | undefined; synchronizerId: string | undefined },
  now: number,
): R<P.GetPreferredPackageVersionResponse> {
  if (query.packageName === undefined || query.packageName === '') {
    return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: package_name', { context: { field_name: 'package_name' } });
  }
  const found = preferences(ctx, { requirements: [{ parties: query.parties, packageName: query.packageName }], synchronizerId: query.synchronizerId, vettingValidAt: query.vettingValidAt }, now);
  if (!found.ok) return found;
  if (!found.value) return ok({});
  return ok({ packagePreference: { packageReference: found.value.references[0] as P.PackageReference, synchronizerId: found.value.synchronizerId } });
}

export function preferredPackages(ctx: PackageContext, req: P.GetPreferredPackagesRequest, now: number): R<P.GetPreferredPackagesResponse> {
  if (!isPlainObject(req) || !Array.isArray(req.packageVettingRequirements) || req.packageVettingRequirements.length === 0) {
    return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: package_vetting_requirements', { context: { field_name: 'package_vetting_requirements' } });
  }
  const names = req.packageVettingRequirements.map((r) => r.packageName);
  if (new Set(names).size !== names.length) return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: duplicate package names in package_vetting_requirements');
  const found = preferences(ctx, { requirements: req.packageVettingRequirements, synchronizerId: req.synchronizerId, vettingValidAt: req.vettingValidAt }, now);
  if (!found.ok) return found;
  if (!found.value) {
    return fail('PACKAGE_SELECTION_FAILED', `No synchronizers satisfy the topology requirements for the package names ${names.join(', ')} and the requested parties`, {
      context: { packageNames: names.join(', ') },
    });
  }
  return ok({ packageReferences: found.value.references, synchronizerId: found.value.synchronizerId });
}
