import { Alt, type ChoiceScope, E, type Expr, type ModuleBuilder, PackageBuilder, T, type Type } from '../../../daml-engine/index.js';
import { buildDalf, buildDar, buildLineageDalf } from '../generators/dar.js';
import { expectCantonError, expectRejected, expectStatus, isObject, objectBody } from './support/expect.js';
import { darUploadPath, firstSynchronizer, listPackageIds, listVetted, ownParticipantId, packageName, skipUnlessAdmin, unvetChange, uploadFreshDar, vetChange, vettedOn, vettingUpdate } from './support/packages.js';
import { createContract, readParty } from './support/ledger.js';
import { LedgerOp, UPSTREAM_B } from './ledgerOps.js';
import type { CheckContext, CheckDefinition } from './types.js';

const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });
const PKG = `${UPSTREAM_B}: PackageService / PackageManagementService`;
const VETTING = `${UPSTREAM_B}: PackageService vetting (ListVettedPackages, UpdateVettedPackages)`;
const PACKAGE_ID = /^[0-9a-f]{64}$/;
const chunks = <T>(xs: readonly T[], n: number): T[][] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));
// The deprecated forms (POST /v2/packages, GET and POST /v2/package-vetting) are still part of Canton 3.5's API and
// still called by clients: their checks are MUST like the rest.

async function expectStatusOf(ctx: CheckContext, packageId: string, expected: string): Promise<void> {
  const e = await ctx.http.request('ledger', { method: 'GET', path: `/v2/packages/${packageId}/status` });
  expectStatus(ctx, e, 200, `GET /v2/packages/${packageId.slice(0, 12)}…/status`);
  const status = objectBody(ctx, e, 'package status').packageStatus;
  if (status !== expected) ctx.fail(`package ${packageId.slice(0, 12)}… has status ${String(status)}, expected ${expected}`, e);
}

/** Vet or unvet one package on a synchronizer through an update operation; the answer's new state is returned. */
async function changeVetting(ctx: CheckContext, path: '/v2/package-vetting/update' | '/v2/package-vetting', synchronizerId: string, change: unknown, extra: Record<string, unknown> = {}) {
  const e = await ctx.http.request('ledger', { method: 'POST', path, json: { changes: [change], synchronizerId, ...extra } });
  skipUnlessAdmin(ctx, e, `POST ${path}`);
  return e;
}

