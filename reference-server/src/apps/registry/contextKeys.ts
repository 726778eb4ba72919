/**
 * Keys of the sample registry's choice context (`choiceContextData.values`). Contract keys name a
 * contract the choice fetches (and which is disclosed with the context); `request-meta` carries
 * the caller's `meta`, so the same request always yields the same context.
 */
export const TOKEN_RULES_KEY = 'token-rules';
export const ACCOUNT_MAP_KEY = 'account-map';
export const REQUEST_META_KEY = 'request-meta';
