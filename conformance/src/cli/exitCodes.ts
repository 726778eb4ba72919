/** Exit codes of every command; part of the stable interface (README "Exit codes"). */
export const ExitCode = {
  /** No unexpected failure. */
  Ok: 0,
  /** Unexpected failures, or stale baseline entries. */
  Failures: 1,
  /** Usage or configuration error. */
  Usage: 2,
  /** The target could not be reached. */
  Unreachable: 3,
  /** `run` stopped by SIGINT (Ctrl-C); its reports hold the checks that finished. */
  Interrupted: 130,
  /** `run` stopped by SIGTERM (a cancelled CI job, or npm/npx above it ended). */
  Terminated: 143,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A usage or configuration problem: rendered as one line on stderr, exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
