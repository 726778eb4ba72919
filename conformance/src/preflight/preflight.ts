import type { CheckDefinition, Group } from '../checks/types.js';
import type { PreflightVerdict } from '../report/model.js';
import { absentOnLine, judgedLine } from '../runner/cantonLine.js';
import type { Profile } from '../runner/profile.js';
import type { CantonVersion } from '../schema/cantonVersions.js';
import { unreachable, type Unreachable } from '../runner/reachability.js';
import { groupsNotServed, skipReason } from '../runner/skipReason.js';
import type { TokenProvider } from '../target/tokenProvider.js';
import { retryDelayMs, withRetryAfter } from '../target/retryAfter.js';
import { transportErrorOf } from '../target/transportError.js';
import { holds, neededRights, parseRights, rightJson, rightLabel, type NeededRight, type Right } from './ledgerRights.js';
import { grantCommand } from './renderPreflight.js';

/** What the preflight asks the target, and of what it judges the answers. */
export interface PreflightOptions {
  /** Base URL per group the profile serves. */
  readonly baseUrls: Readonly<Partial<Record<Group, string>>>;
  readonly profile: Profile;
  /**
   * The profile was chosen (`--profile`, or the in-process reference's): what it claims is held
   * against the target. The default profile claims nothing, so what it finds is only a note.
   */
  readonly strict: boolean;
  readonly tokens?: TokenProvider;
  /** The selected checks (after --only, --skip, --shard). */
  readonly checks: readonly CheckDefinition[];
  readonly timeoutMs: number;
  /** `--canton-version`: the line the target is judged by, whatever it reports (`cantonLineOf`). */
  readonly cantonVersion?: CantonVersion;
}

/** One question about the kind of target: did the path the profile's group implies answer as that API does? */
export interface KindProbe {
  readonly group: Group;
  readonly request: string;
  readonly ok: boolean;
  /** The HTTP status, when one came. */
  readonly status?: number;
  readonly detail: string;
}

/** Whether the token works, and whose it is. */
export interface AuthFinding {
  /** Does the ledger refuse a request without a token (401)? Undefined when not asked (no ledger group) or unclear. */
  readonly secured?: boolean;
  readonly tokenGiven: boolean;
  readonly token: 'works' | 'refused' | 'unknown-user' | 'missing' | 'not-needed' | 'not-checked';
  /** The authenticated user (`/v2/authenticated-user`). */
  readonly user?: string;
  readonly detail: string;
}

export interface RightsFinding {
  /** The user's rights (`/v2/users/{id}/rights`); absent when not read. */
  readonly held?: readonly Right[];
  readonly needed: readonly NeededRight[];
  readonly missing: readonly NeededRight[];
}

/**
 * The profile's fields that checks ask for only while they run (a fresh party, the template's
 * interface or choice, a second template), when some check that can run is of the kind that asks
 * and the profile lacks them. Counting those checks exactly would mean running them: doctor names
 * the fields, and the run's report the checks that skipped for them.
 */
function profileGaps(profile: Profile, willRun: readonly CheckDefinition[]): string[] {
  const ledger = profile.ledger;
  if (!profile.groups.includes('ledger') || !profile.writes || !willRun.some((c) => c.group === 'ledger' && c.requires?.writes === true)) return [];
  const gaps: string[] = [];
  if (ledger?.allocateParties !== true) gaps.push('ledger.allocateParties: the checks that allocate parties of their own (filters, visibility, time, upgrades and more) skip');
  const t = ledger?.template;
  if (t === undefined) gaps.push('ledger.template: the checks that create a contract skip');
  else {
    if (t.interfaceId === undefined) gaps.push('ledger.template.interfaceId: the interface filter and view checks skip');
    if (t.exercise === undefined) gaps.push('ledger.template.exercise: the checks that exercise a choice with consequences skip');
    if (ledger?.secondTemplate === undefined) gaps.push('ledger.secondTemplate: the filter checks that tell two templates apart skip');
  }
  return gaps;
}

