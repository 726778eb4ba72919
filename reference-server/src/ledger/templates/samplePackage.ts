/**
 * The sample templates as a real Daml-LF 2 package (`canton-conformance-samples` 1.0.0), written
 * with the engine's package builder: what `sampleTemplates.ts` models in TypeScript, as Daml would
 * compile it. Its id is the SHA-256 of the archive payload, as Canton computes it for an uploaded
 * DAR, so the catalogue lists the sample templates under that id and `GET /v2/packages/{id}`
 * serves these bytes: a confirming participant (the suite's re-interpretation) can re-run every
 * command on them. `test/ledger/samplePackageDifferential.test.ts` proves both models agree.
 *
 * In Daml (keys make it a Daml-LF 2.dev package, as damlc writes a template with a key):
 *
 *     module Sample.Holding where
 *     data HoldingView = HoldingView with owner : Party; amount : Decimal
 *     interface Holding where
 *       viewtype HoldingView
 *       nonconsuming choice Holding_Owner : Party
 *         controller (view this).owner
 *         do pure (view this).owner
 *
 *     module Sample.Asset where
 *     template Asset with issuer : Party; owner : Party; amount : Decimal; observers : Optional [Party]
 *       where
 *         signatory issuer
 *         observer owner :: fromOptional [] observers
 *         ensure amount > 0.0
 *         choice Transfer : ContractId Asset with newOwner : Party
 *           controller owner
 *           do create this with owner = newOwner
 *         choice Split : SplitResult with splitAmount : Decimal
 *           controller owner
 *           do unless (0.0 < splitAmount && splitAmount < amount) $
 *                failWithStatus (FailureStatus "canton-conformance-samples:split-out-of-range"
 *                  InvalidIndependentOfSystemState ("splitAmount must be between 0 and " <> show amount <> " (exclusive)") mempty)
 *              splitCid <- create this with amount = splitAmount
 *              remainderCid <- create this with amount = amount - splitAmount
 *              pure SplitResult with ..
 *         nonconsuming choice Describe : Text
 *           controller owner
 *           do pure (show amount <> " issued by " <> partyToText issuer)
 *         interface instance Holding for Asset where view = HoldingView with owner; amount
 *
 *     module Sample.Account where
 *     data AccountKey = AccountKey with bank : Party; accountId : Text
 *     template Account with bank : Party; holder : Party; accountId : Text
 *       where
 *         signatory bank
 *         observer holder
 *         key AccountKey with bank; accountId : AccountKey
 *         maintainer key.bank
 *         nonconsuming choice Deposit : Decimal with amount : Decimal
 *           controller holder
 *           do pure amount
 */
import type { BuiltPackage } from '../../../../daml-engine/build/PackageBuilder.js';
import { PackageBuilder } from '../../../../daml-engine/build/PackageBuilder.js';
import { Alt, E } from '../../../../daml-engine/build/E.js';
import { T } from '../../../../daml-engine/build/T.js';
import type { Expr } from '../../../../daml-engine/ast/Expr.js';

export const SAMPLE_PACKAGE_NAME = 'canton-conformance-samples';
export const SAMPLE_PACKAGE_VERSION = '1.0.0';
/** The error id of a Split outside (0, amount): `DAML_FAILURE` with this `error_id`. */
export const SPLIT_ERROR_ID = 'canton-conformance-samples:split-out-of-range';

const DECIMAL = T.numeric(10);
const ZERO = E.numeric('0.0000000000');
const less = (a: Expr, b: Expr): Expr => E.call('LESS', [DECIMAL], a, b);
const append = (...parts: Expr[]): Expr => parts.reduceRight((tail, head) => E.call('APPEND_TEXT', [], head, tail));

/**
 * The sample package, or the same templates under another package name (`name`): benches upload
 * that copy, which the ledger runs through the engine, beside the built-in models of the same
 * templates. `account: false` leaves out Sample.Account, whose key makes the package LF 2.dev, so
 * the copy is an LF 2.1 package any participant accepts.
 */
