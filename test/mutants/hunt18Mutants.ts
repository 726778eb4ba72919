import type { Mutant } from './mutants.js';
import { jsonResponse, parse, pathOf, type Fault } from './mutantProxy.js';
import { isObject } from './mutantKit.js';

/**
 * An eighteenth hunt: packages and smart contract upgrades as a Daml app team meets them. A
 * participant whose upgrade validation looks at part of a package only.
 */

/**
 * An upload refused NOT_VALID_UPGRADE_PACKAGE for one of `kinds` (the upgrade error Daml's
 * TypecheckUpgrades names, in the refusal's context) answered 200 instead: the validator never
 * looks at that part of a package, and contracts of the old version meet code that cannot run them.
 */
const upgradeKindsUnchecked = (kinds: readonly string[]): Fault => ({
  response(req, res) {
    if (req.method !== 'POST' || !/^\/v2\/(dars|packages)$/.test(pathOf(req.url)) || res.status !== 400) return res;
    const v = parse(res.body);
    const kind = isObject(v) && isObject(v.context) ? v.context.upgradeError : undefined;
    return isObject(v) && v.code === 'NOT_VALID_UPGRADE_PACKAGE' && typeof kind === 'string' && kinds.includes(kind) ? jsonResponse(200, {}) : res;
  },
});

export const HUNT18_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt18-upgrade-check-ignores-choices',
    description: "the upgrade validator compares a new version's templates by their fields only: a version whose choice returns another type (or lost a choice) is vetted beside the old one, and a client of the old version decodes the new choice's result by the old type",
    caughtBy: 'ledger.packages.upgrade-incompatible-refused',
    fault: upgradeKindsUnchecked(['ChoiceChangedReturnType', 'MissingChoice']),
  },
  {
    name: 'hunt18-upgrade-check-only-dropped-fields',
    description: 'the upgrade validator looks for dropped fields only: a version adding a field that is not Optional, or changing an existing field\'s type, is vetted beside the old one, and contracts of the old version cannot be read by it',
    caughtBy: 'ledger.packages.upgrade-incompatible-refused',
    fault: upgradeKindsUnchecked(['RecordFieldsNewNonOptional', 'RecordFieldsExistingChanged']),
  },
];
