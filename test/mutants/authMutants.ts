import type { Mutant } from './mutants.js';

/** The secured bed's token-check flaws (authFront.ts), one per auth check: each lets through what its check must see refused. */
export const AUTH_MUTANTS: readonly Mutant[] = [
  { name: 'accepts-missing-token', description: 'a request without a token is served as the admin user', caughtBy: 'ledger.auth.missing-token-401', fault: {}, secured: 'accepts-missing-token' },
  { name: 'accepts-malformed-token', description: 'a bearer value that is not a JWT is served (a parse error is not a refusal)', caughtBy: 'ledger.auth.malformed-token-401', fault: {}, secured: 'accepts-malformed-token' },
  { name: 'skips-signature', description: 'the token is decoded but its signature never verified', caughtBy: 'ledger.auth.wrong-signature-401', fault: {}, secured: 'skips-signature' },
  { name: 'accepts-alg-none', description: 'an unsigned token (alg: none) is accepted', caughtBy: 'ledger.auth.alg-none-401', fault: {}, secured: 'accepts-alg-none' },
  { name: 'ignores-scope', description: 'a token without the daml_ledger_api scope (another audience) is accepted', caughtBy: 'ledger.auth.wrong-audience-401', fault: {}, secured: 'ignores-scope' },
  { name: 'ignores-rights', description: "a valid token is enough: the user's rights are never checked", caughtBy: 'ledger.auth.no-right-403', fault: {}, secured: 'ignores-rights' },
  { name: 'websocket-unchecked', description: 'the WebSocket upgrade on /v2/updates checks no token', caughtBy: 'ledger.auth.websocket-missing-token', fault: {}, secured: 'websocket-unchecked' },
];
