/**
 * The seam to the shared request validator (conformance/src/schema): the HTTP face asks it whether
 * a decoded body has the shape its operation declares, and renders the answer itself.
 */
export type RequestBodyCheck =
  | { readonly ok: true }
  /** Shape, type or required-field violations: the participant answers 400 text/plain. */
  | { readonly ok: false; readonly kind: 'shape'; readonly message: string }
  /** Members the schema does not declare: the participant answers 400 INVALID_ARGUMENT. */
  | { readonly ok: false; readonly kind: 'unknown-fields'; readonly fields: readonly string[] };

export type RequestBodyValidator = (operationId: string, body: unknown) => RequestBodyCheck;
