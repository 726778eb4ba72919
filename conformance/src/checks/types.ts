import type { Exchange } from '../target/exchange.js';
import type { TargetClient } from '../target/createTarget.js';
import type { Profile } from '../runner/profile.js';
import type { ReinterpretTally } from '../reinterpret/reinterpretTally.js';
import type { CantonVersion } from '../schema/cantonVersions.js';

/** The endpoint group a check exercises (A: registry, B: ledger JSON API, C: scan). */
export type Group = 'registry' | 'ledger' | 'scan';
export const GROUPS: readonly Group[] = ['registry', 'ledger', 'scan'];

/** How strongly the service description words the rule a check enforces. */
export type Level = 'MUST' | 'SHOULD' | 'MAY';

/** Outcome of one check. `warn`: a SHOULD/MAY rule is not met, or a pass with a caveat. */
export type Status = 'pass' | 'fail' | 'skip' | 'warn' | 'error';

/** What sort of evidence a check gathers; selectable with --only/--skip like groups. */
export type Kind = 'schema' | 'example' | 'negative' | 'property' | 'stateful' | 'auth' | 'cross-group';

/** What a target must offer (per its profile) for a check to be meaningful; otherwise it is skipped. */
export interface Requirements {
  /** The check creates parties, users or contracts. */
  readonly writes?: boolean;
  /** The profile must configure authentication checks (see fixtures/profiles/README.md). */
  readonly auth?: 'any' | 'signing' | 'no-rights';
  /** Groups that must be enabled in the profile (defaults to the check's own group). */
  readonly groups?: readonly Group[];
}

/** One entry of the catalogue. `run` resolves for a pass and signals anything else through `ctx`. */
export interface CheckDefinition {
  /** Stable id, `<group>.<area>.<rule>`; never reused for a different rule. */
  readonly id: string;
  readonly title: string;
  readonly group: Group;
  readonly operationId: string;
  readonly level: Level;
  readonly kind: Kind;
  /** The rule enforced: a section of the service description or an upstream document. */
  readonly specRef: string;
  readonly requires?: Requirements;
  /**
   * The Canton lines whose documents hold the rule, when not every line that has the operation does
   * (3.6's transactionHash on an operation every line has): on other lines the check is skipped.
   */
  readonly lines?: readonly CantonVersion[];
  /**
   * Observers run after every other selected check of the shard and judge what those saw (schema
   * conformance of every response). They are part of every shard; `report merge` keeps the worst.
   */
  readonly observer?: boolean;
  /**
   * What of the target's own state the check reads that no request of the run decides (whole
   * lists, the history from before the run). The reference never held it, so the oracle does not
   * replay the check: the check judges what it reads against the target's own answers instead.
   */
  readonly readsTargetState?: string;
  run(ctx: CheckContext): Promise<void>;
}

/** A shrunk failing input of a property or stateful check. */
export interface Counterexample {
  /** The shrunk input, printed readably (fast-check's own rendering). */
  readonly value: string;
  /** fast-check replay path: with the seed it reproduces the failure directly. */
  readonly path?: string;
  readonly numRuns?: number;
  readonly numShrinks?: number;
}

/** Everything a check may use. One context per check run; exchanges are recorded per context. */
export interface CheckContext {
  readonly check: CheckDefinition;
  readonly profile: Profile;
  /** Target client bound to this check: every exchange it makes is recorded as evidence. */
  readonly http: TargetClient;
  /** The seed of this check (derived from the run seed and the check id). */
  readonly seed: number;
  /** Runs per property (`--runs`). */
  readonly runs: number;
  /** Per-request timeout (`--timeout`), also the patience for outcomes that arrive later. */
  readonly timeoutMs: number;
  /** Exchanges seen by every check so far (observers judge these). */
  readonly seen: readonly Exchange[];
  /** Spec files given with --spec: responses are validated against these first, then against ours. */
  readonly specFiles: readonly string[];
  /** The run's re-interpretation of transactions (`run --reinterpret`); absent: off. */
  readonly reinterpretation?: ReinterpretTally;
  /** Run-wide memo (shared setup such as the suite's own party), keyed by name. */
  shared<T>(key: string, make: () => Promise<T>): Promise<T>;
  /** A fresh unique name for things the suite creates (command ids, user ids, party hints). */
  unique(prefix: string): string;
  /** Whether the Canton line the target is judged by lacks this ledger operation (false when the run judges by no line). */
  lacks(operationId: string): boolean;
  /** `run --splice-version`: the Splice release the Scan is judged by, whatever its GET /version says. */
  readonly spliceVersion?: string;
  /** Stop: the check cannot run against this target. */
  skip(reason: string): never;
  /** Stop: the rule is broken. `exchange` is the evidence (defaults to the last exchange). */
  fail(message: string, exchange?: Exchange): never;
  /** Keep going, but the check ends as `warn` with this message unless it fails. */
  warn(message: string): void;
  /** Attach a shrunk counterexample to the result. */
  setCounterexample(c: Counterexample): void;
  /** Mark an exchange as the evidence to show even if the check passes. */
  setEvidence(exchange: Exchange): void;
}