export const ledgerPackageChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.packages.dar-upload-registers',
    title: 'POST /v2/dars records every package of the DAR: listed by GET /v2/packages and REGISTERED',
    operationId: LedgerOp.uploadDar,
    level: 'MUST',
    kind: 'example',
    specRef: `${PKG}: UploadDarFile, ListPackages, GetPackageStatus`,
    requires: { writes: true },
    async run(ctx) {
      const { main, dep } = await uploadFreshDar(ctx);
      const { ids, exchange } = await listPackageIds(ctx);
      for (const d of [main, dep]) if (!ids.includes(d.packageId)) ctx.fail(`the uploaded package ${d.packageName} (${d.packageId}) is not listed`, exchange);
      await expectStatusOf(ctx, main.packageId, 'PACKAGE_STATUS_REGISTERED');
      await expectStatusOf(ctx, dep.packageId, 'PACKAGE_STATUS_REGISTERED');
    },
  }),
  check({
    id: 'ledger.packages.upload-deprecated-path',
    title: 'POST /v2/packages uploads a DAR like POST /v2/dars',
    operationId: LedgerOp.uploadPackages,
    level: 'MUST',
    kind: 'example',
    specRef: `${PKG}: POST /v2/packages behaves the same as /v2/dars`,
    requires: { writes: true },
    async run(ctx) {
      const { main, exchange: up } = await uploadFreshDar(ctx, { path: '/v2/packages' });
      const body = objectBody(ctx, up, 'upload answer');
      if (!isObject(body)) ctx.fail('the upload answer must be a JSON object', up);
      const { ids, exchange } = await listPackageIds(ctx);
      if (!ids.includes(main.packageId)) ctx.fail(`the package uploaded through /v2/packages (${main.packageId}) is not listed`, exchange);
    },
  }),
  check({
    id: 'ledger.packages.fetch-byte-identical',
    title: 'GET /v2/packages/{id} returns the archive payload byte for byte: its SHA-256 is the id, sent as Canton-Package-Hash',
    operationId: LedgerOp.getPackage,
    level: 'MUST',
    kind: 'example',
    specRef: `${PKG}: GetPackage (archive_payload, hash)`,
    requires: { writes: true },
    async run(ctx) {
      const { main } = await uploadFreshDar(ctx);
      const e = await ctx.http.request('ledger', { method: 'GET', path: `/v2/packages/${main.packageId}` });
      const r = expectStatus(ctx, e, 200, 'GET /v2/packages/{package-id}');
      if (r.contentType !== 'application/octet-stream') ctx.fail(`content type ${r.contentType || '(none)'}, expected application/octet-stream`, e);
      if (r.headers['canton-package-hash'] !== main.packageId) ctx.fail(`Canton-Package-Hash is ${String(r.headers['canton-package-hash'])}, expected ${main.packageId}`, e);
      if (r.size !== main.payload.length || r.sha256 !== main.packageId) {
        ctx.fail(`the body (${r.size} bytes, SHA-256 ${String(r.sha256).slice(0, 16)}…) is not the uploaded payload (${main.payload.length} bytes, SHA-256 ${main.packageId.slice(0, 16)}…)`, e);
      }
      const unknown = await ctx.http.request('ledger', { method: 'GET', path: `/v2/packages/${'f'.repeat(64)}` });
      expectStatus(ctx, unknown, 404, 'GET /v2/packages/{unknown id}');
      expectCantonError(ctx, unknown, 'an unknown package');
    },
  }),
  check({
    id: 'ledger.packages.list',
    title: 'GET /v2/packages lists package ids (64 hex digits, each once), uploaded ones included, and the package of a contract just created',
    operationId: LedgerOp.listPackages,
    level: 'MUST',
    kind: 'example',
    specRef: `${PKG}: ListPackages ("all packages known to the participant": those its contracts use among them)`,
    requires: { writes: true },
    async run(ctx) {
      const { main } = await uploadFreshDar(ctx);
      // A client fetches the package of a template it meets in an event (to decode it, or to show it).
      const party = ctx.profile.ledger?.template === undefined ? undefined : await readParty(ctx);
      const created = party === undefined ? undefined : await createContract(ctx, party);
      const { ids, exchange } = await listPackageIds(ctx);
      const used = created?.templateId.split(':')[0];
      if (used !== undefined && !ids.includes(used)) ctx.fail(`contract ${created!.contractId} was just created from package ${used}, which GET /v2/packages does not list`, exchange);
      const bad = ids.filter((i) => !PACKAGE_ID.test(i));
      if (bad.length > 0) ctx.fail(`not package ids: ${bad.slice(0, 3).join(', ')}`, exchange);
      if (new Set(ids).size !== ids.length) ctx.fail('a package id is listed twice', exchange);
      if (!ids.includes(main.packageId)) ctx.fail(`the uploaded package ${main.packageId} is not listed`, exchange);
    },
  }),
  check({
    id: 'ledger.packages.listed-are-registered',
    title: 'Every package GET /v2/packages lists (all of them, not a sample) answers REGISTERED on its status',
    operationId: LedgerOp.listPackages,
    level: 'MUST',
    kind: 'example',
    specRef: `${PKG}: ListPackages ("all packages known to the participant"), GetPackageStatus`,
    async run(ctx) {
      const { ids } = await listPackageIds(ctx);
      for (const batch of chunks(ids, 8)) {
        await Promise.all(batch.map((id) => expectStatusOf(ctx, id, 'PACKAGE_STATUS_REGISTERED')));
      }
    },
  }),
  check({
    id: 'ledger.packages.vetted-are-listed',
    title: 'Every package this participant has vetted, on any synchronizer, is listed by GET /v2/packages (a participant vets only packages it stores)',
    operationId: LedgerOp.listVetted,
    level: 'MUST',
    kind: 'example',
    specRef: `${VETTING}; ${PKG}: ListPackages. Canton refuses to vet a package the participant does not have (PACKAGE_MISSING_DEPENDENCIES / unknown package)`,
    async run(ctx) {
      const participantId = await ownParticipantId(ctx);
      // Filtered to this participant: on a network the list holds every validator's vetting, page after page.
      const { entries } = await listVetted(ctx, { topologyStateFilter: { participantIds: [participantId] } });
      const ours = entries.filter((v) => v.participantId === participantId);
      if (ours.length === 0) return ctx.skip(`the vetting list names no entry of this participant (${participantId})`);
      const { ids, exchange } = await listPackageIds(ctx);
      const listed = new Set(ids);
      const missing = [...new Set(ours.flatMap((v) => v.packages.map((p) => p.packageId)))].filter((id) => !listed.has(id));
      if (missing.length > 0) {
        ctx.fail(`${missing.length} package(s) this participant has vetted are not listed by GET /v2/packages: ${missing.slice(0, 3).join(', ')}`, exchange);
      }
    },
  }),
  check({
    id: 'ledger.packages.status',
    title: 'GET /v2/packages/{id}/status: REGISTERED for an uploaded package, UNSPECIFIED for an unknown one',
    operationId: LedgerOp.packageStatus,
    level: 'MUST',
    kind: 'example',
    specRef: `${PKG}: GetPackageStatus`,
    requires: { writes: true },
    async run(ctx) {
      const { dep } = await uploadFreshDar(ctx);
      await expectStatusOf(ctx, dep.packageId, 'PACKAGE_STATUS_REGISTERED');
      await expectStatusOf(ctx, 'e'.repeat(64), 'PACKAGE_STATUS_UNSPECIFIED');
    },
  }),
  check({
    id: 'ledger.packages.corrupt-dar-400',
    title: 'A corrupt DAR (not a zip, no manifest, a tampered DALF) is refused with 400 and registers nothing',
    operationId: LedgerOp.uploadDar,
    level: 'MUST',
    kind: 'negative',
    specRef: `${PKG}: INVALID_DAR`,
    requires: { writes: true },
    async run(ctx) {
      const name = packageName(ctx, 'cc-corrupt');
      const good = buildDalf({ name, version: '1.0.0' });
      const tampered = buildDalf({ name, version: '1.0.0', hash: 'ab'.repeat(32) });
      const cases: { why: string; bytes: Uint8Array }[] = [
        { why: 'not a zip', bytes: new TextEncoder().encode('this is not a DAR') },
        { why: 'a zip without META-INF/MANIFEST.MF', bytes: buildDar({ main: good, manifest: null }) },
        { why: 'a DALF whose hash is not the SHA-256 of its payload', bytes: buildDar({ main: tampered }) },
      ];
      for (const c of cases) {
        const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/dars', query: { vetAllPackages: false }, bytes: c.bytes });
        skipUnlessAdmin(ctx, e, 'POST /v2/dars');
        expectRejected(ctx, e, 400, `a DAR that is ${c.why}`);
      }
      const { ids, exchange } = await listPackageIds(ctx);
      if (ids.includes(good.packageId)) ctx.fail(`a package of a refused DAR (${good.packageId}) was registered`, exchange);
    },
  }),
  check({
    id: 'ledger.packages.same-name-and-version-refused',
    title: 'A package of the name and version of one already uploaded and vetted but other content is refused (KNOWN_PACKAGE_VERSION) and not vetted; the same package again is accepted',
    operationId: LedgerOp.uploadDar,
    level: 'MUST',
    kind: 'negative',
    specRef: `${PKG}: UploadDarFile (vetAllPackages); Canton topology TopologyManagerError KNOWN_PACKAGE_VERSION (two packages of one name and version are never vetted together)`,
    requires: { writes: true },
    async run(ctx) {
      const name = packageName(ctx, 'cc-clash');
      // One name and version, two contents (the salt): two package ids. Each holds a serializable
      // type: Canton leaves utility packages (none) out of lineages and vets two of them side by side.
      const first = buildLineageDalf({ name, version: '1.0.0', salt: 'first' });
      const other = buildLineageDalf({ name, version: '1.0.0', salt: 'other' });
      const sync = await firstSynchronizer(ctx);
      // Vetted on upload: Canton checks a name and version when it vets (an unvetted package may be stored beside another).
      const upload = (main: typeof first) => ctx.http.request('ledger', { method: 'POST', path: darUploadPath(ctx), query: { vetAllPackages: true, synchronizerId: sync }, bytes: buildDar({ main }) });
      const up = await upload(first);
      skipUnlessAdmin(ctx, up, `POST ${darUploadPath(ctx)}`);
      expectStatus(ctx, up, 200, `uploading and vetting ${name} 1.0.0`);
      const again = await upload(first);
      expectStatus(ctx, again, 200, `uploading the same ${name} 1.0.0 again`);
      const clash = await upload(other);
      expectStatus(ctx, clash, 400, `uploading and vetting another package as ${name} 1.0.0`);
      // KNOWN_PACKAGE_VERSION from the topology manager's vetting; lines that check at upload call it KNOWN_DAR_VERSION.
      expectCantonError(ctx, clash, `another package as ${name} 1.0.0`, ['KNOWN_PACKAGE_VERSION', 'KNOWN_DAR_VERSION']);
      const { entries, exchange } = await listVetted(ctx, { packageMetadataFilter: { packageIds: [first.packageId, other.packageId] } });
      if (vettedOn(entries, sync, other.packageId)) ctx.fail(`the refused package ${other.packageId} is vetted on ${sync} beside ${first.packageId} under one name and version`, exchange);
      if (!vettedOn(entries, sync, first.packageId)) ctx.fail(`the package first uploaded as ${name} 1.0.0 (${first.packageId}) is not vetted on ${sync}`, exchange);
    },
  }),
  check({
    id: 'ledger.packages.upgrade-incompatible-refused',
    title: 'A version of a vetted package that does not upgrade it (a template field dropped, a field added that is not Optional, a field\'s type changed, a choice\'s return type changed, a choice dropped) is refused when vetted (NOT_VALID_UPGRADE_PACKAGE) and not vetted; a version that does (an Optional field added at the end) is vetted beside it',
    operationId: LedgerOp.uploadDar,
    level: 'MUST',
    kind: 'negative',
    specRef: `${PKG}: UploadDarFile (vetAllPackages); smart contract upgrades: Canton's PackageUpgradeValidator and Daml's TypecheckUpgrades (UpgradeError RecordFieldsMissing, RecordFieldsNewNonOptional, RecordFieldsExistingChanged, ChoiceChangedReturnType, MissingChoice; TopologyManagerError NOT_VALID_UPGRADE_PACKAGE; DAR_NOT_VALID_UPGRADE on lines that check at upload)`,
    requires: { writes: true },
    async run(ctx) {
      const name = packageName(ctx, 'cc-upgrade');
      /** Asset of `fields`, with a non-consuming choice Value of `value`'s type unless it is null (the choice dropped). */
      const version = (v: string, fields: Readonly<Record<string, Type>>, value: { readonly type: Type; readonly body: Expr } | null = { type: T.int64, body: E.int64(1) }) => {
        const b = new PackageBuilder({ name, version: v });
        const choices = value === null ? [] : [{ name: 'Value', consuming: false, returnType: value.type, controllers: (c: ChoiceScope) => E.list(T.party, [c.field('owner')]), update: () => E.pure(value.type, value.body) }];
        b.module('Suite.Upgrade').template('Asset', { fields, signatories: (t) => E.list(T.party, [t.field('owner')]), choices });
        return b.build();
      };
      const fields = { owner: T.party, amount: T.int64 };
      const v1 = version('1.0.0', fields);
      // What Daml's TypecheckUpgrades refuses of a template (each against 1.0.0, none ever vetted).
      const incompatible = [
        { built: version('2.0.0', { owner: T.party }), what: 'whose template Asset lost the field amount' },
        { built: version('2.0.2', { ...fields, memo: T.text }), what: 'whose template Asset gained a field that is not Optional' },
        { built: version('2.0.3', { owner: T.party, amount: T.text }), what: "whose template Asset's field amount changed type" },
        { built: version('2.0.4', fields, { type: T.text, body: E.text('1') }), what: "whose choice Value returns Text, not Int64" },
        { built: version('2.0.5', fields, null), what: 'whose template Asset lost its choice Value' },
      ];
      const grown = version('2.0.1', { ...fields, memo: T.optional(T.text) });
      const sync = await firstSynchronizer(ctx);
      const upload = (dar: Uint8Array) => ctx.http.request('ledger', { method: 'POST', path: darUploadPath(ctx), query: { vetAllPackages: true, synchronizerId: sync }, bytes: dar });
      const first = await upload(v1.dar());
      skipUnlessAdmin(ctx, first, `POST ${darUploadPath(ctx)}`);
      expectStatus(ctx, first, 200, `uploading and vetting ${name} 1.0.0`);
      for (const { built, what } of incompatible) {
        const refused = await upload(built.dar());
        expectStatus(ctx, refused, 400, `uploading and vetting ${name} ${built.version}, ${what}`);
        expectCantonError(ctx, refused, `${name} ${built.version}, no upgrade of 1.0.0`, ['NOT_VALID_UPGRADE_PACKAGE', 'DAR_NOT_VALID_UPGRADE']);
      }
      const accepted = await upload(grown.dar());
      expectStatus(ctx, accepted, 200, `uploading and vetting ${name} 2.0.1, whose template Asset gained an Optional field at its end`);
      const { entries, exchange } = await listVetted(ctx, { packageMetadataFilter: { packageIds: [v1.id, grown.id, ...incompatible.map((p) => p.built.id)] } });
      for (const { built } of incompatible) if (vettedOn(entries, sync, built.id)) ctx.fail(`${name} ${built.version} (${built.id}), refused as no upgrade of 1.0.0, is vetted on ${sync}`, exchange);
      for (const p of [v1, grown]) if (!vettedOn(entries, sync, p.id)) ctx.fail(`${name} ${p.version} (${p.id}) is not vetted on ${sync}`, exchange);
    },
  }),
  check({
    id: 'ledger.packages.invalid-package-refused',
    title: 'A DAR whose package does not type-check (builtins, polymorphic code, Numeric scales, type class dictionaries), stores what is not serializable or has a non-exhaustive case (DAR_VALIDATION_ERROR), or names a package it does not carry and the participant lacks (DAR_NOT_SELF_CONSISTENT), is refused with 400 and registers nothing',
    operationId: LedgerOp.uploadDar,
    level: 'MUST',
    kind: 'negative',
    specRef: `${PKG}: UploadDarFile; Canton PackageServiceErrors.Validation (ValidationError, SelfConsistency): uploaded Daml is validated before it is stored`,
    requires: { writes: true },
    async run(ctx) {
      /** A module with value `v` of `type` (or of a type the module defines), and what else it `define`s. */
      type Case = {
        readonly what: string; readonly code: string; readonly define?: (m: ModuleBuilder) => void;
        readonly type: Type | ((m: ModuleBuilder) => Type); readonly value: Expr;
      };
      const cases: Case[] = [
        // Daml-LF typing (daml-lf-2.rst): a builtin applied to an argument of the wrong type.
        { what: 'a value that does not type-check (ADD_INT64 1 "one")', code: 'DAR_VALIDATION_ERROR', type: T.int64, value: E.call('ADD_INT64', [], E.int64(1), E.text('one')) },
        // A polymorphic builtin at its type argument: LESS @Int64 compares two Int64s.
        { what: 'a comparison at the wrong type (LESS @Int64 1 "one")', code: 'DAR_VALIDATION_ERROR', type: T.bool, value: E.call('LESS', [T.int64], E.int64(1), E.text('one')) },
        // Inside polymorphic code a type variable is rigid: `x : a` is no Int64.
        {
          what: 'polymorphic code that uses its type variable as an Int64 (/\\a. \\x:a. ADD_INT64 x 1)', code: 'DAR_VALIDATION_ERROR',
          type: T.forall(['a'], T.arrow(T.var('a'), T.int64)), value: E.tyLam(['a'], E.lam([['x', T.var('a')]], E.call('ADD_INT64', [], E.var('x'), E.int64(1)))),
        },
        // A type class dictionary is a synonym of a struct: its methods keep their types.
        {
          what: 'a dictionary (a synonym of a struct) whose method has another type', code: 'DAR_VALIDATION_ERROR',
          type: (m: ModuleBuilder) => T.syn(m.synonym('Sized', [], T.struct({ size: T.int64 }))), value: E.struct({ size: E.text('seven') }),
        },
        // What the ledger stores must be serializable: no function in a record marked serializable.
        {
          what: 'a record marked serializable with a function field', code: 'DAR_VALIDATION_ERROR',
          define: (m: ModuleBuilder) => { m.record('Stored', { f: T.arrow(T.int64, T.int64) }); }, type: T.int64, value: E.int64(1),
        },
        // A Numeric's scale is part of its type: Numeric 10 and Numeric 2 do not add.
        { what: 'Numerics of two scales added (ADD_NUMERIC @10 1.0000000000 2.50)', code: 'DAR_VALIDATION_ERROR', type: T.numeric(10), value: E.call('ADD_NUMERIC', [T.nat(10)], E.numeric('1.0000000000'), E.numeric('2.50')) },
        // Pattern match exhaustiveness (daml-lf-2.rst): a case on a Bool with no alternative for False.
        { what: 'a case that is not exhaustive (True only)', code: 'DAR_VALIDATION_ERROR', type: T.int64, value: E.case(E.true, [Alt.true(E.int64(1))]) },
        // A reference to a package neither in the DAR nor on any participant (an id nobody has).
        { what: 'a reference to a package the DAR does not carry', code: 'DAR_NOT_SELF_CONSISTENT', type: T.int64, value: E.val({ packageId: 'e0'.repeat(32), module: 'Main', name: 'missing' }) },
      ];
      const refused: string[] = [];
      for (const c of cases) {
        const b = new PackageBuilder({ name: packageName(ctx, 'cc-invalid'), version: '1.0.0' });
        const m = b.module('Main');
        // Besides `v`, a case may define what it is about (a record) or type `v` by what it defines (a synonym).
        c.define?.(m);
        m.value('v', typeof c.type === 'function' ? c.type(m) : c.type, c.value);
        const built = b.build();
        const e = await ctx.http.request('ledger', { method: 'POST', path: darUploadPath(ctx), query: { vetAllPackages: false }, bytes: built.dar() });
        skipUnlessAdmin(ctx, e, `POST ${darUploadPath(ctx)}`);
        expectStatus(ctx, e, 400, `a DAR with ${c.what}`);
        expectCantonError(ctx, e, `a DAR with ${c.what}`, [c.code]);
        refused.push(built.id);
      }
      const { ids, exchange } = await listPackageIds(ctx);
      const stored = refused.filter((id) => ids.includes(id));
      if (stored.length > 0) ctx.fail(`refused packages were registered: ${stored.join(', ')}`, exchange);
    },
  }),
  check({
    id: 'ledger.packages.validate-no-effect',
    title: 'POST /v2/dars/validate accepts a valid DAR without registering it and refuses a corrupt one with 400',
    operationId: LedgerOp.validateDar,
    level: 'MUST',
    kind: 'example',
    specRef: `${PKG}: ValidateDarFile (no effect on the participant)`,
    requires: { writes: true },
    async run(ctx) {
      const main = buildDalf({ name: packageName(ctx, 'cc-validate'), version: '1.0.0' });
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/dars/validate', bytes: buildDar({ main }) });
      skipUnlessAdmin(ctx, e, 'POST /v2/dars/validate');
      expectStatus(ctx, e, 200, 'validating a valid DAR');
      const { ids, exchange } = await listPackageIds(ctx);
      if (ids.includes(main.packageId)) ctx.fail(`validation registered the package ${main.packageId}`, exchange);
      const bad = await ctx.http.request('ledger', { method: 'POST', path: '/v2/dars/validate', bytes: new TextEncoder().encode('not a DAR') });
      expectRejected(ctx, bad, 400, 'validating a corrupt DAR');
    },
  }),
  check({
    id: 'ledger.vetting.update-then-list',
    title: 'A DAR uploaded with vetAllPackages=false is vetted nowhere; after a vetting update the vetting list agrees: vetted on that synchronizer, then gone once unvetted',
    operationId: LedgerOp.updateVetted,
    level: 'MUST',
    kind: 'example',
    specRef: `${VETTING}: changes apply on the target synchronizer; UploadDarFileRequest.vetting_change VETTING_CHANGE_DONT_VET_ANY_PACKAGES (vetAllPackages=false: stored, not vetted)`,
    requires: { writes: true },
    async run(ctx) {
      const sync = await firstSynchronizer(ctx);
      const { main } = await uploadFreshDar(ctx);
      const filter = { packageMetadataFilter: { packageIds: [main.packageId] } };
      // Uploaded unvetted (an operator stages a version to vet at a time of its choosing): a fresh
      // package, so no synchronizer vets it yet.
      const staged = await listVetted(ctx, filter);
      const early = staged.entries.find((v) => v.packages.some((p) => p.packageId === main.packageId));
      if (early !== undefined) ctx.fail(`the package uploaded with vetAllPackages=false is vetted on ${early.synchronizerId} before any vetting update`, staged.exchange);
      const vet = await changeVetting(ctx, '/v2/package-vetting/update', sync, vetChange(main.packageId));
      expectStatus(ctx, vet, 200, 'vetting an uploaded package');
      const after = await listVetted(ctx, filter);
      if (!vettedOn(after.entries, sync, main.packageId)) ctx.fail(`the package vetted on ${sync} is not listed as vetted there`, after.exchange);
      const unvet = await changeVetting(ctx, '/v2/package-vetting/update', sync, unvetChange(main.packageId));
      expectStatus(ctx, unvet, 200, 'unvetting it');
      const gone = await listVetted(ctx, filter);
      if (vettedOn(gone.entries, sync, main.packageId)) ctx.fail(`the package unvetted on ${sync} is still listed as vetted there`, gone.exchange);
    },
  }),
  check({
    id: 'ledger.vetting.serial-guard',
    title: 'A vetting update with a stale expectedTopologySerial is refused with 400 and changes nothing',
    operationId: LedgerOp.updateVetted,
    level: 'MUST',
    kind: 'negative',
    specRef: `${VETTING}: expected_topology_serial guards against concurrent changes`,
    requires: { writes: true },
    async run(ctx) {
      const sync = await firstSynchronizer(ctx);
      const { main } = await uploadFreshDar(ctx, { synchronizerId: sync });
      const before = await listVetted(ctx, { packageMetadataFilter: { packageIds: [main.packageId] }, topologyStateFilter: { synchronizerIds: [sync] } });
      const entry = before.entries[0];
      if (entry === undefined || !vettedOn(before.entries, sync, main.packageId)) return ctx.fail(`a package uploaded with synchronizerId=${sync} is not vetted there`, before.exchange);
      const stale = await changeVetting(ctx, '/v2/package-vetting/update', sync, unvetChange(main.packageId), { expectedTopologySerial: { serial: { Prior: { value: entry.topologySerial - 1 } } } });
      expectRejected(ctx, stale, 400, `unvetting with expectedTopologySerial ${entry.topologySerial - 1} (current ${entry.topologySerial})`);
      const after = await listVetted(ctx, { packageMetadataFilter: { packageIds: [main.packageId] }, topologyStateFilter: { synchronizerIds: [sync] } });
      if (!vettedOn(after.entries, sync, main.packageId)) ctx.fail('the refused update unvetted the package anyway', after.exchange);
    },
  }),
  check({
    id: 'ledger.vetting.list-filters',
    title: 'POST /v2/package-vetting/list honours package-id and participant filters',
    operationId: LedgerOp.listVetted,
    level: 'MUST',
    kind: 'example',
    specRef: `${VETTING}: PackageMetadataFilter, TopologyStateFilter`,
    requires: { writes: true },
    async run(ctx) {
      const sync = await firstSynchronizer(ctx);
      const { main, dep } = await uploadFreshDar(ctx, { synchronizerId: sync });
      const only = await listVetted(ctx, { packageMetadataFilter: { packageIds: [main.packageId] } });
      const listed = only.entries.flatMap((v) => v.packages.map((p) => p.packageId));
      if (!listed.includes(main.packageId)) ctx.fail('the vetted package asked for by id is not listed', only.exchange);
      if (listed.some((id) => id !== main.packageId)) ctx.fail(`a package id filter let other packages through (${listed.find((id) => id !== main.packageId)}; ${dep.packageId} was uploaded alongside)`, only.exchange);
      const nobody = await listVetted(ctx, { topologyStateFilter: { participantIds: ['cc-no-such-participant::1220'] } });
      if (nobody.entries.length > 0) ctx.fail('a participant filter naming no participant still listed vetted packages', nobody.exchange);
    },
  }),
  check({
    id: 'ledger.vetting.deprecated-list',
    title: 'GET /v2/package-vetting (deprecated) lists the vetted packages like POST /v2/package-vetting/list',
    operationId: LedgerOp.listVettedDeprecated,
    level: 'MUST',
    kind: 'example',
    specRef: `${VETTING}: GET /v2/package-vetting (deprecated)`,
    requires: { writes: true },
    async run(ctx) {
      const sync = await firstSynchronizer(ctx);
      const { main } = await uploadFreshDar(ctx, { synchronizerId: sync });
      const old = await listVetted(ctx, {}, 'deprecated');
      if (!vettedOn(old.entries, sync, main.packageId)) ctx.fail(`GET /v2/package-vetting does not list the package vetted on ${sync}`, old.exchange);
    },
  }),
  check({
    id: 'ledger.vetting.deprecated-update',
    title: 'POST /v2/package-vetting (deprecated) updates the vetting state like /update',
    operationId: LedgerOp.updateVettedDeprecated,
    level: 'MUST',
    kind: 'example',
    specRef: `${VETTING}: POST /v2/package-vetting (deprecated)`,
    requires: { writes: true },
    async run(ctx) {
      const sync = await firstSynchronizer(ctx);
      const { main } = await uploadFreshDar(ctx, { synchronizerId: sync });
      const e = await changeVetting(ctx, '/v2/package-vetting', sync, unvetChange(main.packageId));
      expectStatus(ctx, e, 200, 'unvetting through POST /v2/package-vetting');
      const after = await listVetted(ctx, { packageMetadataFilter: { packageIds: [main.packageId] } });
      if (vettedOn(after.entries, sync, main.packageId)) ctx.fail('the package is still vetted after the deprecated update unvetted it', after.exchange);
    },
  }),
  check({
    id: 'ledger.preferred.highest-vetted-version',
    title: 'GET /v2/interactive-submission/preferred-package-version answers the highest vetted version, and follows unvetting',
    operationId: LedgerOp.preferredVersion,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: InteractiveSubmissionService GetPreferredPackageVersion`,
    requires: { writes: true },
    async run(ctx) {
      const sync = await firstSynchronizer(ctx);
      const name = packageName(ctx, 'cc-pref');
      const v1 = (await uploadFreshDar(ctx, { synchronizerId: sync, name, version: '1.2.0' })).main;
      const v2 = (await uploadFreshDar(ctx, { synchronizerId: sync, name, version: '1.10.0' })).main;
      const party = await readParty(ctx);
      const ask = async () => {
        const e = await ctx.http.request('ledger', {
          method: 'GET',
          path: '/v2/interactive-submission/preferred-package-version',
          query: { 'package-name': name, 'synchronizer-id': sync, ...(party === undefined ? {} : { parties: party }) },
        });
        expectStatus(ctx, e, 200, 'GET preferred-package-version');
        const pref = objectBody(ctx, e, 'preferred package').packagePreference;
        const ref = isObject(pref) && isObject(pref.packageReference) ? pref.packageReference : undefined;
        return { e, id: ref?.packageId };
      };
      const first = await ask();
      if (first.id !== v2.packageId) ctx.fail(`preferred ${String(first.id)}, expected version 1.10.0 (${v2.packageId}) over 1.2.0`, first.e);
      const unvet = await changeVetting(ctx, vettingUpdate(ctx).path, sync, unvetChange(v2.packageId));
      expectStatus(ctx, unvet, 200, 'unvetting 1.10.0');
      const second = await ask();
      if (second.id !== v1.packageId) ctx.fail(`after unvetting 1.10.0 the preference is ${String(second.id)}, expected 1.2.0 (${v1.packageId})`, second.e);
    },
  }),
  check({
    id: 'ledger.preferred.packages',
    title: 'POST /v2/interactive-submission/preferred-packages answers the vetted package per name, and FAILED_PRECONDITION (400) when none is vetted',
    operationId: LedgerOp.preferredPackages,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: InteractiveSubmissionService GetPreferredPackages`,
    requires: { writes: true },
    async run(ctx) {
      const sync = await firstSynchronizer(ctx);
      const party = await readParty(ctx);
      if (party === undefined) return ctx.skip('preferred packages need a party (profile ledger.party or allocateParties)');
      const { main } = await uploadFreshDar(ctx, { synchronizerId: sync });
      const e = await ctx.http.request('ledger', {
        method: 'POST',
        path: '/v2/interactive-submission/preferred-packages',
        json: { packageVettingRequirements: [{ packageName: main.packageName, parties: [party] }], synchronizerId: sync },
      });
      expectStatus(ctx, e, 200, 'preferred packages of a vetted package');
      const refs = objectBody(ctx, e, 'preferred packages').packageReferences;
      const first = Array.isArray(refs) && isObject(refs[0]) ? refs[0] : undefined;
      if (first?.packageId !== main.packageId || first.packageVersion !== '1.0.0') ctx.fail(`expected ${main.packageName} 1.0.0 (${main.packageId}), got ${JSON.stringify(refs)}`, e);
      const none = await ctx.http.request('ledger', {
        method: 'POST',
        path: '/v2/interactive-submission/preferred-packages',
        json: { packageVettingRequirements: [{ packageName: packageName(ctx, 'cc-none'), parties: [party] }] },
      });
      expectStatus(ctx, none, 400, 'preferred packages of a name nothing vetted');
      expectCantonError(ctx, none, 'no package vetted');
    },
  }),
];
