import { readFile } from 'node:fs/promises';
import { importPKCS8, SignJWT } from 'jose';
import { ExitCode, UsageError } from './exitCodes.js';
import { parseFlags } from './parseFlags.js';
import { fixtureKeyPath } from './fixtureKeyPath.js';

export const TOKEN_HELP = `Usage: canton-conformance token --user ID [--auth hs256|rs256|es256] [--expires-in 1h]
         [--audience A | --scope S] [--secret S | --private-key FILE]

Prints a Ledger API JWT for a user, signed with the TEST-ONLY keys in fixtures/keys (or the key
you give), so a server started with those keys accepts it. The token carries no rights: "sub" is
the user id, and the server looks the user's rights up in its user store.

Options:
  --user ID          the user id ("sub"), e.g. alice, bob, issuer, auditor, participant_admin
  --auth ALG         hs256 (default), rs256 or es256
  --expires-in D     lifetime: a number with s, m, h or d (default 1h)
  --audience A       an audience-based token (aud = A) instead of a scope-based one
  --scope S          the scope claim (default daml_ledger_api)
  --secret S         sign HS256 with this secret instead of fixtures/keys/hs256.secret
  --private-key FILE sign RS256/ES256 with this PKCS#8 PEM key instead of the fixture key

Try the secured mode (from any directory):
  canton-conformance serve --auth es256 --auth-test-key &
  curl -H "Authorization: Bearer $(canton-conformance token --user alice --auth es256)" \\
       http://127.0.0.1:7575/v2/authenticated-user`;

export type TokenAlgorithm = 'hs256' | 'rs256' | 'es256';

export interface MintOptions {
  readonly user: string;
  readonly algorithm: TokenAlgorithm;
  /** Lifetime in seconds (default 3600). */
  readonly expiresInSeconds?: number;
  /** Audience-based token; otherwise scope-based with `scope`. */
  readonly audience?: string;
  /** Default daml_ledger_api (ignored with `audience`). */
  readonly scope?: string;
  /** HS256 secret or PKCS#8 PEM private key; default: the fixture key for the algorithm. */
  readonly key?: string;
  /** Seconds since the epoch (tests pin it). */
  readonly now?: number;
}

/** The `kid` the fixture JWKS gives each fixture key. */
export const FIXTURE_KIDS: Readonly<Record<Exclude<TokenAlgorithm, 'hs256'>, string>> = {
  rs256: 'canton-conformance-test-rs256',
  es256: 'canton-conformance-test-es256',
};

/** Signs a Ledger API user token (`sub` = user id) as the participant expects it. */
export async function mintToken(options: MintOptions): Promise<string> {
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const alg = options.algorithm.toUpperCase();
  const claims = options.audience !== undefined ? { aud: options.audience } : { scope: options.scope ?? 'daml_ledger_api' };
  const jwt = new SignJWT(claims)
    .setSubject(options.user)
    .setIssuer('canton-conformance-test')
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresInSeconds ?? 3600));
  if (options.algorithm === 'hs256') {
    const secret = options.key ?? (await readFile(fixtureKeyPath('hs256.secret'), 'utf8'));
    return jwt.setProtectedHeader({ alg, typ: 'JWT' }).sign(new TextEncoder().encode(secret));
  }
  const pem = options.key ?? (await readFile(fixtureKeyPath(`${options.algorithm}-private.pem`), 'utf8'));
  const key = await importPKCS8(pem, alg);
  // Name the fixture kid only for the fixture key: a JWKS server picks the key by it.
  const header = options.key === undefined ? { alg, typ: 'JWT', kid: FIXTURE_KIDS[options.algorithm] } : { alg, typ: 'JWT' };
  return jwt.setProtectedHeader(header).sign(key);
}

/** `90`, `90s`, `15m`, `1h`, `7d` as seconds. */
export function parseDuration(text: string): number {
  const m = /^(\d{1,9})([smhd]?)$/.exec(text.trim());
  if (m === null) throw new UsageError(`invalid duration '${text}' (expected e.g. 90s, 15m, 1h, 7d)`);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
  const seconds = Number(m[1]) * unit;
  if (seconds === 0) throw new UsageError('--expires-in must be positive');
  return seconds;
}

export async function run(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseFlags({
      args: argv,
      options: {
        user: { type: 'string' },
        auth: { type: 'string' },
        'expires-in': { type: 'string' },
        audience: { type: 'string' },
        scope: { type: 'string' },
        secret: { type: 'string' },
        'private-key': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (values.help === true) {
    console.log(TOKEN_HELP);
    return ExitCode.Ok;
  }
  if (values.user === undefined || values.user === '') throw new UsageError('--user ID is required');
  const algorithm = values.auth ?? 'hs256';
  if (algorithm !== 'hs256' && algorithm !== 'rs256' && algorithm !== 'es256') throw new UsageError(`--auth must be hs256, rs256 or es256, got '${algorithm}'`);
  if (values.audience !== undefined && values.scope !== undefined) throw new UsageError('give either --audience or --scope, not both');
  if (algorithm === 'hs256' && values['private-key'] !== undefined) throw new UsageError('--private-key is for rs256/es256; use --secret with hs256');
  if (algorithm !== 'hs256' && values.secret !== undefined) throw new UsageError('--secret is for hs256; use --private-key with rs256/es256');
  let key: string | undefined = values.secret;
  if (values['private-key'] !== undefined) {
    try {
      key = await readFile(values['private-key'], 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read ${values['private-key']}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    }
  }
  let token: string;
  try {
    token = await mintToken({
      user: values.user,
      algorithm,
      expiresInSeconds: parseDuration(values['expires-in'] ?? '1h'),
      ...(values.audience === undefined ? {} : { audience: values.audience }),
      ...(values.scope === undefined ? {} : { scope: values.scope }),
      ...(key === undefined ? {} : { key }),
    });
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot sign the token: ${e instanceof Error ? e.message : String(e)}`);
  }
  console.log(token);
  return ExitCode.Ok;
}
