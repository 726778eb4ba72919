import { readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse as parseYaml } from 'yaml';
import { GROUPS, type Group } from '../checks/types.js';
import { packageRoot } from '../schema/index.js';
import { closest } from './select.js';

/**
 * What a target is and what the suite may do to it. Profiles live in fixtures/profiles/ (built-in
 * ones are named by file stem: `--profile scan-readonly`) or anywhere (`--profile ./mine.yaml`).
 * Every string may use `${ENV_VAR}`; secrets belong in the environment, not in the file.
 */
export interface Profile {
  readonly name: string;
  readonly description?: string;
  /** Endpoint groups the target serves; checks of other groups are skipped. */
  readonly groups: readonly Group[];
  /** May the suite create parties, users and contracts? */
  readonly writes: boolean;
  readonly ledger?: LedgerProfile;
  readonly registry?: RegistryProfile;
  readonly scan?: ScanProfile;
  readonly auth?: AuthProfile;
  /** Absolute path of the file it came from (for relative paths inside it). */
  readonly file?: string;
}

export interface LedgerProfile {
  /** userId sent in submissions (required on an unsecured participant; defaults to the token's user). */
  readonly userId?: string;
  /** A party the suite reads as (and acts as when it writes). */
  readonly party?: string;
  /** May the suite allocate its own parties (isolates its contracts from everything else)? */
  readonly allocateParties?: boolean;
  /** A template the suite may create and archive. Strings `{{party}}` and `{{amount}}` are filled in. */
  readonly template?: TemplateProfile;
  /** A second template the suite may create (template filters must tell the two apart). */
  readonly secondTemplate?: { readonly templateId: string; readonly createArguments: Record<string, unknown> };
  /** Does the target offer external parties and interactive submission? */
  readonly interactiveSubmission?: boolean;
  /** Does it serve `/v2/updates` over WebSocket? (default true) */
  readonly websocket?: boolean;
}

/** The template the suite creates, and what it knows about it. Strings `{{party}}`, `{{amount}}` are filled in. */
export interface TemplateProfile {
  readonly templateId: string;
  readonly createArguments: Record<string, unknown>;
  readonly archiveChoice?: string;
  /** An interface the template implements, and its view of a contract the suite created. */
  readonly interfaceId?: string;
  readonly interfaceView?: Record<string, unknown>;
  /** A consuming choice whose result names the contracts it creates (e.g. a split). */
  readonly exercise?: { readonly choice: string; readonly choiceArgument: Record<string, unknown> };
}

export interface RegistryProfile {
  /** An active allocation instruction: the accept context answers 200. */
  readonly allocationInstructionId?: string;
  /** An archived one: 404. */
  readonly archivedAllocationInstructionId?: string;
  /** One whose contracts to disclose are being reassigned: 409. */
  readonly inFlightAllocationInstructionId?: string;
  /** A party that can read the disclosed contracts on the ledger (cross-group checks). */
  readonly readerParty?: string;
  /** The authorizer of `allocationInstructionId`: the party that accepts or withdraws it. */
  readonly authorizerParty?: string;
  /** On a secured target: a user that may act as `authorizerParty` (the suite mints its token with auth.signing). */
  readonly authorizerUser?: string;
  /** The interface its choices are exercised through (default: the token standard's AllocationInstruction v2). */
  readonly instructionInterfaceId?: string;
  /**
   * Token-standard API versions the registry serves (`metadata-v1`, `transfer-instruction-v1`,
   * `transfer-instruction-v2`, `allocation-instruction-v1`, `allocation-instruction-v2`,
   * `allocation-v1`, `allocation-v2`); checks of others are skipped. Default: allocation-instruction-v2.
   */
  readonly apis?: readonly ('metadata-v1' | 'transfer-instruction-v1' | 'transfer-instruction-v2' | 'allocation-instruction-v1' | 'allocation-instruction-v2' | 'allocation-v1' | 'allocation-v2')[];
  /** A pending transfer instruction (its contexts answer 200). */
  readonly transferInstructionId?: string;
  /** An active allocation (its contexts answer 200). */
  readonly allocationId?: string;
  /** Sender and receiver parties the factory checks name in their choice arguments. */
  readonly transferSender?: string;
  readonly transferReceiver?: string;
  /** May the suite mint with the DevNet tap (AmuletRules_DevNet_Tap) to fund a transfer it then accepts? */
  readonly devNetTap?: boolean;
}

