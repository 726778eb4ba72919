import type { LedgerError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { DamlRecord } from '../wire.js';
import { packageIdOf, type Catalogue } from './Catalogue.js';
import { fromScaled, toScaled } from './numeric.js';
import { SAMPLE_PACKAGE_NAME, samplePackage } from './samplePackage.js';

/** Package of the sample templates; address them as `#canton-conformance-samples:Module:Entity`. */
export const SAMPLE_PACKAGE = SAMPLE_PACKAGE_NAME;
export const ASSET_TEMPLATE = `#${SAMPLE_PACKAGE}:Sample.Asset:Asset`;
export const ACCOUNT_TEMPLATE = `#${SAMPLE_PACKAGE}:Sample.Account:Account`;
export const HOLDING_INTERFACE = `#${SAMPLE_PACKAGE}:Sample.Holding:Holding`;

/** Daml's `show` of a Numeric: its digits without trailing zeros, at least one after the point. */
function showNumeric(canonical: string): string {
  const [int, frac = ''] = canonical.split('.');
  return `${int}.${frac.replace(/0+$/, '') || '0'}`;
}

function unwrap<T>(r: Result<T, LedgerError>): T {
  if (!r.ok) throw new Error(`sample templates: ${r.error.cause}`);
  return r.value;
}

/**
 * Sample templates any test can use:
 *
 * - `Sample.Asset:Asset {issuer, owner, amount: Numeric, observers: Optional [Party]}`:
 *   signatory issuer, observers owner and `observers` (the classic IOU shape, so an issuer can
 *   create assets for an owner alone). Choices: `Transfer {newOwner}` (controller owner, creates
 *   the asset for newOwner, returns its id), `Split {splitAmount}` (controller owner, returns
 *   `{splitCid, remainderCid}`), nonconsuming `Describe {}` (controller owner, returns Text).
 *   Implements `Sample.Holding:Holding` (view `{owner, amount}`).
 * - `Sample.Account:Account {bank, holder, accountId: Text}`: signatory bank, observer holder,
 *   key `{bank, accountId}` maintained by bank, so ExerciseByKeyCommand works on it. Choice
 *   `Deposit {amount}` (controller holder, nonconsuming, returns the amount).
 * - Interface `Sample.Holding:Holding` with nonconsuming `Holding_Owner {}` (controller owner).
 */
export function registerSampleTemplates(catalogue: Catalogue): void {
  // The id of the real Daml-LF package (samplePackage.ts), which the package service serves.
  const packageId = samplePackage().id;
  unwrap(
    catalogue.addInterface({
      packageName: SAMPLE_PACKAGE,
      packageId,
      module: 'Sample.Holding',
      entity: 'Holding',
      choices: {
        Holding_Owner: {
          consuming: false,
          controllers: (self) => [self.argument.owner as string],
          body: (_ctx, self) => ok(self.argument.owner as string),
        },
      },
    }),
  );
  unwrap(
    catalogue.addTemplate({
      packageName: SAMPLE_PACKAGE,
      packageId,
      module: 'Sample.Asset',
      entity: 'Asset',
      fields: { issuer: 'Party', owner: 'Party', amount: 'Numeric', observers: { optional: { list: 'Party' } } },
      signatories: ['issuer'],
      observers: ['owner', 'observers'],
      ensure: (a) => (toScaled(a.amount as string) > 0n ? undefined : 'amount must be positive'),
      choices: {
        Transfer: {
          consuming: true,
          argument: { record: { newOwner: 'Party' } },
          controllers: (self) => [self.argument.owner as string],
          body: (ctx, self, arg) => ctx.create(ASSET_TEMPLATE, { ...self.argument, owner: (arg as DamlRecord).newOwner as string }),
        },
        Split: {
          consuming: true,
          argument: { record: { splitAmount: 'Numeric' } },
          controllers: (self) => [self.argument.owner as string],
          body: (ctx, self, arg) => {
            const total = toScaled(self.argument.amount as string);
            const part = toScaled((arg as DamlRecord).splitAmount as string);
            if (part <= 0n || part >= total) return err(ctx.fail(`splitAmount must be between 0 and ${self.argument.amount as string} (exclusive)`));
            const splitCid = ctx.create(ASSET_TEMPLATE, { ...self.argument, amount: fromScaled(part) });
            if (!splitCid.ok) return splitCid;
            const remainderCid = ctx.create(ASSET_TEMPLATE, { ...self.argument, amount: fromScaled(total - part) });
            if (!remainderCid.ok) return remainderCid;
            return ok({ splitCid: splitCid.value, remainderCid: remainderCid.value });
          },
        },
        Describe: {
          consuming: false,
          controllers: (self) => [self.argument.owner as string],
          // `show amount`, as Daml's NUMERIC_TO_TEXT writes it (trailing zeros dropped, one kept).
          body: (_ctx, self) => ok(`${showNumeric(self.argument.amount as string)} issued by ${self.argument.issuer as string}`),
        },
      },
      implements: {
        [HOLDING_INTERFACE]: { view: (self) => ({ owner: self.argument.owner as string, amount: self.argument.amount as string }) },
      },
    }),
  );
  unwrap(
    catalogue.addTemplate({
      packageName: SAMPLE_PACKAGE,
      packageId,
      module: 'Sample.Account',
      entity: 'Account',
      fields: { bank: 'Party', holder: 'Party', accountId: 'Text' },
      signatories: ['bank'],
      observers: ['holder'],
      key: {
        type: { record: { bank: 'Party', accountId: 'Text' } },
        of: (a) => ({ bank: a.bank as string, accountId: a.accountId as string }),
        maintainers: (k) => [(k as DamlRecord).bank as string],
      },
      choices: {
        Deposit: {
          consuming: false,
          argument: { record: { amount: 'Numeric' } },
          controllers: (self) => [self.argument.holder as string],
          body: (_ctx, _self, arg) => ok((arg as DamlRecord).amount as string),
        },
      },
    }),
  );
  // Before the sample templates were real Daml-LF their id was derived from name and version:
  // data directories written then name it.
  catalogue.aliasPackageId(packageIdOf(SAMPLE_PACKAGE), packageId);
}
