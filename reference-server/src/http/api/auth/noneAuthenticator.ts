import { ok } from '../../../ledger/result.js';
import type { Authenticator } from './types.js';

/** `--auth none`: like an unsecured sandbox, every caller is the wildcard principal. */
export const noneAuthenticator: Authenticator = {
  name: 'none',
  authenticate: () => ok({ kind: 'wildcard' }),
};
