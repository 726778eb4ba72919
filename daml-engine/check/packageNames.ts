/** daml-lf-2.rst "Identifiers": `PackageNameString` and `PackageVersionString`. */

const PACKAGE_NAME = /^[a-zA-Z0-9:\-_]{1,255}$/;
const PACKAGE_VERSION = /^(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*$/;
/** The spec bounds no version's length; Canton's `Ref.PackageVersion` keeps each part an Int, and 255 characters is plenty. */
const MAX_VERSION_LENGTH = 255;

export function isPackageName(s: string): boolean {
  return PACKAGE_NAME.test(s);
}

export function isPackageVersion(s: string): boolean {
  if (s.length > MAX_VERSION_LENGTH || !PACKAGE_VERSION.test(s)) return false;
  // Each part is an Int in Daml's `Ref.PackageVersion`.
  return s.split('.').every((part) => part.length <= 10 && Number(part) <= 2147483647);
}