/** Checks the profile skips, grouped by the reason. */
export interface SkipGroup {
  readonly reason: string;
  readonly checks: readonly string[];
}

export type PreflightStatus = PreflightVerdict['status'];

/** Everything the preflight found; `doctor --json` prints it and `run` records its verdict. */
export interface PreflightResult {
  readonly status: PreflightStatus;
  /** 0 ready, 2 cannot be certified as configured, 3 unreachable. */
  readonly exitCode: 0 | 2 | 3;
  readonly profile: string;
  readonly targets: Readonly<Partial<Record<Group, string>>>;
  readonly unreachable?: Unreachable;
  /**
   * The Canton version the ledger reports (`GET /v2/version`), as it says it: what a judgement by
   * version reads. Absent without the ledger group or when the ledger did not say.
   */
  readonly cantonVersion?: string;
  readonly kinds: readonly KindProbe[];
  readonly auth: AuthFinding;
  readonly rights: RightsFinding;
  /**
   * The selected checks (after --only, --skip, --shard) that apply to the target: those of rules
   * its Canton line lacks are counted apart (`notOnLine`), as the text and a run's summary say
   * ("N selected ... (M more not on the target's Canton line)").
   */
  readonly selected: number;
  /**
   * Selected checks the profile does not skip and the target's Canton line has a rule for (some
   * may still skip at run time, e.g. for data the target lacks).
   */
  readonly willRun: number;
  /** Selected checks of rules the target's Canton line does not have: they do not apply to it. Absent when none. */
  readonly notOnLine?: number;
  /** Selected checks of groups the profile does not serve (and on the line): they do not apply either. Absent when none. */
  readonly notServed?: number;
  readonly skips: readonly SkipGroup[];
  /**
   * What the profile leaves out that some checks that can run ask for while they run (they skip
   * then, saying so): a field and the checks it concerns. `willRun` counts those checks.
   */
  readonly profileGaps: readonly string[];
  /** Why the target cannot be certified as configured (exit 2); empty when ready. */
  readonly problems: readonly string[];
  /** What is worth knowing but does not stop a run. */
  readonly notes: readonly string[];
}

interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly json?: unknown;
  readonly text: string;
  readonly retryAfter?: string;
}

type Probe = { readonly ok: true; readonly answer: Answer } | { readonly ok: false; readonly error: string };

/** One probe, repeated while the target sheds load (429/503 with Retry-After), as the checks' requests are. */
async function get(url: string, token: string | undefined, timeoutMs: number): Promise<Probe> {
  const { answer } = await withRetryAfter(() => getOnce(url, token, timeoutMs), (p) => (p.ok ? retryDelayMs(p.answer.status, p.answer.retryAfter) : undefined));
  return answer;
}

