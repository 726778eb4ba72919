/**
 * Which daml-script a script was built with, and whether this runner answers its questions.
 *
 * The questions and records differ by SDK release line (read from each line's
 * `sdk/daml-script/daml{3,}/Daml/Script/Internal/Questions/*.daml` and its `v2/ScriptF.scala`):
 * - 3.2 (package `daml3-script`): `AllocateParty` version 1 `{ displayName, idHint, participant :
 *   Optional Text }`, the party named after the display name when there is no hint;
 *   `PartyDetails { party, displayName : Optional Text, isLocal }`.
 * - 3.3 (package `daml-script` from here on): `AllocateParty` version 2 `{ requestedName, idHint,
 *   participants : [Text] }` (a requested name becomes `name-<8 hex>` unless it is the hint);
 *   `PartyDetails { party, isLocal }`; `Submission` gains `sPrefetchKeys`; `FailWithStatus`.
 * - 3.4: no question changes (`SubmitError` loses `WronglyTypedContractSoft`, gains
 *   `ContractHashingError`; upgrade error shapes change).
 * - 3.5: `Submit` version 2 (the same payload; contract keys become daml-script's own
 *   `AnyContractKey`), `QueryContractKey` becomes `QueryByKey` version 2 (contract keys, not
 *   answered here); `SubmitError` gains `UnsupportedContractId`, `EffectfulRollbackError`.
 * The daml-script package is the one the script's `Script` type comes from.
 */
import type { Package } from '../ast/Package.js';

/** The daml-script release lines this runner answers, with their package name. */
export const KNOWN_SCRIPT_LIBRARIES: readonly { readonly minor: number; readonly name: string }[] = [
  { minor: 2, name: 'daml3-script' },
  { minor: 3, name: 'daml-script' },
  { minor: 4, name: 'daml-script' },
  { minor: 5, name: 'daml-script' },
];

export interface ScriptLibrary {
  readonly packageId: string;
  /** The package's name and version (`daml-script`, `3.3.0.20250214.13611.0`). */
  readonly name: string;
  readonly version: string;
  /** The 3.x release line. */
  readonly minor: number;
}

export type ScriptLibraryResult = { readonly ok: true; readonly library: ScriptLibrary } | { readonly ok: false; readonly message: string };

const known = () => KNOWN_SCRIPT_LIBRARIES.map((k) => `${k.name} 3.${k.minor}`).join(', ');

/**
 * The daml-script release of `pkg`, from its name and version; a package without metadata is
 * recognised by its records (`AllocateParty` with `displayName` is 3.2's, with `requestedName`
 * 3.3's).
 */
export function scriptLibraryOf(pkg: Package | undefined, packageId: string): ScriptLibraryResult {
  if (!pkg) return { ok: false, message: `the daml-script package ${packageId} is not in the DAR` };
  if (!pkg.metadata) {
    const allocate = pkg.modules.get('Daml.Script.Internal.Questions.PartyManagement')?.dataTypes.get('AllocateParty')?.cons;
    const fields = allocate?.kind === 'record' ? allocate.fieldNames : [];
    const minor = fields.includes('displayName') ? 2 : fields.includes('requestedName') ? 3 : undefined;
    if (minor === undefined) return { ok: false, message: `the daml-script package ${packageId} has no name or version, and its records are of no daml-script this runner knows (${known()})` };
    return { ok: true, library: { packageId, name: minor === 2 ? 'daml3-script' : 'daml-script', version: `3.${minor} (by its records)`, minor } };
  }
  const { name, version } = pkg.metadata;
  const m = /^3\.(\d+)\./.exec(version);
  const minor = m ? Number(m[1]) : undefined;
  const line = KNOWN_SCRIPT_LIBRARIES.find((k) => k.minor === minor && k.name === name);
  if (!line) {
    return { ok: false, message: `the script was built with ${name} ${version}, a daml-script this runner does not know (it knows ${known()})` };
  }
  return { ok: true, library: { packageId, name, version, minor: line.minor } };
}
