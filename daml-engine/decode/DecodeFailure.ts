/** Why a DAR or DALF could not be decoded: data, never a thrown exception. */
export interface DecodeFailure {
  readonly kind:
    | 'badZip' | 'badManifest' | 'missingEntry'
    | 'truncated' | 'corrupt' | 'hashMismatch' | 'unsupportedVersion';
  /** The DAR entry (DALF path) concerned, when there is one. */
  readonly file?: string;
  readonly message: string;
}

export type DecodeResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly failure: DecodeFailure };
