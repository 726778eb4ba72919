/**
 * What the JSON codec needs to know of a package's serializable data types: record fields,
 * variant and enum constructors, with the type parameters their field types mention. The
 * decoder's package AST answers it (a thin adapter), so the codec does not depend on the AST.
 */
import type { QualifiedName, Type } from '../ast/Type.js';

export type DataTypeDef =
  | { readonly kind: 'record'; readonly params: readonly string[]; readonly fields: readonly { readonly name: string; readonly type: Type }[] }
  | { readonly kind: 'variant'; readonly params: readonly string[]; readonly constructors: readonly { readonly name: string; readonly type: Type }[] }
  | { readonly kind: 'enum'; readonly constructors: readonly string[] };

export interface DataTypes {
  /** The definition of a type constructor, or undefined when its package or name is unknown. */
  dataType(tycon: QualifiedName): DataTypeDef | undefined;
  /** A type synonym's parameters and body (serializable types rarely hold one). */
  synonym?(tysyn: QualifiedName): { readonly params: readonly string[]; readonly type: Type } | undefined;
}

/** `pkg:Module:Name`, as error messages and the JSON API name a type. */
export const showTycon = (t: QualifiedName): string => `${t.packageId}:${t.module}:${t.name}`;
