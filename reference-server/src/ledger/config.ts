import { randomBytes } from 'node:crypto';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import type { StreamTimers } from './streamTimers.js';
import { systemTimers } from './streamTimers.js';
import type { FeaturesDescriptor } from './wire.js';
import { shapesOfApiVersion, type LineShapes } from '../../../conformance/src/schema/cantonVersions.js';

export interface SynchronizerConfig {
  readonly id: string;
  readonly alias: string;
}

/** Everything a deployment may tune. Defaults mirror a Canton 3.4/3.5 participant. */
export interface LedgerConfig {
  readonly participantId: string;
  /** Reported by GET /v2/version; clients accept 3.4.x and 3.5.x. */
  readonly apiVersion: string;
  readonly features: FeaturesDescriptor;
  /** What the answers carry beyond 3.5.10's, by the line of `apiVersion` (3.6: transaction hashes, ledger-end times, CanActAsAnyParty). */
  readonly shapes: LineShapes;
  /** Upper bound of any deduplication period, and the default period (ms). */
  readonly maxDeduplicationDurationMs: number;
  readonly maxRightsPerUser: number;
  readonly maxUsersPageSize: number;
  readonly maxPartiesPageSize: number;
  /** http-list-max-elements-limit: list endpoints answer 413 above it. */
  readonly listMaxElements: number;
  /**
   * The synchronizers the participant is connected to, the first the default for new contracts.
   * Two by default, so that reassignment exists; a validator's node is often on the global one alone.
   */
  readonly synchronizers: readonly [SynchronizerConfig, ...SynchronizerConfig[]];
  readonly clock: Clock;
  /** Key of the createdEventBlob MAC. Random per process unless pinned. */
  readonly blobKey: Uint8Array;
  /**
   * How often a tailing stream learns, by an OffsetCheckpoint, of commits that do not concern it
   * (the participant's offset-checkpoint-cache-update-interval, 15 s by default there as here). A
   * commit the stream sees brings its checkpoint at once.
   */
  readonly checkpointIntervalMs: number;
  /** What tailing streams time their checkpoints with (tests pass `ManualTimers`). */
  readonly streamTimers: StreamTimers;
}

export type LedgerOptions = Partial<Omit<LedgerConfig, 'features' | 'shapes'>> & {
  readonly features?: Partial<FeaturesDescriptor>;
};

const PARTICIPANT_NAMESPACE = '1220' + 'c0ffee'.repeat(10) + 'c0ff';

export function defaultFeatures(maxRightsPerUser: number, maxUsersPageSize: number, maxPartiesPageSize: number): FeaturesDescriptor {
  return {
    experimental: { staticTime: { supported: false }, commandInspectionService: { supported: true } },
    userManagement: { supported: true, maxRightsPerUser, maxUsersPageSize },
    partyManagement: { maxPartiesPageSize },
    offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 75, nanos: 0, unknownFields: { fields: {} } } },
    packageFeature: { maxVettedPackagesPageSize: 100 },
  };
}

export function resolveConfig(options: LedgerOptions = {}): LedgerConfig {
  const maxRightsPerUser = options.maxRightsPerUser ?? 1000;
  const maxUsersPageSize = options.maxUsersPageSize ?? 1000;
  const maxPartiesPageSize = options.maxPartiesPageSize ?? 10000;
  const base = defaultFeatures(maxRightsPerUser, maxUsersPageSize, maxPartiesPageSize);
  const apiVersion = options.apiVersion ?? '3.5.10';
  return {
    participantId: options.participantId ?? `participant1::${PARTICIPANT_NAMESPACE}`,
    apiVersion,
    features: { ...base, ...options.features },
    shapes: shapesOfApiVersion(apiVersion),
    maxDeduplicationDurationMs: options.maxDeduplicationDurationMs ?? 7 * 24 * 3600 * 1000,
    maxRightsPerUser,
    maxUsersPageSize,
    maxPartiesPageSize,
    listMaxElements: options.listMaxElements ?? 200,
    synchronizers: options.synchronizers ?? [
      { id: `global-synchronizer::${'1220' + 'a1'.repeat(32)}`, alias: 'global' },
      { id: `private-synchronizer::${'1220' + 'b2'.repeat(32)}`, alias: 'private' },
    ],
    clock: options.clock ?? systemClock,
    blobKey: options.blobKey ?? randomBytes(32),
    checkpointIntervalMs: options.checkpointIntervalMs ?? 15_000,
    streamTimers: options.streamTimers ?? systemTimers,
  };
}
