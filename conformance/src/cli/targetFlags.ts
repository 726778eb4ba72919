import { GROUPS, type Group } from '../checks/types.js';
import { withScanProxyUrl, type Profile } from '../runner/profile.js';
import { parseSelectors } from '../runner/select.js';
import { parseShard, type Shard, type ShardError } from '../runner/shard.js';
import { UsageError } from './exitCodes.js';

/** The flags that name a target and what to check on it: `run` and `doctor` read them alike. */
export const TARGET_FLAG_OPTIONS = {
  target: { type: 'string' },
  'ledger-url': { type: 'string' },
  'registry-url': { type: 'string' },
  'scan-url': { type: 'string' },
  'scan-proxy-url': { type: 'string' },
  profile: { type: 'string' },
  token: { type: 'string' },
  'token-file': { type: 'string' },
  only: { type: 'string', multiple: true },
  skip: { type: 'string', multiple: true },
  shard: { type: 'string' },
  timeout: { type: 'string' },
} as const;

export interface TargetArgs {
  readonly target?: string;
  readonly urls: Partial<Record<Group, string>>;
  /** `--scan-proxy-url`: the validator serving the scan proxy, when not the Scan URL. */
  readonly scanProxyUrl?: string;
  readonly profile?: string;
  readonly token?: string;
  readonly tokenFile?: string;
  readonly only: string[];
  readonly skip: string[];
  readonly shard?: Shard;
  readonly timeoutMs?: number;
}

type TargetFlagValues = {
  readonly [K in keyof typeof TARGET_FLAG_OPTIONS]?: (typeof TARGET_FLAG_OPTIONS)[K] extends { multiple: true } ? string[] : string;
};

export function targetArgsOf(values: TargetFlagValues): TargetArgs {
  if (values.token !== undefined && values['token-file'] !== undefined) throw new UsageError('give either --token or --token-file, not both');
  let shard: Shard | undefined;
  try {
    shard = values.shard === undefined ? undefined : parseShard(values.shard);
  } catch (e) {
    throw new UsageError((e as ShardError).message);
  }
  const urls: Partial<Record<Group, string>> = {};
  for (const g of GROUPS) {
    const u = url(`${g}-url`, values[`${g}-url`]);
    if (u) urls[g] = u;
  }
  const timeoutMs = int('timeout', values.timeout, 1);
  return {
    ...(values.target !== undefined ? { target: url('target', values.target)! } : {}),
    urls,
    ...(values['scan-proxy-url'] !== undefined ? { scanProxyUrl: url('scan-proxy-url', values['scan-proxy-url'])! } : {}),
    ...(values.profile !== undefined ? { profile: values.profile } : {}),
    ...(values.token !== undefined ? { token: values.token } : {}),
    ...(values['token-file'] !== undefined ? { tokenFile: values['token-file'] } : {}),
    only: parseSelectors(values.only ?? []),
    skip: parseSelectors(values.skip ?? []),
    ...(shard ? { shard } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}

/**
 * The profile with `--scan-proxy-url` (or its own `scan.scanProxyUrl`) applied. The proxy's answers
 * are judged against the target's Scan, so the run must certify a Scan at a URL the user named.
 */
export function withScanProxy(profile: Profile, args: TargetArgs, inProcess: boolean): Profile {
  const p = withScanProxyUrl(profile, args.scanProxyUrl);
  if (p.scan?.scanProxyUrl === undefined) return p;
  const from = args.scanProxyUrl !== undefined ? '--scan-proxy-url' : `profile '${profile.name}' (scan.scanProxyUrl)`;
  if (!p.groups.includes('scan')) throw new UsageError(`${from} names a validator's scan proxy, whose answers are judged against Scan's, but profile '${profile.name}' does not serve the scan group`);
  if (inProcess) throw new UsageError(`${from} names a validator's scan proxy, whose answers are judged against its network's Scan: give --scan-url (or --target) for that Scan too`);
  return p;
}

export function int(name: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min || !Number.isSafeInteger(Number(v))) throw new UsageError(`--${name} takes an integer >= ${min} (got '${v}')`);
  return Number(v);
}

/** ` (did you mean 'http://localhost:7575'?)` for a host and port given without a scheme; '' otherwise. */
export function schemeHint(v: string): string {
  return /^[a-z0-9.-]+:\d{1,5}(\/.*)?$/i.test(v) || /^(localhost|\d{1,3}(\.\d{1,3}){3})(\/.*)?$/i.test(v) ? ` (did you mean 'http://${v}'?)` : '';
}

export function url(name: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(`--${name} is not a URL: '${v}'${schemeHint(v)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`--${name} must be an http(s) URL (got '${v}')${schemeHint(v)}`);
  return v.replace(/\/+$/, '');
}
