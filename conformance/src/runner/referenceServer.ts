import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Profile } from './profile.js';
import type { CantonVersion } from '../schema/cantonVersions.js';

/** What `run` needs from the reference server when it certifies it in-process. */
export interface InProcessServer {
  readonly url: string;
  close(): Promise<void>;
}

type KeySource = { kind: 'secret'; secret: string } | { kind: 'public-key-file'; path: string };
type AuthConfig = { mode: 'none' } | { mode: 'hs256' | 'rs256' | 'es256'; key: KeySource; audience?: string; scope?: string };

/** The reference's logger: refusals it explains to an operator (info) are noise in a run's output. */
interface Logger {
  error(message: string, cause?: unknown): void;
  warn(message: string): void;
  info(message: string): void;
}

interface StartModule {
  startReferenceServer(options: { port: number; host: string; fixtures: string | undefined; auth?: AuthConfig; log?: Logger; cantonVersion?: CantonVersion }): Promise<InProcessServer>;
}

const errorsOnly: Logger = {
  error: (message, cause) => console.error(`[reference] ${message}`, ...(cause === undefined ? [] : [cause])),
  warn: () => undefined,
  info: () => undefined,
};

/** The server's auth for a profile that signs its own tokens: the same secret, or the public half of its key. */
function authFor(profile: Profile): AuthConfig {
  const s = profile.auth?.required ? profile.auth.signing : undefined;
  if (!s) return { mode: 'none' };
  // The profile's scope is the claim its tokens carry, a space-separated list of which the target
  // requires one: the reference requires one of them too (any accepts the suite's tokens).
  const scope = s.scope?.split(' ').find((w) => w !== '');
  const target = { ...(s.audience ? { audience: s.audience } : {}), ...(scope ? { scope } : {}) };
  if (s.alg === 'HS256') return { mode: 'hs256', key: { kind: 'secret', secret: s.secret ?? '' }, ...target };
  const pub = createPublicKey(readFileSync(s.privateKeyFile ?? '', 'utf8')).export({ type: 'spki', format: 'pem' }).toString();
  const path = join(mkdtempSync(join(tmpdir(), 'cc-ref-key-')), 'public.pem');
  writeFileSync(path, pub);
  return { mode: s.alg === 'RS256' ? 'rs256' : 'es256', key: { kind: 'public-key-file', path }, ...target };
}

/**
 * Starts the reference server on a free loopback port, secured like the profile says (a profile
 * with `auth.signing` gets a server that trusts that key), serving `line` (default 3.5). Loaded dynamically: the suite itself
 * talks HTTP only.
 */
export async function startInProcessReference(profile: Profile, line?: CantonVersion): Promise<InProcessServer> {
  const mod = (await import('../../../reference-server/src/startReferenceServer.js')) as unknown as StartModule;
  return mod.startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, auth: authFor(profile), log: errorsOnly, ...(line === undefined ? {} : { cantonVersion: line }) });
}
