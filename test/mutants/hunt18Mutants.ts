import type { Mutant } from './mutants.js';
import { jsonResponse, parse, pathOf, type Fault, type ProxyRequest } from './mutantProxy.js';
import { deep, isObject, submittedCommands, type Json } from './mutantKit.js';

/**
 * An eighteenth hunt: packages and smart contract upgrades as a Daml app team meets them. A
 * participant whose upgrade validation looks at part of a package only, and one that resolves a
 * package name on an exercise otherwise than on a create.
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

/** The submission with its Commands replaced by `commands` (at the top level or under `commands`, as sent). */
function resubmitted(req: ProxyRequest, s: { body: Json; commands: Json }, commands: Json): ProxyRequest {
  return { ...req, body: JSON.stringify(s.body === s.commands ? commands : { ...s.body, commands }) };
}

const exercisesOf = (s: { commands: Json }): Json[] =>
  (Array.isArray(s.commands.commands) ? s.commands.commands.filter(isObject) : []).map((c) => c.ExerciseCommand).filter(isObject);

/**
 * An exercise naming its template by package name (`#name:M:T`) runs the package the contract was
 * created in, as a participant that resolves the name from the contract instead of the package
 * preference would: it remembers each contract's template from the created events it answers, and
 * rewrites such an exercise to that template (what the events then name).
 */
function exerciseByNameRunsContractVersion(): Fault {
  const templates = new Map<string, string>();
  return {
    request(req) {
      const s = submittedCommands(req);
      if (s === undefined || !Array.isArray(s.commands.commands)) return req;
      let changed = false;
      const commands = s.commands.commands.map((c) => {
        const ex = isObject(c) && isObject(c.ExerciseCommand) ? c.ExerciseCommand : undefined;
        const own = ex && typeof ex.contractId === 'string' ? templates.get(ex.contractId) : undefined;
        if (!ex || own === undefined || typeof ex.templateId !== 'string' || !ex.templateId.startsWith('#')) return c;
        // Only the same template by name: an interface or another template keeps its resolution.
        if (own.slice(own.indexOf(':')) !== ex.templateId.slice(ex.templateId.indexOf(':'))) return c;
        changed = true;
        return { ...c, ExerciseCommand: { ...ex, templateId: own } };
      });
      return changed ? resubmitted(req, s, { ...s.commands, commands }) : req;
    },
    response(req, res) {
      if (res.status !== 200 || !pathOf(req.url).startsWith('/v2/')) return res;
      deep(parse(res.body), (o) => {
        const created = isObject(o.CreatedEvent) ? o.CreatedEvent : o;
        if (typeof created.contractId === 'string' && typeof created.templateId === 'string' && Array.isArray(created.signatories)) templates.set(created.contractId, created.templateId);
        return o;
      });
      return res;
    },
  };
}

/**
 * packageIdSelectionPreference honoured on creates only: a submission of exercises alone loses it
 * (a command path that resolves an exercise's package name without the submission's preference).
 */
const exercisePreferenceIgnored: Fault = {
  request(req) {
    const s = submittedCommands(req);
    if (s === undefined || !Array.isArray(s.commands.packageIdSelectionPreference) || !Array.isArray(s.commands.commands)) return req;
    const exercises = exercisesOf(s);
    if (exercises.length === 0 || exercises.length !== s.commands.commands.length) return req;
    const { packageIdSelectionPreference: _dropped, ...rest } = s.commands;
    return resubmitted(req, s, rest);
  },
};

/**
 * vetAllPackages=false ignored: every upload is vetted, on the participant's first synchronizer
 * (Canton's default when it is connected to one), so a version an operator stages for a scheduled
 * upgrade runs at once.
 */
function uploadsAlwaysVetted(): Fault {
  let first: string | undefined;
  return {
    async request(req, upstream) {
      if (req.method !== 'POST' || !/^\/v2\/(dars|packages)$/.test(pathOf(req.url))) return req;
      const url = new URL(req.url, 'http://proxy');
      if (url.searchParams.get('vetAllPackages') !== 'false' || url.searchParams.has('synchronizerId')) return req;
      if (first === undefined) {
        const v = parse((await upstream.send({ method: 'GET', url: '/v2/state/connected-synchronizers', headers: { ...req.headers }, body: '' })).body);
        const listed = isObject(v) && Array.isArray(v.connectedSynchronizers) ? v.connectedSynchronizers.filter(isObject)[0] : undefined;
        first = typeof listed?.synchronizerId === 'string' ? listed.synchronizerId : undefined;
      }
      if (first === undefined) return req;
      url.searchParams.set('vetAllPackages', 'true');
      url.searchParams.set('synchronizerId', first);
      return { ...req, url: `${url.pathname}${url.search}` };
    },
  };
}

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
  {
    name: 'hunt18-exercise-by-name-runs-contract-version',
    description: "an exercise naming its template by package name runs the version the contract was created in, not the preferred one (the highest vetted): an app that upgraded its package keeps running the old choice code on its old contracts",
    caughtBy: 'ledger.commands.package-selection',
    fault: exerciseByNameRunsContractVersion,
  },
  {
    name: 'hunt18-exercise-preference-ignored',
    description: 'packageIdSelectionPreference is honoured on creates only: an app pinned to a version of its package exercises choices by package name in the newest version',
    caughtBy: 'ledger.commands.package-selection',
    fault: exercisePreferenceIgnored,
  },
  {
    name: 'hunt18-upload-unvetted-vets',
    description: 'POST /v2/dars?vetAllPackages=false vets the DAR anyway, on the first connected synchronizer: a version an operator uploads to vet later, at a scheduled time, runs at once',
    caughtBy: 'ledger.vetting.update-then-list',
    fault: uploadsAlwaysVetted,
  },
];
