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

/**
 * The ledger operations (operationIds) each line's upstream document lacks, against 3.5.10's
 * (`test/http/cantonVersions.test.ts` derives them from ../shared/upstream/canton-json-api-v2):
 * 3.4 predates 3.5's pages, contract lookup, vetting list/update, DAR validation and GetCompletions;
 * 3.6 (main's 3.6.0-SNAPSHOT) drops the flat/tree forms, the transaction lookups, the old vetting
 * operations and the deprecated preferred-package-version GET. `/livez` and `/readyz`, absent from
 * 3.4's document only, stay: they are the participant's health endpoints, not Ledger API operations.
 */
export const ABSENT_OPERATIONS: Readonly<Record<CantonVersion, readonly string[]>> = {
  '3.4': [
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
  '3.5': [],
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

export const absentOperations = (v: CantonVersion): ReadonlySet<string> => new Set(ABSENT_OPERATIONS[v]);
export const absentChannels = (v: CantonVersion): ReadonlySet<string> => new Set(ABSENT_CHANNELS[v]);
