/**
 * A DAR's packages decoded and checked whole, by the engine's decoder and package checker
 * (daml-engine/check), before the package service records anything: the participant's upload
 * validation. Refusals carry Canton's codes (PackageServiceErrors): DAR_PARSE_ERROR for a DALF the
 * decoder cannot read, DAR_NOT_SELF_CONSISTENT for a reference to a package neither in the DAR nor
 * known, DAR_VALIDATION_ERROR for any other failed check. An unexpected exception of the decoder
 * or the checker is a refusal too, never a half-recorded upload.
 */
import type { Package } from '../../../../daml-engine/ast/Package.js';
import { checkPackageSteps } from '../../../../daml-engine/check/checkPackage.js';
import type { CheckResult } from '../../../../daml-engine/check/CheckFailure.js';
import { describeCheckFailure } from '../../../../daml-engine/check/CheckFailure.js';
import { decodePayloadSteps } from '../../../../daml-engine/decode/decodeArchive.js';
import type { DecodeResult } from '../../../../daml-engine/decode/DecodeFailure.js';
import type { LedgerError } from '../errors.js';
import { fail } from '../errors.js';
import { ok, type Result } from '../result.js';
import type { DarPackage } from './readDar.js';

/** Decoded packages already known to the participant (uploaded before), by id. */
export type KnownEnginePackage = (packageId: string) => Package | undefined;

/** The packages a passing check looked up, each with whether it was there. */
export type LookedUp = readonly (readonly [packageId: string, found: boolean])[];

/**
 * Packages this very checker passed before (the participant does not validate a stored package
 * again; `passedChecksIn` keeps them across processes). A package id is the SHA-256 of the
 * package, and the check reads nothing but the package and the packages it looks up by id, so a
 * remembered package whose looked-up packages are there (or absent) as they were passes again.
 * Only passes are remembered: a refusal is always checked, and explained, anew.
 */
export interface PassedChecks {
  get(packageId: string): LookedUp | undefined;
  set(packageId: string, lookedUp: LookedUp): void;
}

export interface ValidateOptions {
  /** A package decoded before from bytes hashing to its id (a shared package cache): not decoded again. */
  readonly decoded?: (packageId: string) => Package | undefined;
  readonly passed?: PassedChecks;
}

const message = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 500);

/** Decodes and checks the DAR's packages that are not known yet; the decoded new ones, in DAR order. */
export function validateDarPackages(packages: readonly DarPackage[], known: KnownEnginePackage, options: ValidateOptions = {}): Result<Package[], LedgerError> {
  const steps = validateSteps(packages, known, options);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

export interface SliceOptions extends ValidateOptions {
  /** Work between two pauses, in milliseconds (default 4). */
  readonly sliceMs?: number;
  readonly pause?: () => Promise<void>;
}

/**
 * `validateDarPackages` in slices of about `sliceMs` of work (a package decoded, a definition
 * checked per step), yielding to the event loop between them: an HTTP upload of a large DAR never
 * holds other clients for long. The same answer as the synchronous form.
 */
export async function validateDarPackagesAsync(
  packages: readonly DarPackage[], known: KnownEnginePackage, options: SliceOptions = {},
): Promise<Result<Package[], LedgerError>> {
  const { sliceMs = 4, pause = nextTurn } = options;
  const steps = validateSteps(packages, known, options);
  let since = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - since >= sliceMs) {
      await pause();
      since = performance.now();
    }
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function* validateSteps(packages: readonly DarPackage[], known: KnownEnginePackage, options: ValidateOptions): Generator<void, Result<Package[], LedgerError>> {
  try {
    return yield* validate(packages, known, options);
  } catch (e) {
    // Whatever throws below (a look-up of known packages, a checker bug) refuses the DAR, cleanly.
    return fail('DAR_VALIDATION_ERROR', 'Package validation failed.', { context: { validationError: `the DAR could not be validated: ${message(e)}` } });
  }
}

function* validate(packages: readonly DarPackage[], known: KnownEnginePackage, options: ValidateOptions): Generator<void, Result<Package[], LedgerError>> {
  const { decoded: alreadyDecoded, passed } = options;
  const fresh: Package[] = [];
  const byId = new Map<string, Package>();
  for (const p of packages) {
    if (known(p.packageId) !== undefined || byId.has(p.packageId)) continue;
    const already = alreadyDecoded?.(p.packageId);
    if (already !== undefined) {
      fresh.push(already);
      byId.set(p.packageId, already);
      continue;
    }
    let decoded: DecodeResult<Package>;
    try {
      // readDar checked that the payload hashes to the id (DarPackage): decoded as it is, not re-wrapped.
      decoded = yield* decodePayloadSteps(p.payload, p.packageId, p.packageId);
    } catch (e) {
      decoded = { ok: false, failure: { kind: 'corrupt', message: message(e) } };
    }
    if (!decoded.ok) {
      const reason = `package ${p.packageId} (${p.packageName} ${p.packageVersion}): ${decoded.failure.message}`;
      return fail('DAR_PARSE_ERROR', 'Failed to parse the dar file content.', { context: { reason, packageId: p.packageId } });
    }
    fresh.push(decoded.value);
    byId.set(p.packageId, decoded.value);
    yield;
  }
  const lookup = (id: string) => byId.get(id) ?? known(id);
  for (const pkg of fresh) {
    const remembered = passed?.get(pkg.id);
    if (remembered !== undefined && remembered.every(([id, found]) => (lookup(id) !== undefined) === found)) continue;
    const lookedUp = new Map<string, boolean>();
    const recording = passed === undefined ? lookup : (id: string) => {
      const found = lookup(id);
      lookedUp.set(id, found !== undefined);
      return found;
    };
    let checked: CheckResult;
    try {
      checked = yield* checkPackageSteps(pkg, recording);
    } catch (e) {
      // A checker bug (or a lazily decoded body that throws) must refuse, not crash the upload.
      return fail('DAR_VALIDATION_ERROR', 'Package validation failed.', { context: { validationError: `validation error in package ${pkg.id}: ${message(e)}`, packageId: pkg.id } });
    }
    if (checked.ok) {
      passed?.set(pkg.id, [...lookedUp]);
      continue;
    }
    const f = checked.failure;
    if (f.reason.kind === 'undecodable') {
      // A lazily decoded value body the decoder refuses: a parse error, as for the rest of the DALF.
      return fail('DAR_PARSE_ERROR', 'Failed to parse the dar file content.', { context: { reason: describeCheckFailure(f), packageId: f.packageId } });
    }
    if (f.reason.kind === 'unknownReference' && f.reason.what === 'package') {
      return fail('DAR_NOT_SELF_CONSISTENT', 'The set of packages in the dar is not self-consistent and is missing dependencies', {
        context: { packageIds: fresh.map((p) => p.id).join(', '), missingDependencies: f.reason.name, validationError: describeCheckFailure(f) },
      });
    }
    return fail('DAR_VALIDATION_ERROR', 'Package validation failed.', {
      context: { validationError: describeCheckFailure(f), packageId: f.packageId, ...(f.definition === undefined ? {} : { definition: f.definition }), reason: f.reason.kind },
    });
  }
  return ok(fresh);
}
