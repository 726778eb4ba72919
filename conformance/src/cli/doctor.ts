import { catalogue } from '../checks/catalogue.js';
import { GROUPS, type Group } from '../checks/types.js';
import { preflight, type PreflightResult } from '../preflight/preflight.js';
import { renderPreflight } from '../preflight/renderPreflight.js';
import { DEFAULT_PROFILE, loadProfile } from '../runner/profile.js';
import { startInProcessReference, type InProcessServer } from '../runner/referenceServer.js';
import { DEFAULTS } from '../runner/runSuite.js';
import { selectChecks } from '../runner/select.js';
import { shardChecks } from '../runner/shard.js';
import { ExitCode, UsageError } from './exitCodes.js';
import { parseFlags } from './parseFlags.js';
import { tokensOf, usage } from './run.js';
import { TARGET_FLAG_OPTIONS, targetArgsOf, withScanProxy, type TargetArgs } from './targetFlags.js';

export const DOCTOR_HELP = `Usage: canton-conformance doctor [--target URL] [--ledger-url U] [--registry-url U] [--scan-url U]
           [--scan-proxy-url U] [--profile NAME|FILE] [--token T | --token-file F] [--only SEL] [--skip SEL]
           [--shard K/N] [--timeout MS] [--json]

The preflight \`run\` performs first, on its own: is the target reachable and the kind the profile
says (GET /v2/version for the ledger, /registry/metadata/v1/info for a registry, /v0/dso for Scan,
/v0/scan-proxy/dso-party-id at --scan-proxy-url),
which Canton version it reports, does the token work, which rights the profile's user has against
those the selected checks need (the missing ones named, with the JSON API call that grants them),
and which checks will skip and why. Takes run's target, profile, token and selection flags.

  --json                the whole result as JSON (cantonVersion, kinds, auth, rights, skips, problems)

Exit codes: 0 ready, 2 cannot be certified as configured (or a usage error), 3 target unreachable.`;

interface DoctorArgs extends TargetArgs {
  readonly json: boolean;
}

function parseDoctorArgs(argv: string[]): DoctorArgs | 'help' {
  const { values } = parseFlags({
    args: argv,
    options: {
      ...TARGET_FLAG_OPTIONS,
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
  if (values.help) return 'help';
  return { ...targetArgsOf(values), json: values.json === true };
}

/** `doctor`: the preflight alone, as text or JSON; its exit code is the one `run` would stop with (or 0). */
export async function run(argv: string[]): Promise<number> {
  const args = parseDoctorArgs(argv);
  if (args === 'help') {
    console.log(DOCTOR_HELP);
    return ExitCode.Ok;
  }
  const inProcess = args.target === undefined && Object.keys(args.urls).length === 0;
  const profile = withScanProxy(usage(() => (args.profile ? loadProfile(args.profile) : inProcess ? loadProfile('reference') : DEFAULT_PROFILE)), args, inProcess);
  if (!inProcess && args.target === undefined) {
    const missing = profile.groups.filter((g) => args.urls[g] === undefined);
    if (missing.length > 0) throw new UsageError(`no URL for the ${missing.join(', ')} group(s): give --target (the default for every group) or --${missing[0]}-url`);
  }
  const checks = usage(() => shardChecks(selectChecks(catalogue(), args.only, args.skip), args.shard));
  const tokens = tokensOf(args, profile);
  let server: InProcessServer | undefined;
  let result: PreflightResult;
  try {
    if (inProcess) server = await startInProcessReference(profile);
    const base = server?.url ?? args.target ?? Object.values(args.urls)[0]!;
    const baseUrls = Object.fromEntries(GROUPS.map((g) => [g, args.urls[g] ?? base])) as Record<Group, string>;
    result = await preflight({ baseUrls, profile, strict: args.profile !== undefined || inProcess, ...(tokens ? { tokens } : {}), checks, timeoutMs: args.timeoutMs ?? DEFAULTS.timeoutMs });
  } finally {
    await server?.close();
  }
  console.log(args.json ? JSON.stringify(result, null, 2) : renderPreflight(result));
  return result.exitCode;
}