export interface ScanProfile {
  /** A party with an active transfer preapproval. */
  readonly preapprovalParty?: string;
  /** The contract id Scan should return for it (the newest `validFrom` when it has several). */
  readonly preapprovalContractId?: string;
  /** A party whose only preapproval is expired but not archived (still returned). */
  readonly expiredPreapprovalParty?: string;
  /** A party whose only preapproval was archived (404). */
  readonly archivedPreapprovalParty?: string;
  /** The expected earliest complete round, or null when the target should answer 404. */
  readonly earliestRound?: number | null;
  /** Does the target serve the reads wallets call (DSO, AmuletRules, rounds, featured apps)? Default true. */
  readonly walletReads?: boolean;
  /** Does it serve the validator's scan-proxy forms (`/v0/scan-proxy/...`) at the same base URL? */
  readonly scanProxy?: boolean;
  /**
   * The validator's base URL where the scan proxy is served (`https://validator.example/api/validator`):
   * every `/v0/scan-proxy/...` request goes there instead of to Scan's URL. Implies `scanProxy: true`.
   */
  readonly scanProxyUrl?: string;
}

export interface AuthProfile {
  /** The target requires tokens: run the auth checks. */
  readonly required: boolean;
  /** Shell command printing a fresh token for the run's user (re-run after a 401). */
  readonly tokenCommand?: string;
  /** Key material so the suite can mint tokens (expired ones, ones for a user without rights). */
  readonly signing?: {
    readonly alg: 'HS256' | 'RS256' | 'ES256';
    /** HS256 secret. */
    readonly secret?: string;
    /** PEM private key file (RS256/ES256), relative to the profile. */
    readonly privateKeyFile?: string;
    readonly audience?: string;
    readonly scope?: string;
    readonly issuer?: string;
    /** The user id (`sub`) of tokens minted for the run itself. */
    readonly userId?: string;
  };
  /** A user that exists but holds no rights (403 checks). */
  readonly noRightsUser?: string;
  /** A ready token of such a user, when the suite cannot mint one. */
  readonly noRightsToken?: string;
  /**
   * A user that may read as every party the profile names (e.g. one with CanReadAsAnyParty): the
   * cross-group checks read the ledger as it, with a token minted from `signing`.
   */
  readonly readerUser?: string;
}

/** A profile that cannot be used: exit 2 with this message. */
export class ProfileError extends Error {
  override readonly name = 'ProfileError';
}

const str = { type: 'string', minLength: 1 } as const;
const profileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'groups', 'writes'],
  properties: {
    $schema: { type: 'string' },
    name: str,
    description: { type: 'string' },
    groups: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: GROUPS } },
    writes: { type: 'boolean' },
    ledger: {
      type: 'object',
      additionalProperties: false,
      properties: {
        userId: str,
        party: str,
        allocateParties: { type: 'boolean' },
        interactiveSubmission: { type: 'boolean' },
        websocket: { type: 'boolean' },
        template: {
          type: 'object',
          additionalProperties: false,
          required: ['templateId', 'createArguments'],
          properties: {
            templateId: str,
            createArguments: { type: 'object' },
            archiveChoice: str,
            interfaceId: str,
            interfaceView: { type: 'object' },
            exercise: { type: 'object', additionalProperties: false, required: ['choice', 'choiceArgument'], properties: { choice: str, choiceArgument: { type: 'object' } } },
          },
        },
        secondTemplate: {
          type: 'object',
          additionalProperties: false,
          required: ['templateId', 'createArguments'],
          properties: { templateId: str, createArguments: { type: 'object' } },
        },
      },
    },
    registry: {
      type: 'object',
      additionalProperties: false,
      properties: {
        allocationInstructionId: str,
        archivedAllocationInstructionId: str,
        inFlightAllocationInstructionId: str,
        readerParty: str,
        authorizerParty: str,
        authorizerUser: str,
        instructionInterfaceId: str,
        apis: {
          type: 'array',
          uniqueItems: true,
          items: { enum: ['metadata-v1', 'transfer-instruction-v1', 'transfer-instruction-v2', 'allocation-instruction-v1', 'allocation-instruction-v2', 'allocation-v1', 'allocation-v2'] },
        },
        transferInstructionId: str,
        allocationId: str,
        transferSender: str,
        transferReceiver: str,
        devNetTap: { type: 'boolean' },
      },
    },
    scan: {
      type: 'object',
      additionalProperties: false,
      properties: {
        preapprovalParty: str,
        preapprovalContractId: str,
        expiredPreapprovalParty: str,
        archivedPreapprovalParty: str,
        earliestRound: { type: ['integer', 'null'] },
        walletReads: { type: 'boolean' },
        scanProxy: { type: 'boolean' },
        scanProxyUrl: { type: 'string', pattern: '^https?://' },
      },
    },
    auth: {
      type: 'object',
      additionalProperties: false,
      required: ['required'],
      properties: {
        required: { type: 'boolean' },
        tokenCommand: str,
        noRightsUser: str,
        noRightsToken: str,
        readerUser: str,
        signing: {
          type: 'object',
          additionalProperties: false,
          required: ['alg'],
          properties: { alg: { enum: ['HS256', 'RS256', 'ES256'] }, secret: str, privateKeyFile: str, audience: str, scope: str, issuer: str, userId: str },
        },
      },
    },
  },
} as const;

