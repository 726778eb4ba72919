/**
 * Why a package is refused at upload (daml-lf-2.rst's well-formedness rules): data, never a thrown
 * exception. Each failure names the package, the definition (`Module:Name`, with the part of a
 * template or interface after a `/`) when there is one, and the reason.
 */
export type CheckReason =
  /** `metadata` missing, or a name that is not a `PackageNameString`. */
  | { readonly kind: 'badPackageName'; readonly name: string }
  /** A version that is not a `PackageVersionString`. */
  | { readonly kind: 'badPackageVersion'; readonly version: string }
  /** A package, module or definition that no package given to the checker holds. */
  | { readonly kind: 'unknownReference'; readonly what: 'package' | 'module' | 'type' | 'synonym' | 'value' | 'template' | 'interface' | 'exception' | 'choice' | 'method' | 'field' | 'constructor'; readonly name: string }
  | { readonly kind: 'unknownTypeVariable'; readonly name: string }
  | { readonly kind: 'unknownVariable'; readonly name: string }
  /** A type applied to arguments of the wrong kind, or of the wrong kind where it stands. */
  | { readonly kind: 'kindMismatch'; readonly detail: string }
  /** Other ill-formed definitions: duplicates, a template without its record, a bad Numeric scale... */
  | { readonly kind: 'illFormed'; readonly detail: string }
  /**
   * A type that must be serializable (daml-lf-2.rst "Serializable types": a template's, a choice's
   * argument and result, a key, an exception, an interface view, a data type marked serializable)
   * and is not: `reason` and `problem` in the words of Daml's validator (Serializability.scala).
   */
  | { readonly kind: 'notSerializable'; readonly reason: string; readonly problem: string }
  /** An expression whose type is not the one its context requires (the typing rules). */
  | { readonly kind: 'typeMismatch'; readonly detail: string }
  /** A builtin function or type the package's LF version does not have. */
  | { readonly kind: 'unavailableBuiltin'; readonly builtin: string; readonly lfVersion: string }
  /** Types or expressions nested deeper than the checker's bound. */
  | { readonly kind: 'tooDeep'; readonly what: 'type' | 'kind' | 'expression'; readonly limit: number }
  /** More expression or type nodes than the checker's work bound. */
  | { readonly kind: 'tooLarge'; readonly limit: number }
  /** A package the decoder could not read (wire errors surfaced while checking lazily decoded bodies). */
  | { readonly kind: 'undecodable'; readonly detail: string };

export interface CheckFailure {
  readonly packageId: string;
  /** `Module:Name` of the definition concerned, when there is one. */
  readonly definition: string | undefined;
  readonly reason: CheckReason;
}

export type CheckResult = { readonly ok: true } | { readonly ok: false; readonly failure: CheckFailure };

/** One line naming the package, the definition and the reason, as Daml's validation errors read. */
export function describeCheckFailure(f: CheckFailure): string {
  const where = f.definition === undefined ? `package ${f.packageId}` : `${f.definition} in package ${f.packageId}`;
  return `validation error in ${where}: ${describeReason(f.reason)}`;
}

function describeReason(r: CheckReason): string {
  switch (r.kind) {
    case 'badPackageName': return `invalid package name '${clip(r.name)}' (PackageNameString: [a-zA-Z0-9:\\-_]{1,255})`;
    case 'badPackageVersion': return `invalid package version '${clip(r.version)}' (PackageVersionString: (0|[1-9][0-9]*)(\\.(0|[1-9][0-9]*))*)`;
    case 'unknownReference': return `unknown ${r.what}: ${clip(r.name)}`;
    case 'unknownTypeVariable': return `unknown type variable: ${clip(r.name)}`;
    case 'unknownVariable': return `unknown expr variable: ${clip(r.name)}`;
    case 'kindMismatch': return `kind mismatch: ${r.detail}`;
    case 'illFormed': return r.detail;
    case 'typeMismatch': return `type mismatch: ${r.detail}`;
    case 'notSerializable': return `expected serializable type: reason: ${r.reason}; problem: ${r.problem}`;
    case 'unavailableBuiltin': return `${r.builtin} is not available in Daml-LF ${r.lfVersion}`;
    case 'tooDeep': return `${r.what}s nest deeper than ${r.limit} levels`;
    case 'tooLarge': return `the package has more than ${r.limit} type and expression nodes to check`;
    case 'undecodable': return `cannot decode: ${r.detail}`;
  }
}

function clip(s: string): string {
  return s.length > 120 ? `${s.slice(0, 120)}…` : s;
}
