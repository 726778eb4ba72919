import type { CheckDefinition } from '../checks/types.js';
import type { CheckResult } from '../report/model.js';

/** Feedback while checks run. */
export interface Progress {
  start(check: CheckDefinition): void;
  finish(result: CheckResult): void;
  done(): void;
}

/** Calls `tick` every `ms` until the returned function is called (injected by tests, so none waits). */
export type Ticker = (ms: number, tick: () => void) => () => void;

export interface ProgressOptions {
  /** The selected checks: a line is printed when the last check of a group finishes (lines mode). */
  readonly checks?: readonly Pick<CheckDefinition, 'group'>[];
  readonly every?: Ticker;
}

/** How often lines mode says how far the run is, when no group finished in between. */
export const PROGRESS_EVERY_MS = 5000;

const realTicker: Ticker = (ms, tick) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
};

/**
 * On a terminal: one line rewritten in place (which check, how many left, failures so far). In CI
 * or when piped (`lines`): a line when a group's checks are done and every 5 s, so a CI log shows
 * the run moving; `quiet`: nothing. The command prints its one-line summary at the end either way.
 */
export function createProgress(total: number, stream: NodeJS.WriteStream = process.stderr, mode: 'auto' | 'tty' | 'lines' | 'quiet' = 'auto', options: ProgressOptions = {}): Progress {
  if (mode === 'quiet') return { start: () => undefined, finish: () => undefined, done: () => undefined };
  const tty = mode === 'tty' || (mode === 'auto' && stream.isTTY === true && !process.env.CI);
  return tty ? ttyProgress(total, stream) : linesProgress(total, stream, options);
}

function ttyProgress(total: number, stream: NodeJS.WriteStream): Progress {
  let finished = 0;
  let failed = 0;
  const running = new Set<string>();
  const width = () => Math.max(40, (stream.columns ?? 100) - 1);
  const draw = () => {
    const current = [...running].at(-1) ?? '';
    const line = `[${finished}/${total}] ${total - finished} left, ${failed} failed  ${current}`;
    stream.write(`\r\x1b[2K${line.slice(0, width())}`);
  };
  return {
    start(check) {
      running.add(check.id);
      draw();
    },
    finish(result) {
      running.delete(result.id);
      finished++;
      if (result.status === 'fail' || result.status === 'error') {
        failed++;
        stream.write(`\r\x1b[2K${result.status.toUpperCase()} ${result.id}: ${(result.message ?? '').split('\n')[0]!.slice(0, width() - result.id.length - 8)}\n`);
      }
      draw();
    },
    done() {
      stream.write('\r\x1b[2K');
    },
  };
}

function linesProgress(total: number, stream: NodeJS.WriteStream, options: ProgressOptions): Progress {
  let finished = 0;
  let failed = 0;
  let printedSinceTick = false;
  const running = new Set<string>();
  const left = new Map<string, number>();
  const failedIn = new Map<string, number>();
  for (const c of options.checks ?? []) left.set(c.group, (left.get(c.group) ?? 0) + 1);
  const counts = () => `[${finished}/${total}] ${failed} failed`;
  const write = (line: string) => {
    printedSinceTick = true;
    stream.write(`canton-conformance: ${line}\n`);
  };
  const stop = (options.every ?? realTicker)(PROGRESS_EVERY_MS, () => {
    if (!printedSinceTick) write(`${counts()}, running ${[...running].join(', ') || '(between checks)'}`);
    printedSinceTick = false;
  });
  return {
    start(check) {
      running.add(check.id);
    },
    finish(result) {
      running.delete(result.id);
      finished++;
      const bad = result.status === 'fail' || result.status === 'error';
      if (bad) failed++;
      if (bad) failedIn.set(result.group, (failedIn.get(result.group) ?? 0) + 1);
      const rest = (left.get(result.group) ?? 0) - 1;
      left.set(result.group, rest);
      if (rest === 0) write(`${counts()}, ${result.group} done (${failedIn.get(result.group) ?? 0} failed)`);
    },
    done() {
      stop();
    },
  };
}