export function buildSamplePackage(options: { readonly name: string; readonly version?: string; readonly account?: boolean } = { name: SAMPLE_PACKAGE_NAME }): BuiltPackage {
  const withAccount = options.account ?? true;
  const b = new PackageBuilder({ name: options.name, version: options.version ?? SAMPLE_PACKAGE_VERSION, lfVersion: withAccount ? '2.dev' : '2.1' });

  const holding = b.module('Sample.Holding');
  const HoldingView = holding.record('HoldingView', { owner: T.party, amount: DECIMAL });
  const holdingRef = holding.ref('Holding');
  const viewOwner = (self: Expr) => E.field(HoldingView.tycon, 'owner', E.viewInterface(holdingRef, self));
  holding.interface('Holding', {
    view: HoldingView.type,
    choices: [{
      name: 'Holding_Owner', consuming: false, returnType: T.party,
      controllers: (c) => E.list(T.party, [viewOwner(c.this)]),
      update: (c) => E.pure(T.party, viewOwner(c.this)),
    }],
  });

  const asset = b.module('Sample.Asset');
  const assetRef = asset.ref('Asset');
  const cidAsset = T.contractId(T.con(assetRef));
  const SplitResult = asset.record('SplitResult', { splitCid: cidAsset, remainderCid: cidAsset });
  asset.template('Asset', {
    fields: { issuer: T.party, owner: T.party, amount: DECIMAL, observers: T.optional(T.list(T.party)) },
    precondition: (t) => less(ZERO, t.field('amount')),
    signatories: (t) => E.list(T.party, [t.field('issuer')]),
    observers: (t) => E.cons(T.party, [t.field('owner')], E.case(t.field('observers'), [Alt.none(E.nil(T.party)), Alt.some('xs', E.var('xs'))])),
    choices: [
      {
        name: 'Transfer', arg: { newOwner: T.party }, returnType: cidAsset,
        controllers: (c) => E.list(T.party, [c.field('owner')]),
        update: (c) => E.create(assetRef, E.setField(assetRef, 'owner', c.this, c.argField('newOwner'))),
      },
      {
        name: 'Split', arg: { splitAmount: DECIMAL }, returnType: SplitResult.type,
        controllers: (c) => E.list(T.party, [c.field('owner')]),
        update: (c) => {
          const split = c.argField('splitAmount');
          const amount = c.field('amount');
          const outOfRange = E.call('FAIL_WITH_STATUS', [T.update(SplitResult.type)],
            E.text(SPLIT_ERROR_ID),
            { kind: 'lit', value: { kind: 'failureCategory', category: 'INVALID_INDEPENDENT_OF_SYSTEM_STATE' } },
            append(E.text('splitAmount must be between 0 and '), E.call('NUMERIC_TO_TEXT', [T.nat(10)], amount), E.text(' (exclusive)')),
            E.call('TEXTMAP_EMPTY', [T.text]));
          const splitting = E.block([
            ['splitCid', cidAsset, E.create(assetRef, E.setField(assetRef, 'amount', c.this, split))],
            ['remainderCid', cidAsset, E.create(assetRef, E.setField(assetRef, 'amount', c.this, E.call('SUB_NUMERIC', [T.nat(10)], amount, split)))],
          ], E.pure(SplitResult.type, E.record(SplitResult.ref, { splitCid: E.var('splitCid'), remainderCid: E.var('remainderCid') })));
          return E.if(less(ZERO, split), E.if(less(split, amount), splitting, outOfRange), outOfRange);
        },
      },
      {
        name: 'Describe', consuming: false, returnType: T.text,
        controllers: (c) => E.list(T.party, [c.field('owner')]),
        update: (c) => E.pure(T.text, append(E.call('NUMERIC_TO_TEXT', [T.nat(10)], c.field('amount')), E.text(' issued by '), E.call('PARTY_TO_TEXT', [], c.field('issuer')))),
      },
    ],
    implements: [{ iface: holdingRef, view: (t) => E.record(HoldingView.ref, { owner: t.field('owner'), amount: t.field('amount') }) }],
  });

  if (!withAccount) return b.build();
  const account = b.module('Sample.Account');
  const AccountKey = account.record('AccountKey', { bank: T.party, accountId: T.text });
  account.template('Account', {
    fields: { bank: T.party, holder: T.party, accountId: T.text },
    signatories: (t) => E.list(T.party, [t.field('bank')]),
    observers: (t) => E.list(T.party, [t.field('holder')]),
    key: {
      type: AccountKey.type,
      body: (t) => E.record(AccountKey.ref, { bank: t.field('bank'), accountId: t.field('accountId') }),
      maintainers: E.lam([['key', AccountKey.type]], E.list(T.party, [E.field(AccountKey.tycon, 'bank', E.var('key'))])),
    },
    choices: [{
      name: 'Deposit', consuming: false, arg: { amount: DECIMAL }, returnType: DECIMAL,
      controllers: (c) => E.list(T.party, [c.field('holder')]),
      update: (c) => E.pure(DECIMAL, c.argField('amount')),
    }],
  });
  return b.build();
}

let built: BuiltPackage | undefined;

/** The sample package, built once per process (a few milliseconds). */
export function samplePackage(): BuiltPackage {
  return (built ??= buildSamplePackage());
}
