import { loadProfile, type Profile } from '../runner/profile.js';
import { startInProcessReference } from '../runner/referenceServer.js';
import { findOperation } from '../schema/index.js';
import type { CantonVersion } from '../schema/cantonVersions.js';
import { createTarget } from '../target/createTarget.js';
import type { TokenProvider } from '../target/tokenProvider.js';
import { isIdentifier } from './fieldRules.js';
import { createOracleSession, type OracleSession } from './oracleSession.js';

export interface RunningOracle {
  readonly session: OracleSession;
  close(): Promise<void>;
}

/**
 * Starts the reference ledger the oracle replays on: the reference server with its default world,
 * in process, through its public entry, secured like the profile says, serving the line the target
 * is judged by (a 3.6 target's ledger end is compared with a 3.6 reference's).
 */
export async function startOracle(profile: Profile, tokens: TokenProvider | undefined, timeoutMs: number, line?: CantonVersion): Promise<RunningOracle> {
  const server = await startInProcessReference(profile, line);
  const url = server.url;
  // The reference trusts the profile's signing key only; with any other token source it runs open.
  const signed = profile.auth?.required === true && profile.auth.signing !== undefined;
  const twin = createTarget({
    baseUrls: { registry: url, ledger: url, scan: url },
    timeoutMs,
    ...(signed && tokens ? { tokens } : {}),
    operationOf: (group, method, path) => findOperation(method, path, group)?.operationId,
  });
  const known = knownIds(profile);
    // A secured target whose tokens the reference cannot check: the reference answers anonymously.
  const anonymous = profile.auth?.required === true && !signed;
  return { session: createOracleSession(twin, url, known.same, known.targetOnly, anonymous), close: () => server.close() };
}

/**
 * The profile's known ids (pre-existing target state). Those equal to the id playing the same role
 * in the reference's default world (a target serving that world) pair with themselves; the others
 * are target state the reference does not share, so a scenario naming them is not replayed.
 */
export function knownIds(profile: Profile): { same: [string, string][]; targetOnly: string[] } {
  const reference = flatten(loadProfile('reference'));
  const same: [string, string][] = [];
  const targetOnly: string[] = [];
  for (const [key, value] of flatten(profile)) {
    if (!isIdentifier(key.split('.').at(-1) ?? '', value)) continue;
    if (reference.get(key) === value) same.push([value, value]);
    else targetOnly.push(value);
  }
  return { same, targetOnly };
}

function flatten(profile: Profile): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (v: unknown, path: string) => {
    if (typeof v === 'string') out.set(path, v);
    else if (typeof v === 'object' && v !== null && !Array.isArray(v)) for (const [k, x] of Object.entries(v)) visit(x, path === '' ? k : `${path}.${k}`);
  };
  visit({ registry: profile.registry, scan: profile.scan, ledger: { party: profile.ledger?.party } }, '');
  return out;
}
