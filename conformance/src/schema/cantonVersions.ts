/**
 * The Canton release lines, as pure data both faces read: the reference serves a line's surface
 * (`serve --canton-version`), the suite judges a target by its line (`run --canton-version`, else
 * the version the preflight read). Nothing here may import either face.
 */
export const CANTON_VERSIONS = ['3.4', '3.5', '3.6'] as const;
export type CantonVersion = (typeof CANTON_VERSIONS)[number];
export const DEFAULT_CANTON_VERSION: CantonVersion = '3.5';

export const isCantonVersion = (v: unknown): v is CantonVersion => typeof v === 'string' && (CANTON_VERSIONS as readonly string[]).includes(v);

/** What `/v2/version` answers: the version of that line's upstream document (3.5: its newest release, 3.5.10). */
export const API_VERSION: Readonly<Record<CantonVersion, string>> = { '3.4': '3.4.0', '3.5': '3.5.10', '3.6': '3.6.0' };

/** The operations only 3.6 (main's 3.6.0-SNAPSHOT) has: the hash lookups and the party JWKS. */
export const PREVIEW_OPERATIONS: readonly string[] = ['postV2CommandsCompletion-by-hash', 'postV2UpdatesUpdate-by-hash', 'getV2JoseJwks'];

/**
 * The ledger operations (operationIds) each line's upstream document lacks, against the union of
 * the lines (`test/http/cantonVersions.test.ts` derives them from ../shared/upstream/canton-json-api-v2):
 * 3.4 predates 3.5's pages, contract lookup, vetting list/update, DAR validation and GetCompletions;
 * 3.4 and 3.5 lack 3.6's preview operations; 3.6 (main's 3.6.0-SNAPSHOT) drops the flat/tree forms,
 * the transaction lookups, the old vetting operations and the deprecated preferred-package-version
 * GET. `/livez` and `/readyz`, absent from 3.4's document only, stay: they are the participant's
 * health endpoints, not Ledger API operations.
 */
export const ABSENT_OPERATIONS: Readonly<Record<CantonVersion, readonly string[]>> = {
  '3.4': [
    ...PREVIEW_OPERATIONS,
    'getV2StateActive-contracts-page',
    'postV2StateActive-contracts-page',
    'postV2CommandsCommand-completions',
    'postV2ContractsContract-by-id',
    'postV2Dars',
    'postV2DarsValidate',
    'postV2Package-vettingList',
    'postV2Package-vettingUpdate',
    'postV2UpdatesGet-updates-page',
  ],
  '3.5': [...PREVIEW_OPERATIONS],
  '3.6': [
    'getV2Interactive-submissionPreferred-package-version',
    'getV2Package-vetting',
    'postV2Package-vetting',
    'getV2UpdatesTransaction-tree-by-idUpdate-id',
    'getV2UpdatesTransaction-tree-by-offsetOffset',
    'postV2UpdatesFlats',
    'postV2UpdatesTransaction-by-id',
    'postV2UpdatesTransaction-by-offset',
    'postV2UpdatesTrees',
  ],
};

/** The WebSocket channels (paths) each line lacks (its AsyncAPI document against 3.5.10's). */
export const ABSENT_CHANNELS: Readonly<Record<CantonVersion, readonly string[]>> = {
  '3.4': ['/v2/commands/command-completions'],
  '3.5': [],
  '3.6': ['/v2/updates/flats', '/v2/updates/trees'],
};

/**
 * The ledger operations a later patch of the 3.5 line added, and the release that added them
 * (3.5.4's document, openapi.3.5.yaml, lacks them; 3.5.10's has them): a 3.5 target that reports
 * an older release lacks them as a 3.4 target does, without its line saying so.
 */
export const OPERATION_SINCE: Readonly<Record<string, string>> = {
  'postV2CommandsCommand-completions': '3.5.7',
  'postV2StateActive-contracts-page': '3.5.7',
};

export const absentOperations = (v: CantonVersion): ReadonlySet<string> => new Set(ABSENT_OPERATIONS[v]);
export const absentChannels = (v: CantonVersion): ReadonlySet<string> => new Set(ABSENT_CHANNELS[v]);

/**
 * The lines whose document is a snapshot of main, not a release line: a check that only such a
 * line has (its operation absent from every release line) warns instead of failing, until a
 * release-line document of it is retrievable.
 */
export const SNAPSHOT_LINES: ReadonlySet<CantonVersion> = new Set<CantonVersion>(['3.6']);

/**
 * What a line's shapes carry beyond 3.5.10's, where the operation exists on every line:
 * `transactionHash` on completions and transactions, `synchronizerTimes` on the ledger end, and
 * the `CanActAsAnyParty` right (3.6 only; 3.4 and 3.5 neither show nor accept them).
 */
export interface LineShapes {
  /**
   * 3.4 writes proto3 defaults out: an empty `workflowId`, `commandId`, `createdEventBlob`,
   * `submissionId` or `updateId` is sent as "" (its document requires them); 3.5 leaves them out.
   */
  readonly emptyDefaults: boolean;
  readonly transactionHash: boolean;
  readonly ledgerEndSynchronizerTimes: boolean;
  readonly canActAsAnyParty: boolean;
}

const SHAPES_35: LineShapes = { emptyDefaults: false, transactionHash: false, ledgerEndSynchronizerTimes: false, canActAsAnyParty: false };

export const LINE_SHAPES: Readonly<Record<CantonVersion, LineShapes>> = {
  '3.4': { ...SHAPES_35, emptyDefaults: true },
  '3.5': SHAPES_35,
  '3.6': { ...SHAPES_35, transactionHash: true, ledgerEndSynchronizerTimes: true, canActAsAnyParty: true },
};

/** The line whose `/v2/version` answer this is (the reference's ledger knows only its API version); undefined for none. */
export function lineOfApiVersion(apiVersion: string): CantonVersion | undefined {
  const m = /^(\d+\.\d+)/.exec(apiVersion);
  return m !== null && isCantonVersion(m[1]) ? m[1] : undefined;
}

/**
 * The shapes of the line an API version belongs to: a version newer than every line has the
 * newest line's (as the suite judges it), any other unknown one 3.5.10's.
 */
export function shapesOfApiVersion(apiVersion: string): LineShapes {
  const line = lineOfApiVersion(apiVersion);
  if (line !== undefined) return LINE_SHAPES[line];
  const newest = CANTON_VERSIONS[CANTON_VERSIONS.length - 1] as CantonVersion;
  const [major, minor] = apiVersion.split('.').map(Number);
  const [nMajor, nMinor] = newest.split('.').map(Number) as [number, number];
  const newer = major !== undefined && minor !== undefined && (major > nMajor || (major === nMajor && minor > nMinor));
  return LINE_SHAPES[newer ? newest : DEFAULT_CANTON_VERSION];
}