async function getOnce(url: string, token: string | undefined, timeoutMs: number): Promise<Probe> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const res = await fetch(url, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, signal: controller.signal, redirect: 'manual' });
    const text = await res.text();
    const contentType = res.headers.get('content-type') ?? '';
    let json: unknown;
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      json = undefined;
    }
    const retryAfter = res.headers.get('retry-after');
    return { ok: true, answer: { status: res.status, contentType, text, ...(json !== undefined ? { json } : {}), ...(retryAfter === null ? {} : { retryAfter }) } };
  } catch (e) {
    return { ok: false, error: transportErrorOf(e, timedOut, timeoutMs).message };
  } finally {
    clearTimeout(timer);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const snippet = (a: Answer) => `${a.status}${a.contentType ? ` ${a.contentType.split(';')[0]}` : ''}${a.text ? `: ${a.text.replace(/\s+/g, ' ').slice(0, 120)}` : ''}`;

/**
 * The base URL without the end it shares with the start of the API's paths (`.../registry` for
 * `/registry/metadata/...`, `.../v2` for `/v2/version`): the probe then asked for the start twice.
 * undefined when the URL does not end so.
 */
export function withoutRepeatedPrefix(url: string, path: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const have = u.pathname.split('/').filter(Boolean);
  const api = path.split('/').filter(Boolean);
  for (let n = Math.min(have.length, api.length - 1); n >= 1; n--) {
    if (have.slice(-n).join('/') === api.slice(0, n).join('/')) {
      u.pathname = `/${have.slice(0, -n).join('/')}`;
      return u.toString().replace(/\/+$/, '');
    }
  }
  return undefined;
}

/**
 * What the token itself shows is wrong with it, read without its key (a participant's 401 says
 * nothing): not a JWT, `Bearer ` pasted in, expired, not yet valid. undefined when it looks usable.
 */
export function tokenProblem(token: string, nowMs: number): string | undefined {
  if (/^bearer\s/i.test(token)) return "it starts with 'Bearer ': give the token alone (the suite adds the Authorization scheme)";
  const parts = token.split('.');
  let claims: unknown;
  try {
    if (parts.length !== 3) throw new Error('parts');
    JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
  } catch {
    return 'it is not a JWT (three base64url parts: header.payload.signature)';
  }
  if (!isObject(claims)) return 'it is not a JWT (its payload is not a JSON object)';
  const at = (s: unknown) => new Date(Number(s) * 1000).toISOString();
  if (typeof claims.exp === 'number' && claims.exp * 1000 <= nowMs) return `it expired at ${at(claims.exp)} (its exp): mint a fresh one`;
  if (typeof claims.nbf === 'number' && claims.nbf * 1000 > nowMs) return `it is not valid before ${at(claims.nbf)} (its nbf)`;
  return undefined;
}

/** The path that tells each group's API apart, and what its answer must hold. */
function kindRequest(group: Group, profile: Profile): { path: string; olderPath?: string; api: string; accept: (a: Answer) => boolean } {
  switch (group) {
    case 'ledger':
      return { path: '/v2/version', api: 'a JSON Ledger API v2 (a version string)', accept: (a) => a.status === 200 && isObject(a.json) && typeof a.json.version === 'string' && a.json.version !== '' };
    case 'registry':
      return { path: '/registry/metadata/v1/info', api: 'a token-standard registry (metadata v1 info with adminId)', accept: (a) => a.status === 200 && isObject(a.json) && typeof a.json.adminId === 'string' };
    case 'scan':
      return profile.scan?.walletReads === false
        ? {
            path: '/v0/internal/reward-accounting-process/rounds/earliest-available',
            olderPath: '/v0/reward-accounting-process/rounds/earliest-available',
            api: 'Splice Scan (the earliest round, or 404 with an error)',
            accept: (a) => (a.status === 200 && isObject(a.json) && 'earliest_round' in a.json) || (a.status === 404 && isObject(a.json) && typeof a.json.error === 'string'),
          }
        : { path: '/v0/dso', api: 'Splice Scan (the DSO info with dso_party_id)', accept: (a) => a.status === 200 && isObject(a.json) && typeof a.json.dso_party_id === 'string' };
  }
}

/**
 * The preflight (`doctor`, and the start of every `run`): is the target reachable and the kind the
 * profile says, which Canton version it reports, does the token work, which rights the run's user
 * has against those the selected checks need, and which checks the profile skips.
 */
export async function preflight(o: PreflightOptions): Promise<PreflightResult> {
  const problems: string[] = [];
  const notes: string[] = [];
  // What the profile claims but the target contradicts stops a run only when a profile was chosen.
  const finding = (text: string) => (o.strict ? problems : notes).push(text);
  const urls = Object.fromEntries(o.profile.groups.filter((g) => o.baseUrls[g] !== undefined).map((g) => [g, o.baseUrls[g]!])) as Partial<Record<Group, string>>;
  // A check of a group the profile does not serve does not apply to the target: counted apart, as a run's summary does.
  const unserved = new Set(o.checks.filter((c) => groupsNotServed(c, o.profile) !== undefined));
  const skips = skipGroups(o.checks.filter((c) => !unserved.has(c)), o.profile);
  const willRun = o.checks.filter((c) => skipReason(c, o.profile) === undefined);
  const base = {
    profile: o.profile.name, targets: urls, selected: o.checks.length - unserved.size, willRun: willRun.length, skips, profileGaps: profileGaps(o.profile, willRun),
    ...(unserved.size > 0 ? { notServed: unserved.size } : {}),
  };
  const noRights: RightsFinding = { needed: [], missing: [] };

  // The validator serving the scan proxy at its own URL must answer too: its checks go nowhere else.
  const proxyUrl = urls.scan !== undefined ? o.profile.scan?.scanProxyUrl : undefined;
  const down = (await unreachable(urls, o.timeoutMs)) ?? (proxyUrl !== undefined ? await unreachable({ scan: proxyUrl }, o.timeoutMs) : undefined);
  if (down !== undefined) {
    return { ...base, status: 'unreachable', exitCode: 3, unreachable: down, kinds: [], auth: { tokenGiven: o.tokens !== undefined, token: 'not-checked', detail: 'the target did not answer' }, rights: noRights, problems: [`target unreachable: ${down.url}: ${down.reason}`], notes };
  }

  let token: string | undefined;
  if (o.tokens) {
    try {
      token = await o.tokens.token();
    } catch (e) {
      problems.push(`no token: ${(e as Error).message}`);
    }
  }

  const kinds: KindProbe[] = [];
  let cantonVersion: string | undefined;
  let ledgerAnswersAsLedger = false;
  for (const g of o.profile.groups) {
    const url = urls[g];
    if (url === undefined) continue;
    const first = kindRequest(g, o.profile);
    let k = first;
    let p = await get(`${url}${k.path}`, token, o.timeoutMs);
    // A Scan of Splice 0.6.0-0.6.4 serves the earliest round only at its older path.
    if (first.olderPath !== undefined && p.ok && p.answer.status === 404 && !first.accept(p.answer)) {
      const older = await get(`${url}${first.olderPath}`, token, o.timeoutMs);
      if (older.ok && first.accept(older.answer)) [k, p] = [{ ...first, path: first.olderPath }, older];
    }
    const request = `GET ${url}${k.path}`;
    if (!p.ok) {
      kinds.push({ group: g, request, ok: false, detail: p.error });
      finding(`${request} got no answer (${p.error}): cannot tell whether it is ${k.api}`);
      continue;
    }
    const a = p.answer;
    if (k.accept(a)) {
      kinds.push({ group: g, request, ok: true, status: a.status, detail: `answers as ${k.api}` });
      if (g === 'ledger') {
        ledgerAnswersAsLedger = true;
        cantonVersion = (a.json as { version: string }).version;
      }
    } else if (a.status === 401 || a.status === 403) {
      // Secured: whether it is the right kind shows once the token works (reported under auth).
      kinds.push({ group: g, request, ok: false, status: a.status, detail: `refused (${a.status}) before answering: see the token` });
      if (g !== 'ledger') finding(`${request} answered ${a.status}: the ${g} group refuses the run's ${token === undefined ? 'missing token' : 'token'}`);
    } else {
      kinds.push({ group: g, request, ok: false, status: a.status, detail: `answered ${snippet(a)}` });
      const trimmed = a.status === 404 ? withoutRepeatedPrefix(url, k.path) : undefined;
      finding(
        `${request} answered ${snippet(a)}: this is not ${k.api}, yet profile '${o.profile.name}' says the target serves the ${g} group` +
          (trimmed !== undefined
            ? ` (the URL ends with the start of the API's own paths: give the base URL, ${trimmed})`
            : ` (check the URL${g === 'scan' ? ', e.g. https://scan.example/api/scan' : ''}, or give --${g}-url for it)`),
      );
    }
  }
  // A group that answered the reachability probe but nothing here (hangs, resets) is still
  // reachable: its checks end as `error` with evidence. A URL no HTTP exchange can happen with
  // (refused, unknown host, TLS failing, no answer at all) is unreachable (above).
  if (proxyUrl !== undefined) {
    // Wallets ask the validator's proxy for the DSO party first (with the user's token, the run's here).
    const request = `GET ${proxyUrl}/v0/scan-proxy/dso-party-id`;
    const p = await get(`${proxyUrl}/v0/scan-proxy/dso-party-id`, token, o.timeoutMs);
    const ok = p.ok && p.answer.status === 200 && isObject(p.answer.json) && typeof p.answer.json.dso_party_id === 'string';
    kinds.push({ group: 'scan', request, ok, ...(p.ok ? { status: p.answer.status } : {}), detail: ok ? "answers as a validator's scan proxy (the DSO party)" : p.ok ? `answered ${snippet(p.answer)}` : p.error });
    if (!ok) {
      const why = !p.ok ? `got no answer (${p.error})` : p.answer.status === 401 || p.answer.status === 403 ? `answered ${p.answer.status}: the scan proxy refuses the run's ${token === undefined ? 'missing token' : 'token'}` : `answered ${snippet(p.answer)}: this is not a validator's scan proxy (give the validator's base URL, e.g. https://validator.example/api/validator)`;
      finding(`${request} ${why}`);
    }
  }
  if (ledgerAnswersAsLedger && urls.ledger !== undefined) {
    const end = await get(`${urls.ledger}/v2/state/ledger-end`, token, o.timeoutMs);
    const ok = end.ok && end.answer.status === 200 && isObject(end.answer.json) && Number.isInteger(end.answer.json.offset);
    kinds.push({ group: 'ledger', request: `GET ${urls.ledger}/v2/state/ledger-end`, ok, ...(end.ok ? { status: end.answer.status } : {}), detail: ok ? 'answers an offset' : end.ok ? `answered ${snippet(end.answer)}` : end.error });
    if (!ok) finding(`GET ${urls.ledger}/v2/state/ledger-end ${end.ok ? `answered ${snippet(end.answer)}` : `got no answer (${end.error})`}: the ledger end is where every ledger check starts`);
  }

  // The line `run` judges by (the flag, else what the ledger reported): checks it has no rule for
  // do not apply, so neither their skips nor the rights they would need are asked about.
  const line = judgedLine(urls.ledger !== undefined, cantonVersion, o.cantonVersion)?.line;
  const absent = new Set(line === undefined ? [] : o.checks.filter((c) => absentOnLine(c, line) !== undefined));
  const applicable = willRun.filter((c) => !absent.has(c));
  const { auth, rights } = urls.ledger !== undefined ? await ledgerAuth(o, urls.ledger, token, applicable, problems, finding) : { auth: { tokenGiven: token !== undefined, token: 'not-checked' as const, detail: 'no ledger group: rights are not asked' }, rights: noRights };
  const status: PreflightStatus = problems.length > 0 ? 'misconfigured' : 'ready';
  return {
    ...base, willRun: applicable.length, ...(absent.size > 0 ? notOnLineCounts(o, absent, unserved) : {}),
    status, exitCode: status === 'ready' ? 0 : 2, ...(cantonVersion !== undefined ? { cantonVersion } : {}), kinds, auth, rights, problems, notes,
  };
}

async function ledgerAuth(
  o: PreflightOptions,
  ledger: string,
  token: string | undefined,
  willRun: readonly CheckDefinition[],
  problems: string[],
  finding: (text: string) => void,
): Promise<{ auth: AuthFinding; rights: RightsFinding }> {
  const needed = neededRights(willRun, o.profile);
  const tokenGiven = token !== undefined;
  // Without a token a secured participant answers 401; an unsecured one has no authenticated user (400).
  const anonymous = await get(`${ledger}/v2/authenticated-user`, undefined, o.timeoutMs);
  const secured = anonymous.ok ? (anonymous.answer.status === 401 ? true : anonymous.answer.status < 500 ? false : undefined) : undefined;
  if (secured === false) {
    if (o.profile.auth?.required === true) finding(`profile '${o.profile.name}' declares auth.required, but ${ledger} answers without a token: its authentication checks would fail (set auth.required: false, or secure the target)`);
    return { auth: { secured, tokenGiven, token: 'not-needed', detail: 'the ledger asks for no token: every request is authorized' }, rights: { needed, missing: [] } };
  }
  if (secured === undefined) {
    return { auth: { tokenGiven, token: 'not-checked', detail: `GET ${ledger}/v2/authenticated-user without a token answered ${anonymous.ok ? snippet(anonymous.answer) : anonymous.error}: cannot tell whether the ledger is secured` }, rights: { needed, missing: [] } };
  }
  if (!tokenGiven) {
    problems.push(`${ledger} requires a token (401 without one): give --token or --token-file, or auth.tokenCommand or auth.signing in the profile`);
    return { auth: { secured, tokenGiven, token: 'missing', detail: 'no token given' }, rights: { needed, missing: [] } };
  }
  const me = await get(`${ledger}/v2/authenticated-user`, token, o.timeoutMs);
  if (!me.ok || me.answer.status !== 200) {
    const status = me.ok ? me.answer.status : undefined;
    const refused = status === 401;
    const unknown = status === 403;
    const detail = refused
      ? `the ledger refused the token (401): ${(token === undefined ? undefined : tokenProblem(token, Date.now())) ?? 'it is expired, not yet valid, wrongly signed, or for another audience or scope'}`
      : unknown
        ? "the token is valid but the ledger refused its user (403): the token's user (its `sub`) does not exist on the participant or is deactivated; create it with POST /v2/users as an admin"
        : `GET ${ledger}/v2/authenticated-user with the token answered ${me.ok ? snippet(me.answer) : me.error}`;
    problems.push(detail);
    return { auth: { secured, tokenGiven, token: refused ? 'refused' : unknown ? 'unknown-user' : 'not-checked', detail }, rights: { needed, missing: [] } };
  }
  const user = isObject(me.answer.json) && isObject(me.answer.json.user) && typeof me.answer.json.user.id === 'string' ? me.answer.json.user.id : undefined;
  if (user === undefined) {
    finding(`GET ${ledger}/v2/authenticated-user answered 200 without user.id: ${snippet(me.answer)}`);
    return { auth: { secured, tokenGiven, token: 'works', detail: 'the token works; its user is not named' }, rights: { needed, missing: [] } };
  }
  const profileUser = o.profile.ledger?.userId;
  if (profileUser !== undefined && profileUser !== user) {
    finding(`the token is user '${user}''s, but profile '${o.profile.name}' submits as user '${profileUser}' (ledger.userId): the participant refuses a userId other than the token's; make them the same`);
  }
  const auth: AuthFinding = { secured, tokenGiven, token: 'works', user, detail: `the token works: user '${user}'` };
  const r = await get(`${ledger}/v2/users/${encodeURIComponent(user)}/rights`, token, o.timeoutMs);
  if (!r.ok || r.answer.status !== 200) {
    finding(`cannot read the rights of user '${user}' (GET /v2/users/${user}/rights answered ${r.ok ? snippet(r.answer) : r.error})`);
    return { auth, rights: { needed, missing: [] } };
  }
  const held = parseRights(r.answer.json);
  const missing = needed.filter((n) => !holds(held, n.right));
  for (const m of missing) {
    finding(`user '${user}' lacks ${rightLabel(m.right)}, which ${m.checks.length} selected check(s) need (${m.why}); grant it (doctor prints the JSON API call) or leave them out with --skip`);
  }
  await readerRights(o, ledger, token, user, finding);
  return { auth, rights: { held, needed, missing } };
}

/**
 * The profile's reader (`auth.readerUser`) reads for any party: the checks that read as it
 * (filters of any party, cross-group reads, the target history's re-run) meet 403 without
 * CanReadAsAnyParty, which ParticipantAdmin does not imply. Asked with the run's token; when it
 * may not read another user's rights, nothing is said.
 */
async function readerRights(o: PreflightOptions, ledger: string, token: string | undefined, user: string, finding: (text: string) => void): Promise<void> {
  const reader = o.profile.auth?.readerUser;
  if (reader === undefined || o.profile.auth?.signing === undefined) return;
  const r = await get(`${ledger}/v2/users/${encodeURIComponent(reader)}/rights`, token, o.timeoutMs);
  if (!r.ok || r.answer.status !== 200) {
    if (r.ok && r.answer.status === 404) finding(`auth.readerUser '${reader}' does not exist on the participant: create it with CanReadAsAnyParty, or leave auth.readerUser out`);
    return;
  }
  if (holds(parseRights(r.answer.json), { kind: 'CanReadAsAnyParty' })) return;
  const grant = grantCommand(ledger, reader, [rightJson({ kind: 'CanReadAsAnyParty' })]);
  finding(`auth.readerUser '${reader}'${reader === user ? ' (the run\'s user)' : ''} lacks CanReadAsAnyParty, so the checks that read for any party as it would meet 403; grant it: ${grant}`);
}

function skipGroups(checks: readonly CheckDefinition[], profile: Profile): SkipGroup[] {
  const by = new Map<string, string[]>();
  for (const c of checks) {
    const reason = skipReason(c, profile);
    if (reason !== undefined) by.set(reason, [...(by.get(reason) ?? []), c.id]);
  }
  return [...by.entries()].map(([reason, ids]) => ({ reason, checks: ids })).sort((a, b) => b.checks.length - a.checks.length);
}

/** The counts when some selected checks are not on the target's line: those leave the selection first, then the groups not served. */
function notOnLineCounts(o: PreflightOptions, absent: ReadonlySet<CheckDefinition>, unserved: ReadonlySet<CheckDefinition>): Pick<PreflightResult, 'selected' | 'notOnLine' | 'notServed' | 'skips'> {
  const onLine = o.checks.filter((c) => !absent.has(c));
  const served = onLine.filter((c) => !unserved.has(c));
  const notServed = onLine.length - served.length;
  return { selected: served.length, notOnLine: absent.size, ...(notServed > 0 ? { notServed } : { notServed: undefined }), skips: skipGroups(served, o.profile) };
}

/** The verdict `run` records in report.json. */
export function verdictOf(r: PreflightResult): PreflightVerdict {
  return {
    status: r.status,
    ...(r.cantonVersion !== undefined ? { cantonVersion: r.cantonVersion } : {}),
    problems: r.problems,
    ...(r.rights.missing.length > 0 ? { missingRights: r.rights.missing.map((m) => rightLabel(m.right)) } : {}),
    ...lacksRightsOf(r.rights.held),
  };
}

/**
 * ParticipantAdmin when the user does not hold it: checks need it on their way (their setup
 * onboards an external party, lists parties, creates a user) though their own operation does not,
 * so `neededRights` cannot count it; a 403 on an admin operation is then the user's, not the
 * target's. (Not CanReadAsAnyParty: a 403 on a read cannot tell reading as any party from reading
 * as the profile's own party, which a target must allow.)
 */
function lacksRightsOf(held: readonly Right[] | undefined): { lacksRights?: string[] } {
  return held === undefined || holds(held, { kind: 'ParticipantAdmin' }) ? {} : { lacksRights: ['ParticipantAdmin'] };
}
