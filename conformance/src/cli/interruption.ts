import { ExitCode } from './exitCodes.js';
import { startedByNpm, watchParent } from './watchParent.js';

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** Why the run is stopping, as the report and the console say it. */
export interface Stop {
  readonly signal: StopSignal;
  readonly message: string;
}

export interface Interruption {
  /** Resolves on the first SIGINT or SIGTERM, or once the process that started this one is gone. */
  readonly stopped: Promise<Stop>;
  /** Stops listening (the run finished). */
  dispose(): void;
}

/** The shell convention for a process ended by a signal: 128 + its number. */
export const SIGNAL_EXIT: Readonly<Record<StopSignal, number>> = { SIGINT: ExitCode.Interrupted, SIGTERM: ExitCode.Terminated };

/**
 * Listens for the ways a run is stopped from outside. The first one resolves `stopped` (the caller
 * writes the reports of what ran); a second signal while it does so ends the process at once with
 * the first one's code. Started by npm or npx, the parent is watched too: npm passes SIGTERM only
 * to the shell it runs the bin through, which ends without passing it on (see watchParent), so a
 * gone parent counts as SIGTERM.
 */
export function listenForStop(exit: (code: number) => void = (code) => process.exit(code)): Interruption {
  let first: Stop | undefined;
  let resolve!: (s: Stop) => void;
  const stopped = new Promise<Stop>((r) => (resolve = r));
  const on = (stop: Stop) => {
    if (first !== undefined) return exit(SIGNAL_EXIT[first.signal]);
    first = stop;
    resolve(stop);
  };
  const onInt = () => on({ signal: 'SIGINT', message: 'interrupted (SIGINT)' });
  const onTerm = () => on({ signal: 'SIGTERM', message: 'terminated (SIGTERM)' });
  const unwatch = startedByNpm() ? watchParent(() => on({ signal: 'SIGTERM', message: 'stopped: the process that started the run (npm, npx) ended' })) : () => undefined;
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    stopped,
    dispose() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      unwatch();
    },
  };
}