const validate = new Ajv2020({ allErrors: true, strict: false }).compile(profileSchema);

/** The directory of the built-in profiles. */
export function profilesDir(): string {
  return join(packageRoot(), 'fixtures', 'profiles');
}

/** Resolves `--profile`: a path, or the stem of a built-in profile (`reference`, `scan-readonly`, ...). */
export function profilePath(nameOrPath: string): string {
  if (/[/\\]|\.(ya?ml|json)$/i.test(nameOrPath)) return isAbsolute(nameOrPath) ? nameOrPath : resolve(nameOrPath);
  return join(profilesDir(), `${nameOrPath}.yaml`);
}

/** The names of the built-in profiles (`--profile NAME`). */
export function builtInProfiles(): string[] {
  return readdirSync(profilesDir())
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

export function loadProfile(nameOrPath: string, env: NodeJS.ProcessEnv = process.env): Profile {
  const file = profilePath(nameOrPath);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && file === join(profilesDir(), `${nameOrPath}.yaml`)) {
      const names = builtInProfiles();
      const hint = closest(nameOrPath, names);
      throw new ProfileError(`no built-in profile '${nameOrPath}'${hint ? ` (did you mean '${hint}'?)` : ''}; the built-in profiles are ${names.join(', ')}, or give a profile file's path`);
    }
    throw new ProfileError(`cannot read profile ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (e) {
    throw new ProfileError(`profile ${file} is not valid YAML/JSON: ${(e as Error).message}`);
  }
  return parseProfile(raw, file, env);
}

/** Validates a parsed profile, expands `${ENV}` and resolves relative key files. */
export function parseProfile(raw: unknown, file: string, env: NodeJS.ProcessEnv = process.env): Profile {
  const expanded = apisAsList(expandEnv(raw, file, env, ''));
  if (!validate(expanded)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params && 'additionalProperty' in e.params ? ` '${String(e.params.additionalProperty)}'` : ''}`);
    throw new ProfileError(`profile ${file} is invalid:\n  ${problems.join('\n  ')}`);
  }
  const p = expanded as unknown as Profile;
  const keyFile = p.auth?.signing?.privateKeyFile;
  const withKey = keyFile && !isAbsolute(keyFile) ? { ...p, auth: { ...p.auth!, signing: { ...p.auth!.signing!, privateKeyFile: join(dirname(file), keyFile) } } } : p;
  return { ...withKey, file };
}

/**
 * `registry.apis` given as one string (`${CC_REGISTRY_APIS:-...}`: the environment holds no
 * lists) is the list of its comma- or space-separated names.
 */
function apisAsList(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  const p = v as { registry?: { apis?: unknown } };
  if (typeof p.registry?.apis !== 'string') return v;
  return { ...p, registry: { ...p.registry, apis: p.registry.apis.split(/[\s,]+/).filter((a) => a !== '') } };
}

/**
 * `${VAR}` must be set; `${VAR:-default}` falls back (an empty default drops the field, so one
 * profile can name optional ids).
 */
function expandEnv(v: unknown, file: string, env: NodeJS.ProcessEnv, at: string): unknown {
  if (typeof v === 'string') {
    return v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}/g, (_, name: string, hasDefault: string | undefined, fallback: string | undefined) => {
      const value = env[name];
      if (value !== undefined && value !== '') return value;
      if (hasDefault !== undefined) return fallback ?? '';
      throw new ProfileError(`profile ${file}: ${at || '/'} uses \${${name}}, which is not set in the environment`);
    });
  }
  if (Array.isArray(v)) return v.map((x, i) => expandEnv(x, file, env, `${at}/${i}`));
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const expanded = expandEnv(x, file, env, `${at}/${k}`);
      // A field that was only a defaulted variable and came out empty is left out.
      if (!(expanded === '' && typeof x === 'string' && x.includes('${'))) out[k] = expanded;
    }
    return out;
  }
  return v;
}

/**
 * The profile with the scan proxy at its own URL (`--scan-proxy-url`, or the profile's
 * `scan.scanProxyUrl`): a validator serves it, not Scan, so naming its URL says the target serves it.
 */
export function withScanProxyUrl(profile: Profile, url: string | undefined): Profile {
  const u = (url ?? profile.scan?.scanProxyUrl)?.replace(/\/+$/, '');
  if (u === undefined) return profile;
  return { ...profile, scan: { ...profile.scan, scanProxy: true, scanProxyUrl: u } };
}

/** The profile used when none is given: everything the suite can check, read-only. */
export const DEFAULT_PROFILE: Profile = { name: 'default (read-only, all groups)', groups: GROUPS, writes: false };
